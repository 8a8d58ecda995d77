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
