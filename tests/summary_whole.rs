//! A design's summary is read whole somewhere. Teacher trial at 120x40,
//! with the detail whole (`z`): its title cut the summary with no count
//! and no way to read it (`idempotent · … ID as I… ──`, `in-progress · …
//! a late duplicate backs off o… ──`). Whole, the summary has its own
//! rows where the title has no room for it; in the table's pane, a title
//! that cuts it names `z`, which shows it whole.

use crate::common::check::{explorer_showing, report};
use crate::common::draw;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// `screen`'s rows from the one naming `name`'s promise on, read as one
/// paragraph.
fn detail(screen: &str, name: &str) -> String {
    let rows: Vec<&str> = screen.lines().map(|l| l.trim_matches('"')).collect();
    let from = rows
        .iter()
        .position(|l| l.trim_start().starts_with(&format!("{name} · promises")))
        .unwrap_or(0);
    // The rule's line is drawing, not words: a title's summary goes on
    // under it.
    rows[from..]
        .join(" ")
        .replace('─', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_summary_is_whole_with_the_detail_whole_and_a_cut_one_names_z() {
    let report = report();
    let (mut checked, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        for (row, s) in report.strategies.iter().enumerate() {
            let mut a = explorer_showing(report.clone());
            update(&mut a, Action::First);
            for _ in 0..row {
                update(&mut a, Action::Down);
            }
            checked += 1;
            let screen = draw(&mut a, w, h);
            let title = screen
                .lines()
                .find(|l| l.contains(&format!(" {} · promises", s.strategy)))
                .unwrap_or_default()
                .to_string();
            let summary = s.summary.split_whitespace().collect::<Vec<_>>().join(" ");
            let cut = !detail(&screen, &s.strategy).contains(&summary);
            if cut && !title.contains("z") {
                wrong.push(format!("{} at {w}x{h}, cut, no z: {title}", s.strategy));
            }
            update(&mut a, Action::Zoom);
            let whole = draw(&mut a, w, h);
            if !detail(&whole, &s.strategy).contains(&summary) {
                wrong.push(format!("{} at {w}x{h}, whole, cut", s.strategy));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} screens:\n{}",
        wrong.len(),
        checked * 2,
        wrong.join("\n")
    );
}
