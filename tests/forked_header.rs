//! A forked run's header keeps its verdict's words at the end, as the
//! unforked header does: the `forked at step k` tag takes room from the
//! title or the design's label, never from the verdict. Teacher trial: at
//! 100 and 120 columns a forked run's last step read `✓ …`, a mark with no
//! class and no bound, where the same run unforked said
//! `✓ correct in this run`.

use crate::common;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// tour-1 under `design`, forked at `at` with fault `digit` of the `f`
/// menu, then stepped to its end.
fn forked(design: &str, at: usize, digit: u8) -> Option<idem::tui::App> {
    let mut app = common::app("tour-1", design);
    app.pos = at;
    update(&mut app, Action::Faults);
    update(&mut app, Action::Digit(digit));
    app.forked_at()?;
    update(&mut app, Action::Last);
    Some(app)
}

#[test]
fn a_forked_runs_header_keeps_its_verdict_at_the_end() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for design in ["idempotent", "naive"] {
        for at in [2, 5, 8] {
            for digit in 1..=6 {
                for (w, h) in SIZES {
                    let Some(mut app) = forked(design, at, digit) else {
                        continue;
                    };
                    seen += 1;
                    let screen = common::draw(&mut app, w, h);
                    let header = screen.lines().next().unwrap_or_default().to_string();
                    let v = &app.frame().verdict;
                    // Never the mark alone: the class is named.
                    let bare = header.trim_end().ends_with('…')
                        && header
                            .trim_end()
                            .rsplit("·")
                            .next()
                            .is_some_and(|last| last.trim().chars().count() <= 3);
                    let correct = v.claims_correct() && !header.contains("correct in this run");
                    if bare || correct {
                        wrong.push(format!(
                            "tour-1 {design} forked at {at} with fault {digit}, {w}x{h}: {header}"
                        ));
                    }
                }
            }
        }
    }
    assert!(seen > 20, "only {seen} forked ends seen");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Unforked too: every built-in's end under each of its designs, where
/// the run is correct, says so with its bound at every size (race-rollback
/// idempotent at 100x30 read `✓ …`).
#[test]
fn every_correct_end_keeps_its_bound_in_the_header() {
    let mut wrong = Vec::new();
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
            let mut app = common::app(&script.name, &design);
            app.pos = app.last_pos();
            if !app.frame().verdict.claims_correct() {
                continue;
            }
            for (w, h) in SIZES {
                let screen = common::draw(&mut app, w, h);
                let header = screen.lines().next().unwrap_or_default();
                if !header.contains("correct in this run") {
                    wrong.push(format!("{} {design} {w}x{h}: {header}", script.name));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
