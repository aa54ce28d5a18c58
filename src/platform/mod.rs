//! Node's and the web's platform, from Deno's own crates: deno_web (URL,
//! events, streams, encoding, Blob, timers' helpers), deno_fetch, deno_websocket,
//! deno_crypto, deno_net and deno_tls, deno_io, deno_fs, deno_os,
//! deno_process and deno_node (every `node:` module). They are registered in
//! pihost's own runtime with pihost's own bootstrap (`js/platform/`), and
//! every one of their modules is lazy: it is evaluated when an extension
//! first touches it, so a runtime that never imports `node:http` never pays
//! for it.

mod fs_events;
mod guests;
mod lazy_scripts;
mod link_checking_fs;
mod ops;
mod sources;
mod stand_ins;
mod workers;

pub(crate) use workers::{RuntimeRecipe, shared_array_buffers};

use std::sync::Arc;

pub(crate) use crate::permissions::PermissionSlot;
use deno_core::{Extension, OpState};

/// deno_node's resolver types. pihost resolves and loads modules itself
/// (src/modules), so deno_node's own `require` machinery gets no services;
/// these only name the types its extension is generic over.
type NpmChecker = deno_resolver::npm::DenoInNpmPackageChecker;
type NpmFolderResolver = deno_resolver::npm::NpmResolver<sys_traits::impls::RealSys>;
type NodeSys = sys_traits::impls::RealSys;

