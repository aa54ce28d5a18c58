//! Process-wide facts: working directory, environment, operating system.

use std::collections::BTreeMap;

use deno_core::op2;

#[op2]
#[string]
pub fn op_pihost_cwd() -> String {
    std::env::current_dir()
        .map(|dir| dir.display().to_string())
        .unwrap_or_else(|_| "/".to_string())
}

#[op2]
#[serde]
pub fn op_pihost_env_snapshot() -> BTreeMap<String, String> {
    std::env::vars_os()
        .filter_map(|(key, value)| Some((key.into_string().ok()?, value.into_string().ok()?)))
        .collect()
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OsInfo {
    platform: &'static str,
    arch: &'static str,
    homedir: String,
    tmpdir: String,
    hostname: String,
    cpu_count: usize,
    pid: u32,
}

fn node_platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    }
}

fn node_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        "x86" => "ia32",
        other => other,
    }
}

#[op2]
#[serde]
pub fn op_pihost_os_info() -> OsInfo {
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "localhost".to_string());
    OsInfo {
        platform: node_platform(),
        arch: node_arch(),
        homedir: crate::discovery::home_dir().display().to_string(),
        tmpdir: std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".to_string()),
        hostname,
        cpu_count: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
        pid: std::process::id(),
    }
}
