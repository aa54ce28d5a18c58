//! The sandbox (`--sandbox` and Deno's `--allow-*` grants), tried as a user
//! would through the CLI: tests/permissions/touch-everything.ts touches
//! files, programs, the network, the environment, system facts and a
//! worker every way it can, without a sandbox (each touch is real), in a
//! sandbox with no grants (each is refused, nothing ran) and with grants
//! (exactly what was granted works).

mod support;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// A folder to grant, a file outside it, a link in the folder to that file.
struct Ground {
    root: tempfile::TempDir,
}

impl Ground {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        let ground = Self { root };
        std::fs::create_dir_all(ground.granted()).expect("mkdir");
        std::fs::create_dir_all(ground.path("other")).expect("mkdir");
        std::fs::write(ground.granted().join("inside.txt"), "inside").expect("write");
        std::fs::write(ground.outside(), "secret").expect("write");
        std::os::unix::fs::symlink("../other/secret.txt", ground.granted().join("link.txt")).expect("symlink");
        ground
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    fn granted(&self) -> PathBuf {
        self.path("granted")
    }

    fn outside(&self) -> PathBuf {
        self.path("other/secret.txt")
    }

    /// Markers left by the programs that ran.
    fn ran(&self) -> Vec<String> {
        let mut ran: Vec<String> = std::fs::read_dir(self.granted())
            .expect("read dir")
            .filter_map(|entry| {
                entry
                    .ok()?
                    .file_name()
                    .into_string()
                    .ok()?
                    .strip_prefix("ran-")
                    .map(String::from)
            })
            .collect();
        ran.sort();
        ran
    }
}

/// A local HTTP server answering every connection with `ok`, for as long as the test runs.
fn http_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        }
    });
    port
}

/// Runs the touching tool with `flags` and answers each touch's outcome.
fn touch_everything(ground: &Ground, flags: &[&str]) -> BTreeMap<String, String> {
    let port = http_server();
    let mut signalled = Command::new("sleep").arg("30").spawn().expect("sleep runs");
    let args = json!({
        "dir": ground.granted(),
        "outside": ground.outside(),
        "link": ground.granted().join("link.txt"),
        "port": port,
        "pid": signalled.id(),
    });
    let fixture = support::project_root().join("tests/permissions/touch-everything.ts");
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        // cargo sets it for tests; Deno refuses a child with LD_* variables
        // unless every program may run (they can inject code).
        .env_remove("LD_LIBRARY_PATH")
        .args(["tool", "touch_everything", "-e"])
        .arg(&fixture)
        .arg("--cwd")
        .arg(ground.root.path())
        .args(["--args", &args.to_string()])
        .args(flags)
        .output()
        .expect("pihost runs");
    let _ = signalled.kill();
    let _ = signalled.wait();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!(
            "no JSON ({error}): {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(report["errors"], json!([]), "{report:#}");
    serde_json::from_value(report["result"]["details"].clone()).unwrap_or_else(|error| panic!("{error}: {report:#}"))
}

/// The touches whose outcome starts with `prefix`.
fn with_outcome<'a>(outcomes: &'a BTreeMap<String, String>, prefix: &str) -> Vec<&'a str> {
    outcomes
        .iter()
        .filter(|(_, outcome)| outcome.starts_with(prefix))
        .map(|(touch, _)| touch.as_str())
        .collect()
}

const PROGRAMS: [&str; 5] = ["execFileSync", "execSync", "pi.exec", "spawn", "spawnSync"];

#[test]
fn without_a_sandbox_every_touch_is_real() {
    let ground = Ground::new();
    let outcomes = touch_everything(&ground, &[]);
    let not_ok: Vec<_> = outcomes
        .iter()
        .filter(|(touch, outcome)| *outcome != "ok" && *touch != "process.dlopen")
        .collect();
    assert!(not_ok.is_empty(), "{not_ok:#?}");
    // Allowed, a native addon still cannot run in pihost's engine: Node's
    // error for a load that failed.
    assert!(
        outcomes["process.dlopen"].starts_with("failed: Error: pihost: native addons (.node files) cannot be loaded"),
        "{}",
        outcomes["process.dlopen"]
    );
    assert_eq!(ground.ran(), PROGRAMS);
    assert!(!ground.outside().exists(), "fs.rmSync removed the file outside");
}

#[test]
fn a_sandbox_without_grants_refuses_every_touch_and_runs_nothing() {
    let ground = Ground::new();
    let outcomes = touch_everything(&ground, &["--sandbox"]);
    assert!(with_outcome(&outcomes, "ok").is_empty(), "{outcomes:#?}");
    assert!(ground.ran().is_empty(), "programs ran: {:?}", ground.ran());
    assert!(ground.outside().exists());
    assert!(!ground.granted().join("written.txt").exists());
    let expect = |touch: &str, refusal: &str| {
        assert_eq!(
            outcomes[touch],
            format!(
                "denied: Requires {refusal}, run again with the --allow-{} flag",
                refusal.split(' ').next().unwrap_or_default()
            ),
            "{touch}"
        );
    };
    let outside = ground.outside().display().to_string();
    let inside = ground.granted().join("inside.txt").display().to_string();
    expect("fs.readFileSync inside", &format!("read access to \"{inside}\""));
    for touch in [
        "fs.readFileSync outside",
        "fs.readFileSync through ..",
        "fs.promises.readFile outside",
        "fs.createReadStream outside",
        "fs.openSync outside",
        "fs.statSync outside",
        "fs.rmSync outside",
        "fs.watch outside",
        "fs.watchFile outside",
        "fs.promises.watch outside",
    ] {
        expect(touch, &format!("read access to \"{outside}\""));
    }
    expect(
        "fs.watch recursive outside",
        &format!("read access to \"{}\"", ground.path("other").display()),
    );
    expect(
        "fs.watch through a link",
        &format!("read access to \"{}\"", ground.granted().join("link.txt").display()),
    );
    expect(
        "process.dlopen",
        &format!("ffi access to \"{}\"", ground.granted().join("addon.node").display()),
    );
    expect(
        "fs.readdirSync outside",
        &format!("read access to \"{}\"", ground.path("other").display()),
    );
    expect(
        "fs.writeFileSync outside",
        &format!("write access to \"{outside}.new\""),
    );
    expect("child_process.spawn", "run access to \"touch\"");
    // deno_node's spawnSync drops the refusal; pihost reports it.
    expect("child_process.spawnSync", "run access to \"touch\"");
    expect("child_process.execFileSync", "run access to \"touch\"");
    expect("child_process.execSync", "env access");
    expect("process.env read", "env access to \"HOME\"");
    expect("process.env write", "env access to \"PIHOST_TOUCHED\"");
    expect("os.hostname", "sys access to \"hostname\"");
    expect("process.kill", "run access");
    expect("process.kill of the host", "run access");
    let port_refusal = |touch: &str| outcomes[touch].starts_with("denied: Requires net access to \"127.0.0.1:");
    for touch in ["fetch", "http.get", "net.connect", "net.createServer().listen"] {
        assert!(port_refusal(touch), "{touch}: {}", outcomes[touch]);
    }
    assert!(
        outcomes["pi.exec"].ends_with("Requires run access to \"touch\", run again with the --allow-run flag"),
        "{}",
        outcomes["pi.exec"]
    );
    // A worker has no more than its parent.
    assert!(
        outcomes["worker reads outside"].contains(&format!("Requires read access to \"{outside}\"")),
        "{}",
        outcomes["worker reads outside"]
    );
}