/// The extensions, in dependency order, with their sources put in place
/// (see [`sources`]).
/// Why a runtime could not be made.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RuntimeStartError {
    /// A file of Deno's crates that pihost's build did not embed.
    #[error("{specifier} ({path}) was not embedded when pihost was built (build/platform_sources.rs)")]
    NotEmbedded { specifier: &'static str, path: String },
    #[error("cannot make stdin's pipe: {0}")]
    StdinPipe(std::io::Error),
    #[error("cannot share stderr: {0}")]
    SharedStderr(std::io::Error),
    /// deno_core refused the runtime.
    #[error(transparent)]
    Core(#[from] deno_core::error::CoreError),
}

pub(crate) fn extensions(permissions: &PermissionSlot) -> Result<Vec<Extension>, RuntimeStartError> {
    install_tls_provider();
    let fs: deno_fs::FileSystemRc =
        deno_fs::sync::MaybeArc::new(link_checking_fs::LinkCheckingFs::new(permissions.clone()));
    let mut extensions = vec![
        deno_webidl::deno_webidl::init(),
        deno_web::deno_web::init(
            Arc::new(deno_web::BlobStore::default()),
            None,
            false,
            deno_web::InMemoryBroadcastChannel::default(),
        ),
        deno_fetch::deno_fetch::init(deno_fetch::Options {
            // What Node's fetch (undici) sends.
            user_agent: "node".to_string(),
            ..Default::default()
        }),
        deno_websocket::deno_websocket::init(),
        deno_crypto::deno_crypto::init(None),
        deno_net::deno_net::init(None, None),
        deno_tls::deno_tls::init(),
        deno_io::deno_io::init(Some(stdio()?)),
        deno_fs::deno_fs::init(fs.clone()),
        // Each runtime keeps its own exit code: without one deno_os drops
        // what `process.exitCode` sets and `process.exit(3)` reports 0.
        deno_os::deno_os::init(Some(deno_os::ExitCode::default())),
        deno_process::deno_process::init(None),
        deno_node_crypto::deno_node_crypto::init(),
        deno_node::deno_node::init::<NpmChecker, NpmFolderResolver, NodeSys>(None, fs),
        pihost_platform::init(),
    ];
    for extension in &mut extensions {
        sources::embed(extension)?;
    }
    lazy_scripts::defer(&mut extensions);
    Ok(extensions)
}

/// The `node:` modules deno_node declares, without the scheme, and the
/// `ext:` script behind each of its synthetic ones (build.rs).
static NODE_MODULES: &[(&str, Option<&str>)] = include!(concat!(env!("OUT_DIR"), "/platform_node_modules.rs"));

/// deno_node modules extensions cannot have: `node:sqlite` needs
/// deno_node_sqlite, which pihost leaves out.
const LEFT_OUT: &[&str] = &["sqlite"];

/// Whether deno_node gives extensions `node:<name>`.
pub(crate) fn provides_node_module(name: &str) -> bool {
    NODE_MODULES
        .binary_search_by(|(candidate, _)| candidate.cmp(&name))
        .is_ok()
        && !LEFT_OUT.contains(&name)
}

/// Whether `node:<name>` is one of deno_node's synthetic modules (its
/// exports are an `ext:` script's).
pub(crate) fn is_synthetic_node_module(name: &str) -> bool {
    NODE_MODULES
        .binary_search_by(|(candidate, _)| candidate.cmp(&name))
        .is_ok_and(|index| NODE_MODULES[index].1.is_some())
}

/// Every `node:` module extensions can import, without the scheme, with the
/// script behind it if it is synthetic.
pub(crate) fn node_modules() -> impl Iterator<Item = (&'static str, Option<&'static str>)> {
    NODE_MODULES
        .iter()
        .copied()
        .filter(|(name, _)| !LEFT_OUT.contains(name))
}

/// Puts what the platform's ops expect in the op state: every touch is
/// allowed until [`use_permissions`] says otherwise (pihost's own start-up
/// runs so), through deno_permissions' own checks. `permissions` is the
/// slot the runtime's file system reads ([`extensions`]).
pub(crate) fn put_state(state: &mut OpState, permissions: PermissionSlot) {
    let parser = Arc::new(deno_permissions::RuntimePermissionDescriptorParser::new(
        sys_traits::impls::RealSys,
    ));
    state.put(deno_permissions::PermissionsContainer::allow_all(parser));
    state.put(permissions);
    state.put(crate::permissions::policy::GuestPolicies::default());
    state.put(crate::permissions::Confinement::Unconfined);
    ops::put_state(state);
}

/// From now on the runtime's touches are checked against `permissions`;
/// `restricts` says whether they refuse anything, in which case operations
/// that follow links are also checked where the links lead; `sandboxed`,
/// whether they refuse what no grant names.
pub(crate) fn use_permissions(
    state: &mut OpState,
    permissions: deno_permissions::PermissionsContainer,
    restricts: bool,
    sandboxed: bool,
) {
    if restricts {
        let _ = state.borrow::<PermissionSlot>().set(crate::permissions::Restrictions {
            container: permissions.clone(),
            sandboxed,
        });
    }
    state.put(permissions);
}

/// What a worker started from this runtime may touch: its parent's own
/// permissions (shared), whether they refuse anything, and the extension
/// folders whose files it may load.
pub(crate) struct InheritedPermissions {
    container: deno_permissions::PermissionsContainer,
    restricts: bool,
    sandboxed: bool,
    extension_folders: Vec<std::path::PathBuf>,
    /// The environment the new runtime starts with: its parent's (a
    /// worker), or the host's without what its own sandbox hides (a guest).
    env: std::collections::BTreeMap<String, String>,
    /// How its programs start: its parent's way (a worker), or by its own
    /// permissions (a guest).
    confinement: crate::permissions::Confinement,
}

pub(crate) fn inherited_permissions(state: &OpState) -> InheritedPermissions {
    InheritedPermissions {
        container: state.borrow::<deno_permissions::PermissionsContainer>().clone(),
        restricts: state.borrow::<PermissionSlot>().get().is_some(),
        sandboxed: state
            .borrow::<PermissionSlot>()
            .get()
            .is_some_and(|restrictions| restrictions.sandboxed),
        extension_folders: state.borrow::<crate::permissions::ExtensionFolders>().snapshot(),
        env: ops::runtime_env(state),
        confinement: state.borrow::<crate::permissions::Confinement>().clone(),
    }
}

/// Gives a worker's runtime what [`inherited_permissions`] took from its parent.
pub(crate) fn inherit_permissions(state: &mut OpState, inherited: InheritedPermissions) {
    state
        .borrow::<crate::permissions::ExtensionFolders>()
        .replace(inherited.extension_folders);
    ops::set_runtime_env(state, inherited.env);
    state.put(inherited.confinement);
    use_permissions(state, inherited.container, inherited.restricts, inherited.sandboxed);
}

/// Unsets, in a runtime's environment, the secrets its sandbox hides
/// (`Permissions::hides_env`).
pub(crate) fn hide_secret_env(state: &mut OpState, permissions: &crate::permissions::Permissions) {
    ops::hide_env(state, |name| permissions.hides_env(name));
}

/// A runtime's environment, as the programs it starts get it.
pub(crate) fn runtime_env(state: &OpState) -> std::collections::BTreeMap<String, String> {
    ops::runtime_env(state)
}

/// rustls picks its cryptography from the features it was built with, and
/// refuses when a process has more than one (an embedder's dependencies may
/// bring ring beside the aws-lc-rs of Deno's crates): TLS uses Deno's.
fn install_tls_provider() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // An embedder that installed its own provider first keeps it.
        let _ = deno_tls::rustls::crypto::aws_lc_rs::default_provider().install_default();
    });
}

