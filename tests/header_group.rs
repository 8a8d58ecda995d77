//! The header names a scenario's group with one word at every step and
//! width. It said `Failure modes 6/12` at one step and `Failures 6/12` at
//! the next, as the verdict beside it grew (teacher trial 12): two names
//! for one group read as two groups.

use crate::common::sweep::each_step;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn the_header_names_the_group_the_same_at_every_step() {
    let mut seen = 0;
    // Each scenario's first design: the names each step's header gives
    // its group, from the walk's kept screens.
    let mut names: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for size in [(100, 30), (120, 40)] {
        each_step(size, |step| {
            let app = step.app;
            if app.script.strategies().first().map(String::as_str) != Some(&app.strategy.name) {
                return;
            }
            let header = step.rows().into_iter().next().unwrap_or_default();
            // The group's words, up to its place: `Failures 6/12`.
            let group: String = header
                .split(['·', '"'])
                .map(str::trim)
                .find(|part| part.contains('/') && !part.starts_with("step"))
                .unwrap_or_default()
                .split_whitespace()
                .filter(|word| !word.contains('/'))
                .collect::<Vec<_>>()
                .join(" ");
            seen += 1;
            names
                .entry(app.script.name.clone())
                .or_default()
                .insert(group);
        });
    }
    let wrong: Vec<String> = names
        .iter()
        .filter(|(_, names)| names.len() > 1)
        .map(|(scenario, names)| format!("{scenario}: {names:?}"))
        .collect();
    assert!(seen > 300, "only {seen} headers seen");
    assert!(wrong.is_empty(), "a group named two ways: {wrong:#?}");
}
