//! The differential check of issue 2: for the same inputs, the reference pi
//! (its own loader, on Node 22) and `pihost inspect --json` must agree on
//! tools, commands, flags, shortcuts, renderers, handled events, pending
//! providers, flag values and load errors, text for text.

mod support;

use std::path::Path;

use support::*;

fn assert_same_as_reference(cwd: &Path, agent_dir: &Path, paths: &[&str]) {
    let Some(reference) = reference_dir() else { return };
    let expected = reference_inspect(&reference, cwd, agent_dir, paths);
    let expected = comparable(&normalized_reference(&expected, &reference));
    let (actual, _) = pihost_inspect(cwd, agent_dir, paths);
    // The same cleaning on both sides: when the extensions themselves live in
    // the reference install (pi's own examples), pihost's "Require stack"
    // names them there too.
    let actual = comparable(&normalized_reference(&actual, &reference));
    let diff = json_diff(&expected, &actual);
    assert!(diff.is_empty(), "pihost differs from the reference:\n{diff}");
}

/// Every example, loaded as one configured directory (D5, D2, L1-L8, A1-A9).
#[test]
fn every_example_matches_the_reference() {
    let agent_dir = tempfile::tempdir().expect("tempdir");
    assert_same_as_reference(&project_root(), agent_dir.path(), &["extensions-examples"]);
}

/// Discovery across the three sources, with de-dup and symlinks (D1-D7).
#[test]
fn discovery_across_sources_matches_the_reference() {
    let root = tempfile::tempdir().expect("tempdir");
    let project = root.path().join("project");
    let agent = root.path().join("agent");
    let local = project.join(".pi/extensions");
    let global = agent.join("extensions");
    for dir in [&local, &global, &root.path().join("configured/pkg/src")] {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    let factory = |name: &str| {
        format!(
            "export default function (pi) {{ pi.registerCommand({name:?}, {{ description: {name:?}, handler() {{}} }}); }}\n"
        )
    };
    std::fs::write(local.join("b-local.ts"), factory("b-local")).expect("write");
    std::fs::write(local.join("a-local.js"), factory("a-local")).expect("write");
    std::fs::write(local.join("notes.md"), "not an extension").expect("write");
    std::fs::create_dir_all(local.join("folder")).expect("mkdir");
    std::fs::write(local.join("folder/index.js"), factory("folder-index")).expect("write");
    std::fs::write(global.join("global.ts"), factory("global")).expect("write");
    std::os::unix::fs::symlink(local.join("b-local.ts"), global.join("linked.ts")).expect("symlink");
    let configured = root.path().join("configured");
    std::fs::write(
        configured.join("pkg/package.json"),
        r#"{ "name": "pkg", "pi": { "extensions": ["./src/one.ts", "./src/absent.ts"] } }"#,
    )
    .expect("write");
    std::fs::write(configured.join("pkg/src/one.ts"), factory("pkg-one")).expect("write");
    std::fs::write(configured.join("single.ts"), factory("single")).expect("write");
    let single = configured.join("single.ts").display().to_string();
    let twice = configured.join("pkg/../single.ts").display().to_string();
    let missing = configured.join("missing.ts").display().to_string();
    let package = configured.join("pkg").display().to_string();
    assert_same_as_reference(
        &project,
        &agent,
        &[&package, &single, &twice, &missing, "./.pi/extensions/b-local.ts"],
    );
}

/// Every extension among pi's own examples (the reference install's
/// `examples/extensions/`, as pi discovers that folder): the same
/// registrations and the same load errors, including the one that fails in
/// the reference for a missing npm package (issue 5).
#[test]
fn pis_own_examples_match_the_reference() {
    let Some(reference) = reference_dir() else { return };
    let examples = reference.join("node_modules/@earendil-works/pi-coding-agent/examples/extensions");
    let agent_dir = tempfile::tempdir().expect("tempdir");
    let examples = examples.display().to_string();
    assert_same_as_reference(&project_root(), agent_dir.path(), &[&examples]);
}
