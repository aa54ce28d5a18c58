//! Starting again, as a user does every day: the on-disk transpile cache
//! (only edited files are transpiled again; a damaged entry is rebuilt,
//! never run), minified files with very long lines, CommonJS through
//! `require`, and `pihost inspect --timing`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::*;

/// `pihost inspect` in `project` with the transpile cache in `cache`, to
/// be given its arguments.
fn inspect_command(project: &Project, cache: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pihost"));
    command
        .env("PIHOST_TRANSPILE_CACHE_DIR", cache)
        .env_remove("PIHOST_TRANSPILE_CACHE")
        .arg("inspect")
        .arg("--cwd")
        .arg(project.root.path())
        .arg("--agent-dir")
        .arg(project.path("agent"));
    command
}

fn inspect(project: &Project, cache: &Path, args: &[&str]) -> (String, String, i32) {
    output_text(
        &inspect_command(project, cache)
            .args(args)
            .output()
            .expect("pihost runs"),
    )
}

fn inspect_json(project: &Project, cache: &Path, paths: &[&str]) -> serde_json::Value {
    let mut args = vec!["--json"];
    args.extend_from_slice(paths);
    let (stdout, stderr, _) = inspect(project, cache, &args);
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("no JSON ({error}):\n{stdout}\n{stderr}"))
}

fn cache_counts(report: &serde_json::Value) -> (u64, u64, u64) {
    let counts = &report["transpileCache"];
    let count = |key: &str| counts[key].as_u64().unwrap_or_else(|| panic!("no {key} in {counts}"));
    (count("hits"), count("misses"), count("damaged"))
}

