//! Teacher trial 13: the verdict's "in flight" line tells where the payment
//! row of a keyed charge stands at each step, not what it was before a
//! crash. tour-1 under the idempotent design, crash A after the provider
//! answered (step 6, then the faults menu's "crash consumer A now"): the
//! transaction with the row rolls back at step 7, yet the line kept saying
//! "payment row not committed yet" as if a commit could still come.

use idem::scenario;
use idem::sim::{Move, Strategy};
use idem::timeline::{Fork, Timeline};

/// The in-flight part of the verdict at each step of the forked run.
fn in_flight_after_crash() -> Vec<(usize, String)> {
    let script = scenario::find("tour-1").unwrap();
    let forks = [Fork {
        at: 6,
        mv: Move::Crash {
            consumer: "A".into(),
        },
    }];
    let timeline = Timeline::build(&script, &Strategy::idempotent(), 0, &forks).unwrap();
    assert_eq!(timeline.frames[7].action, "you: crash A");
    (6..=12)
        .map(|step| (step, timeline.frames[step].verdict.in_flight.join("; ")))
        .collect()
}

#[test]
fn a_rolled_back_row_is_not_told_as_not_committed_yet() {
    let lines = in_flight_after_crash();
    let all = format!("{lines:#?}");
    // Before the crash the row is in A's open transaction.
    assert!(
        lines[0].1.contains("payment row not committed yet"),
        "{all}"
    );
    for (step, line) in &lines[1..] {
        assert!(
            line.contains("charged once with key m-7f3"),
            "step {step}: {all}"
        );
        assert!(!line.contains("not committed yet"), "step {step}: {all}");
    }
    // From the rollback until a delivery is handled again, it says so, and
    // what the charge waits for.
    for (step, line) in &lines[1..4] {
        assert!(
            line.contains("payment row rolled back")
                && line.contains("if the message is delivered again, its key gets the charge back"),
            "step {step}: {all}"
        );
    }
}

/// Whether "rolled back" is true at frame `k` of these in-flight lines: the
/// row was open (not committed yet) before a step that lost it, with no new
/// delivery taken in between (which says "the delivery in hand" or "not
/// written yet" while it has the row still to write).
fn rolled_back_is_true(lines: &[String], k: usize) -> bool {
    for j in (1..=k).rev() {
        if lines[j].contains("delivery in hand") || lines[j].contains("not written yet") {
            return false;
        }
        if lines[j - 1].contains("not committed yet") {
            return true;
        }
    }
    false
}

/// Teacher trial 31, level 2 won (ack moved to the end), then `v`: the run
/// that breaks it one bound further. A crashes with the row open (move 7,
/// rolled back), then receives again (move 10) and crashes straight after
/// receiving, before `begin` (move 11): nothing was rolled back there, yet
/// moves 11 to 16 said "payment row rolled back".
#[test]
fn a_crash_before_begin_rolls_nothing_back() {
    use idem::tui::{Action, update};
    let mut a = crate::level_bounds::proved(1, idem::levels::all()[1].solution.clone());
    update(&mut a, Action::FirstViolation);
    let lines: Vec<String> = a
        .timeline
        .frames
        .iter()
        .map(|f| f.verdict.in_flight.join("; "))
        .collect();
    let told: Vec<usize> = (0..lines.len())
        .filter(|&k| lines[k].contains("rolled back"))
        .collect();
    assert!(!told.is_empty(), "the run's rollback is told: {lines:#?}");
    let wrong: Vec<String> = told
        .into_iter()
        .filter(|&k| !rolled_back_is_true(&lines, k))
        .map(|k| format!("move {k} ({}): {}", a.timeline.frames[k].action, lines[k]))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong of {} moves:\n{}",
        wrong.len(),
        lines.len(),
        wrong.join("\n")
    );
    // What is true at move 11 instead: no row, and what the charge waits for.
    assert!(
        lines[11].contains("no payment row;")
            && lines[11]
                .contains("if the message is delivered again, its key gets the charge back"),
        "{lines:#?}"
    );
}