#[test]
fn grants_allow_exactly_what_they_name() {
    let ground = Ground::new();
    let outcomes = touch_everything(
        &ground,
        &[
            "--sandbox",
            "--allow-read=granted",
            "--allow-write=granted",
            "--allow-run=touch",
            "--allow-net=127.0.0.1",
            "--allow-env=HOME",
        ],
    );
    let mut allowed = with_outcome(&outcomes, "ok");
    allowed.sort();
    assert_eq!(
        allowed,
        [
            "child_process.execFileSync",
            "child_process.spawn",
            "child_process.spawnSync",
            "fetch",
            "fs.readFileSync inside",
            "fs.writeFileSync inside",
            "http.get",
            "net.connect",
            "net.createServer().listen",
            "pi.exec",
            "process.env read",
        ],
        "{outcomes:#?}"
    );
    assert_eq!(ground.ran(), ["execFileSync", "pi.exec", "spawn", "spawnSync"]);
    assert!(ground.outside().exists());
    // A link in the granted folder does not reach what it points to.
    let real_outside = std::fs::canonicalize(ground.outside()).expect("real path");
    assert!(
        outcomes["fs.readFileSync through a link"].contains(&format!(
            "Requires read access to \"{}\", run again with the --allow-read flag",
            real_outside.display()
        )),
        "{}",
        outcomes["fs.readFileSync through a link"]
    );
    // Nor does a watch: a link to the file outside is refused at the call.
    assert!(
        outcomes["fs.watch through a link"].contains(&format!(
            "Requires read access to \"{}\", run again with the --allow-read flag",
            real_outside.display()
        )),
        "{}",
        outcomes["fs.watch through a link"]
    );
    for touch in [
        "fs.readFileSync outside",
        "fs.readFileSync through ..",
        "fs.writeFileSync outside",
        "os.hostname",
        "fs.watch outside",
        "fs.watch recursive outside",
        "fs.watchFile outside",
        "fs.promises.watch outside",
        "process.dlopen",
    ] {
        assert!(outcomes[touch].starts_with("denied: "), "{touch}: {}", outcomes[touch]);
    }
    assert_eq!(
        outcomes["process.env write"],
        "denied: Requires env access to \"PIHOST_TOUCHED\", run again with the --allow-env flag"
    );
}

/// An extension whose factory reads /etc/hostname, and one that touches nothing.
fn reading_and_quiet_extensions(project: &support::Project) -> (String, String) {
    let reads = project.write(
        "reads.ts",
        "import fs from 'node:fs';\nexport default function () { try { fs.readFileSync('/etc/hostname'); } catch {} }\n",
    );
    (reads, project.write("quiet.ts", "export default function () {}\n"))
}

#[test]
fn inspect_in_a_sandbox_lists_what_each_extension_was_refused() {
    let project = support::Project::new();
    let (reads, quiet) = reading_and_quiet_extensions(&project);
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["inspect", "--json", "--sandbox", "--cwd"])
        .arg(project.path(""))
        .args([&reads, &quiet])
        .output()
        .expect("pihost runs");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["extensions"][0]["denied"],
        json!([{ "kind": "read", "target": "read access to \"/etc/hostname\"" }]),
        "{report:#}"
    );
    assert_eq!(report["extensions"][1].get("denied"), None, "{report:#}");
    let table = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["inspect", "--sandbox", "--cwd"])
        .arg(project.path(""))
        .arg(&reads)
        .output()
        .expect("pihost runs");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("denied     read access to \"/etc/hostname\" (--allow-read)"),
        "{text}"
    );
}

/// A load whose factories come from pi's cache (L6) imports nothing, but
/// what each factory is refused is still its own.
#[test]
fn a_load_from_cached_factories_still_lists_what_each_extension_was_refused() {
    let project = support::Project::new();
    let (reads, quiet) = reading_and_quiet_extensions(&project);
    support::runtime().block_on(async {
        let mut options = project.options();
        options.permissions.sandbox = true;
        let pihost = pihost::Pihost::start(options).await.expect("start");
        let found = pihost.discover(&[reads.clone(), quiet.clone()]);
        let first = pihost.load_extensions(&found, true).await.expect("first load");
        let again = pihost.load_extensions(&found, true).await.expect("load from the cache");
        for report in [&first, &again] {
            assert_eq!(report.extensions.len(), 2, "{report:#?}");
            let denied: Vec<_> = report.extensions[0]
                .denied
                .iter()
                .map(|denial| denial.target.as_str())
                .collect();
            assert_eq!(denied, ["read access to \"/etc/hostname\""], "{report:#?}");
            assert!(report.extensions[1].denied.is_empty(), "{report:#?}");
        }
        let modules =
            |report: &pihost::report::InspectReport| report.extensions[0].timing.as_ref().expect("a timing").modules;
        assert!(modules(&first) >= 1, "{first:#?}");
        assert_eq!(modules(&again), 0, "the factory came from the cache: {again:#?}");
        pihost.shutdown().await.expect("shutdown");
    });
}

#[test]
fn bad_grants_are_a_clear_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["inspect", "--sandbox", "--allow-net=http://[", "--cwd"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("pihost runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("invalid permissions"), "{stderr}");
}

#[test]
fn a_sandboxed_extension_loads_its_own_files_and_packages_but_no_other_file_without_a_grant() {
    let project = support::Project::new();
    project.write("outside/lib.mjs", "export const secret = 42;\n");
    project.write("outside/lib.cjs", "module.exports = { secret: 42 };\n");
    project.write(
        "ext/node_modules/own-package/index.js",
        "module.exports = { own: true };\n",
    );
    project.write("ext/helper.ts", "export const helper = () => 'own file';\n");
    let outside = project.path("outside");
    let extension = project.write(
        "ext/imports.ts",
        &format!(
            "import {{ helper }} from './helper.ts';\nimport ownPackage from 'own-package';\n\
             export default async function (pi) {{\n\
               const attempt = async (work) => {{ try {{ await work(); return 'ok'; }} catch (error) {{ return `${{error.message}}`; }} }};\n\
               const outcome = {{ helper: helper(), ownPackage: ownPackage.own,\n\
                 imported: await attempt(() => import({mjs:?})),\n\
                 required: await attempt(() => require({cjs:?})) }};\n\
               pi.registerCommand('r', {{ description: JSON.stringify(outcome), handler: async () => {{}} }});\n\
             }}\n",
            mjs = outside.join("lib.mjs").display().to_string(),
            cjs = outside.join("lib.cjs").display().to_string(),
        ),
    );
    let outcome = |flags: &[&str]| -> Value {
        let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .args(["inspect", "--json", "--cwd"])
            .arg(project.path(""))
            .args(flags)
            .arg(&extension)
            .output()
            .expect("pihost runs");
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let description = report["extensions"][0]["commands"][0]["description"]
            .as_str()
            .unwrap_or_else(|| panic!("{report:#}"))
            .to_string();
        serde_json::from_str(&description).expect("outcome JSON")
    };
    let refused = |file: &str| {
        format!(
            "Requires read access to \"{}\", run again with the --allow-read flag",
            std::fs::canonicalize(outside.join(file)).expect("real path").display()
        )
    };
    assert_eq!(
        outcome(&["--sandbox"]),
        json!({ "helper": "own file", "ownPackage": true, "imported": refused("lib.mjs"), "required": refused("lib.cjs") })
    );
    let granted = format!("--allow-read={}", outside.display());
    assert_eq!(
        outcome(&["--sandbox", &granted]),
        json!({ "helper": "own file", "ownPackage": true, "imported": "ok", "required": "ok" })
    );
    assert_eq!(
        outcome(&[]),
        json!({ "helper": "own file", "ownPackage": true, "imported": "ok", "required": "ok" })
    );
}

#[test]
fn a_deny_list_refuses_without_a_sandbox_and_over_allow_all() {
    let ground = Ground::new();
    let outside = ground.path("other").display().to_string();
    for flags in [
        vec![format!("--deny-read={outside}")],
        vec!["-A".to_string(), format!("--deny-read={outside}")],
    ] {
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let outcomes = touch_everything(&ground, &flags);
        assert!(
            outcomes["fs.readFileSync outside"].starts_with("denied: "),
            "{flags:?}: {outcomes:#?}"
        );
        assert_eq!(outcomes["fs.readFileSync inside"], "ok", "{flags:?}");
        assert_eq!(outcomes["net.connect"], "ok", "{flags:?}");
        assert_eq!(outcomes["process.env read"], "ok", "{flags:?}");
    }
}

/// A host that answers every `permission.request` with `answer` and keeps
/// what it was asked and told.
struct PromptedHost {
    answer: Value,
    calls: std::sync::Mutex<Vec<Value>>,
}

impl pihost::host::Host for PromptedHost {
    fn notify(&self, notification: pihost::host::HostNotification) {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push(serde_json::to_value(notification).unwrap_or_default());
        }
    }

    fn request(&self, request: pihost::host::HostRequest) -> pihost::host::HostFuture {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push(serde_json::to_value(&request).unwrap_or_default());
        }
        let answer = match request {
            pihost::host::HostRequest::PermissionRequest { .. } => self.answer.clone(),
            other => other.headless_answer(),
        };
        Box::pin(async move {
            // An answer that takes a while: the extension's code waits for it.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            Ok(answer)
        })
    }
}

