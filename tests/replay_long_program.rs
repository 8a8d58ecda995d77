//! `idem test --replay` of a program at a long path, at 80x24: the path
//! filled the header's first row and wrapped onto two more, and the rows it
//! took came out of the program's stderr panel (one row left, or none).
//! The header keeps one row for it: the path gives way first, cut in the
//! middle (its start and the script's name kept), so the panels below
//! keep the rows they have for a short path.

use crate::common::Screen;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;

/// A learner's checkout, as deep as they come.
const LONG: &str = "python3 /home/learner/projects/payments-service/consumers/python/idempotent-consumer-exercise/solutions/week-3/naive.py";

fn screen(r: &Replay) -> String {
    let mut s = Screen::new(80, 24);
    s.show(r);
    s.text()
}

/// The stderr panel's rows inside its border.
fn stderr_rows(screen: &str) -> usize {
    let rows: Vec<&str> = screen.lines().collect();
    let top = rows
        .iter()
        .position(|r| r.contains("stderr"))
        .unwrap_or_else(|| panic!("no stderr panel\n{screen}"));
    rows[top + 1..]
        .iter()
        .take_while(|r| !r.contains('└'))
        .count()
}

#[test]
fn a_long_program_path_costs_the_stderr_panel_no_row_at_80x24() {
    let Some(mut short) = super::harness_replay::replayed(Theme::new(false, false)) else {
        return;
    };
    let mut long = super::harness_replay::replayed(Theme::new(false, false)).unwrap();
    long.program = LONG.to_string();
    let mut wrong = Vec::new();
    for at in 0..short.steps.len() {
        short.at = at;
        long.at = at;
        let (s, l) = (screen(&short), screen(&long));
        let (had, has) = (stderr_rows(&s), stderr_rows(&l));
        // The header's first row names the step and what is left of the
        // program: its start and its script's name; how the run ends is
        // still said.
        let first = l.lines().next().unwrap();
        let named = first.contains("step") && first.contains("…") && first.contains("naive.py");
        if has < had || !named || !l.contains("the run ends") {
            wrong.push(format!(
                "step {}: stderr {has} rows, not {had}:\n{l}",
                at + 1
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} steps lose stderr rows or the header to the path:\n{}",
        wrong.len(),
        short.steps.len(),
        wrong.join("\n")
    );
}