/// Standard streams for extensions. Their stdin is a pipe nobody writes to,
/// as a terminal nobody types into: an extension must never read the
/// host's stdin, which under `pihost serve` carries the protocol.
fn stdio() -> Result<deno_io::Stdio, RuntimeStartError> {
    let reader = match silent_stdin() {
        Ok(pipe) => pipe.try_clone().map_err(RuntimeStartError::StdinPipe)?,
        Err(error) => {
            return Err(RuntimeStartError::StdinPipe(std::io::Error::new(
                error.kind(),
                error.to_string(),
            )));
        }
    };
    // Where stdout carries a protocol or a report (the CLI, `pihost
    // serve`), what extensions print goes to stderr.
    let stdout = if crate::stdio::stdout_goes_to_stderr() {
        let stderr = std::io::stderr()
            .as_fd_owned()
            .map_err(RuntimeStartError::SharedStderr)?;
        deno_io::StdioPipe::file(std::fs::File::from(stderr))
    } else {
        deno_io::StdioPipe::inherit()
    };
    Ok(deno_io::Stdio {
        stdin: deno_io::StdioPipe::file(std::fs::File::from(std::os::fd::OwnedFd::from(reader))),
        stdout,
        stderr: deno_io::StdioPipe::inherit(),
    })
}

/// The pipe every runtime's stdin reads: one per process, whose writing end
/// stays open for the process's life, so reads wait instead of seeing the
/// end of input. Each runtime reads a duplicate of its reading end, closed
/// with the runtime (a pipe per runtime left an open descriptor behind every
/// session a `serve` process ever ran).
fn silent_stdin() -> &'static std::io::Result<std::io::PipeReader> {
    static PIPE: std::sync::OnceLock<std::io::Result<std::io::PipeReader>> = std::sync::OnceLock::new();
    PIPE.get_or_init(|| {
        let (reader, writer) = std::io::pipe()?;
        std::mem::forget(writer);
        Ok(reader)
    })
}

trait AsFdOwned {
    fn as_fd_owned(&self) -> std::io::Result<std::os::fd::OwnedFd>;
}

impl AsFdOwned for std::io::Stderr {
    fn as_fd_owned(&self) -> std::io::Result<std::os::fd::OwnedFd> {
        use std::os::fd::AsFd;
        self.as_fd().try_clone_to_owned()
    }
}

deno_core::extension!(
    pihost_platform,
    deps = [deno_node],
    ops = [
        ops::op_pihost_platform_facts,
        ops::op_pihost_node_modules,
        ops::op_pihost_cpu_usage,
        ops::op_pihost_memory_usage,
        ops::op_pihost_runtime_env,
        lazy_scripts::op_pihost_compile_lazy_script,
        fs_events::op_pihost_fs_watch_open,
        fs_events::op_pihost_fs_watch_poll,
        stand_ins::op_current_thread_cpu_usage,
        stand_ins::op_bootstrap_color_depth,
        stand_ins::op_bootstrap_unstable_args,
        stand_ins::op_set_raw,
        stand_ins::op_napi_open,
        stand_ins::op_http_serve_address_override,
        stand_ins::op_http_notify_serving,
    ],
    middleware = ops::middleware,
    customizer = |extension: &mut Extension| {
        sources::add_stand_ins(extension);
        extension.ops.to_mut().extend(workers::ops());
        extension.ops.to_mut().extend(guests::ops());
    },
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_the_extensions_declare_was_embedded_when_pihost_was_built() {
        let extensions = extensions(&PermissionSlot::default()).expect("every declared file has its embedded code");
        let lazy_files: usize = extensions
            .iter()
            .map(|extension| extension.lazy_loaded_js_files.len() + extension.lazy_loaded_esm_files.len())
            .sum();
        assert!(
            lazy_files > 300,
            "only {lazy_files} lazy files: deno_node alone declares hundreds"
        );
    }

    #[test]
    fn the_synthetic_node_modules_are_known_with_their_scripts() {
        for name in ["url", "util", "worker_threads", "zlib"] {
            assert!(is_synthetic_node_module(name), "{name}");
        }
        assert!(!is_synthetic_node_module("fs"));
        assert!(provides_node_module("http") && !provides_node_module("sqlite"));
    }
}
