//! Every question the built-in scenarios ask, with the answer the run
//! computes under each design. The answers are never typed into the
//! scenario files; this table pins them, so that a change to the engine
//! that moves one fails here and its "why" sentence gets read again.

use idem::scenario::{self, Group};
use idem::sim::Strategy;
use idem::timeline::Timeline;

/// (scenario, design, chapter, action, subject, answer as shown)
const ANSWERS: &[(&str, &str, usize, usize, &str, &str)] = &[
    ("tour-1", "idempotent", 1, 3, "payments_total", "$40"),
    ("tour-1", "idempotent", 3, 0, "holder", "no one"),
    ("tour-1", "idempotent", 4, 1, "charges_again", "no"),
    ("tour-1", "idempotent", 4, 2, "payments_total", "$40"),
    ("tour-1", "idempotent", 4, 2, "processed_messages_rows", "1"),
    ("tour-1", "naive", 1, 3, "payments_total", "$40"),
    ("tour-1", "naive", 3, 0, "holder", "no one"),
    ("tour-1", "naive", 4, 1, "charges_again", "yes"),
    ("tour-1", "naive", 4, 2, "payments_total", "$80"),
    ("tour-2", "idempotent", 3, 0, "payments_rows_any", "0"),
    (
        "tour-2",
        "idempotent",
        3,
        0,
        "processed_messages_rows_any",
        "0",
    ),
    ("tour-2", "idempotent", 4, 0, "holder", "no one"),
    ("tour-2", "idempotent", 4, 3, "provider_charges", "1"),
    ("tour-2", "idempotent", 5, 1, "message_state", "in flight"),
    ("tour-2", "naive", 3, 0, "payments_rows_any", "0"),
    ("tour-2", "naive", 4, 0, "holder", "no one"),
    ("tour-2", "naive", 4, 3, "provider_charges", "1"),
    ("tour-2", "naive", 5, 1, "message_state", "in flight"),
    ("tour-3", "idempotent", 2, 1, "holder", "no one"),
    ("tour-3", "idempotent", 2, 1, "provider_charges", "1"),
    ("tour-3", "idempotent", 3, 0, "holder", "B"),
    ("tour-3", "idempotent", 4, 0, "payments_total", "$40"),
    ("tour-3", "idempotent", 5, 0, "charges_again", "no"),
    ("tour-3", "idempotent", 5, 1, "payments_total", "$40"),
    ("tour-3", "naive", 2, 1, "holder", "no one"),
    ("tour-3", "naive", 2, 1, "provider_charges", "1"),
    ("tour-3", "naive", 3, 0, "holder", "B"),
    ("tour-3", "naive", 4, 0, "payments_total", "$40"),
    ("tour-3", "naive", 5, 0, "charges_again", "yes"),
    ("tour-3", "naive", 5, 1, "payments_total", "$80"),
    ("tour-4", "idempotent", 2, 1, "provider_charges", "1"),
    ("tour-4", "idempotent", 3, 0, "charges_again", "no"),
    ("tour-4", "idempotent", 4, 0, "payments_total", "$40"),
    ("tour-4", "idempotent", 4, 1, "message_state", "acked"),
    ("tour-4", "naive", 2, 1, "provider_charges", "1"),
    ("tour-4", "naive", 3, 0, "charges_again", "yes"),
    ("tour-4", "naive", 4, 0, "payments_total", "$40"),
    ("tour-4", "naive", 4, 1, "message_state", "acked"),
    ("broker-view", "idempotent", 4, 3, "payments_total", "$65"),
    ("broker-view", "naive", 4, 3, "payments_total", "$105"),
    ("race-rollback", "idempotent", 3, 1, "payments_total", "$40"),
    ("race-rollback", "naive", 3, 1, "payments_total", "$40"),
    (
        "crash-after-provider",
        "idempotent",
        3,
        3,
        "charges_again",
        "no",
    ),
    (
        "crash-after-provider",
        "naive",
        3,
        3,
        "charges_again",
        "yes",
    ),
    (
        "crash-after-provider",
        "no-provider-key",
        3,
        3,
        "charges_again",
        "yes",
    ),
    (
        "producer-retry",
        "idempotent",
        2,
        2,
        "payments_total",
        "$40",
    ),
    ("producer-retry", "naive", 2, 2, "payments_total", "$80"),
    ("broker-id", "idempotent", 2, 2, "payments_total", "$80"),
    ("content-hash", "idempotent", 2, 1, "payments_total", "$40"),
    ("content-hash", "naive", 2, 1, "payments_total", "$80"),
    ("retention", "idempotent", 3, 2, "charges_again", "yes"),
    (
        "provider-key-reuse",
        "idempotent",
        4,
        2,
        "message_state",
        "dead-lettered",
    ),
    (
        "poison",
        "idempotent",
        3,
        2,
        "message_state",
        "dead-lettered",
    ),
    ("poison", "naive", 3, 2, "message_state", "dead-lettered"),
    ("dedup-window", "idempotent", 3, 2, "charges_again", "no"),
    ("dedup-window", "naive", 3, 2, "charges_again", "yes"),
    ("reused-id", "idempotent", 2, 1, "payments_total", "$40"),
    ("reused-id", "naive", 2, 1, "payments_total", "$65"),
    ("ordering", "idempotent", 3, 1, "deliveries", "2"),
    ("ordering", "naive", 3, 1, "deliveries", "2"),
    ("ordering", "versioned", 3, 1, "deliveries", "2"),
    (
        "id-first",
        "id-first",
        3,
        2,
        "provider_answer",
        "no call is made",
    ),
    ("id-first", "id-first", 3, 2, "payments_total", "$0"),
    ("id-first", "idempotent", 3, 2, "payments_total", "$40"),
    ("charge-first", "charge-first", 3, 1, "charges_again", "yes"),
    ("charge-first", "idempotent", 3, 1, "charges_again", "no"),
    ("ack-first", "ack-first", 3, 1, "payments_total", "$0"),
    ("ack-first", "idempotent", 3, 1, "payments_total", "$40"),
    (
        "cache-claim-first",
        "cache-claim-first",
        3,
        1,
        "payments_total",
        "$0",
    ),
    (
        "cache-claim-first",
        "idempotent",
        3,
        1,
        "payments_total",
        "$40",
    ),
    (
        "cache-work-first",
        "cache-work-first",
        3,
        1,
        "charges_again",
        "yes",
    ),
    (
        "cache-work-first",
        "idempotent",
        3,
        1,
        "charges_again",
        "no",
    ),
    (
        "in-progress",
        "idempotent",
        3,
        1,
        "provider_answer",
        "no call is made",
    ),
    (
        "in-progress",
        "in-progress",
        3,
        1,
        "provider_answer",
        "409 Conflict: still processing",
    ),
    (
        "in-progress",
        "in-progress",
        5,
        1,
        "provider_answer",
        "201, the stored result (a replay)",
    ),
    ("row-version", "idempotent", 3, 2, "payments_total", "$55"),
    ("row-version", "row-version", 3, 2, "payments_total", "$95"),
    ("offset", "naive", 3, 2, "charges_again", "yes"),
    ("offset", "offset", 3, 2, "charges_again", "no"),
    (
        "offset-on-a-queue",
        "idempotent",
        3,
        2,
        "payments_total",
        "$65",
    ),
    ("offset-on-a-queue", "offset", 3, 2, "payments_total", "$40"), // idem's own question where the provider charges or replays and the
    // file asks nothing about the provider there (timeline::asked_provider).
    (
        "tour-1",
        "idempotent",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "tour-1",
        "naive",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-view",
        "idempotent",
        2,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-view",
        "idempotent",
        4,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-view",
        "naive",
        2,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-view",
        "naive",
        4,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-view",
        "naive",
        4,
        3,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "race-rollback",
        "idempotent",
        3,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "race-rollback",
        "naive",
        3,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "crash-after-provider",
        "idempotent",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "crash-after-provider",
        "naive",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "crash-after-provider",
        "no-provider-key",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "producer-retry",
        "idempotent",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "producer-retry",
        "naive",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "producer-retry",
        "naive",
        2,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-id",
        "idempotent",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "broker-id",
        "idempotent",
        2,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "content-hash",
        "idempotent",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "content-hash",
        "naive",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "content-hash",
        "naive",
        2,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "retention",
        "idempotent",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "retention",
        "idempotent",
        4,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "provider-key-reuse",
        "idempotent",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "dedup-window",
        "idempotent",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "dedup-window",
        "naive",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "dedup-window",
        "naive",
        2,
        5,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "reused-id",
        "idempotent",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "reused-id",
        "naive",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "reused-id",
        "naive",
        2,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "id-first",
        "idempotent",
        3,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "charge-first",
        "charge-first",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "charge-first",
        "idempotent",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "ack-first",
        "idempotent",
        3,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "cache-claim-first",
        "idempotent",
        3,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "cache-work-first",
        "cache-work-first",
        1,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "cache-work-first",
        "idempotent",
        1,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "in-progress",
        "idempotent",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "in-progress",
        "in-progress",
        1,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "row-version",
        "idempotent",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "row-version",
        "idempotent",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "row-version",
        "row-version",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "row-version",
        "row-version",
        2,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "row-version",
        "row-version",
        3,
        1,
        "provider_answer",
        "201, the stored result (a replay)",
    ),
    (
        "offset",
        "naive",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "offset",
        "naive",
        3,
        4,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "offset",
        "offset",
        1,
        0,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "offset",
        "offset",
        3,
        4,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "offset-on-a-queue",
        "idempotent",
        2,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "offset-on-a-queue",
        "idempotent",
        3,
        2,
        "provider_answer",
        "201, a new charge",
    ),
    (
        "offset-on-a-queue",
        "offset",
        2,
        1,
        "provider_answer",
        "201, a new charge",
    ),
    // The provider question is asked where a handler drops its call on
    // finding its message handled, as where the provider answers 201, so
    // that its presence never tells a call from a skip (`asked_provider`).
    (
        "broker-view",
        "idempotent",
        4,
        3,
        "provider_answer",
        "no call is made",
    ),
    (
        "cache-claim-first",
        "cache-claim-first",
        3,
        1,
        "provider_answer",
        "no call is made",
    ),
    (
        "content-hash",
        "idempotent",
        2,
        1,
        "provider_answer",
        "no call is made",
    ),
    (
        "dedup-window",
        "idempotent",
        2,
        5,
        "provider_answer",
        "no call is made",
    ),
    (
        "in-progress",
        "idempotent",
        5,
        1,
        "provider_answer",
        "no call is made",
    ),
    (
        "offset-on-a-queue",
        "offset",
        3,
        2,
        "provider_answer",
        "no call is made",
    ),
    (
        "producer-retry",
        "idempotent",
        2,
        2,
        "provider_answer",
        "no call is made",
    ),
    (
        "retention",
        "idempotent",
        4,
        7,
        "provider_answer",
        "no call is made",
    ),
    (
        "reused-id",
        "idempotent",
        2,
        1,
        "provider_answer",
        "no call is made",
    ),
    (
        "row-version",
        "idempotent",
        3,
        1,
        "provider_answer",
        "no call is made",
    ),
];

