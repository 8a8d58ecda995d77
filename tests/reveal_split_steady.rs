//! A reveal may give the events the SQL's spare columns
//! (`layout::reveal_split`), but only at the split the run's steps
//! without SQL already take: the row under the story keeps two positions
//! a run at each size, whatever the class answers.

use crate::common::reveals::each_reveal;
use idem::tui::app::Panel;
use idem::tui::layout;
use ratatui::layout::Rect;
use std::collections::{BTreeMap, BTreeSet};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// A run at a size: scenario, design, size.
type Run = (String, String, (u16, u16));
/// A split of the row: the SQL's width, the events'.
type Split = (u16, u16);

#[test]
fn reveals_keep_the_runs_two_splits() {
    // Each run's splits at each size: its steps', then its reveals'.
    let mut splits: BTreeMap<Run, BTreeSet<Split>> = BTreeMap::new();
    let mut reveals = 0;
    each_reveal(&SIZES, |r| {
        reveals += 1;
        let key = (r.scenario.to_string(), r.design.to_string(), r.size);
        let frames = &r.app.timeline.frames;
        let at = |m: &layout::Main| (m.rect(Panel::Sql).width, m.rect(Panel::Events).width);
        let set = splits.entry(key).or_insert_with(|| {
            let area = Rect::new(0, 0, r.size.0, r.size.1);
            frames
                .iter()
                .map(|f| at(&layout::main_for(area, None, layout::Need::of(f, frames))))
                .collect()
        });
        if !r.main.rect(Panel::Sql).is_empty() {
            set.insert(at(r.main));
        }
    });
    assert!(reveals > 100, "only {reveals} reveals");
    let moved: Vec<String> = splits
        .iter()
        .filter(|(_, s)| s.len() > 2)
        .map(|((s, d, (w, h)), set)| format!("{s} {d} {w}x{h}: {set:?}"))
        .collect();
    assert!(
        moved.is_empty(),
        "the row under the story has more than two splits:\n{}",
        moved.join("\n")
    );
}
