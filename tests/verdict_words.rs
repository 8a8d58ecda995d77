//! The verdict line's words are true at the step they are shown, for the
//! design shown: no "would" about what already happened, no "at risk"
//! where the design makes a retry safe, and no end that only says "in
//! progress".

use idem::scenario::load::builtins;
use idem::sim::consumer::Mark;
use idem::sim::{Actor, Frame, Outcome, Strategy};
use idem::timeline::Timeline;

/// The first frame where a handler has taken its skip path.
fn skipped_by(frames: &[Frame]) -> Option<usize> {
    frames.iter().position(|f| !skipped_orders(f).is_empty())
}

/// The orders whose message a handler is skipping in this frame (its
/// step list marks the duplicate it found).
fn skipped_orders(f: &Frame) -> Vec<u32> {
    f.consumers
        .iter()
        .filter(|c| c.steps.iter().any(|s| s.mark == Mark::Conflict))
        .filter_map(|c| c.message.as_deref())
        .flat_map(|id| {
            f.queue
                .messages
                .iter()
                .filter(move |m| m.message_id == id)
                .map(|m| m.order)
        })
        .collect()
}

fn every_run(mut check: impl FnMut(&str, &str, &Timeline)) -> usize {
    let mut runs = 0;
    for script in builtins() {
        for name in Strategy::names() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            check(&script.name, name, &timeline);
            runs += 1;
        }
    }
    runs
}

/// id-first once said "a redelivery would be skipped" on the very step
/// the redelivery was skipped, and the step after.
#[test]
fn no_verdict_says_would_about_a_skip_that_happened() {
    let mut wrong = Vec::new();
    let runs = every_run(|scenario, design, timeline| {
        let mut skipped: Vec<u32> = Vec::new();
        for (i, frame) in timeline.frames.iter().enumerate() {
            skipped.extend(skipped_orders(frame));
            let line = frame.verdict.chain();
            let says_would = skipped.iter().any(|order| {
                line.contains(&format!(
                    "order {order} is recorded as handled, its payment is not: a redelivery would be skipped"
                ))
            });
            if says_would {
                wrong.push(format!("{scenario} under {design}, step {i}: {line}"));
                break;
            }
        }
    });
    assert!(runs >= 200, "only {runs} runs");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// tour-2 ended on "in progress" under "Verdict at the end".
#[test]
fn no_run_ends_in_progress_without_saying_what_is_unsettled() {
    let mut wrong = Vec::new();
    let mut unsettled = 0;
    every_run(|scenario, design, timeline| {
        let v = &timeline.last().verdict;
        let line = v.chain();
        if v.undecided() {
            unsettled += 1;
            if !line.starts_with("ends unsettled: ") || line.contains("in progress") {
                wrong.push(format!("{scenario} under {design}: {line}"));
            }
        }
    });
    assert!(unsettled > 0, "no run ends unsettled: the check is vacuous");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let tour2 = idem::scenario::find("tour-2").unwrap();
    for design in ["idempotent", "naive"] {
        let strategy = Strategy::by_name(design).unwrap();
        let timeline = Timeline::build(&tour2, &strategy, 0, &[]).unwrap();
        let line = timeline.last().verdict.chain();
        assert!(
            line.contains("m-7f3 is still leased to A, whose ack was lost"),
            "tour-2 under {design}: {line}"
        );
    }
}

/// id-first: the loss is declared where the redelivery skips the work,
/// and the observer says on that step what the consumer cannot know.
#[test]
fn id_first_loses_the_charge_at_the_skip() {
    let script = idem::scenario::find("id-first").unwrap();
    let strategy = Strategy::by_name("id-first").unwrap();
    let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    let skip = skipped_by(&timeline.frames).expect("the redelivery is skipped");
    let frame = &timeline.frames[skip];
    assert_eq!(
        frame.verdict.outcome,
        Outcome::ChargeLost,
        "{}",
        frame.verdict.chain()
    );
    assert_eq!(
        timeline.frames[skip - 1].verdict.outcome,
        Outcome::InProgress
    );
    assert!(
        frame
            .events
            .iter()
            .any(|e| e.actor == Actor::Observer && e.text.contains("this skip loses the charge")),
        "{:#?}",
        frame.events
    );
}

/// The idempotent design sends the key and the provider stores it: the
/// charge before the commit is under way, not a risk of a second charge.
/// The naive design's same moment is a risk.
#[test]
fn a_keyed_charge_before_its_commit_is_in_flight_not_at_risk() {
    for tour in ["tour-1", "tour-3", "tour-4"] {
        let script = idem::scenario::find(tour).unwrap();
        let keyed =
            Timeline::build(&script, &Strategy::by_name("idempotent").unwrap(), 0, &[]).unwrap();
        let lines: Vec<String> = keyed.frames.iter().map(|f| f.verdict.chain()).collect();
        assert!(
            lines.iter().all(|l| !l.contains("at risk")),
            "{tour}: {lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("in flight: order 1042: charged once with key m-7f3")),
            "{tour}: {lines:#?}"
        );
        let naive = Timeline::build(&script, &Strategy::by_name("naive").unwrap(), 0, &[]).unwrap();
        assert!(
            naive
                .frames
                .iter()
                .any(|f| f.verdict.chain().contains("at risk")),
            "{tour} naive"
        );
    }
}
