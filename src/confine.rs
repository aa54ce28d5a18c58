//! Confined programs: in a sandbox, every program an extension starts runs
//! with the sandbox's file grants enforced by the kernel (Linux Landlock),
//! so a granted program (`--allow-run=sh`) is not a way out of the grants.
//!
//! Deno's crates start children themselves (deno_process), with no hook
//! between fork and exec, so pihost starts a launcher instead, with
//! [`LAUNCHER_ARG`], the rules and the program: the small `pihost-confine`
//! binary beside the executable (`src/bin/pihost-confine.rs`), else the
//! executable itself. The launcher
//! (a fresh, single-threaded process) restricts itself with Landlock and
//! `exec`s the program, which keeps the restrictions (and the pid): what the
//! extension sees of its child is unchanged. Landlock only narrows, so a
//! launcher an extension starts itself (with rules of its own) runs under
//! the rules of the launcher that started it.
//!
//! What is confined: files (read-only where only read is granted,
//! read-write where write is, the system folders programs need read-only),
//! TCP connect and bind to the granted ports (kernels with Landlock ABI 4),
//! signals to processes outside the sandbox and abstract Unix sockets
//! (ABI 6), and no new privileges. Not confined: UDP, and the host part of a
//! network grant (Landlock filters by port).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The first argument that makes a pihost executable the launcher.
pub const LAUNCHER_ARG: &str = "__pihost-confine";

/// Folders programs need to run, given to every confined program read-only
/// (with execute): the system's binaries, libraries and configuration.
///
/// Not `/proc` as a whole: a process's `/proc/<pid>/environ` is readable by
/// its user's other processes, and the host's holds the credentials a
/// sandbox hides. The launched program gets its own `/proc/<pid>` (its
/// `/proc/self`) and the system-wide files programs read.
pub const SYSTEM_READ_ONLY: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/proc/cpuinfo",
    "/proc/meminfo",
    "/proc/stat",
    "/proc/version",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/filesystems",
    "/proc/sys",
    "/sys/devices/system/cpu",
    "/dev/urandom",
    "/dev/random",
];

/// Device files every program may read and write (the null device, the
/// terminal, pseudo-terminals).
pub const DEVICES_READ_WRITE: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

/// What the user asked of confinement (`--confine`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ConfineMode {
    /// Confine where the kernel can; where it cannot, say so once and run
    /// programs as before (the default).
    #[default]
    BestEffort,
    /// Refuse to start a program that cannot be confined fully.
    Require,
    /// Never confine.
    Off,
}

/// The rules a confined program runs under, as the launcher gets them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfineRules {
    /// Granted read-only (with execute).
    pub read: Vec<PathBuf>,
    /// Granted read-write.
    pub write: Vec<PathBuf>,
    /// TCP ports the program may connect to; `None`: TCP is not restricted.
    pub connect_ports: Option<Vec<u16>>,
    /// Fail rather than run partly confined.
    pub require: bool,
}

/// Why a program could not be confined.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The launcher's arguments are not what pihost passes.
    #[error("the launcher's arguments are malformed: {0}")]
    Arguments(String),
    /// The kernel refused the rules.
    #[error("Landlock: {0}")]
    Landlock(String),
    /// `--confine=require` and the kernel enforces the rules only in part.
    #[error("the kernel cannot enforce every rule (Landlock {0}); --confine=require refuses to run it")]
    Partial(String),
    /// The program could not be started.
    #[error("cannot run {program}: {source}")]
    Exec {
        /// The program.
        program: String,
        /// What exec said.
        source: std::io::Error,
    },
}

static LAUNCHER: OnceLock<PathBuf> = OnceLock::new();

/// Sets the executable pihost starts as the launcher: one whose `main`
/// calls [`run_launcher_if_asked`] first (the `pihost` CLI does).
pub fn set_launcher(path: PathBuf) {
    let _ = LAUNCHER.set(path);
}

/// The launcher, if one was set.
pub fn launcher() -> Option<&'static Path> {
    LAUNCHER.get().map(PathBuf::as_path)
}

/// The small launcher binary installed beside `pihost` (`src/bin/pihost-confine.rs`).
const LAUNCHER_BINARY: &str = "pihost-confine";