/// Loads `file` of `project` under `permissions` with `host` asked and
/// bound, then runs `command`: its result, or the first load error.
fn run_prompted(
    project: &support::Project,
    host: &std::sync::Arc<PromptedHost>,
    permissions: pihost::Permissions,
    file: &str,
    command: &str,
    args: &str,
) -> Result<Option<Value>, String> {
    let mut options = project.options();
    options.permissions = permissions;
    options.permission_host = Some(pihost::PermissionHost(host.clone()));
    support::runtime().block_on(async {
        let pihost = pihost::Pihost::start(options).await.expect("start");
        let report = pihost
            .load(&[project.path(file).display().to_string()])
            .await
            .expect("load");
        if let Some(error) = report.errors.first() {
            return Err(error.error.clone());
        }
        pihost.bind(host.clone(), &Default::default()).await.expect("bind");
        Ok(pihost.run_command(command, args).await.expect(command))
    })
}

#[test]
fn the_rust_host_is_asked_while_extensions_load_and_run() {
    let project = support::Project::new();
    let note = project.write("note.txt", "note");
    project.write(
        "peeks.ts",
        &format!(
            "import fs from 'node:fs';\nconst atLoad = fs.readFileSync({note:?}, 'utf8');\nexport default function (pi) {{\n  pi.registerCommand('peek', {{ handler: async (args) => atLoad + ' ' + process.env[args] }});\n}}\n"
        ),
    );
    let home = std::env::var("HOME").unwrap_or_default();
    let visible = format!("note {home}");
    for (answer, expected) in [
        ("allowOnce", Ok(visible.as_str())),
        ("deny", Err(format!("Requires read access to \"{note}\""))),
    ] {
        let host = std::sync::Arc::new(PromptedHost {
            answer: json!(answer),
            calls: Default::default(),
        });
        let permissions = pihost::Permissions {
            sandbox: true,
            prompt: true,
            ..Default::default()
        };
        let outcome = run_prompted(&project, &host, permissions, "peeks.ts", "peek", "HOME").map(|result| {
            result
                .and_then(|value| value.as_str().map(String::from))
                .unwrap_or_default()
        });
        match expected {
            Ok(text) => assert_eq!(outcome.as_deref(), Ok(text), "{answer}"),
            Err(message) => assert!(
                outcome.as_ref().is_err_and(|error| error.contains(&message)),
                "{answer}: {outcome:?}"
            ),
        }
        let calls = host.calls.lock().expect("calls").clone();
        let asked: Vec<(&str, &str)> = calls
            .iter()
            .filter(|call| call["method"] == "permission.request")
            .map(|call| {
                (
                    call["permission"].as_str().unwrap_or(""),
                    call["target"].as_str().unwrap_or(""),
                )
            })
            .collect();
        let expected_asks = if answer == "deny" {
            vec![("read", note.as_str())]
        } else {
            vec![("read", note.as_str()), ("env", "HOME")]
        };
        assert_eq!(asked, expected_asks, "{answer}: {calls:#?}");
        let decisions = calls
            .iter()
            .filter(|call| call["method"] == "permission.decision")
            .count();
        assert_eq!(decisions, asked.len(), "every decision is reported: {calls:#?}");
    }
}

#[test]
fn the_cli_answers_prompts_from_its_answers() {
    let ground = Ground::new();
    let fixture = ground.path("peeks.ts");
    std::fs::write(
        &fixture,
        "import fs from 'node:fs';\nexport default function (pi) {\n  pi.registerCommand('peek', { handler: async (args) => fs.readFileSync(args, 'utf8') });\n}\n",
    )
    .expect("write");
    let outside = ground.outside().display().to_string();
    let run = |extra: &[&str]| -> Value {
        let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .args(["command", "peek", "--args", &outside, "-e"])
            .arg(&fixture)
            .arg("--cwd")
            .arg(ground.root.path())
            .args(["--sandbox", "--prompt"])
            .args(extra)
            .output()
            .expect("pihost runs");
        support::printed_json(&output).0
    };
    let allowed = run(&["--answer", "permission.request=\"allowOnce\""]);
    assert_eq!(allowed["result"], "secret", "{allowed:#}");
    let decision = allowed["hostCalls"]
        .as_array()
        .and_then(|calls| calls.iter().find(|call| call["method"] == "permission.decision"))
        .cloned()
        .unwrap_or_else(|| panic!("the decision is among the host calls: {allowed:#}"));
    assert_eq!(decision["outcome"], "allowedOnce");
    assert_eq!(decision["target"], outside);
    let refused = run(&[]);
    assert_eq!(
        refused["error"],
        format!("Requires read access to \"{outside}\", run again with the --allow-read flag"),
        "headless, a prompt is denied: {refused:#}"
    );
}

/// The grants of `grants_allow_exactly_what_they_name`, as a policy file's.
fn policy_granting(fixture: &Path) -> String {
    json!({ "extensions": { fixture.display().to_string(): {
        "allowRead": ["granted"],
        "allowWrite": ["granted"],
        "allowRun": ["touch"],
        "allowNet": ["127.0.0.1"],
        "allowEnv": ["HOME"],
    } } })
    .to_string()
}

#[test]
fn a_policy_grants_one_extension_what_the_flags_grant_a_session() {
    // Each touch's outcome with the ground's own folder left out.
    let outcomes_in = |ground: &Ground, flags: &[&str]| -> BTreeMap<String, String> {
        let root = ground.root.path().display().to_string();
        touch_everything(ground, flags)
            .into_iter()
            .map(|(touch, outcome)| (touch, outcome.replace(&root, "<ground>")))
            .collect()
    };
    let isolated_ground = Ground::new();
    let fixture = support::project_root().join("tests/permissions/touch-everything.ts");
    let policy = isolated_ground.path("policy.json");
    std::fs::write(&policy, policy_granting(&fixture)).expect("write policy");
    let isolated = outcomes_in(
        &isolated_ground,
        &["--sandbox", "--permissions-file", &policy.display().to_string()],
    );
    let session_ground = Ground::new();
    let session = outcomes_in(
        &session_ground,
        &[
            "--sandbox",
            "--allow-read=granted",
            "--allow-write=granted",
            "--allow-run=touch",
            "--allow-net=127.0.0.1",
            "--allow-env=HOME",
        ],
    );
    // The extension runs in a runtime of its own there, with the same outcome for every touch.
    assert_eq!(isolated, session);
    assert_eq!(isolated_ground.ran(), ["execFileSync", "pi.exec", "spawn", "spawnSync"]);
}

/// What the cross-extension run gave: the permitted extension's read, and
/// what the attacker's attempts read.
struct CrossRun {
    read: Result<String, String>,
    callback: Value,
    stolen: Vec<String>,
}

fn cross_extension_run(sandbox: bool, grant: bool) -> CrossRun {
    let project = support::Project::new();
    let secret = project.write("secret.txt", "the secret");
    let fixtures = support::project_root().join("tests/permissions/cross-extension");
    let granted = fixtures.join("granted.ts");
    let mut options = project.options();
    options.permissions.sandbox = sandbox;
    if grant {
        options.permissions.extensions.insert(
            granted.display().to_string(),
            pihost::permissions::ExtensionGrant {
                allow_read: Some(vec![secret.clone()]),
                ..Default::default()
            },
        );
    }
    let host = refusing_host();
    support::runtime().block_on(async {
        let pihost = pihost::Pihost::start(options).await.expect("start");
        let paths = [fixtures.join("attacker.ts"), granted].map(|path| path.display().to_string());
        let report = pihost.load(&paths).await.expect("load");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        pihost.bind(host.clone(), &Default::default()).await.expect("bind");
        let args = json!({ "path": secret });
        pihost
            .execute_tool("attack", "1", &args, None)
            .await
            .expect("attack runs");
        let read = pihost.execute_tool("read_secret", "2", &args, None).await;
        let report = pihost
            .execute_tool("report", "3", &json!({}), None)
            .await
            .expect("report runs")
            .unwrap_or_default();
        let read = read
            .map(|result| result.unwrap_or_default())
            .map_err(|error| error.to_string());
        CrossRun {
            callback: read
                .as_ref()
                .map(|result| result["details"]["outcomes"]["callback"].clone())
                .unwrap_or_default(),
            read: read.map(|result| result["content"][0]["text"].as_str().unwrap_or_default().to_string()),
            stolen: serde_json::from_value(report["details"]["stolen"].clone()).unwrap_or_default(),
        }
    })
}

