//! The world keeps its verdict and its copy of the committed tables as it
//! goes, judging again only what a move touched. After every move of many
//! random runs (every built-in setup, every design, faults of every kind)
//! both must equal what a judgement from scratch and a full read of the
//! database give.

use idem::scenario::load::builtins;
use idem::sim::{Move, Strategy, World};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_move(world: &World, rng: &mut ChaCha8Rng) -> Move {
    let setup = world.setup();
    let consumer = setup.consumers[rng.random_range(0..setup.consumers.len())].clone();
    let message = setup.messages[rng.random_range(0..setup.messages.len())]
        .id
        .clone();
    match rng.random_range(0..20) {
        0 => Move::Crash { consumer },
        1 => Move::LoseAck { consumer },
        2 => Move::LoseResponse { consumer },
        3 => Move::ExpireLease { message },
        4 => Move::Wait {
            ms: setup.lease_ms.max(setup.record_timeout_ms),
        },
        5 => Move::Publish { message },
        6 => Move::Prune { age_ms: 5_000 },
        7 => Move::Slow {
            consumer,
            ms: 20_000,
        },
        _ => Move::Step { consumer },
    }
}

#[test]
fn the_kept_verdict_equals_the_verdict_from_scratch_after_every_move() {
    let mut moves = 0;
    for script in builtins() {
        for strategy in Strategy::names() {
            let strategy = Strategy::by_name(strategy).unwrap();
            for seed in 0..4u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut world = World::new(script.setup.clone(), strategy.clone(), seed).unwrap();
                assert_eq!(world.verdict(), world.verdict_from_scratch());
                for _ in 0..80 {
                    let mv = random_move(&world, &mut rng);
                    world.apply(&mv).unwrap();
                    moves += 1;
                    let kept = world.verdict();
                    let fresh = world.verdict_from_scratch();
                    assert_eq!(
                        kept,
                        fresh,
                        "{} under {} (seed {seed}) after {mv:?} at step {}",
                        script.name,
                        strategy.name,
                        world.step_index()
                    );
                    let tally = world.tally();
                    assert_eq!(tally.outcome(), fresh.outcome);
                    assert_eq!(tally.failures(), fresh.failures);
                    if world.lock_holder().is_none() {
                        assert_eq!(
                            world.committed(),
                            &world.committed_from_scratch().unwrap(),
                            "{} under {} (seed {seed}) after {mv:?}",
                            script.name,
                            strategy.name
                        );
                    }
                }
            }
        }
    }
    assert!(moves > 10_000, "only {moves} moves were compared");
}