fn tool_names(report: &serde_json::Value) -> Vec<String> {
    report["extensions"]
        .as_array()
        .expect("extensions")
        .iter()
        .flat_map(|extension| extension["tools"].as_array().cloned().unwrap_or_default())
        .map(|tool| tool["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// An extension of three TypeScript files whose tool is named in `name.ts`.
fn three_file_extension(project: &Project, name: &str) -> String {
    project.write("ext/name.ts", &format!("export const toolName: string = \"{name}\";\n"));
    project.write(
        "ext/schema.ts",
        "export const parameters: Record<string, unknown> = { type: \"object\", properties: {} };\n",
    );
    project.write(
        "ext/index.ts",
        "import { toolName } from \"./name.ts\";\nimport { parameters } from \"./schema.ts\";\n\
         export default function (pi: any) {\n  pi.registerTool({ name: toolName, label: toolName, description: \"d\", parameters, async execute() { return { content: [] }; } });\n}\n",
    )
}

fn cache_entries(cache: &Path) -> Vec<PathBuf> {
    let mut entries = Vec::new();
    for shard in std::fs::read_dir(cache).expect("the cache folder exists").flatten() {
        for entry in std::fs::read_dir(shard.path()).into_iter().flatten().flatten() {
            if !entry.file_name().to_string_lossy().starts_with('.') {
                entries.push(entry.path());
            }
        }
    }
    entries
}

#[test]
fn a_second_start_after_editing_one_file_transpiles_only_that_file() {
    let project = Project::new();
    let cache = tempfile::tempdir().expect("cache dir");
    let entry = three_file_extension(&project, "tool_before");

    let first = inspect_json(&project, cache.path(), &[&entry]);
    assert_eq!(
        cache_counts(&first),
        (0, 3, 0),
        "a cold start transpiles all three files"
    );
    let second = inspect_json(&project, cache.path(), &[&entry]);
    assert_eq!(cache_counts(&second), (3, 0, 0), "a warm start transpiles nothing");
    assert_eq!(tool_names(&second), ["tool_before"]);

    project.write("ext/name.ts", "export const toolName: string = \"tool_after\";\n");
    let third = inspect_json(&project, cache.path(), &[&entry]);
    assert_eq!(
        cache_counts(&third),
        (2, 1, 0),
        "only the edited file is transpiled again"
    );
    assert_eq!(tool_names(&third), ["tool_after"], "and the edit is what runs");
}

#[test]
fn a_damaged_cache_entry_is_rebuilt_and_never_run() {
    let project = Project::new();
    let cache = tempfile::tempdir().expect("cache dir");
    let entry = three_file_extension(&project, "tool_alpha");
    let first = inspect_json(&project, cache.path(), &[&entry]);
    assert_eq!(tool_names(&first), ["tool_alpha"]);

    // One entry altered as an attacker or a bad disk would (same length, a
    // different tool name), one truncated as by a crash mid-write.
    let entries = cache_entries(cache.path());
    assert_eq!(entries.len(), 3, "{entries:?}");
    let mut altered = 0;
    let mut truncated = 0;
    for path in &entries {
        let bytes = std::fs::read(path).expect("entry");
        let at = bytes.windows(10).position(|window| window == b"tool_alpha");
        match at {
            Some(at) => {
                let mut bytes = bytes.clone();
                bytes[at..at + 10].copy_from_slice(b"tool_omega");
                std::fs::write(path, bytes).expect("alter");
                altered += 1;
            }
            None if truncated == 0 => {
                std::fs::write(path, &bytes[..bytes.len() / 2]).expect("truncate");
                truncated += 1;
            }
            None => {}
        }
    }
    assert_eq!((altered, truncated), (1, 1));

    let second = inspect_json(&project, cache.path(), &[&entry]);
    assert_eq!(
        cache_counts(&second),
        (1, 2, 2),
        "both damaged entries are found and rebuilt"
    );
    assert_eq!(tool_names(&second), ["tool_alpha"], "the altered code never ran");
    let third = inspect_json(&project, cache.path(), &[&entry]);
    assert_eq!(
        cache_counts(&third),
        (3, 0, 0),
        "the rebuilt entries serve the next start"
    );
}

#[test]
fn the_cache_can_be_turned_off() {
    let project = Project::new();
    let cache = tempfile::tempdir().expect("cache dir");
    let entry = three_file_extension(&project, "tool_plain");
    let output = inspect_command(&project, cache.path())
        .env("PIHOST_TRANSPILE_CACHE", "off")
        .args(["--json", &entry])
        .output()
        .expect("pihost runs");
    let (report, code) = printed_json(&output);
    assert_eq!(code, 0);
    assert_eq!(tool_names(&report), ["tool_plain"]);
    assert!(report.get("transpileCache").is_none(), "{report}");
    assert!(
        std::fs::read_dir(cache.path()).expect("dir").next().is_none(),
        "nothing was written"
    );
}

#[test]
fn timing_shows_each_extensions_stages_and_slowest_modules() {
    let project = Project::new();
    let cache = tempfile::tempdir().expect("cache dir");
    let entry = three_file_extension(&project, "tool_timed");
    let (stdout, stderr, code) = inspect(&project, cache.path(), &["--timing", &entry]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("transpile  0 from the disk cache, 3 transpiled"),
        "{stdout}"
    );
    assert!(stdout.contains("slowest    "), "{stdout}");
    assert!(stdout.contains("runtime    started in "), "{stdout}");
    let timing_line = stdout
        .lines()
        .find(|line| line.trim_start().starts_with("timing"))
        .unwrap_or_else(|| panic!("no timing line:\n{stdout}"));
    for stage in [
        "resolve",
        "read",
        "transpile",
        "rewrite",
        "compile",
        "evaluate",
        "factory",
    ] {
        assert!(timing_line.contains(stage), "{timing_line}");
    }
    assert!(timing_line.contains("modules"), "{timing_line}");
    assert!(
        stdout
            .lines()
            .any(|line| line.trim_start().starts_with("module") && line.contains("/ext/")),
        "the extension's own modules are among the slowest listed:\n{stdout}"
    );
    // Without --timing the table stays as it was.
    let (plain, _, _) = inspect(&project, cache.path(), &[&entry]);
    assert!(!plain.contains("timing ") && !plain.contains("runtime    "), "{plain}");

    let report = inspect_json(&project, cache.path(), &[&entry]);
    let timing = &report["extensions"][0]["timing"];
    assert!(timing["modules"].as_u64().unwrap_or(0) >= 3, "{timing}");
    assert!(timing["evaluateMs"].as_f64().is_some(), "{timing}");
}

/// A minified file: `statements` short statements on one line, then a
/// function that throws, on the same line.
fn minified(statements: usize) -> (String, usize) {
    let mut line: String = (0..statements)
        .map(|index| format!("var v{index}=\"x\",w{index}={index};"))
        .collect();
    line.push_str("export function boom(){");
    let throw_at = line.len();
    line.push_str("throw new Error(\"boom\")}");
    (line, throw_at)
}

#[test]
fn a_minified_file_loads_and_its_errors_point_at_its_own_columns() {
    let project = Project::new();
    let cache = tempfile::tempdir().expect("cache dir");
    let (line, throw_at) = minified(4000);
    assert!(line.len() > 64 * 1024);
    project.write("min.js", &line);
    let entry = project.write(
        "ext.ts",
        "import { boom } from \"./min.js\";\nexport default function (pi: any) { boom(); }\n",
    );
    // The second start takes the broken file from the disk cache, whose
    // entry holds no map: it is made again from the file for the trace.
    for start in ["first", "second"] {
        let report = inspect_json(&project, cache.path(), &[&entry]);
        assert_minified_error_points_at_its_own_column(&report, &line, throw_at, start);
    }
}

fn assert_minified_error_points_at_its_own_column(
    report: &serde_json::Value,
    line: &str,
    throw_at: usize,
    start: &str,
) {
    // The engine got the file broken into lines (engine note 30)...
    let modules = report["errors"][0]["timing"]["slowestModules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let given = modules
        .iter()
        .find(|module| module["path"].as_str().is_some_and(|path| path.ends_with("min.js")))
        .unwrap_or_else(|| panic!("min.js among the slowest modules: {report}"));
    assert!(given["bytes"].as_u64().unwrap_or(0) > line.len() as u64, "{given}");
    // ...and its errors still point at the file's own line and column.
    let stack = report["errors"][0]["stack"]
        .as_str()
        .unwrap_or_else(|| panic!("a stack: {report}"));
    let frame = stack
        .lines()
        .find(|frame| frame.contains("min.js:"))
        .unwrap_or_else(|| panic!("a frame in min.js:\n{stack}"));
    let position = frame.rsplit("min.js:").next().unwrap_or_default().trim_end_matches(')');
    let (line_number, column) = position.split_once(':').unwrap_or_else(|| panic!("{frame}"));
    assert_eq!(line_number, "1", "the file's own line: {frame}");
    let column: usize = column.parse().unwrap_or_else(|_| panic!("{frame}"));
    assert!(
        (throw_at + 1..=throw_at + 12).contains(&column),
        "{start} start: column {column} is the throw's (at {}): {frame}",
        throw_at + 1
    );
}

#[test]
fn required_commonjs_keeps_nodes_strict_and_sloppy_semantics_and_lists_require_extensions() {
    let project = Project::new();
    let cache = tempfile::tempdir().expect("cache dir");
    project.write(
        "strict.cjs",
        "\"use strict\";\nmodule.exports = { thisInAFunction: typeof (function () { return this; })(), moduleThis: this === module.exports };\n",
    );
    project.write(
        "sloppy.cjs",
        "leaked = 1;\nmodule.exports = { thisInAFunction: typeof (function () { return this; })(), leaked: typeof globalThis.leaked };\n",
    );
    project.write(
        "throws.cjs",
        "\"use strict\";\n\nmodule.exports = function () {\n  throw new Error(\"from throws.cjs\");\n};\n",
    );
    let entry = project.write(
        "ext.ts",
        "const strict = require(\"./strict.cjs\");\nconst sloppy = require(\"./sloppy.cjs\");\n\
         export default function (pi: any) {\n  pi.registerCommand(\"facts\", { description: JSON.stringify({ strict, sloppy, extensions: Object.keys(require.extensions) }), handler: async () => {} });\n  require(\"./throws.cjs\")();\n}\n",
    );
    for start in ["cold", "warm"] {
        let report = inspect_json(&project, cache.path(), &[&entry]);
        let error = &report["errors"][0];
        assert!(
            error["error"].as_str().unwrap_or_default().contains("from throws.cjs"),
            "{start}: {report}"
        );
        let stack = error["stack"].as_str().unwrap_or_default();
        assert!(
            stack.contains("throws.cjs:4:"),
            "{start}: line 4 of throws.cjs:\n{stack}"
        );
    }
    // The facts, from a load that does not throw.
    project.write("throws.cjs", "\"use strict\";\nmodule.exports = function () {};\n");
    let report = inspect_json(&project, cache.path(), &[&entry]);
    let description = report["extensions"][0]["commands"][0]["description"]
        .as_str()
        .unwrap_or_else(|| panic!("{report}"));
    let facts: serde_json::Value = serde_json::from_str(description).expect("facts");
    assert_eq!(
        facts,
        serde_json::json!({
            "strict": { "thisInAFunction": "undefined", "moduleThis": true },
            "sloppy": { "thisInAFunction": "object", "leaked": "number" },
            "extensions": [".js", ".json", ".node"],
        })
    );
}

/// The `.qbc` files under `dir`, however deep.
fn bytecode_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|extension| extension == "qbc") {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn the_engines_bytecode_is_kept_apart_for_each_build_of_pihost() {
    let project = Project::new();
    let entry = three_file_extension(&project, "ext");
    let caches = tempfile::tempdir().expect("temp dir");
    let run = |extra: &[(&str, &Path)]| {
        let mut command = inspect_command(&project, &caches.path().join("transpile"));
        command
            .env("XDG_CACHE_HOME", caches.path())
            .env_remove("V82JSC_BC_CACHE_DIR")
            .env_remove("V82JSC_NO_BC_CACHE");
        for (name, value) in extra {
            command.env(name, value);
        }
        let (stdout, stderr, code) = output_text(&command.arg(&entry).output().expect("pihost runs"));
        assert_eq!(code, 0, "{stdout}\n{stderr}");
    };
    run(&[]);
    // This build's folder, not the engine's shared one, which another build
    // of pihost reads and writes too.
    let builds: Vec<PathBuf> = std::fs::read_dir(caches.path().join("pihost/engine-bytecode"))
        .expect("a folder for the engine's bytecode")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    assert_eq!(builds.len(), 1, "{builds:?}");
    assert!(
        !bytecode_files(&builds[0]).is_empty(),
        "the engine cached bytecode in {}",
        builds[0].display()
    );
    assert!(
        bytecode_files(&caches.path().join("v8x")).is_empty(),
        "nothing in the engine's shared folder"
    );
    // A folder the user names is the engine's own choice and is kept.
    let chosen = caches.path().join("chosen");
    run(&[("V82JSC_BC_CACHE_DIR", &chosen)]);
    assert!(
        !bytecode_files(&chosen).is_empty(),
        "the engine cached bytecode where the user said"
    );
}

/// What an extension sees of its process and its moment, as its tool's
/// description: a runtime from the kept snapshot must see its own.
const PROCESS_PROBE: &str = r#"
import { randomUUID } from "node:crypto";
import { performance as hooksPerformance } from "node:perf_hooks";
export default function (pi: any) {
  const seen = {
    cwd: process.cwd(),
    env: process.env.PIHOST_PROBE_VALUE,
    argv0: process.argv.length > 0,
    random: Math.random(),
    uuid: randomUUID(),
    temporal: typeof Temporal === "object" && Math.abs(Temporal.Now.instant().epochMilliseconds - Date.now()) < 60000,
    timeOrigin: Math.abs(performance.timeOrigin - Date.now()) < 60000 && hooksPerformance.timeOrigin === performance.timeOrigin,
    url: new URL("a/b", "https://example.com/x/").href,
    encoded: new TextEncoder().encode("é").length,
    cloned: structuredClone(new Map([[1, 2]])).get(1),
  };
  pi.registerTool({ name: "probe", label: "probe", description: JSON.stringify(seen), parameters: { type: "object", properties: {} }, async execute() { return { content: [] }; } });
}
"#;

#[test]
fn a_runtime_from_the_kept_startup_snapshot_sees_its_own_process_and_a_damaged_one_is_made_again() {
    let project = Project::new();
    let entry = project.write("probe.ts", PROCESS_PROBE);
    let caches = tempfile::tempdir().expect("temp dir");
    let snapshots = caches.path().join("snapshots");
    let run = |value: &str| {
        let mut command = inspect_command(&project, &caches.path().join("transpile"));
        command
            .env("PIHOST_STARTUP_SNAPSHOT_DIR", &snapshots)
            .env_remove("PIHOST_STARTUP_SNAPSHOT")
            .env("PIHOST_LOG", "pihost::startup_snapshot=debug")
            .env("PIHOST_PROBE_VALUE", value)
            .current_dir(project.root.path())
            .args(["--json", &entry]);
        let (stdout, stderr, code) = output_text(&command.output().expect("pihost runs"));
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        let report: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("no JSON ({error}):\n{stdout}\n{stderr}"));
        let description = report["extensions"][0]["tools"][0]["description"]
            .as_str()
            .unwrap_or_else(|| panic!("no probe tool: {report}"))
            .to_string();
        let mut seen: serde_json::Value = serde_json::from_str(&description).expect("the probe's JSON");
        // What the report says of the runtime's start, beside what the
        // extension saw.
        seen["fromStartupSnapshot"] = report["runtimeStart"]["fromStartupSnapshot"].clone();
        (seen, stderr)
    };
    let snapshot_files = || -> Vec<PathBuf> {
        std::fs::read_dir(&snapshots)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|extension| extension == "snapshot"))
            .collect()
    };

    let (from_source, log) = run("first");
    assert!(log.contains("runtimes start from source"), "{log}");
    assert_eq!(from_source["fromStartupSnapshot"], false, "the report says so too");
    let kept = snapshot_files();
    assert_eq!(kept.len(), 1, "the first start kept a snapshot: {kept:?}\n{log}");

    let (second, log) = run("second");
    assert!(log.contains("runtimes start from the startup snapshot"), "{log}");
    assert_eq!(second["fromStartupSnapshot"], true, "the report says so too");
    let (third, _) = run("third");
    for (seen, value) in [(&from_source, "first"), (&second, "second"), (&third, "third")] {
        assert_eq!(seen["env"], value, "{seen}");
        assert_eq!(
            seen["cwd"].as_str().map(PathBuf::from),
            Some(project.root.path().canonicalize().expect("project root")),
            "{seen}"
        );
        for fact in ["argv0", "temporal", "timeOrigin"] {
            assert_eq!(seen[fact], true, "{fact}: {seen}");
        }
        assert_eq!(seen["url"], "https://example.com/x/a/b");
        assert_eq!(seen["encoded"], 2);
        assert_eq!(seen["cloned"], 2);
    }
    assert_ne!(
        second["random"], third["random"],
        "each process draws its own random numbers"
    );
    assert_ne!(second["uuid"], third["uuid"]);

    // A bad disk or a crash mid-write: the snapshot is never used damaged.
    let mut bytes = std::fs::read(&kept[0]).expect("snapshot");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&kept[0], &bytes).expect("damage");
    let (after_damage, log) = run("fourth");
    assert!(log.contains("is damaged"), "{log}");
    assert!(log.contains("runtimes start from source"), "{log}");
    assert_eq!(after_damage["env"], "fourth");
    let (_, log) = run("fifth");
    assert!(
        log.contains("runtimes start from the startup snapshot"),
        "the damaged snapshot was made again: {log}"
    );
}