#[test]
fn one_extensions_grant_is_never_usable_by_another() {
    let run = cross_extension_run(true, true);
    assert_eq!(
        run.read.as_deref(),
        Ok("the secret"),
        "the granted extension reads its file"
    );
    assert_eq!(run.callback, json!("called"), "it called the attacker's callback");
    // The callback ran as the attacker's code, the patched built-ins never
    // ran in the permitted extension's realm, and nothing read the secret.
    assert!(run.stolen.contains(&"callback: denied".to_string()), "{:?}", run.stolen);
    let read: Vec<_> = run
        .stolen
        .iter()
        .filter(|attempt| !attempt.ends_with(": denied"))
        .collect();
    assert!(read.is_empty(), "{read:?}");
}

#[test]
fn without_the_grant_the_permitted_extension_is_refused_and_without_a_sandbox_the_attacks_are_real() {
    let refused = cross_extension_run(true, false);
    assert!(
        refused
            .read
            .as_ref()
            .is_err_and(|error| error.contains("Requires read access to")),
        "{:?}",
        refused.read
    );
    // The control: outside a sandbox the attacker's own touches are real.
    let open = cross_extension_run(false, true);
    assert_eq!(open.read.as_deref(), Ok("the secret"));
    for how in [
        "callback",
        "Array.prototype.map",
        "JSON.stringify",
        "Promise.prototype.then",
    ] {
        let attempt = format!("{how}: read the secret");
        assert!(open.stolen.contains(&attempt), "{how}: {:?}", open.stolen);
    }
}

/// A session with `granted` under a policy grant of `grant`, loaded with `others` beside it and bound to `host`.
async fn isolated_session(
    project: &support::Project,
    granted: &str,
    grant: pihost::permissions::ExtensionGrant,
    others: &[&str],
    tune: impl FnOnce(&mut pihost::EngineOptions),
    host: std::sync::Arc<PromptedHost>,
) -> pihost::Pihost {
    let mut options = project.options();
    options.permissions.sandbox = true;
    options.permissions.extensions.insert(granted.to_string(), grant);
    tune(&mut options);
    let pihost = pihost::Pihost::start(options).await.expect("start");
    let mut paths = vec![granted.to_string()];
    paths.extend(others.iter().map(|other| other.to_string()));
    let report = pihost.load(&paths).await.expect("load");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    pihost.bind(host, &Default::default()).await.expect("bind");
    pihost
}

/// A host that refuses every prompt and records what it was told.
fn refusing_host() -> std::sync::Arc<PromptedHost> {
    std::sync::Arc::new(PromptedHost {
        answer: json!("deny"),
        calls: Default::default(),
    })
}

/// A grant of every environment variable: enough to make an extension a guest.
fn environment_grant() -> pihost::permissions::ExtensionGrant {
    pihost::permissions::ExtensionGrant {
        allow_env: Some(Vec::new()),
        ..Default::default()
    }
}

const TOOL_PARAMETERS: &str = "parameters: { type: 'object', properties: {} }";

/// The source of a registration of tool `name` whose `execute` body is `body`.
fn tool_source(name: &str, body: &str) -> String {
    format!(
        "  pi.registerTool({{ name: '{name}', label: '{name}', description: 'a tool', {TOOL_PARAMETERS}, async execute() {{ {body} }} }});\n"
    )
}

/// An extension that registers the given tools.
fn extension_source(tools: &[String]) -> String {
    format!("export default function (pi) {{\n{}}}\n", tools.concat())
}

#[test]
fn a_runaway_isolated_extension_is_stopped_and_the_others_go_on() {
    an_isolated_runaway_tool_is_stopped_and_the_others_go_on("for (;;) {}");
}

/// A loop of built-in sorts never reaches the engine's poll for a
/// termination; the guest's watchdog squeezes its heap, as the main
/// runtime's does (src/limits.rs), and the guest is stopped in time.
#[test]
fn an_isolated_loop_of_builtin_sorts_is_stopped_and_the_others_go_on() {
    an_isolated_runaway_tool_is_stopped_and_the_others_go_on(
        "const items = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1000003); for (;;) items.slice().sort();",
    );
}

/// A loop of calls that allocate nothing is not reached by the squeeze: 15 s of CPU time
/// after its stop the guest is given up (its thread left to finish at the
/// lowest priority), and its call fails as a CPU stop.
#[test]
fn an_isolated_loop_that_allocates_nothing_is_given_up_and_the_others_go_on() {
    // 8 million elements: the engine's own poll would come only minutes
    // after the stop (5 000 searches), far past the bound below.
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        an_isolated_runaway_tool_is_stopped_and_the_others_go_on(
            "const a = new Array(8_000_000).fill(1); for (;;) a.indexOf(2);",
        );
        let _ = done.send(());
    });
    match finished.recv_timeout(std::time::Duration::from_secs(90)) {
        Ok(()) => {}
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("the stuck guest was not given up: its call still runs 90 s later")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the check failed (see above)"),
    }
}

/// The isolated extension's tool `spin` runs `runaway`: it fails for the
/// CPU limit, the other extension answers, the stopped one's tools fail.
fn an_isolated_runaway_tool_is_stopped_and_the_others_go_on(runaway: &str) {
    let project = support::Project::new();
    let spin = project.write(
        "spin.ts",
        &extension_source(&[
            tool_source("spin", runaway),
            tool_source("fine", "return { content: [], details: 'fine' };"),
        ]),
    );
    let other = project.write(
        "other.ts",
        &extension_source(&[tool_source("other", "return { content: [], details: 'other' };")]),
    );
    let host = refusing_host();
    support::runtime().block_on(async {
        let grant = environment_grant();
        let tune =
            |options: &mut pihost::EngineOptions| options.limits.cpu = Some(std::time::Duration::from_millis(1_000));
        let pihost = isolated_session(&project, &spin, grant, &[&other], tune, host).await;
        let fine = pihost
            .execute_tool("fine", "0", &json!({}), None)
            .await
            .expect("fine runs");
        assert_eq!(fine.map(|result| result["details"].clone()), Some(json!("fine")));
        let spun = pihost.execute_tool("spin", "1", &json!({}), None).await;
        let error = spun.expect_err("the runaway tool fails").to_string();
        assert!(
            error.contains(&format!("Extension \"{spin}\" did not return within 1000 ms")),
            "{error}"
        );
        let other = pihost
            .execute_tool("other", "2", &json!({}), None)
            .await
            .expect("other runs");
        assert_eq!(other.map(|result| result["details"].clone()), Some(json!("other")));
        let after = pihost.execute_tool("fine", "3", &json!({}), None).await;
        assert!(after.is_err(), "the stopped extension's tools fail: {after:?}");
    });
}

#[test]
fn an_isolated_extension_that_hoards_memory_is_stopped_at_the_sessions_heap_limit() {
    let project = support::Project::new();
    let hoard = project.write(
        "hoard.ts",
        &extension_source(&[tool_source(
            "hoard",
            "const keep = []; for (;;) keep.push(new Float64Array(1 << 22).fill(1));",
        )]),
    );
    let other = project.write(
        "other.ts",
        &extension_source(&[tool_source("other", "return { content: [], details: 'other' };")]),
    );
    let host = refusing_host();
    support::runtime().block_on(async {
        let tune = |options: &mut pihost::EngineOptions| options.limits.max_heap_mb = Some(64);
        let pihost = isolated_session(&project, &hoard, environment_grant(), &[&other], tune, host).await;
        let hoarded = pihost.execute_tool("hoard", "1", &json!({}), None).await;
        let error = hoarded.expect_err("the hoarding tool fails").to_string();
        assert!(
            error.contains(&format!("Extension \"{hoard}\" exceeded the heap limit of 64 MB")),
            "{error}"
        );
        let other = pihost
            .execute_tool("other", "2", &json!({}), None)
            .await
            .expect("other runs");
        assert_eq!(other.map(|result| result["details"].clone()), Some(json!("other")));
    });
}

