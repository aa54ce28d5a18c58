//! Discovery as a user meets it (SEMANTICS D1–D7): which extensions a load
//! finds, in which order, and under which path they are reported. The pure
//! rules have unit tests in src/discovery.rs; these go through the engine.

mod support;

use support::*;

fn factory(name: &str) -> String {
    format!("export default (pi) => pi.registerCommand({name:?}, {{ handler() {{}} }});\n")
}

fn loaded_commands(report: &pihost::InspectReport) -> Vec<String> {
    report
        .extensions
        .iter()
        .flat_map(|extension| extension.commands.iter().map(|command| command.name.clone()))
        .collect()
}

#[test]
fn d1_project_then_agent_dir_then_configured_paths() {
    let project = Project::new();
    project.write(".pi/extensions/local.ts", &factory("local"));
    project.write("agent/extensions/global.ts", &factory("global"));
    let configured = project.write("elsewhere/configured.ts", &factory("configured"));
    let report = project.inspect(&[&configured]);
    assert_eq!(loaded_commands(&report), ["local", "global", "configured"]);
}

#[test]
fn d1_the_config_dir_name_is_a_setting() {
    let project = Project::new();
    project.write(".pi/extensions/dot-pi.ts", &factory("dot-pi"));
    project.write(".tau/extensions/dot-tau.ts", &factory("dot-tau"));
    let mut options = project.options();
    options.config_dir_name = ".tau".to_string();
    let report = pihost::handle::inspect_blocking(options, &[]).expect("inspect");
    assert_eq!(loaded_commands(&report), ["dot-tau"]);
}

#[test]
fn d2_d3_files_manifests_and_index_files_one_level_deep() {
    let project = Project::new();
    let dir = ".pi/extensions";
    project.write(&format!("{dir}/b-file.ts"), &factory("b-file"));
    project.write(&format!("{dir}/a-file.js"), &factory("a-file"));
    project.write(&format!("{dir}/readme.md"), "# not code");
    project.write(&format!("{dir}/typed.mts"), &factory("mts-is-not-scanned"));
    project.write(
        &format!("{dir}/pkg/package.json"),
        r#"{ "pi": { "extensions": ["./src/missing.ts", "./src/entry.ts"] } }"#,
    );
    project.write(&format!("{dir}/pkg/src/entry.ts"), &factory("manifest-entry"));
    project.write(&format!("{dir}/pkg/index.ts"), &factory("ignored-index"));
    project.write(
        &format!("{dir}/fallback/package.json"),
        r#"{ "pi": { "extensions": ["./gone.ts"] } }"#,
    );
    project.write(&format!("{dir}/fallback/index.ts"), &factory("fallback-index"));
    project.write(&format!("{dir}/both/index.ts"), &factory("index-ts"));
    project.write(&format!("{dir}/both/index.js"), &factory("index-js"));
    project.write(&format!("{dir}/deep/nested/index.ts"), &factory("too-deep"));
    std::fs::create_dir_all(project.path(&format!("{dir}/empty"))).expect("mkdir");
    let report = project.inspect(&[]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(
        loaded_commands(&report),
        ["a-file", "b-file", "index-ts", "fallback-index", "manifest-entry"]
    );
}

#[test]
fn d4_symlinked_files_and_directories_count() {
    let project = Project::new();
    let real_file = project.write("real/linked-file.ts", &factory("via-file-link"));
    project.write("real/package-dir/index.ts", &factory("via-dir-link"));
    std::fs::create_dir_all(project.path(".pi/extensions")).expect("mkdir");
    std::os::unix::fs::symlink(&real_file, project.path(".pi/extensions/file-link.ts")).expect("symlink");
    std::os::unix::fs::symlink(
        project.path("real/package-dir"),
        project.path(".pi/extensions/dir-link"),
    )
    .expect("symlink");
    let report = project.inspect(&[]);
    assert_eq!(loaded_commands(&report), ["via-dir-link", "via-file-link"]);
    let linked = &report.extensions[1];
    assert_eq!(
        linked.path,
        project.path(".pi/extensions/file-link.ts").display().to_string()
    );
}

#[test]
fn d5_a_configured_directory_uses_its_entries_or_is_scanned_and_a_file_is_taken_as_is() {
    let project = Project::new();
    project.write("with-index/index.ts", &factory("with-index"));
    project.write("with-index/other.ts", &factory("not-scanned"));
    project.write("plain/one.ts", &factory("plain-one"));
    project.write("plain/two.js", &factory("plain-two"));
    let missing = project.path("missing.ts").display().to_string();
    let report = project.inspect(&["with-index", "plain", "missing.ts"]);
    assert_eq!(loaded_commands(&report), ["with-index", "plain-one", "plain-two"]);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].path, missing);
    assert_eq!(
        report.errors[0].error,
        format!("Failed to load extension: Cannot find module '{missing}'")
    );
}

#[test]
fn d6_one_extension_reached_twice_loads_once() {
    let project = Project::new();
    let local = project.write(".pi/extensions/shared.ts", &factory("shared"));
    let report = project.inspect(&[&local, "./.pi/extensions/../extensions/shared.ts", ".pi/extensions"]);
    assert_eq!(loaded_commands(&report), ["shared"]);
    assert_eq!(report.extensions[0].path, local);
}

#[test]
fn d6_a_path_given_to_load_keeps_its_spelling_in_reports_and_errors() {
    let project = Project::new();
    project.write("tools/good.ts", &factory("good"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    let report = runtime.block_on(async {
        let mut engine = pihost::Engine::new(project.options()).await.expect("engine");
        let cwd = project.root.path();
        let entries = ["./tools/good.ts", "tools/../tools/absent.ts"]
            .map(|written| pihost::discovery::DiscoveredExtension {
                path: written.to_string(),
                resolved_path: pihost::discovery::resolve_user_path(written, cwd),
            })
            .to_vec();
        engine.load(&entries, false).await.expect("load")
    });
    assert_eq!(report.extensions[0].path, "./tools/good.ts");
    assert_eq!(report.extensions[0].resolved_path, project.path("tools/good.ts"));
    assert_eq!(report.errors[0].path, "tools/../tools/absent.ts");
}

#[test]
fn d7_an_unreadable_extensions_directory_yields_nothing_silently() {
    let project = Project::new();
    // `.pi/extensions` is a file here: not a directory that can be read.
    project.write(".pi/extensions", "not a directory");
    project.write("agent/extensions/global.ts", &factory("global"));
    let report = project.inspect(&[]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(loaded_commands(&report), ["global"]);
}