/// A user's first start of `binary` in `project` with nothing in any
/// cache folder.
struct FirstStart {
    from_snapshot: serde_json::Value,
    /// What the probe extension saw.
    seen: serde_json::Value,
    /// Whether the start made a snapshot in the user's cache folder.
    made_a_snapshot: bool,
    /// The compiled units in the user's new engine cache folder.
    compiled_units: std::collections::HashSet<String>,
    log: String,
}

fn first_start(binary: &Path, project: &Project, entry: &str, value: &str) -> FirstStart {
    let home = tempfile::tempdir().expect("temp dir");
    let output = Command::new(binary)
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .env("PIHOST_PROBE_VALUE", value)
        .env("PIHOST_LOG", "pihost::startup_snapshot=debug")
        .env_remove("PIHOST_STARTUP_SNAPSHOT_DIR")
        .env_remove("PIHOST_STARTUP_SNAPSHOT")
        .env_remove("PIHOST_TRANSPILE_CACHE_DIR")
        .env_remove("V82JSC_BC_CACHE_DIR")
        .current_dir(project.root.path())
        .args(["inspect", "--json", entry])
        .output()
        .expect("pihost runs");
    let (stdout, log, code) = output_text(&output);
    assert_eq!(code, 0, "{stdout}\n{log}");
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("no JSON ({error}):\n{stdout}\n{log}"));
    let seen: serde_json::Value = report["extensions"][0]["tools"][0]["description"]
        .as_str()
        .and_then(|description| serde_json::from_str(description).ok())
        .unwrap_or_else(|| panic!("no probe: {report}"));
    let files = walk_files(home.path());
    let with_extension = |wanted: &str| {
        files
            .iter()
            .filter(|path| path.extension().is_some_and(|extension| extension == wanted))
            .filter_map(|path| path.file_name().map(|name| name.to_string_lossy().into_owned()))
            .collect::<std::collections::HashSet<_>>()
    };
    FirstStart {
        from_snapshot: report["runtimeStart"]["fromStartupSnapshot"].clone(),
        seen,
        made_a_snapshot: !with_extension("snapshot").is_empty(),
        compiled_units: with_extension("qbc"),
        log,
    }
}

