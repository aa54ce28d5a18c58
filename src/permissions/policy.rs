//! Per-extension grants: a policy (`.pi/pihost-permissions.json`,
//! `Permissions::extensions`, or `serve`'s `initialize`) gives one extension,
//! named by its path or its package's name, more than the session has.
//!
//! A grant is only ever usable by the code of the extension it names: such
//! an extension runs in a runtime of its own (a guest, see
//! `platform/workers.rs` and js/runtime/isolation.js) whose permissions are
//! the session's with the grant added, so no other extension's code, no
//! built-in another extension patched and no callback another extension
//! handed over runs where the grant holds.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Permissions, PermissionsError};

/// What one extension may touch on top of the session's permissions, and
/// what it may not that the session may. Each list is `None` (nothing
/// more), empty (everything of that kind), or the paths, programs, hosts or
/// names granted or denied, as `--allow-*` and `--deny-*` spell them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtensionGrant {
    /// Files and folders it may read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_read: Option<Vec<String>>,
    /// Files and folders it may write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_write: Option<Vec<String>>,
    /// Programs it may run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_run: Option<Vec<String>>,
    /// Hosts (`host[:port]`) it may reach or listen on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_net: Option<Vec<String>>,
    /// Environment variables it may read or set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_env: Option<Vec<String>>,
    /// System facts it may read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_sys: Option<Vec<String>>,
    /// Files and folders it may never read, whatever the session allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_read: Option<Vec<String>>,
    /// Files and folders it may never write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_write: Option<Vec<String>>,
    /// Programs it may never run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_run: Option<Vec<String>>,
    /// Hosts it may never reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_net: Option<Vec<String>>,
    /// Environment variables it may never read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_env: Option<Vec<String>>,
    /// System facts it may never read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_sys: Option<Vec<String>>,
}

impl ExtensionGrant {
    /// Whether it denies anything: then it restricts its extension even in
    /// a session that restricts nothing.
    fn denies(&self) -> bool {
        [
            &self.deny_read,
            &self.deny_write,
            &self.deny_run,
            &self.deny_net,
            &self.deny_env,
            &self.deny_sys,
        ]
        .iter()
        .any(|list| list.is_some())
    }
}

/// The policy file's shape: `{ "extensions": { "<path or package>": { "allowRead": [...] } } }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(default)]
    extensions: BTreeMap<String, ExtensionGrant>,
}

/// Where pi's project settings live; pihost's policy goes beside them.
pub const POLICY_FILE: &str = ".pi/pihost-permissions.json";

/// Reads a policy file's grants. A file that is not valid is an error that
/// names it: a policy silently ignored would deny what its author granted.
pub fn read_policy_file(path: &Path) -> Result<BTreeMap<String, ExtensionGrant>, PermissionsError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| PermissionsError(format!("cannot read the policy file {}: {error}", path.display())))?;
    let policy: PolicyFile = serde_json::from_str(&text)
        .map_err(|error| PermissionsError(format!("the policy file {} is not valid: {error}", path.display())))?;
    Ok(policy.extensions)
}

/// Adds `extra` to a session's list: granted to all stays all.
fn widened(session: &Option<Vec<String>>, extra: &Option<Vec<String>>) -> Option<Vec<String>> {
    match (session, extra) {
        (None, None) => None,
        (Some(list), None) | (None, Some(list)) => Some(list.clone()),
        (Some(all), _) | (_, Some(all)) if all.is_empty() => Some(Vec::new()),
        (Some(session), Some(extra)) => Some(session.iter().chain(extra).cloned().collect()),
    }
}

