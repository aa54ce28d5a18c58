//! The Rust side of what extensions touch: files, processes and the system.
//! Every file, process and environment access of the isolate goes through an
//! op in this module, so a later permission layer has one place to gate.

pub mod fs;
pub mod host;
pub mod modules;
pub mod process;
pub mod system;

deno_core::extension!(
    pihost_ops,
    ops = [
        system::op_pihost_cwd,
        system::op_pihost_env_snapshot,
        system::op_pihost_os_info,
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
        host::op_pihost_use_scenario_host,
    ],
    state = |state| {
        state.put(process::ExecTable::default());
        state.put(host::BoundHost::default());
        state.put(host::ErrorSink::default());
        state.put(host::ToolUpdateSinks::default());
        state.put(host::HandlerCounts::default());
    },
);