#[test]
fn an_isolated_extension_is_asked_about_in_its_own_name() {
    let project = support::Project::new();
    let note = project.write("note.txt", "note");
    let granted_file = project.write("granted.txt", "granted");
    let reader = project.write(
        "reader.ts",
        "import fs from 'node:fs';\nexport default function (pi) {\n  pi.registerCommand('read', { handler: async (path) => fs.readFileSync(path, 'utf8') });\n}\n",
    );
    let host = std::sync::Arc::new(PromptedHost {
        answer: json!("allowOnce"),
        calls: Default::default(),
    });
    support::runtime().block_on(async {
        let grant = pihost::permissions::ExtensionGrant {
            allow_read: Some(vec![granted_file.clone()]),
            ..Default::default()
        };
        let tune = |options: &mut pihost::EngineOptions| options.permissions.prompt = true;
        let pihost = isolated_session(&project, &reader, grant, &[], tune, host.clone()).await;
        let granted = pihost.run_command("read", &granted_file).await.expect("granted read");
        assert_eq!(granted, Some(json!("granted")));
        let asked = pihost.run_command("read", &note).await.expect("asked read");
        assert_eq!(asked, Some(json!("note")));
    });
    let calls = host.calls.lock().expect("calls").clone();
    let requests: Vec<_> = calls
        .iter()
        .filter(|call| call["method"] == "permission.request")
        .map(|call| (call["extension"].clone(), call["target"].clone()))
        .collect();
    assert_eq!(requests, [(json!(reader), json!(note))], "{calls:#?}");
}

#[test]
fn a_reload_shuts_the_old_guest_down_and_loads_the_extension_in_a_new_one() {
    let project = support::Project::new();
    let log = project.write("log.txt", "");
    let logger = project.write(
        "logger.ts",
        &format!(
            "import fs from 'node:fs';\nconst loaded = Date.now() + Math.random();\nexport default function (pi) {{\n  pi.on('session_shutdown', async (event) => {{ fs.appendFileSync({log:?}, `shutdown ${{event.reason}}\\n`); }});\n  pi.registerCommand('loaded', {{ handler: async () => String(loaded) }});\n}}\n"
        ),
    );
    let host = refusing_host();
    support::runtime().block_on(async {
        let grant = pihost::permissions::ExtensionGrant {
            allow_write: Some(vec![log.clone()]),
            ..Default::default()
        };
        let pihost = isolated_session(&project, &logger, grant, &[], |_| {}, host).await;
        let first = pihost.run_command("loaded", "").await.expect("first");
        let report = pihost.reload(std::slice::from_ref(&logger)).await.expect("reload");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let second = pihost.run_command("loaded", "").await.expect("second");
        assert_ne!(first, second, "the module was evaluated anew, in a new guest");
    });
    assert_eq!(std::fs::read_to_string(&log).expect("log"), "shutdown reload\n");
}

/// Runs `pihost VERB NAME` on `source` (written to the ground) in a sandbox
/// whose policy file isolates it, with `extra` arguments; answers its report.
fn run_isolated(ground: &Ground, verb: &str, name: &str, source: &str, extra: &[&str]) -> (Value, String) {
    let fixture = ground.path(&format!("{name}.ts"));
    std::fs::write(&fixture, source).expect("write");
    let policy = ground.path("policy.json");
    std::fs::write(
        &policy,
        json!({ "extensions": { fixture.display().to_string(): { "allowEnv": [] } } }).to_string(),
    )
    .expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args([verb, name, "-e"])
        .arg(&fixture)
        .arg("--cwd")
        .arg(ground.root.path())
        .args(["--sandbox", "--permissions-file"])
        .arg(&policy)
        .args(extra)
        .output()
        .expect("pihost runs");
    let report = serde_json::from_slice(&output.stdout).expect("JSON");
    (report, fixture.display().to_string())
}

#[test]
fn an_isolated_extension_cannot_draw_and_is_told_why() {
    let ground = Ground::new();
    let (report, _) = run_isolated(
        &ground,
        "command",
        "draw",
        "export default function (pi) {\n  pi.registerCommand('draw', { handler: async (_args, ctx) => ctx.ui.custom((tui, theme, kb, done) => ({ render: () => ['hi'], invalidate() {}, handleInput: () => done('x') })) });\n}\n",
        &["--keys", "enter", "--width", "40"],
    );
    let error = report["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("ctx.ui.custom cannot show a component of an extension isolated by a permission policy"),
        "{report:#}"
    );
}

#[test]
fn an_isolated_tool_waiting_for_its_signal_is_settled_by_the_hosts_abort() {
    let project = support::Project::new();
    let waits = project.write(
        "waits.ts",
        &format!(
            "export default function (pi) {{\n  pi.registerTool({{ name: 'wait', label: 'wait', description: 'waits', {TOOL_PARAMETERS}, execute: (_id, _params, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({{ content: [], details: `aborted: ${{signal.aborted}}` }}))) }});\n}}\n"
        ),
    );
    let host = refusing_host();
    support::runtime().block_on(async {
        let grant = environment_grant();
        let pihost = isolated_session(&project, &waits, grant, &[], |_| {}, host).await;
        let args = json!({});
        let call = pihost.execute_tool("wait", "w1", &args, None);
        let abort = async {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            pihost.abort_tool("w1").await.expect("abort");
        };
        let (result, ()) = tokio::join!(call, abort);
        let result = result.expect("the tool settles").unwrap_or_default();
        assert_eq!(result["details"], json!("aborted: true"), "{result:#}");
    });
}

/// The runner keeps each event's list of handlers until some extension's
/// handlers change (js/runtime/handler-snapshots.js); a guest's handlers
/// reach the main runtime as a new record, which must count as a change.
#[test]
fn a_handler_an_isolated_extension_adds_after_an_event_runs_at_the_next() {
    let project = support::Project::new();
    let arming = project.write(
        "arming.ts",
        &format!(
            "export default function (pi) {{\n  pi.registerTool({{ name: 'arm', label: 'arm', description: 'arms', {TOOL_PARAMETERS}, async execute() {{ pi.on('tool_call', () => ({{ block: true, reason: 'armed' }})); return {{ content: [] }}; }} }});\n}}\n"
        ),
    );
    let watching = project.write(
        "watching.ts",
        "export default function (pi) {\n  pi.on('tool_call', () => undefined);\n}\n",
    );
    let host = refusing_host();
    support::runtime().block_on(async {
        let pihost = isolated_session(&project, &arming, environment_grant(), &[&watching], |_| {}, host).await;
        let event = json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "t1", "input": {} });
        assert_eq!(pihost.emit(&event).await.expect("emit before"), None);
        pihost.execute_tool("arm", "a1", &json!({}), None).await.expect("arm");
        assert_eq!(
            pihost.emit(&event).await.expect("emit after"),
            Some(json!({ "block": true, "reason": "armed" }))
        );
    });
}

#[test]
fn an_isolated_extensions_uncaught_error_reaches_the_host_in_its_name() {
    let ground = Ground::new();
    let (report, fixture) = run_isolated(
        &ground,
        "tool",
        "throws",
        "export default function (pi) {\n  pi.registerTool({ name: 'throws', label: 't', description: 't', parameters: { type: 'object', properties: {} },\n    async execute() { setTimeout(() => { throw new Error('boom in a timer'); }, 10); await new Promise((resolve) => setTimeout(resolve, 200)); return { content: [], details: 'done' }; } });\n}\n",
        &[],
    );
    assert_eq!(report["result"]["details"], "done", "{report:#}");
    let errors = report["errors"].as_array().cloned().unwrap_or_default();
    assert!(
        errors
            .iter()
            .any(|error| error["error"] == "boom in a timer" && error["extensionPath"] == json!(fixture)),
        "{report:#}"
    );
}