impl Permissions {
    /// The session's permissions with one extension's grant added: what
    /// that extension's own runtime may touch. The session's deny lists
    /// stay, and the grant's are added to them.
    pub fn with_grant(&self, grant: &ExtensionGrant) -> Permissions {
        Permissions {
            allow_read: widened(&self.allow_read, &grant.allow_read),
            allow_write: widened(&self.allow_write, &grant.allow_write),
            allow_run: widened(&self.allow_run, &grant.allow_run),
            allow_net: widened(&self.allow_net, &grant.allow_net),
            allow_env: widened(&self.allow_env, &grant.allow_env),
            allow_sys: widened(&self.allow_sys, &grant.allow_sys),
            deny_read: widened(&self.deny_read, &grant.deny_read),
            deny_write: widened(&self.deny_write, &grant.deny_write),
            deny_run: widened(&self.deny_run, &grant.deny_run),
            deny_net: widened(&self.deny_net, &grant.deny_net),
            deny_env: widened(&self.deny_env, &grant.deny_env),
            deny_sys: widened(&self.deny_sys, &grant.deny_sys),
            extensions: BTreeMap::new(),
            ..self.clone()
        }
    }

    /// The grant (and the key it is under) for the extension whose entry
    /// file is `entry`: a key that starts with `.`, `/` or `~` is a path
    /// (the entry file, or a folder it is in); any other key is the `name`
    /// of the nearest `package.json` above the entry. A grant that only adds
    /// counts in a session that restricts anything (outside one there is
    /// nothing to add); one that denies counts everywhere.
    pub(crate) fn grant_for(&self, cwd: &Path, entry: &Path) -> Option<(&str, &ExtensionGrant)> {
        if self.extensions.is_empty() {
            return None;
        }
        let session_allows_everything = self.allows_everything();
        let entry = std::fs::canonicalize(entry).unwrap_or_else(|_| entry.to_path_buf());
        let mut package_name: Option<Option<String>> = None;
        self.extensions.iter().find_map(|(key, grant)| {
            let matches = if key.starts_with(['.', '/', '~']) {
                let path = expand_home(key).unwrap_or_else(|| cwd.join(key));
                let path = std::fs::canonicalize(&path).unwrap_or(path);
                entry.starts_with(&path)
            } else {
                package_name.get_or_insert_with(|| package_of(&entry)).as_deref() == Some(key.as_str())
            };
            (matches && (grant.denies() || !session_allows_everything)).then_some((key.as_str(), grant))
        })
    }
}

fn expand_home(key: &str) -> Option<PathBuf> {
    let rest = key.strip_prefix("~/")?;
    Some(PathBuf::from(std::env::var_os("HOME")?).join(rest))
}

/// The `name` of the nearest `package.json` above `entry`.
fn package_of(entry: &Path) -> Option<String> {
    entry.ancestors().skip(1).find_map(|folder| {
        let text = std::fs::read_to_string(folder.join("package.json")).ok()?;
        let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
        Some(manifest.get("name")?.as_str()?.to_string())
    })
}

/// The extensions of the current load that run in a runtime of their own,
/// by entry file, with what that runtime may touch. The engine fills it
/// before each load; the guest-starting op reads it, so nothing in
/// JavaScript chooses a guest's permissions.
#[derive(Clone, Default)]
pub(crate) struct GuestPolicies {
    policies: std::rc::Rc<std::cell::RefCell<HashMap<PathBuf, GuestPolicy>>>,
    /// The session's CPU limit, which a guest's turns have too.
    cpu_limit: std::rc::Rc<std::cell::Cell<Option<std::time::Duration>>>,
}

#[derive(Clone)]
pub(crate) struct GuestPolicy {
    /// The policy key that matched (for errors and `inspect`).
    pub(crate) key: String,
    pub(crate) permissions: Permissions,
    pub(crate) cwd: PathBuf,
}

impl GuestPolicies {
    /// Decides, for each entry of a load, whether a grant makes it a guest;
    /// with `keep_known` (another session of the runtime still has its
    /// extensions), the decisions for earlier loads' entries stay.
    pub(crate) fn set(
        &self,
        permissions: &Permissions,
        cwd: &Path,
        entries: impl Iterator<Item = PathBuf>,
        keep_known: bool,
    ) {
        let mut policies = self.policies.borrow_mut();
        if !keep_known {
            policies.clear();
        }
        for entry in entries {
            if let Some((key, grant)) = permissions.grant_for(cwd, &entry) {
                let policy = GuestPolicy {
                    key: key.to_string(),
                    permissions: permissions.with_grant(grant),
                    cwd: cwd.to_path_buf(),
                };
                policies.insert(entry, policy);
            }
        }
    }

