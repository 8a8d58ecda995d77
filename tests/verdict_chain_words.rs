//! Teacher trial 6: the verdict's causes read as causes. A second outcome
//! beside a double charge gets no chain that only restates the figures,
//! chains are joined with single spacing, and what is left unsettled
//! finishes the headline's sentence instead of hanging after the figures.

use crate::common;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The verdict panel's text, its rows joined, at `step` (None: the end).
fn verdict(scenario: &str, design: &str, step: Option<usize>, (w, h): (u16, u16)) -> String {
    let mut app = common::app(scenario, design);
    match step {
        Some(step) => app.pos = step,
        None => update(&mut app, Action::Last),
    }
    let screen = common::draw(&mut app, w, h);
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows
        .iter()
        .position(|r| r.contains(" Verdict "))
        .unwrap_or_else(|| panic!("{scenario} {design} {w}x{h}: no verdict\n{screen}"));
    // The panel's rows, up to the key bar.
    rows[at + 1..rows.len() - 1].join(" ")
}

/// tour-4 naive, steps 9 and 10: charged twice, and the ledgers disagree.
/// The disagreement's "cause" was the figures again (`← order 1042: the
/// provider charged twice, the database has 1 committed payment row`),
/// after a double space: the double charge's chain tells why for both.
#[test]
fn a_second_outcome_does_not_restate_the_figures_as_its_cause() {
    for step in [9, 10] {
        let text = verdict("tour-4", "naive", Some(step), (200, 50));
        assert!(text.contains("response lost"), "step {step}: {text}");
        assert!(
            !text.contains("provider charged twice"),
            "step {step}: {text}"
        );
        assert!(!text.contains(";  "), "step {step}: {text}");
    }
}

/// Chains after the first are joined with `; and`, single-spaced.
#[test]
fn further_chains_are_joined_with_single_spacing() {
    let text = verdict("dedup-window", "naive", None, (200, 50));
    assert!(text.contains("; and ←"), "{text}");
    assert!(!text.contains(";  and"), "{text}");
}

/// tour-2 naive, the last step: the run ends unsettled, and the reason
/// followed the figures with a colon left hanging (`1 provider charge   :
/// m-7f3 is still leased…`). It finishes the headline instead, or on one
/// row with no room for it (80x24) waits under `w`, counted, the figures
/// whole (`verdict_chain_on_screen`).
#[test]
fn what_is_unsettled_follows_its_headline() {
    for size in SIZES {
        let text = verdict("tour-2", "naive", None, size);
        let waits = size == SIZES[0] && text.contains("ends unsettled  order 1042");
        assert!(
            waits || text.contains("ends unsettled: m-7f3"),
            "{size:?}: {text}"
        );
        assert!(!text.contains(" : "), "{size:?}: {text}");
    }
}