/// What tests/permissions/secret-env.ts saw of two credentials and a plain
/// variable the host has, run with `flags`.
fn secrets_seen(flags: &[&str]) -> Value {
    let project = tempfile::tempdir().expect("temp dir");
    let fixture = support::project_root().join("tests/permissions/secret-env.ts");
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .env_remove("LD_LIBRARY_PATH")
        .env("OPENAI_API_KEY", "sk-host")
        .env("PIHOST_TEST_SERVICE_TOKEN", "token-host")
        .env("PIHOST_TEST_PLAIN", "plain")
        .args(["tool", "read_secrets", "-e"])
        .arg(&fixture)
        .arg("--cwd")
        .arg(project.path())
        .args(flags)
        .output()
        .expect("pihost runs");
    let (report, _) = support::printed_json(&output);
    assert_eq!(report["errors"], json!([]), "{report:#}");
    assert!(report["result"]["details"].is_object(), "{report:#}");
    report["result"]["details"].clone()
}

const DOORS: [&str; 6] = ["processEnv", "execSync", "spawnSync", "spawn", "execFile", "piExec"];

fn every_door_sees(seen: &Value, name: &str, expected: &str) {
    for door in DOORS {
        assert_eq!(seen[door][name], expected, "{name} through {door}: {seen:#}");
    }
}

#[test]
fn a_sandbox_hides_credentials_from_extensions_and_their_programs_unless_named() {
    // The control: without a sandbox, every door shows every variable.
    let open = secrets_seen(&[]);
    every_door_sees(&open, "OPENAI_API_KEY", "sk-host");
    every_door_sees(&open, "PIHOST_TEST_SERVICE_TOKEN", "token-host");
    every_door_sees(&open, "PIHOST_TEST_PLAIN", "plain");

    // The whole environment granted: credentials are unset everywhere, the rest is there.
    let all = secrets_seen(&["--sandbox", "--allow-env", "--allow-run=sh,/bin/sh"]);
    every_door_sees(&all, "OPENAI_API_KEY", "unset");
    every_door_sees(&all, "PIHOST_TEST_SERVICE_TOKEN", "unset");
    every_door_sees(&all, "PIHOST_TEST_PLAIN", "plain");
    assert_eq!(all["listed"], json!(["PIHOST_TEST_PLAIN"]), "{all:#}");

    // No environment grant: the extension reads nothing; Node's child_process
    // needs the environment to copy it (refused), and pi.exec's programs get
    // it without the credentials.
    let none = secrets_seen(&["--sandbox", "--allow-run=sh,/bin/sh"]);
    assert_eq!(none["processEnv"]["OPENAI_API_KEY"], "denied", "{none:#}");
    assert_eq!(none["spawn"], "denied", "{none:#}");
    assert_eq!(none["piExec"]["OPENAI_API_KEY"], "unset", "{none:#}");
    assert_eq!(none["piExec"]["PIHOST_TEST_SERVICE_TOKEN"], "unset", "{none:#}");
    assert_eq!(none["piExec"]["PIHOST_TEST_PLAIN"], "plain", "{none:#}");

    // A credential named in the grant is the extension's, and its programs'
    // (pi.exec's: child_process needs the whole environment granted).
    let named = secrets_seen(&[
        "--sandbox",
        "--allow-env=OPENAI_API_KEY,PIHOST_TEST_PLAIN",
        "--allow-run=sh,/bin/sh",
    ]);
    assert_eq!(named["processEnv"]["OPENAI_API_KEY"], "sk-host", "{named:#}");
    assert_eq!(named["processEnv"]["PIHOST_TEST_SERVICE_TOKEN"], "denied", "{named:#}");
    assert_eq!(named["piExec"]["OPENAI_API_KEY"], "sk-host", "{named:#}");
    assert_eq!(named["piExec"]["PIHOST_TEST_SERVICE_TOKEN"], "unset", "{named:#}");

    // The patterns are the user's: an empty list hides nothing, another hides what it says.
    let nothing_hidden = secrets_seen(&["--sandbox", "--allow-env", "--allow-run=sh,/bin/sh", "--secret-env="]);
    every_door_sees(&nothing_hidden, "OPENAI_API_KEY", "sk-host");
    let own_patterns = secrets_seen(&[
        "--sandbox",
        "--allow-env",
        "--allow-run=sh,/bin/sh",
        "--secret-env=*_plain",
    ]);
    every_door_sees(&own_patterns, "PIHOST_TEST_PLAIN", "unset");
    every_door_sees(&own_patterns, "OPENAI_API_KEY", "sk-host");

    // An extension granted more than the session runs isolated, in a runtime
    // of its own: the same hiding, by its own grant.
    let folder = tempfile::tempdir().expect("temp dir");
    let policy = folder.path().join("policy.json");
    let fixture = support::project_root().join("tests/permissions/secret-env.ts");
    let grant = json!({ "extensions": { fixture.display().to_string(): {
        "allowEnv": [], "allowRun": ["sh", "/bin/sh"],
    } } });
    std::fs::write(&policy, grant.to_string()).expect("write policy");
    let policy_flag = format!("--permissions-file={}", policy.display());
    let isolated = secrets_seen(&["--sandbox", &policy_flag]);
    every_door_sees(&isolated, "OPENAI_API_KEY", "unset");
    every_door_sees(&isolated, "PIHOST_TEST_SERVICE_TOKEN", "unset");
    every_door_sees(&isolated, "PIHOST_TEST_PLAIN", "plain");
}

/// What each door of tests/permissions/confined-programs.ts printed for a
/// script that reads, writes and connects inside and outside `ground`'s grant.
fn confined_run(ground: &Ground, port: u16, flags: &[&str]) -> BTreeMap<String, String> {
    std::fs::create_dir_all(ground.granted().join("out")).expect("mkdir");
    let script = format!(
        "cat granted/inside.txt >/dev/null 2>&1 && echo READ_INSIDE; \
         cat other/secret.txt >/dev/null 2>&1 && echo READ_OUTSIDE; \
         (echo x > granted/out/w-$$) 2>/dev/null && echo WRITE_INSIDE; \
         (echo x > other/w-$$) 2>/dev/null && echo WRITE_OUTSIDE; \
         python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=3)' 2>/dev/null && echo CONNECT; \
         tr '\\0' '\\n' < /proc/$PPID/environ 2>/dev/null | grep -q PIHOST_TEST_HOST_SECRET && echo HOST_ENVIRON; \
         true"
    );
    let fixture = support::project_root().join("tests/permissions/confined-programs.ts");
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .env_remove("LD_LIBRARY_PATH")
        .env("PIHOST_TEST_HOST_SECRET", "1")
        .args(["tool", "run_everywhere", "-e"])
        .arg(&fixture)
        .arg("--cwd")
        .arg(ground.root.path())
        .args(["--args", &json!({ "script": script }).to_string()])
        .args(flags)
        .output()
        .expect("pihost runs");
    let (report, _) = support::printed_json(&output);
    assert_eq!(report["errors"], json!([]), "{report:#}");
    serde_json::from_value(report["result"]["details"].clone()).unwrap_or_else(|error| panic!("{error}: {report:#}"))
}

/// The doors whose output lacks or has `marker`.
fn doors_where(outputs: &BTreeMap<String, String>, marker: &str, present: bool) -> Vec<String> {
    outputs
        .iter()
        .filter(|(_, printed)| printed.lines().any(|line| line == marker) == present)
        .map(|(door, printed)| format!("{door}: {printed:?}"))
        .collect()
}

fn every_door(outputs: &BTreeMap<String, String>, marker: &str, present: bool) {
    assert_eq!(outputs.len(), 6, "{outputs:#?}");
    let wrong = doors_where(outputs, marker, !present);
    assert!(
        wrong.is_empty(),
        "{marker} should be {}: {wrong:#?}",
        if present { "there" } else { "absent" }
    );
}

