//! The header names a scenario's group with one word at every step and
//! width. It said `Failure modes 6/12` at one step and `Failures 6/12` at
//! the next, as the verdict beside it grew (teacher trial 12): two names
//! for one group read as two groups.

use crate::common;
use idem::scenario::load::builtins;

#[test]
fn the_header_names_the_group_the_same_at_every_step() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for script in builtins() {
        let Some(design) = script.strategies().into_iter().next() else {
            continue;
        };
        let mut app = common::app(&script.name, &design);
        let mut names = std::collections::BTreeSet::new();
        for (w, h) in [(100, 30), (120, 40)] {
            common::resize(&mut app, w, h);
            for pos in 0..app.timeline.frames.len() {
                app.pos = pos;
                let screen = common::render(&app);
                let header = screen.lines().next().unwrap_or_default().to_string();
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
                names.insert(group);
            }
        }
        if names.len() > 1 {
            wrong.push(format!("{}: {names:?}", script.name));
        }
    }
    assert!(seen > 300, "only {seen} headers seen");
    assert!(wrong.is_empty(), "a group named two ways: {wrong:#?}");
}
