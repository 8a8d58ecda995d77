//! A found schedule counts moves, and every word of its replay says so:
//! the observer's notes named `A crashed at step 2` beside `move 4/17`
//! (teacher trial 44), and the words saved for each move, which name
//! moves, no longer matched the move's own line, so the story told the
//! move twice, once in each count.

use crate::common::check::{explorer_showing, report};
use idem::tui::{Action, update};

#[test]
fn a_found_schedule_names_moves_and_tells_each_move_once() {
    let report = report();
    let (mut frames, mut bad) = (0, Vec::new());
    for (row, s) in report.strategies.iter().enumerate() {
        for cx in 0..idem::tui::explorer::runs(s).len().min(3) {
            let mut a = explorer_showing(report.clone());
            update(&mut a, Action::First);
            for _ in 0..row {
                update(&mut a, Action::Down);
            }
            update(&mut a, Action::Digit(u8::try_from(cx + 1).unwrap()));
            assert!(a.is_counterexample(), "{} #{cx} opens", s.strategy);
            // The presenter view's chain too (trial 46: `move 7/10`
            // beside `← response lost at step 6`).
            update(&mut a, Action::Presenter);
            update(&mut a, Action::First);
            loop {
                let screen = crate::common::draw(&mut a, 120, 40);
                if let Some(line) = screen.lines().find(|l| names_a_step(l)) {
                    bad.push(format!("{} presenter move {}: {line}", s.strategy, a.pos));
                }
                let at = a.pos;
                update(&mut a, Action::Next);
                if a.pos == at {
                    break;
                }
            }
            for f in &a.timeline.frames {
                frames += 1;
                let told = idem::sim::event::step_told(&f.events);
                let steps = f.events.iter().find(|e| names_a_step(&e.text));
                if let Some(e) = steps {
                    bad.push(format!(
                        "{} move {}: event `{}`",
                        s.strategy, f.index, e.text
                    ));
                }
                if let Some(said) = f.said.as_deref()
                    && said.trim() != told.trim()
                    && said.contains(" move ")
                {
                    bad.push(format!(
                        "{} move {}: saved `{said}` beside its own line `{told}`",
                        s.strategy, f.index
                    ));
                }
            }
        }
    }
    assert!(frames > 100, "{frames} frames walked");
    assert!(
        bad.is_empty(),
        "{} of {frames} frames:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Whether `text` names a step by its number (`step 6`), as a run that
/// counts moves never does.
fn names_a_step(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).any(|w| {
        w[0] == "step"
            && w[1]
                .trim_end_matches([',', '.', ':', '"'])
                .parse::<u32>()
                .is_ok()
    })
}