    /// Whether no entry of the current load is a guest (then the loader
    /// need not ask about each one).
    pub(crate) fn is_empty(&self) -> bool {
        self.policies.borrow().is_empty()
    }

    pub(crate) fn get(&self, entry: &Path) -> Option<GuestPolicy> {
        self.policies.borrow().get(entry).cloned()
    }

    pub(crate) fn set_cpu_limit(&self, limit: Option<std::time::Duration>) {
        self.cpu_limit.set(limit);
    }

    pub(crate) fn cpu_limit(&self) -> Option<std::time::Duration> {
        self.cpu_limit.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_widens_only_what_it_names() {
        let session = Permissions {
            sandbox: true,
            allow_read: Some(vec!["docs".into()]),
            allow_net: Some(Vec::new()),
            deny_env: Some(vec!["SECRET".into()]),
            ..Permissions::default()
        };
        let grant = ExtensionGrant {
            allow_read: Some(vec!["/data".into()]),
            allow_net: Some(vec!["example.com".into()]),
            allow_run: Some(vec!["git".into()]),
            ..ExtensionGrant::default()
        };
        let widened = session.with_grant(&grant);
        assert_eq!(widened.allow_read, Some(vec!["docs".into(), "/data".into()]));
        assert_eq!(widened.allow_net, Some(Vec::new()), "granted to all stays all");
        assert_eq!(widened.allow_run, Some(vec!["git".into()]));
        assert_eq!(widened.allow_env, None);
        assert_eq!(widened.deny_env, Some(vec!["SECRET".into()]));
        assert!(widened.sandbox);
    }

    #[test]
    fn keys_name_paths_or_packages() {
        let folder = tempfile::tempdir().expect("temp dir");
        let package = folder.path().join("pkg");
        std::fs::create_dir_all(package.join("src")).expect("mkdir");
        std::fs::write(package.join("package.json"), r#"{"name":"@acme/tools"}"#).expect("write");
        let entry = package.join("src/index.ts");
        std::fs::write(&entry, "").expect("write");
        let other = folder.path().join("other.ts");
        std::fs::write(&other, "").expect("write");
        let mut permissions = Permissions {
            sandbox: true,
            ..Permissions::default()
        };
        permissions
            .extensions
            .insert("@acme/tools".into(), ExtensionGrant::default());
        assert_eq!(
            permissions.grant_for(folder.path(), &entry).map(|(key, _)| key),
            Some("@acme/tools")
        );
        assert!(permissions.grant_for(folder.path(), &other).is_none());
        permissions.extensions.clear();
        permissions
            .extensions
            .insert("./other.ts".into(), ExtensionGrant::default());
        assert_eq!(
            permissions.grant_for(folder.path(), &other).map(|(key, _)| key),
            Some("./other.ts")
        );
        assert!(permissions.grant_for(folder.path(), &entry).is_none());
        permissions.sandbox = false;
        assert!(
            permissions.grant_for(folder.path(), &other).is_none(),
            "nothing to add outside a sandbox"
        );
        permissions.extensions.insert(
            "./other.ts".into(),
            ExtensionGrant {
                deny_read: Some(vec!["secret".into()]),
                ..ExtensionGrant::default()
            },
        );
        let (_, denying) = permissions
            .grant_for(folder.path(), &other)
            .expect("a grant that denies counts outside a sandbox too");
        let isolated = permissions.with_grant(denying);
        assert_eq!(isolated.deny_read, Some(vec!["secret".into()]));
        assert!(!isolated.allows_everything());
    }
}
