//! Cause chains are typed and read in causal order: each link happened
//! because of the one after it, and a cause that came later than an effect
//! never stands behind it. These assert the `Cause` values, not wording.

use idem::check::Bounds;
use idem::sim::{Cause, Move, Outcome, Setup, Strategy, World};

fn step(c: &str) -> Move {
    Move::Step { consumer: c.into() }
}

fn crash(c: &str) -> Move {
    Move::Crash { consumer: c.into() }
}

fn expire() -> Move {
    Move::ExpireLease {
        message: "m-7f3".into(),
    }
}

fn run(strategy: Strategy, setup: Setup, moves: &[Move]) -> World {
    let mut world = World::new(setup, strategy, idem::check::SEED).unwrap();
    for (i, mv) in moves.iter().enumerate() {
        world
            .apply(mv)
            .unwrap_or_else(|e| panic!("move {}: {mv:?}: {e}", i + 1));
    }
    world
}

/// The in-progress design: a crash, a back-off and another crash use up
/// the three receives. The chain of the lost charge names each of them,
/// newest first, after the dead-lettering they caused.
#[test]
fn a_dead_letter_chain_names_the_crashes_and_back_offs_behind_it() {
    let moves = [
        step("A"),  // 1 receive (1st)
        step("A"),  // 2 begin
        step("A"),  // 3 record in progress
        step("A"),  // 4 commit
        crash("A"), // 5
        step("A"),  // 6 restart
        expire(),   // 7 the lease A held runs out
        step("B"),  // 8 receive (2nd)
        step("B"),  // 9 begin
        step("B"),  // 10 finds A's record in progress: backs off
        step("B"),  // 11 commit (nothing written), leaves without an ack
        expire(),   // 12 the lease B held runs out
        step("A"),  // 13 receive (3rd)
        crash("A"), // 14
        step("A"),  // 15 restart
        expire(),   // 16 dead-lettered after 3 receives
    ];
    let in_progress = Strategy::by_name("in-progress").unwrap();
    // Time passes with each step, and a record outlives a lease: B comes
    // while A's record still holds.
    let setup = Setup {
        step_ms: 1_000,
        record_timeout_ms: 60_000,
        ..Bounds::default().setup()
    };
    let world = run(in_progress, setup, &moves);
    let verdict = world.verdict();
    assert_eq!(verdict.outcome, Outcome::ChargeLost, "{}", verdict.chain());
    assert_eq!(
        verdict.causes,
        [vec![
            Cause::ReceivesRanOut { order: 1042 },
            Cause::Crashed {
                consumer: "A".into(),
                step: 14
            },
            Cause::BackedOff {
                consumer: "B".into(),
                key: "m-7f3".into()
            },
            Cause::Crashed {
                consumer: "A".into(),
                step: 5
            },
        ]],
        "{}",
        verdict.chain()
    );
}

/// ack-first: A acks, then crashes before its work is saved. The early
/// ack is why nothing delivers the message again, and the crash is what
/// lost the work: the chain names both, the crash first (teacher trial
/// 44: it named the ack alone, and no fault).
#[test]
fn an_early_ack_chain_names_the_crash_that_lost_the_work() {
    let acked_early = Cause::AckedUnpaid {
        id: "m-7f3".into(),
        step: 2,
    };
    // Message lost: the crash at move 3, before any work.
    let world = run(
        Strategy::by_name("ack-first").unwrap(),
        Bounds::default().setup(),
        &[step("A"), step("A"), crash("A"), step("A")],
    );
    let verdict = world.verdict();
    assert_eq!(verdict.outcome, Outcome::MessageLost, "{}", verdict.chain());
    assert_eq!(
        verdict.causes,
        [vec![
            Cause::RemovedBeforeWork { order: 1042 },
            Cause::Crashed {
                consumer: "A".into(),
                step: 3
            },
            acked_early.clone(),
        ]],
        "{}",
        verdict.chain()
    );
    // Provider and database disagree: the crash at move 8, after the
    // charge and before the commit.
    let mut moves = vec![step("A"); 7];
    moves.extend([crash("A"), step("A")]);
    let world = run(
        Strategy::by_name("ack-first").unwrap(),
        Bounds::default().setup(),
        &moves,
    );
    let verdict = world.verdict();
    assert_eq!(verdict.outcome, Outcome::Disagree, "{}", verdict.chain());
    let chain = &verdict.causes[0];
    let crash_at = chain.iter().position(|c| {
        *c == Cause::Crashed {
            consumer: "A".into(),
            step: 8,
        }
    });
    let ack_at = chain.iter().position(|c| *c == acked_early);
    assert!(
        matches!((crash_at, ack_at), (Some(c), Some(a)) if c < a),
        "{}",
        verdict.chain()
    );
}

