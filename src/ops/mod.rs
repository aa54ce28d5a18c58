//! pihost's own ops: the bridge to the embedder's host, `require`'s
//! resolution, `pi.exec`, the search behind the grep and find tools, the
//! image codec behind pi's image resizing, and the console. Files, processes, the network and the system are reached through
//! Deno's platform crates (src/platform), whose ops deno_permissions checks.

pub mod codemode_sandbox;
pub mod host;
pub mod images;
pub mod limits;
pub mod modules;
pub mod node_errors;
pub mod process;
pub mod reference_data;
pub mod search;
pub mod settle;
pub mod system;

deno_core::extension!(
    pihost_ops,
    ops = [
        system::op_pihost_write,
        crate::permissions::op_pihost_take_denials,
        crate::permissions::op_pihost_has_denials,
        process::op_pihost_exec_start,
        process::op_pihost_confine_command,
        process::op_pihost_exec_wait,
        process::op_pihost_exec_kill,
        limits::op_pihost_heap_stop_landed,
        limits::op_pihost_cpu_stop_landed,
        limits::op_pihost_squeeze_flag,
        reference_data::op_pihost_reference_data,
        codemode_sandbox::op_pihost_codemode_open,
        codemode_sandbox::op_pihost_codemode_answer,
        codemode_sandbox::op_pihost_codemode_next,
        codemode_sandbox::op_pihost_codemode_close,
        modules::op_pihost_require_resolve,
        modules::op_pihost_require_file,
        modules::op_pihost_load_timing_begin,
        modules::op_pihost_load_timing_end,
        modules::op_pihost_loaded_from_cache,
        modules::op_pihost_resolve_entry,
        modules::op_pihost_discover_extensions,
        host::op_pihost_host_notify,
        host::op_pihost_host_request,
        host::op_pihost_host_provider,
        host::op_pihost_report_error,
        host::op_pihost_tool_update,
        host::op_pihost_handler_count,
        search::op_pihost_search_grep,
        search::op_pihost_search_find,
        images::op_pihost_image_decode,
        images::op_pihost_image_encode,
        settle::op_pihost_call_settled,
    ],
    state = |state| {
        state.put(process::ExecTable::default());
        state.put(host::BoundHost::default());
        state.put(host::ErrorSink::default());
        state.put(host::ToolUpdateSinks::default());
        state.put(host::HandlerCounts::default());
        state.put(host::SharedSessions::default());
        state.put(settle::PendingCalls::default());
        state.put(codemode_sandbox::CodemodeSandboxes::default());
    },
);