#[test]
fn granted_programs_are_confined_to_the_grants_by_the_kernel() {
    if pihost::confine::kernel_abi() < 4 {
        eprintln!(
            "skipping: this kernel's Landlock ({}) cannot confine files and ports",
            pihost::confine::kernel_abi()
        );
        return;
    }
    let port = http_server();
    let grants = [
        "--sandbox",
        "--allow-read=granted",
        "--allow-write=granted/out",
        "--allow-run=sh,/bin/sh,python3,cat",
    ];

    // The control: without a sandbox every attempt works, so the refusals below are real.
    let open = confined_run(&Ground::new(), port, &[]);
    for marker in [
        "READ_INSIDE",
        "READ_OUTSIDE",
        "WRITE_INSIDE",
        "WRITE_OUTSIDE",
        "CONNECT",
        "HOST_ENVIRON",
    ] {
        every_door(&open, marker, true);
    }

    // In the sandbox, the granted programs do what the grants cover and nothing else.
    let ground = Ground::new();
    let confined = confined_run(&ground, port, &grants);
    every_door(&confined, "READ_INSIDE", true);
    every_door(&confined, "WRITE_INSIDE", true);
    every_door(&confined, "READ_OUTSIDE", false);
    every_door(&confined, "WRITE_OUTSIDE", false);
    every_door(&confined, "CONNECT", false);
    // Nor read the host's environment (its credentials) through /proc.
    every_door(&confined, "HOST_ENVIRON", false);
    let written: Vec<_> = std::fs::read_dir(ground.path("other"))
        .expect("read dir")
        .flatten()
        .map(|entry| entry.file_name())
        .collect();
    assert_eq!(written.len(), 1, "only secret.txt is outside the grant: {written:?}");

    // A network grant with the port opens exactly that port to the programs.
    let port_grant = format!("--allow-net=127.0.0.1:{port}");
    let mut with_port = grants.to_vec();
    with_port.push(&port_grant);
    every_door(&confined_run(&Ground::new(), port, &with_port), "CONNECT", true);

    // --confine=off is today's sandbox: the programs escape it.
    let mut off = grants.to_vec();
    off.push("--confine=off");
    every_door(&confined_run(&Ground::new(), port, &off), "READ_OUTSIDE", true);

    // An isolated extension's programs are confined by its own grants.
    let ground = Ground::new();
    let fixture = support::project_root().join("tests/permissions/confined-programs.ts");
    let policy = ground.path("policy.json");
    let grant = json!({ "extensions": { fixture.display().to_string(): {
        "allowRead": ["granted"], "allowWrite": ["granted/out"], "allowRun": ["sh", "/bin/sh", "python3", "cat"],
    } } });
    std::fs::write(&policy, grant.to_string()).expect("write policy");
    let policy_flag = format!("--permissions-file={}", policy.display());
    let isolated = confined_run(&ground, port, &["--sandbox", &policy_flag]);
    every_door(&isolated, "READ_INSIDE", true);
    every_door(&isolated, "WRITE_INSIDE", true);
    every_door(&isolated, "READ_OUTSIDE", false);
    every_door(&isolated, "WRITE_OUTSIDE", false);
}

/// Two extensions that read the file they are given, one tool each.
const READER: &str = "import fs from 'node:fs';\nexport default function (pi) {\n  pi.registerTool({ name: 'read_NAME', parameters: { type: 'object', properties: { path: { type: 'string' } } },\n    async execute(_id, { path }) { return { content: [{ type: 'text', text: fs.readFileSync(path, 'utf8') }], details: {} }; } });\n}\n";

#[test]
fn a_policy_denies_one_extension_what_the_session_allows_the_others() {
    let folder = tempfile::tempdir().expect("temp dir");
    let secret = folder.path().join("secret.txt");
    std::fs::write(&secret, "the secret").expect("write");
    for name in ["a", "b"] {
        std::fs::write(folder.path().join(format!("{name}.ts")), READER.replace("NAME", name)).expect("write");
    }
    let policy = folder.path().join("policy.json");
    let deny = json!({ "extensions": { "./a.ts": { "denyRead": [secret.display().to_string()] } } });
    std::fs::write(&policy, deny.to_string()).expect("write policy");
    let read_with = |tool: &str, flags: &[&str]| -> Value {
        let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .args(["tool", tool, "-e", "a.ts", "-e", "b.ts", "--cwd"])
            .arg(folder.path())
            .args(["--args", &json!({ "path": secret }).to_string()])
            .arg(format!("--permissions-file={}", policy.display()))
            .args(flags)
            .output()
            .expect("pihost runs");
        support::printed_json(&output).0
    };
    // No sandbox: the session allows everything, the policy denies a.ts the file.
    let denied = read_with("read_a", &[]);
    assert_eq!(
        denied["error"],
        format!(
            "Requires read access to \"{}\", run again with the --allow-read flag",
            secret.display()
        ),
        "{denied:#}"
    );
    let allowed = read_with("read_b", &[]);
    assert_eq!(allowed["result"]["content"][0]["text"], "the secret", "{allowed:#}");
    // In a sandbox that grants the folder, the same.
    let granted = format!("--allow-read={}", folder.path().display());
    let denied = read_with("read_a", &["--sandbox", &granted]);
    assert!(
        denied["error"]
            .as_str()
            .is_some_and(|error| error.starts_with("Requires read access")),
        "{denied:#}"
    );
    let allowed = read_with("read_b", &["--sandbox", &granted]);
    assert_eq!(allowed["result"]["content"][0]["text"], "the secret", "{allowed:#}");
}

