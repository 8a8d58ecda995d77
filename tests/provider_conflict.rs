//! The provider's in-flight window: a request with an Idempotency-Key is
//! received and its work done before it is answered; a repeat with the
//! same key in between gets 409 Conflict, and after the answer the stored
//! result. The in-progress scenario shows it at B's takeover.

use idem::scenario;
use idem::sim::Strategy;
use idem::sim::consumer::Status;
use idem::timeline::Timeline;

fn timeline(name: &str, design: &str) -> Timeline {
    let script = scenario::find(name).unwrap();
    Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap()
}

#[test]
fn a_takeover_before_the_first_answer_gets_409_then_waits_and_gets_the_stored_result() {
    let t = timeline("in-progress", "in-progress");
    let answers: Vec<(usize, &str, u16, bool)> = t
        .frames
        .iter()
        .filter_map(|f| {
            let a = f.provider.answered_now.as_ref()?;
            Some((f.index, a.caller.as_str(), a.status, a.replayed))
        })
        .collect();
    let statuses: Vec<(&str, u16, bool)> = answers.iter().map(|a| (a.1, a.2, a.3)).collect();
    assert_eq!(
        statuses,
        [("A", 201, false), ("B", 409, false), ("B", 201, true)],
        "{answers:?}"
    );
    let (conflict, replay) = (answers[1].0, answers[2].0);
    // While A's request is unanswered its key says so, and B waits on it.
    let at_409 = &t.frames[conflict];
    assert!(
        at_409.provider.keys[0].result.contains("processing"),
        "{:?}",
        at_409.provider.keys
    );
    let waiting = t.frames[conflict..replay].iter().any(|f| {
        f.consumers
            .iter()
            .any(|c| c.name == "B" && c.status == Status::AwaitingKey { by: "A".into() })
    });
    assert!(waiting, "B waits for A's answer after the 409");
    // The 409 charged nothing and the run ends with one charge, one row.
    let last = t.frames.last().unwrap();
    assert_eq!(last.provider.charges.len(), 1);
    assert_eq!(last.db.payments_total, 40);
    assert_eq!(last.provider.keys[0].result, "ch_81");
}

#[test]
fn the_idempotent_design_never_meets_the_409_in_the_same_story() {
    // Its keyed call runs under the write lock, so no repeat reaches the
    // provider while the first is unanswered.
    let t = timeline("in-progress", "idempotent");
    assert!(
        t.frames
            .iter()
            .filter_map(|f| f.provider.answered_now.as_ref())
            .all(|a| a.status != 409)
    );
}

#[test]
fn every_builtin_run_answers_409_only_to_a_repeat_of_a_key_still_in_flight() {
    for script in scenario::load::builtins() {
        for design in script.strategies() {
            let t = timeline(&script.name, &design);
            for w in t.frames.windows(2) {
                let Some(a) = &w[1].provider.answered_now else {
                    continue;
                };
                if a.status != 409 {
                    continue;
                }
                assert!(
                    w[0].provider
                        .keys
                        .iter()
                        .any(|k| k.result.contains("processing")),
                    "{} {design} step {}: 409 with no key in flight",
                    script.name,
                    w[1].index
                );
            }
        }
    }
}
