//! A scripted `run A to X` stops before X runs, at the step where X is
//! next. Teacher trial: the step line read `receive (A) · part of: run A
//! up to begin transaction` at step 1 and `begin transaction (A) · part
//! of: run A up to charge the card` at step 2, the begin itself: "up to
//! X" reads as including X. No step line, predict question or engines
//! view says `up to` for an action that stops before its target.

use crate::common::sweep::each_step;
use idem::scenario::Action;

/// The step line on the story's bottom border.
fn step_row(screen: &str, step: usize) -> String {
    screen
        .lines()
        .find(|l| l.contains(&format!("▶ step {step}/")))
        .unwrap_or_default()
        .to_string()
}

/// Every built-in scenario under every design, at 120x40: the step line
/// names the action a step is part of as stopping before its target, and
/// never as `up to` it (nor `up to` the handler step this step ran).
#[test]
fn no_step_line_says_a_run_goes_up_to_the_step_it_stops_before() {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step((120, 40), |step| {
        let row = step_row(&step.screen(), step.app.pos);
        let Some((_, action)) = row.split_once("part of: ") else {
            return;
        };
        let Some((_, target)) = action.split_once(" to ") else {
            return;
        };
        seen += 1;
        // A cut that keeps `run A to before…` names no target, and claims none.
        if row.contains(" up to ") || !target.starts_with("before") {
            wrong.push(format!("{}: {}", step.at(), row.trim()));
        }
    });
    crate::common::sweep::none_wrong("runs to a step", seen, 50, &wrong, (120, 40));
}

/// The action's own words, as every screen and transcript reads them.
#[test]
fn a_run_to_a_step_is_worded_as_stopping_before_it() {
    let run = Action::parse("run A to provider").unwrap();
    assert_eq!(run.words(), "run A to before charge the card");
}
