//! The two example agents (issue 6): the Rust one embeds pihost, the Python
//! one (standard library only) drives `pihost serve`; both run the same
//! scripted session against extensions-examples/ and must print the same
//! transcript, in which the extensions block a call and rewrite a result.

mod support;

#[allow(dead_code, reason = "the example's main is not called here")]
#[path = "../examples/scripted_agent.rs"]
mod scripted_agent;

use std::process::Command;

use support::project_root;

#[test]
fn the_rust_and_python_agents_see_the_same_session() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    let rust = runtime
        .block_on(scripted_agent::run(&project_root()))
        .expect("the Rust agent runs");
    assert_eq!(rust[0], "loaded 46 extensions, 4 failed to load");
    assert!(
        rust.contains(&"  blocked: events.ts keeps lock files read-only".to_string()),
        "{rust:#?}"
    );
    assert!(
        rust.contains(&"  rewritten by extensions: details {\"seenByEventsExample\":true}".to_string()),
        "{rust:#?}"
    );

    let output = Command::new("python3")
        .arg(project_root().join("examples/python_agent.py"))
        .arg(env!("CARGO_BIN_EXE_pihost"))
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let python: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(python, rust);
}