fn all_asked() -> Vec<(String, String, usize, usize, String, String)> {
    let mut all = Vec::new();
    for script in scenario::load::builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for a in t.asked(&script) {
                all.push((
                    script.name.clone(),
                    design.clone(),
                    a.chapter,
                    a.action,
                    a.question.subject.about().to_string(),
                    a.show(a.answer),
                ));
            }
        }
    }
    all
}

#[test]
fn every_question_has_the_answer_its_run_computes() {
    let computed = all_asked();
    let pinned: Vec<_> = ANSWERS
        .iter()
        .map(|&(s, d, c, a, q, ans)| (s.into(), d.into(), c, a, q.into(), ans.into()))
        .collect();
    for row in &pinned {
        assert!(
            computed.contains(row),
            "no longer asked or answered so: {row:?}"
        );
    }
    let unpinned: Vec<_> = computed.iter().filter(|r| !pinned.contains(r)).collect();
    assert!(
        unpinned.is_empty(),
        "questions not pinned here:\n{}",
        unpinned
            .iter()
            .map(|r| format!("{r:?},"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_tour_asks_three_questions_per_design_and_every_other_scenario_one() {
    for script in scenario::load::builtins() {
        let wanted = if script.group == Group::Tour { 3 } else { 1 };
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let n = t.asked(&script).len();
            assert!(
                n >= wanted,
                "{} under {design} asks {n}, fewer than {wanted}",
                script.name
            );
        }
    }
}

#[test]
fn a_question_is_asked_before_its_action_and_answered_after_it() {
    for script in scenario::load::builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for a in t.asked(&script) {
                let at = format!("{} {design} {}.{}", script.name, a.chapter, a.action);
                assert!(a.ask_at < a.answer_at, "{at}: the action made no step");
                let asked_on = &t.frames[a.ask_at];
                assert!(
                    (asked_on.chapter, asked_on.action_index) < (a.chapter, a.action)
                        || a.ask_at == 0,
                    "{at}: asked on a frame of the action itself"
                );
                let answered_on = &t.frames[a.answer_at];
                assert_eq!(
                    (answered_on.chapter, answered_on.action_index),
                    (a.chapter, a.action),
                    "{at}"
                );
            }
        }
    }
}

#[test]
fn a_fork_changes_the_answer_with_the_run() {
    // Crash A right after it receives m-7f3 in tour-1: the first
    // question on the total, once A has run to its ack, is then $0, not $40.
    let script = scenario::find("tour-1").unwrap();
    let strategy = Strategy::by_name("naive").unwrap();
    let plain = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    let total = |t: &Timeline| {
        t.asked(&script)
            .into_iter()
            .find(|q| q.question.subject == idem::scenario::Subject::PaymentsTotal)
            .unwrap()
    };
    let first = &total(&plain);
    assert_eq!(first.show(first.answer), "$40");
    let fork = idem::timeline::Fork {
        at: first.ask_at,
        mv: idem::sim::Move::Crash {
            consumer: "A".into(),
        },
    };
    let forked = Timeline::build(&script, &strategy, 0, &[fork]).unwrap();
    let again = &total(&forked);
    assert_eq!(again.show(again.answer), "$0");
}

/// Words that tell the provider's answer before the action runs: a
/// question holding them has given its answer away.
fn tells_the_answer(answer: &str) -> &'static [&'static str] {
    match answer {
        "409 Conflict: still processing" => &[
            "409",
            "conflict",
            "no answer yet",
            "not answered",
            "unanswered",
            "still processing",
            "in flight",
        ],
        "201, the stored result (a replay)" => &[
            "stored",
            "replay",
            "has had its answer",
            "been answered",
            "already answered",
        ],
        "201, a new charge" => &["new charge", "charges again", "first request"],
        "no call is made" => &["no call", "blocked", "never reaches"],
        _ => &[],
    }
}

