//! The compat suite (issue 3): every scenario under tests/compat/scenarios,
//! replayed through pihost and compared with what the reference pi recorded
//! (expected.json, written by tests/compat/record.mjs). Also keeps the list of
//! checklist ids that no scenario covers honest.

mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;

use pihost::compat::{Outcome, check_scenario, covered_ids, find_scenarios};
use support::project_root;

fn scenarios() -> Vec<PathBuf> {
    find_scenarios(&[project_root().join("tests/compat/scenarios")])
}

#[test]
fn every_scenario_matches_the_reference() {
    let scenarios = scenarios();
    assert!(!scenarios.is_empty(), "no scenarios under tests/compat/scenarios");
    let mut failures = Vec::new();
    for dir in &scenarios {
        match check_scenario(dir).outcome {
            Outcome::Passed => {}
            Outcome::Failed(diff) => failures.push(format!("{}:\n{diff}", dir.display())),
            Outcome::Broken(message) => failures.push(format!("{}: {message}", dir.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios differ from the reference:\n\n{}",
        failures.len(),
        scenarios.len(),
        failures.join("\n\n")
    );
}

/// The runner's checklist ids (docs/semantics.md: R, E, N, W, H).
fn runner_ids() -> BTreeSet<String> {
    let families = [("R", 6), ("E", 11), ("N", 3), ("W", 2), ("H", 3)];
    families
        .iter()
        .flat_map(|(letter, count)| (1..=*count).map(move |n| format!("{letter}{n}")))
        .collect()
}

#[test]
fn the_uncovered_id_list_is_exactly_the_ids_no_scenario_covers() {
    let covered = covered_ids(&scenarios());
    let uncovered: BTreeSet<String> = runner_ids()
        .into_iter()
        .filter(|id| !covered.contains_key(id))
        .collect();
    let listed_text =
        std::fs::read_to_string(project_root().join("tests/compat/uncovered-ids.txt")).unwrap_or_default();
    let listed: BTreeSet<String> = listed_text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect();
    assert_eq!(
        listed, uncovered,
        "tests/compat/uncovered-ids.txt must list exactly the runner ids no scenario covers"
    );
    for (id, names) in &covered {
        println!("{id}: {}", names.join(", "));
    }
}