/// `idem check --strategy offset --messages 2 --faults 3`, its shortest
/// charge lost: the message is dead-lettered at move 10 and a stale copy
/// of it is skipped at move 20. The skip did not cause the dead-lettering:
/// it stands beside it as a chain of its own, never behind it.
#[test]
fn a_later_skip_is_never_placed_behind_an_earlier_dead_lettering() {
    let offset = Strategy::by_name("offset").unwrap();
    let bounds = Bounds {
        messages: 2,
        ..Bounds::default()
    }
    .for_strategy(&offset);
    let moves = [
        step("A"),  // 1 receive m-7f3
        crash("A"), // 2
        step("A"),  // 3 restart
        expire(),   // 4
        step("A"),  // 5 receive m-7f3 again
        expire(),   // 6 while A works
        step("B"),  // 7 receive m-7f3 (3rd)
        crash("B"), // 8
        step("B"),  // 9 restart
        expire(),   // 10 dead-lettered
        step("B"),  // 11 receive m-9c2
        step("B"),  // 12 begin
        step("B"),  // 13 offset 1 is new
        step("B"),  // 14 payment row
        step("B"),  // 15 provider
        step("B"),  // 16 response
        step("B"),  // 17 save offset
        step("B"),  // 18 commit
        step("A"),  // 19 begin
        step("A"),  // 20 finds offset 0 at or below 1: skips
        step("A"),  // 21 commit
        step("A"),  // 22 ack (ignored: out of date)
        step("B"),  // 23 ack m-9c2
    ];
    let world = run(offset, bounds.setup(), &moves);
    let verdict = world.verdict();
    assert_eq!(verdict.outcome, Outcome::ChargeLost, "{}", verdict.chain());
    let chain = verdict.chain();
    // Every step a chain names comes no later than the link before it.
    for c in &verdict.causes {
        let steps: Vec<usize> = c.iter().filter_map(step_of).collect();
        assert!(
            steps.windows(2).all(|w| w[0] >= w[1]),
            "out of causal order: {steps:?} in {chain}"
        );
    }
    let dead_letter = &verdict.causes[0];
    assert_eq!(dead_letter[0], Cause::ReceivesRanOut { order: 1042 });
    assert_eq!(
        dead_letter[1],
        Cause::Crashed {
            consumer: "B".into(),
            step: 8
        },
        "{chain}"
    );
    assert!(
        verdict.causes[1..]
            .iter()
            .any(|c| matches!(c.first(), Some(Cause::Skipped { step: 20, .. }))),
        "the stale copy's skip is told beside: {chain}"
    );
}

/// The step a cause happened at, where it names one.
fn step_of(cause: &Cause) -> Option<usize> {
    match cause {
        Cause::Skipped { step, .. }
        | Cause::Crashed { step, .. }
        | Cause::AckLost { step }
        | Cause::GaveUp { step, .. }
        | Cause::AckedUnpaid { step, .. }
        | Cause::WroteOver { step, .. }
        | Cause::ResponseLost { step }
        | Cause::ProviderAnswered { step, .. } => Some(*step),
        _ => None,
    }
}

/// One arrow per medium: a chain drawn for the screen has no `<-`, and one
/// for plain text no `←`, over every built-in scenario and design.
#[test]
fn every_chain_uses_one_arrow() {
    use idem::sim::Arrow;
    for script in idem::scenario::load::builtins() {
        for name in script.expect.keys() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = idem::timeline::Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let v = &timeline.last().verdict;
            let drawn = v.chain_with(Arrow::Drawn);
            let plain = v.chain_with(Arrow::Ascii);
            assert!(!drawn.contains("<-"), "{}/{name}: {drawn}", script.name);
            assert!(!plain.contains('←'), "{}/{name}: {plain}", script.name);
            // No chain is joined twice, nor left dangling.
            assert!(!plain.contains("; and;"), "{plain}");
            assert!(
                !plain.ends_with("<-") && !plain.ends_with("; and"),
                "{plain}"
            );
            for (i, c) in v.causes.iter().enumerate() {
                assert!(!c.is_empty(), "{}/{name}: an empty chain", script.name);
                assert!(
                    !v.causes[..i].contains(c),
                    "{}/{name}: a chain told twice: {plain}",
                    script.name
                );
            }
        }
    }
}
