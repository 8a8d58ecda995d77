//! The note a replay opened from the explorer starts with is true at every
//! size. Teacher trial: at 120x40 it read `! from idem check: charged
//! twice under naive in 10 moves (on SQLite, where the checker… · Esc back
//! to the explorer`, and at 80x24 `…under naive in 10… · Esc back`; for
//! in-progress's run one bound further the cut hid `(one bound further)`,
//! so `with 3 faults` read as within the bounds.

use crate::common::check::{explorer_showing, in_progress, report};
use crate::common::draw;
use idem::check::CheckReport;
use idem::tui::explorer::{Column, runs};
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// Every run of every design in `report`, replayed with Enter from a
/// session on SQLite and from one on a server, at every size: the note
/// holds the design, the outcome, the bound one further (for a run from
/// a try there), the engine (from a server), the way back, and no cut.
fn notes_wrong(report: &CheckReport, wrong: &mut Vec<String>) -> usize {
    let mut notes = 0;
    for (row, s) in report.strategies.iter().enumerate() {
        for (i, run) in runs(s).iter().enumerate() {
            for server in [false, true] {
                let mut a = explorer_showing(report.clone());
                if server {
                    a.script.setup.postgres =
                        Some("postgres://root@127.0.0.1:5432/test".parse().unwrap());
                    a.server = a.script.setup.postgres.clone();
                }
                update(&mut a, Action::First);
                for _ in 0..row {
                    update(&mut a, Action::Down);
                }
                for _ in 0..i {
                    update(&mut a, Action::Next);
                }
                update(&mut a, Action::Enter);
                assert!(a.is_counterexample(), "{} run {i} opens", s.strategy);
                // A resize keeps the note: each size reads the same one.
                for (w, h) in SIZES {
                    notes += 1;
                    let screen = draw(&mut a, w, h);
                    let note = screen.lines().last().unwrap_or_default().to_string();
                    let class = run.cx.class.to_string();
                    // Where its full words leave no room (80 columns, the
                    // longest runs), the outcome is the word `idem check`
                    // heads its column with, as the table left just now.
                    let heading = Column::Outcome(run.cx.class).heading();
                    let heading = [format!(": {heading},"), format!(": {heading} ·")];
                    let mut missing = vec![];
                    for (needed, said) in [
                        (
                            "the design",
                            note.contains(&format!(" {}", run.cx.strategy)),
                        ),
                        (
                            "the outcome",
                            note.contains(&class)
                                || (w == 80 && heading.iter().any(|h| note.contains(h))),
                        ),
                        ("the way back", note.contains("Esc back")),
                        ("no cut", !note.contains('…')),
                        ("the engine", !server || note.contains("SQLite")),
                        (
                            "one bound further",
                            run.further.is_none_or(|f| {
                                note.contains("further") && note.contains(&f.bound())
                            }),
                        ),
                    ] {
                        if !said {
                            missing.push(needed);
                        }
                    }
                    if !missing.is_empty() {
                        wrong.push(format!(
                            "{} run {i} {}at {w}x{h}, no {}: {note}",
                            s.strategy,
                            if server { "from a server " } else { "" },
                            missing.join(", no ")
                        ));
                    }
                }
            }
        }
    }
    notes
}

#[test]
fn a_replays_note_says_its_design_outcome_bound_and_engine_whole_at_every_size() {
    let mut wrong = Vec::new();
    let notes = notes_wrong(report(), &mut wrong) + notes_wrong(in_progress(), &mut wrong);
    assert!(notes > 30, "only {notes} notes: the test reads nothing");
    assert!(
        wrong.is_empty(),
        "{} of {notes} notes wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