/// For the `main` of a binary that embeds pihost: when the process was
/// started as the launcher, confines itself and runs the program (never
/// returning; exit status 126 with the reason on stderr when it cannot);
/// otherwise makes the launcher `pihost-confine` beside this executable
/// when there is one, else this executable, and returns.
pub fn run_launcher_if_asked() {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|arg| arg == LAUNCHER_ARG) {
        let error = launch(&args[2..]);
        eprintln!("pihost: {error}");
        std::process::exit(126);
    }
    if let Ok(exe) = std::env::current_exe() {
        let small = exe.with_file_name(LAUNCHER_BINARY);
        set_launcher(if small.is_file() { small } else { exe });
    }
}

/// The Landlock ABI version the kernel supports, 0 when it has none.
pub fn kernel_abi() -> i32 {
    // SAFETY: landlock_create_ruleset with a null attribute and size 0 and
    // the VERSION flag only returns the ABI version; it reads no memory.
    let version = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32) };
    i32::try_from(version).unwrap_or(0).max(0)
}

/// The arguments that start `program` (with `argv0` and `args`) confined by
/// `rules`, after the launcher's own path.
pub fn launcher_args(rules: &ConfineRules, program: &str, argv0: &str, args: &[String]) -> Vec<String> {
    let mut launched = vec![
        LAUNCHER_ARG.to_string(),
        serde_json::to_string(rules).unwrap_or_default(),
        program.to_string(),
        argv0.to_string(),
    ];
    launched.extend(args.iter().cloned());
    launched
}

fn existing(paths: &[PathBuf]) -> Vec<&PathBuf> {
    paths.iter().filter(|path| path.exists()).collect()
}

/// In the launcher: `<rules> <program> <argv0> [args…]`. Returns only on failure.
fn launch(args: &[OsString]) -> ConfineError {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, RulesetAttr, RulesetCreatedAttr,
        RulesetStatus, Scope, path_beneath_rules,
    };
    use std::os::unix::process::CommandExt;

    let [rules, program, argv0, rest @ ..] = args else {
        return ConfineError::Arguments("expected <rules> <program> <argv0> [args…]".to_string());
    };
    let rules: ConfineRules = match rules.to_str().map(serde_json::from_str) {
        Some(Ok(rules)) => rules,
        _ => return ConfineError::Arguments("the rules are not pihost's JSON".to_string()),
    };
    let abi = ABI::V6;
    let level = if rules.require {
        CompatLevel::HardRequirement
    } else {
        CompatLevel::BestEffort
    };
    let mut system: Vec<PathBuf> = SYSTEM_READ_ONLY.iter().map(PathBuf::from).collect();
    // The launcher becomes the program, so its /proc/<pid> is the program's own.
    system.push(PathBuf::from(format!("/proc/{}", std::process::id())));
    let devices: Vec<PathBuf> = DEVICES_READ_WRITE.iter().map(PathBuf::from).collect();
    let restricted = (|| -> Result<_, landlock::RulesetError> {
        let mut ruleset = landlock::Ruleset::default()
            .set_compatibility(level)
            .handle_access(AccessFs::from_all(abi))?;
        if rules.connect_ports.is_some() {
            ruleset = ruleset.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?;
        }
        // Signals and abstract sockets reach only processes of the same sandbox.
        let ruleset = ruleset.scope(Scope::Signal | Scope::AbstractUnixSocket)?;
        let mut created = ruleset
            .create()?
            .add_rules(path_beneath_rules(existing(&system), AccessFs::from_read(abi)))?
            .add_rules(path_beneath_rules(existing(&devices), AccessFs::from_all(abi)))?
            .add_rules(path_beneath_rules(existing(&rules.read), AccessFs::from_read(abi)))?
            .add_rules(path_beneath_rules(existing(&rules.write), AccessFs::from_all(abi)))?;
        for port in rules.connect_ports.iter().flatten() {
            created = created.add_rule(NetPort::new(*port, AccessNet::ConnectTcp))?;
        }
        created.restrict_self()
    })();
    match restricted {
        Ok(status) if rules.require && status.ruleset != RulesetStatus::FullyEnforced => {
            return ConfineError::Partial(format!("{:?}", status.ruleset));
        }
        Ok(_) => {}
        Err(error) => return ConfineError::Landlock(error.to_string()),
    }
    let source = std::process::Command::new(program).arg0(argv0).args(rest).exec();
    ConfineError::Exec {
        program: program.to_string_lossy().into_owned(),
        source,
    }
}