#[test]
fn what_prepare_keeps_beside_the_binary_serves_a_first_start_with_empty_caches() {
    // A copy of the binary in a folder of its own: what `prepare` writes
    // beside it touches no other test's binary.
    let install = tempfile::tempdir().expect("temp dir");
    let binary = install.path().join("pihost");
    std::fs::copy(env!("CARGO_BIN_EXE_pihost"), &binary).expect("copies the binary");
    let beside = |directories: bool| -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(install.path())
            .expect("install folder")
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                if directories {
                    path.is_dir()
                } else {
                    path.extension().is_some_and(|extension| extension == "snapshot")
                }
            })
            .collect();
        found.sort();
        found
    };
    // `prepare` prints the snapshot's path and the bytecode folder's.
    let prepare = || -> (PathBuf, PathBuf) {
        let (stdout, stderr, code) = output_text(
            &Command::new(&binary)
                .arg("prepare")
                .env_remove("PIHOST_STARTUP_SNAPSHOT_DIR")
                .env_remove("PIHOST_STARTUP_SNAPSHOT")
                .env_remove("V82JSC_BC_CACHE_DIR")
                .env_remove("V82JSC_NO_BC_CACHE")
                .output()
                .expect("pihost runs"),
        );
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        let named = |label: &str| {
            stdout
                .lines()
                .find_map(|line| line.strip_prefix(label))
                .and_then(|rest| rest.split_whitespace().next())
                .map(PathBuf::from)
                .unwrap_or_else(|| panic!("no {label} in {stdout}"))
        };
        (named("startup snapshot"), named("platform bytecode"))
    };
    let project = Project::new();
    let entry = project.write("probe.ts", PROCESS_PROBE);

    let (snapshot, bytecode) = prepare();
    assert_eq!(beside(false), vec![snapshot.clone()], "one snapshot, beside the binary");
    assert_eq!(
        beside(true),
        vec![bytecode.clone()],
        "one folder of compiled platform code"
    );
    let units: Vec<String> = std::fs::read_dir(&bytecode)
        .expect("bytecode folder")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        units.len() > 300 && units.iter().all(|unit| unit.ends_with(".qbc")),
        "every Node built-in and pi's packages compiled ahead: {units:?}"
    );

    let start = first_start(&binary, &project, &entry, "one");
    assert_eq!(start.from_snapshot, true, "{}", start.log);
    assert!(start.log.contains(&snapshot.display().to_string()), "{}", start.log);
    assert!(
        !start.made_a_snapshot,
        "nothing made in the user's cache folder: {}",
        start.log
    );
    assert_eq!(start.seen["env"], "one");
    let missing: Vec<&String> = units
        .iter()
        .filter(|unit| !start.compiled_units.contains(*unit))
        .collect();
    assert!(
        missing.is_empty(),
        "the user's engine cache starts with the platform's units: {missing:?}"
    );

    // A rebuild of the binary (another size and time) and `prepare` again:
    // the earlier build's snapshot is gone, the new one serves.
    let mut file = std::fs::OpenOptions::new().append(true).open(&binary).expect("binary");
    std::io::Write::write_all(&mut file, b"\0").expect("grows the binary");
    drop(file);
    let (rebuilt, _) = prepare();
    assert_ne!(rebuilt, snapshot, "a new build's snapshot has a name of its own");
    assert_eq!(
        beside(false),
        vec![rebuilt.clone()],
        "the earlier build's snapshot was removed"
    );
    assert_eq!(beside(true).len(), 1, "one folder of compiled platform code");
    let start = first_start(&binary, &project, &entry, "two");
    assert_eq!(start.from_snapshot, true, "{}", start.log);
    assert_eq!(start.seen["env"], "two");

    // Damaged: never used; the start falls back to the user's cache folder.
    let mut bytes = std::fs::read(&rebuilt).expect("snapshot");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&rebuilt, &bytes).expect("damage");
    let start = first_start(&binary, &project, &entry, "three");
    assert!(start.log.contains("is damaged"), "{}", start.log);
    assert_eq!(start.from_snapshot, false, "{}", start.log);
    assert!(
        start.made_a_snapshot,
        "the start made one in its cache folder: {}",
        start.log
    );
    assert_eq!(start.seen["env"], "three");
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk_files(&path));
        } else {
            files.push(path);
        }
    }
    files
}
