//! A story that says a consumer holds a message says it only while the
//! broker has that message in flight to that consumer. Trial 32: tour-3
//! naive on PostgreSQL told "B holds m-7f3 now" at A's late ack, words
//! written for SQLite, where B is still working then; on the server B had
//! already acked it and the broker had removed it.

use crate::common::pg_runs::pg_runs;
use crate::common::sweep::{SIZES, each_step};
use idem::sim::Frame;
use idem::sim::frame::MessagePhase;

/// Each `X holds M` the step's words say that the broker does not show.
fn untrue_holds(f: &Frame) -> Vec<String> {
    let said = f.said.as_deref().unwrap_or_default();
    let words: Vec<&str> = said
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .collect();
    words
        .windows(3)
        .filter(|w| w[1] == "holds")
        .filter(|w| f.queue.messages.iter().any(|m| m.message_id == w[2]))
        .filter(|w| {
            !f.queue.messages.iter().any(|m| {
                m.message_id == w[2]
                    && m.phase == MessagePhase::InFlight
                    && m.holder.as_deref() == Some(w[0])
            })
        })
        .map(|w| format!("step {}: {:?} in {said:?}", f.index, w.join(" ")))
        .collect()
}

#[test]
fn who_holds_a_message_is_said_only_while_it_does() {
    let mut seen = 0;
    let mut wrong = Vec::new();
    let mut check = |run: String, frames: &[Frame]| {
        for f in frames {
            if f.said.as_deref().is_some_and(|s| s.contains(" holds ")) {
                seen += 1;
            }
            wrong.extend(untrue_holds(f).into_iter().map(|w| format!("{run} {w}")));
        }
    };
    // The SQLite runs as the screen sweeps walk them (built once for the
    // test binary), a step at a time.
    each_step(SIZES[0], |step| {
        let (scenario, design) = step.run();
        check(
            format!("{scenario} {design} on SQLite"),
            std::slice::from_ref(&step.frame),
        );
    });
    for run in pg_runs().unwrap_or_default() {
        let name = format!("{} {} on PostgreSQL", run.script.name, run.design);
        check(name, &run.timeline.frames);
    }
    assert!(seen > 1, "{seen} steps say who holds a message");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
