//! Deliver every message twice, in random ways, and check the money. The
//! test drives the world through the same step function as everything else.

use idem::sim::{Message, Move, Outcome, Setup, Strategy as Design, World};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Duplicate {
    /// The producer publishes the message a second time.
    Republish,
    /// The first ack for it is lost, so the broker redelivers it.
    LoseFirstAck,
}

fn setup(amounts: &[u32], consumers: usize) -> Setup {
    Setup {
        consumers: ["A", "B"][..consumers]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        messages: amounts
            .iter()
            .enumerate()
            .map(|(i, &amount)| Message::payment(&format!("m-{i:03x}"), 1000 + i as u32, amount))
            .collect(),
        // Leases run out only when the test waits: a consumer that is picked
        // rarely must not lose its lease to the other one's steps.
        step_ms: 0,
        ..Setup::default()
    }
}

/// Runs the world until nothing is pending, picking consumers from `picks`.
fn drive(world: &mut World, plan: &[Duplicate], picks: &[u8]) {
    let mut lost: Vec<bool> = vec![false; plan.len()];
    let mut picks = picks.iter().cycle();
    for _ in 0..2_000 {
        let pending = world.broker().messages().iter().any(|m| m.is_pending());
        let busy = world.consumers().iter().any(|c| !c.is_idle());
        if !pending && !busy {
            return;
        }
        let visible = world
            .broker()
            .messages()
            .iter()
            .any(|m| m.state == idem::sim::broker::MessageState::Waiting);
        if !busy && !visible {
            // Only leases are left: let them run out.
            let lease = world.setup().lease_ms;
            world.apply(&Move::Wait { ms: lease }).unwrap();
            continue;
        }
        let n = world.consumers().len();
        let i = *picks.next().unwrap() as usize % n;
        let c = &world.consumers()[i];
        let name = c.name.clone();
        let at_ack = c.is_running() && world.strategy().program[c.pc] == idem::sim::Op::Ack;
        if at_ack {
            let index = usize::from_str_radix(&c.delivery().unwrap().message.id[2..], 16).unwrap();
            if matches!(plan[index], Duplicate::LoseFirstAck) && !lost[index] {
                lost[index] = true;
                world
                    .apply(&Move::LoseAck {
                        consumer: name.clone(),
                    })
                    .unwrap();
            }
        }
        world.apply(&Move::Step { consumer: name }).unwrap();
    }
    panic!("the run did not settle");
}

fn run(
    strategy: Design,
    amounts: &[u32],
    plan: &[Duplicate],
    consumers: usize,
    picks: &[u8],
) -> World {
    let mut world = World::new(setup(amounts, consumers), strategy, 7).unwrap();
    for (i, dup) in plan.iter().enumerate() {
        if matches!(dup, Duplicate::Republish) {
            world
                .apply(&Move::Publish {
                    message: format!("m-{i:03x}"),
                })
                .unwrap();
        }
    }
    drive(&mut world, plan, picks);
    world
}

fn duplicate() -> impl proptest::strategy::Strategy<Value = Duplicate> {
    prop_oneof![Just(Duplicate::Republish), Just(Duplicate::LoseFirstAck)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_message_delivered_twice(
        cases in prop::collection::vec((1u32..=500, duplicate()), 1..=4),
        consumers in 1usize..=2,
        picks in prop::collection::vec(any::<u8>(), 1..=16),
    ) {
        let amounts: Vec<u32> = cases.iter().map(|c| c.0).collect();
        let plan: Vec<Duplicate> = cases.iter().map(|c| c.1).collect();
        let sum: u64 = amounts.iter().map(|&a| u64::from(a)).sum();
        let n = amounts.len();

        let safe = run(Design::idempotent(), &amounts, &plan, consumers, &picks);
        let end = safe.frame().unwrap();
        prop_assert_eq!(end.counters.duplicates_delivered as usize, n);
        prop_assert_eq!(end.db.payments_total, sum);
        prop_assert_eq!(end.provider.charges.len(), n);
        prop_assert_eq!(end.db.processed.len(), n);
        prop_assert_eq!(end.counters.duplicates_skipped as usize, n);
        prop_assert_eq!(end.verdict.outcome, Outcome::Correct);

        let naive = run(Design::naive(), &amounts, &plan, consumers, &picks);
        let end = naive.frame().unwrap();
        prop_assert_eq!(end.counters.duplicates_delivered as usize, n);
        prop_assert_eq!(end.db.payments_total, 2 * sum);
        prop_assert_eq!(end.provider.charges.len(), 2 * n);
        prop_assert_eq!(end.verdict.outcome, Outcome::ChargedTwice);
        prop_assert!(end.verdict.facts.iter().all(|f| f.outcome == Outcome::ChargedTwice));
    }
}