#[test]
fn no_question_gives_its_answer_away_in_its_wording() {
    let mut checked = 0;
    for script in scenario::load::builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for a in t.asked(&script) {
                let wording = a.question.wording().to_lowercase();
                let answer = a.show(a.answer);
                let mut tells: Vec<&str> = tells_the_answer(&answer).to_vec();
                // A place in the broker named in the question is its answer.
                if a.question.subject.about() == "message_state" {
                    tells.push(answer.as_str());
                }
                if let Some(word) = tells.iter().find(|w| wording.contains(*w)) {
                    panic!(
                        "{} {design} {}.{}: the question says {word:?}, which tells its answer ({answer}): {wording}",
                        script.name, a.chapter, a.action
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} questions");
}

/// tour-2's crash question tests the rollback: the figure it asks for is
/// on screen one way before the crash (A's uncommitted payment row) and
/// another after it, so the screen before does not give the answer away
/// (it once asked for the committed total, $0 before and after).
#[test]
fn the_crash_question_is_not_answered_by_the_screen_before_it() {
    let script = scenario::load::builtins()
        .into_iter()
        .find(|s| s.name == "tour-2")
        .unwrap();
    for design in ["naive", "idempotent"] {
        let s = Strategy::by_name(design).unwrap();
        let timeline = Timeline::build(&script, &s, 0, &[]).unwrap();
        let asked = timeline.asked(&script);
        let at_crash: Vec<_> = asked
            .iter()
            .filter(|q| q.chapter == 3 && q.action == 0)
            .collect();
        assert!(
            !at_crash.is_empty(),
            "{design}: a question before the crash"
        );
        // Every question there: the idempotent design's processed_messages
        // row rolls back with the payment's.
        for q in at_crash {
            assert_ne!(q.was, q.answer, "{design}: {}", q.question.wording());
        }
    }
}
