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
    ppid: u32,
    /// uname(2): kernel release, version and machine.
    release: String,
    version: String,
    machine: String,
    uid: u32,
    gid: u32,
    /// From the passwd entry of `uid`.
    username: String,
    shell: Option<String>,
}

/// Figures that change while the host runs (`os.freemem()`, `os.uptime()`, …).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SystemLoad {
    total_memory: u64,
    free_memory: u64,
    uptime_seconds: f64,
    load_average: [f64; 3],
    /// Resident set size of the host process, in bytes.
    rss: u64,
}

fn uname_field(field: &[libc::c_char]) -> String {
    let bytes: Vec<u8> = field.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The passwd entry of `uid`: (name, shell).
fn passwd_entry(uid: u32) -> Option<(String, String)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 7 && fields[2].parse::<u32>().ok() == Some(uid))
            .then(|| (fields[0].to_string(), fields[6].to_string()))
    })
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
    // SAFETY: getuid takes no arguments and cannot fail.
    let uid = unsafe { libc::getuid() };
    let entry = passwd_entry(uid);
    let system = uname();
    OsInfo {
        platform: node_platform(),
        arch: node_arch(),
        homedir: crate::discovery::home_dir().display().to_string(),
        tmpdir: std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".to_string()),
        hostname,
        cpu_count: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
        pid: std::process::id(),
        // SAFETY: getppid/getuid/getgid take no arguments and cannot fail.
        ppid: unsafe { libc::getppid() } as u32,
        release: system.0,
        version: system.1,
        machine: system.2,
        uid,
        gid: unsafe { libc::getgid() },
        username: entry
            .as_ref()
            .map(|(name, _)| name.clone())
            .or_else(|| std::env::var("USER").ok())
            .unwrap_or_default(),
        shell: entry.map(|(_, shell)| shell),
    }
}

fn uname() -> (String, String, String) {
    // SAFETY: utsname is plain old data; uname(2) fills it and returns 0 on success.
    let mut names: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut names) } != 0 {
        return (String::new(), String::new(), String::new());
    }
    (
        uname_field(&names.release),
        uname_field(&names.version),
        uname_field(&names.machine),
    )
}

/// Memory, uptime and load now.
#[op2]
#[serde]
pub fn op_pihost_system_load() -> SystemLoad {
    system_load(resident_set_bytes())
}

/// The host process's resident set, in bytes (0 where it cannot be read).
pub fn resident_set_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| statm.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}

#[cfg(target_os = "linux")]
fn system_load(rss: u64) -> SystemLoad {
    // SAFETY: sysinfo is plain old data; sysinfo(2) fills it and returns 0 on success.
    let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
    if unsafe { libc::sysinfo(&mut info) } != 0 {
        return SystemLoad {
            total_memory: 0,
            free_memory: 0,
            uptime_seconds: 0.0,
            load_average: [0.0; 3],
            rss,
        };
    }
    let unit = u64::from(info.mem_unit.max(1));
    // The kernel's load figures are fixed point with 16 fractional bits.
    let load = |value: libc::c_ulong| value as f64 / 65536.0;
    SystemLoad {
        total_memory: info.totalram as u64 * unit,
        free_memory: info.freeram as u64 * unit,
        uptime_seconds: info.uptime as f64,
        load_average: [load(info.loads[0]), load(info.loads[1]), load(info.loads[2])],
        rss,
    }
}

#[cfg(not(target_os = "linux"))]
fn system_load(rss: u64) -> SystemLoad {
    SystemLoad {
        total_memory: 0,
        free_memory: 0,
        uptime_seconds: 0.0,
        load_average: [0.0; 3],
        rss,
    }
}

/// Where extensions' standard output goes: `pihost serve` speaks its
/// protocol on stdout, so there everything extensions print goes to stderr.
static STDOUT_TO_STDERR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sends what extensions write to stdout (`console.log`,
/// `process.stdout.write`) to stderr instead, for every runtime in the process.
pub fn route_extension_stdout_to_stderr(yes: bool) {
    STDOUT_TO_STDERR.store(yes, std::sync::atomic::Ordering::Relaxed);
}

/// Whether extensions' standard output goes to stderr (see above).
pub fn stdout_goes_to_stderr() -> bool {
    STDOUT_TO_STDERR.load(std::sync::atomic::Ordering::Relaxed)
}

/// `process.stdout.write` / `process.stderr.write` and the console.
#[op2(fast)]
pub fn op_pihost_write(#[string] text: &str, to_stderr: bool) {
    use std::io::Write;
    let result = if to_stderr || STDOUT_TO_STDERR.load(std::sync::atomic::Ordering::Relaxed) {
        let mut stderr = std::io::stderr().lock();
        stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush())
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush())
    };
    // A closed pipe must not take the extension down; Node would emit EPIPE later.
    let _ = result;
}
