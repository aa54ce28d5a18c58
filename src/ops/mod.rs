//! The Rust side of what extensions touch: files, processes and the system.
//! Every file, process and environment access of the isolate goes through an
//! op in this module, so a later permission layer has one place to gate.

pub mod crypto;
pub mod fetch;
pub mod fs;
pub mod host;
pub mod modules;
pub mod process;
pub mod search;
pub mod spawn;
pub mod system;
pub mod url;
pub mod zlib;

deno_core::extension!(
    pihost_ops,
    ops = [
        system::op_pihost_cwd,
        system::op_pihost_env_snapshot,
        system::op_pihost_os_info,
        system::op_pihost_system_load,
        system::op_pihost_write,
        fs::op_pihost_fs_exists,
        fs::op_pihost_fs_read_text,
        fs::op_pihost_fs_read_bytes,
        fs::op_pihost_fs_write,
        fs::op_pihost_fs_stat,
        fs::op_pihost_fs_readdir,
        fs::op_pihost_fs_mkdir,
        fs::op_pihost_fs_realpath,
        fs::op_pihost_fs_rm,
        fs::op_pihost_fs_rename,
        fs::op_pihost_fs_symlink,
        fs::op_pihost_fs_readlink,
        fs::op_pihost_fs_chmod,
        fs::op_pihost_fs_access,
        fs::op_pihost_fs_remove,
        fs::op_pihost_fs_copy,
        fs::op_pihost_fs_truncate,
        process::op_pihost_exec_start,
        process::op_pihost_exec_wait,
        process::op_pihost_exec_kill,
        process::op_pihost_exec_sync,
        modules::op_pihost_require_resolve,
        modules::op_pihost_commonjs_source,
        modules::op_pihost_resolve_entry,
        host::op_pihost_host_notify,
        host::op_pihost_host_request,
        host::op_pihost_host_provider,
        host::op_pihost_report_error,
        host::op_pihost_tool_update,
        host::op_pihost_handler_count,
        crypto::op_pihost_crypto_supports,
        crypto::op_pihost_crypto_digest,
        crypto::op_pihost_crypto_hmac,
        crypto::op_pihost_crypto_random_fill,
        zlib::op_pihost_zlib,
        url::op_pihost_url_parse,
        url::op_pihost_url_set,
        url::op_pihost_url_can_parse,
        fetch::op_pihost_fetch_prepare,
        fetch::op_pihost_fetch_send,
        fetch::op_pihost_fetch_read,
        fetch::op_pihost_fetch_abort,
        fetch::op_pihost_fetch_close,
        search::op_pihost_search_grep,
        search::op_pihost_search_find,
        spawn::op_pihost_spawn,
        spawn::op_pihost_spawn_read,
        spawn::op_pihost_spawn_write,
        spawn::op_pihost_spawn_close_stdin,
        spawn::op_pihost_spawn_wait,
        spawn::op_pihost_spawn_kill,
        spawn::op_pihost_spawn_release,
        spawn::op_pihost_process_kill,
    ],
    state = |state| {
        state.put(process::ExecTable::default());
        state.put(spawn::SpawnTable::default());
        state.put(fetch::FetchState::default());
        state.put(host::BoundHost::default());
        state.put(host::ErrorSink::default());
        state.put(host::ToolUpdateSinks::default());
        state.put(host::HandlerCounts::default());
    },
);