/// Runs tests/permissions/audited.ts on `ground` with `flags`, writing the
/// audit file there; answers what each touch gave, the decisions the host
/// was told and the audit file's lines, each decision as
/// `permission target outcome decidedBy` with the ground's path as
/// `<ground>`.
fn audited_run(ground: &Ground, flags: &[&str]) -> (Value, Vec<String>, Vec<String>) {
    let fixture = support::project_root().join("tests/permissions/audited.ts");
    std::fs::create_dir_all(ground.granted().join("secret")).expect("mkdir");
    std::fs::write(ground.granted().join("secret/key.txt"), "key").expect("write");
    let audit_file = ground.path("audit.jsonl");
    let _ = std::fs::remove_file(&audit_file);
    let root = ground.root.path().display().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .env("PIHOST_AUDIT_VISIBLE", "visible")
        .env("PIHOST_AUDIT_HIDDEN", "hidden")
        .args(["tool", "touch_for_audit", "-e"])
        .arg(&fixture)
        .arg("--cwd")
        .arg(ground.root.path())
        .args(["--args", &json!({ "ground": root }).to_string()])
        .arg(format!("--audit-file={}", audit_file.display()))
        .args(flags)
        .output()
        .expect("pihost runs");
    let (report, _) = support::printed_json(&output);
    assert_eq!(report["errors"], json!([]), "{report:#}");
    let fixture_path = fixture.display().to_string();
    let line = |decision: &Value| -> String {
        assert_eq!(
            decision["extension"],
            fixture_path.as_str(),
            "named by its extension: {decision}"
        );
        format!(
            "{} {} {} {}",
            decision["permission"].as_str().unwrap_or("?"),
            decision["target"].as_str().unwrap_or("?").replace(&root, "<ground>"),
            decision["outcome"].as_str().unwrap_or("?"),
            decision["decidedBy"].as_str().unwrap_or("?"),
        )
    };
    let told: Vec<String> = report["hostCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|call| call["method"] == "permission.decision")
        .map(line)
        .collect();
    let written: Vec<String> = std::fs::read_to_string(&audit_file)
        .unwrap_or_default()
        .lines()
        .map(|text| {
            let decision: Value = serde_json::from_str(text).expect("a line of JSON");
            assert!(
                decision["time"].as_str().is_some_and(|time| time.ends_with('Z')),
                "{text}"
            );
            line(&decision)
        })
        .collect();
    (report["result"]["details"].clone(), told, written)
}

const AUDITED_GRANTS: [&str; 5] = [
    "--sandbox",
    "--allow-read=granted,/proc",
    "--deny-read=granted/secret",
    "--allow-run=sh",
    "--allow-env=PIHOST_AUDIT_VISIBLE",
];

/// Every decision audited.ts's touches need, as `audited_run` words them.
const EVERY_DECISION: [&str; 10] = [
    "read <ground>/granted/inside.txt granted grant",
    "read <ground>/granted/secret/key.txt denied denyList",
    "read <ground>/other/secret.txt denied noPrompt",
    "run sh granted grant",
    "run cat denied noPrompt",
    "env PIHOST_AUDIT_VISIBLE granted grant",
    "env PIHOST_AUDIT_HIDDEN denied noPrompt",
    "read /proc/self/environ denied systemFile",
    "read <ground>/granted/inside.txt granted grant",
    "read <ground>/other/secret.txt denied noPrompt",
];

#[test]
fn the_audit_reports_every_decision_with_its_extension_to_the_host_and_the_file() {
    let ground = Ground::new();
    let mut flags = AUDITED_GRANTS.to_vec();
    flags.push("--audit=all");
    let (outcomes, told, written) = audited_run(&ground, &flags);
    // What happened: the granted touches worked, the others were refused.
    for touch in ["grantedRead", "grantedRun", "grantedEnv", "workerGrantedRead"] {
        assert_eq!(outcomes[touch], "ok", "{touch}: {outcomes:#}");
    }
    for touch in [
        "deniedRead",
        "ungrantedRead",
        "ungrantedRun",
        "ungrantedEnv",
        "environ",
        "workerUngrantedRead",
    ] {
        assert!(
            outcomes[touch]
                .as_str()
                .is_some_and(|refusal| refusal.contains("Requires")),
            "{touch}: {outcomes:#}"
        );
    }
    // Each decision once, in the order made, to the host and to the file alike.
    assert_eq!(told, EVERY_DECISION, "{told:#?}");
    assert_eq!(written, told);

    // By default, only refusals (and the host's answers).
    let (_, told, written) = audited_run(&ground, &AUDITED_GRANTS);
    let refusals: Vec<&str> = EVERY_DECISION
        .iter()
        .copied()
        .filter(|decision| decision.contains(" denied "))
        .collect();
    assert_eq!(told, refusals, "{told:#?}");
    assert_eq!(written, told);
}

#[test]
fn an_isolated_extensions_decisions_are_audited_against_its_own_grant() {
    let ground = Ground::new();
    let fixture = support::project_root().join("tests/permissions/audited.ts");
    let policy = ground.path("policy.json");
    let grant = json!({ "extensions": { fixture.display().to_string(): {
        "allowRead": ["granted", "/proc"],
        "denyRead": ["granted/secret"],
        "allowRun": ["sh"],
        "allowEnv": ["PIHOST_AUDIT_VISIBLE"],
    } } });
    std::fs::write(&policy, grant.to_string()).expect("write policy");
    let policy_flag = format!("--permissions-file={}", policy.display());
    let (outcomes, told, written) = audited_run(&ground, &["--sandbox", "--audit=all", &policy_flag]);
    assert_eq!(outcomes["grantedRead"], "ok", "{outcomes:#}");
    assert_eq!(told, EVERY_DECISION, "{told:#?}");
    assert_eq!(written, told);
}

#[test]
fn no_process_environment_file_is_readable_in_a_sandbox_whatever_the_grants() {
    let folder = tempfile::tempdir().expect("temp dir");
    let fixture = support::project_root().join("tests/permissions/environ.ts");
    let seen = |flags: &[&str]| -> Value {
        let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .env("PIHOST_ENVIRON_MARK", "host-secret")
            .args(["tool", "read_environ", "-e"])
            .arg(&fixture)
            .arg("--cwd")
            .arg(folder.path())
            .args(["--args", &json!({ "folder": folder.path() }).to_string()])
            .args(flags)
            .output()
            .expect("pihost runs");
        let (report, _) = support::printed_json(&output);
        assert!(report["result"]["details"].is_object(), "{report:#}");
        report["result"]["details"].clone()
    };
    // The control: without a sandbox every file shows the host's environment
    // (the parent's is the test's, which lacks the mark).
    let open = seen(&[]);
    for file in ["self", "threadSelf", "byNumber", "task", "link"] {
        assert_eq!(open[file], "host-secret", "{file}: {open:#}");
    }
    assert_eq!(open["parent"], "absent", "{open:#}");
    // Sandboxed with every file and variable granted: none of them.
    let sandboxed = seen(&["--sandbox", "--allow-read", "--allow-write", "--allow-env"]);
    for file in ["self", "threadSelf", "byNumber", "task", "parent", "link"] {
        assert!(
            sandboxed[file].as_str().is_some_and(|seen| seen.starts_with("refused")),
            "{file}: {sandboxed:#}"
        );
    }
}

#[test]
fn a_touch_the_host_already_decided_is_audited_as_its_answer_without_asking_again() {
    let project = support::Project::new();
    let note = project.write("note.txt", "note");
    project.write(
        "rereads.ts",
        &format!(
            "import fs from 'node:fs';\nexport default function (pi) {{\n  pi.registerCommand('reread', {{ handler: async () => {{\n    const read = () => {{ try {{ return fs.readFileSync({note:?}, 'utf8'); }} catch (error) {{ return 'refused'; }} }};\n    return read() + ' ' + read();\n  }} }});\n}}\n"
        ),
    );
    for (answer, result, first, second) in [
        ("allowAlways", "note note", "allowedAlways", "granted"),
        ("deny", "refused refused", "denied", "denied"),
    ] {
        let host = std::sync::Arc::new(PromptedHost {
            answer: json!(answer),
            calls: Default::default(),
        });
        let permissions = pihost::Permissions {
            sandbox: true,
            prompt: true,
            audit: pihost::permissions::AuditScope::All,
            ..Default::default()
        };
        let outcome = run_prompted(&project, &host, permissions, "rereads.ts", "reread", "")
            .unwrap_or_else(|error| panic!("loads: {error}"));
        assert_eq!(outcome.as_ref().and_then(Value::as_str), Some(result), "{answer}");
        let calls = host.calls.lock().expect("calls").clone();
        let asked = calls
            .iter()
            .filter(|call| call["method"] == "permission.request")
            .count();
        assert_eq!(asked, 1, "asked once: {calls:#?}");
        let decisions: Vec<(String, String)> = calls
            .iter()
            .filter(|call| call["method"] == "permission.decision" && call["target"] == note.as_str())
            .map(|call| {
                (
                    call["outcome"].as_str().unwrap_or("?").to_string(),
                    call["decidedBy"].as_str().unwrap_or("?").to_string(),
                )
            })
            .collect();
        assert_eq!(
            decisions,
            [
                (first.to_string(), "host".to_string()),
                (second.to_string(), "host".to_string())
            ],
            "{answer}: {calls:#?}"
        );
    }
}

#[test]
fn extensions_an_extension_discovers_and_loads_are_checked_by_the_sandbox() {
    let ground = Ground::new();
    std::fs::write(
        ground.path("other/loaded.ts"),
        "export default function (pi) { pi.registerCommand('loaded', { handler: async () => 'loaded' }); }\n",
    )
    .expect("write");
    let fixture = ground.path("loader.ts");
    let project = ground.root.path().display().to_string();
    std::fs::write(
        &fixture,
        format!(
            "import {{ discoverAndLoadExtensions }} from '@earendil-works/pi-coding-agent';\nconst project = {project:?};\nexport default function (pi) {{\n  pi.registerCommand('load', {{ handler: async (args) => {{\n    try {{\n      const loaded = await discoverAndLoadExtensions([args], project, project + '/agent');\n      return JSON.stringify({{ extensions: loaded.extensions.length, errors: loaded.errors.map((error) => error.error) }});\n    }} catch (error) {{ return 'refused: ' + error.message; }}\n  }} }});\n}}\n"
        ),
    )
    .expect("write");
    let other = ground.path("other/loaded.ts").display().to_string();
    let run = |flags: &[&str]| -> Value {
        let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .args(["command", "load", "--args", &other, "-e"])
            .arg(&fixture)
            .arg("--cwd")
            .arg(ground.root.path())
            .args(flags)
            .output()
            .expect("pihost runs");
        support::printed_json(&output).0
    };
    // The control: without a sandbox the other extension loads.
    let open = run(&[]);
    assert_eq!(open["result"], r#"{"extensions":1,"errors":[]}"#, "{open:#}");
    // In a sandbox, discovery's reads are refused.
    let refused = run(&["--sandbox"]);
    assert!(
        refused["result"]
            .as_str()
            .is_some_and(|text| text.starts_with("refused: Requires read access")),
        "{refused:#}"
    );
    // Granted what discovery reads, the other extension loads in the sandbox too.
    let grant = format!("--allow-read={project}/.pi,{project}/agent,{other}");
    let granted = run(&["--sandbox", &grant]);
    assert_eq!(granted["result"], r#"{"extensions":1,"errors":[]}"#, "{granted:#}");
}
