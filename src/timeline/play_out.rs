//! What a run does on its own once the user has changed it: the scenario's
//! later actions were written for the run as scripted (its faults included),
//! so after a fork they no longer apply. The world carries on the way a real
//! deployment would with no more faults: handlers finish what they started,
//! crashed processes restart, idle consumers take what is visible, and when
//! only a lease can move the story on, the clock runs to its deadline.

use crate::sim::broker::MessageState;
use crate::sim::consumer::Status;
use crate::sim::{Move, World};

/// A run that has not settled after this many moves of its own stops there:
/// a message the provider keeps refusing would otherwise go round for ever.
pub const PLAY_OUT_LIMIT: usize = 200;

/// The next thing that happens with nobody interfering, or `None` once every
/// message is settled and every consumer is idle.
///
/// `last` is the consumer that moved last: a handler keeps going until it
/// stops, so that each delivery reads as one story, as in the scenarios.
pub fn next_move(world: &World, last: Option<&str>) -> Option<Move> {
    let step = |name: &str| Move::Step {
        consumer: name.to_string(),
    };
    let lock_free = world.lock_holder().is_none();
    let can_go = |status: &Status| match status {
        Status::Handling | Status::Crashed => true,
        // Retrying BEGIN while another holds the write lock only fails again.
        Status::Blocked { .. } => lock_free,
        // Released when the provider answers the request it waits for.
        Status::AwaitingKey { .. } | Status::Idle => false,
    };
    let consumers = world.consumers();
    if let Some(c) = last.and_then(|name| consumers.iter().find(|c| c.name == name))
        && can_go(&c.status())
    {
        return Some(step(&c.name));
    }
    if let Some(c) = consumers.iter().find(|c| can_go(&c.status())) {
        return Some(step(&c.name));
    }
    if world.broker().can_receive()
        && let Some(c) = consumers.iter().find(|c| c.is_idle())
    {
        return Some(step(&c.name));
    }
    // Nobody is working and nothing is visible: what is still leased comes
    // back when its lease runs out.
    let now = world.now();
    let deadline = world
        .broker()
        .messages()
        .iter()
        .filter_map(|m| match m.state {
            MessageState::InFlight { until, .. } => Some(until),
            _ => None,
        })
        .min()?;
    Some(Move::Wait {
        ms: deadline.saturating_sub(now).max(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Message, Setup, Strategy};

    fn one_message() -> Setup {
        Setup {
            messages: vec![Message::payment("m-7f3", 1042, 40)],
            ..Setup::default()
        }
    }

    fn play(world: &mut World) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut last: Option<String> = None;
        while let Some(mv) = next_move(world, last.as_deref()) {
            world.apply(&mv).unwrap();
            if let Move::Step { consumer } = &mv {
                last = Some(consumer.clone());
            }
            moves.push(mv);
            assert!(moves.len() < PLAY_OUT_LIMIT, "did not settle: {moves:?}");
        }
        moves
    }

    #[test]
    fn a_crashed_holder_restarts_and_the_lease_brings_the_message_back() {
        let mut world = World::new(one_message(), Strategy::idempotent(), 0).unwrap();
        world
            .apply(&Move::Step {
                consumer: "A".into(),
            })
            .unwrap();
        world
            .apply(&Move::Crash {
                consumer: "A".into(),
            })
            .unwrap();
        let moves = play(&mut world);
        assert!(
            moves.iter().any(|m| matches!(m, Move::Wait { .. })),
            "the lease has to run out: {moves:?}"
        );
        let end = world.frame().unwrap();
        assert_eq!(end.provider.charges.len(), 1);
        assert_eq!(end.verdict.outcome.text(), "correct");
        assert!(world.consumers().iter().all(|c| c.is_idle()));
    }

    #[test]
    fn an_untouched_world_handles_everything_once() {
        let mut world = World::new(one_message(), Strategy::naive(), 0).unwrap();
        let moves = play(&mut world);
        assert!(!moves.iter().any(|m| matches!(m, Move::Wait { .. })));
        assert_eq!(world.frame().unwrap().provider.charges.len(), 1);
    }
}

#[cfg(test)]
mod fork_tests {
    use crate::scenario;
    use crate::sim::{Move, Strategy};
    use crate::timeline::{Fork, Timeline};

    /// Wherever the user acts, what was shown before stays as written, and
    /// from the move on the words are the user's run's, with none of the
    /// script's later faults.
    #[test]
    fn a_fork_keeps_the_frames_before_it_and_tells_its_own_story_after() {
        let script = scenario::find("tour-3").unwrap();
        let naive = Strategy::naive();
        let written = Timeline::build(&script, &naive, 0, &[]).unwrap();
        for at in 1..written.frames.len() - 1 {
            let forks = [Fork {
                at,
                mv: Move::Crash {
                    consumer: "A".into(),
                },
            }];
            let t = Timeline::build(&script, &naive, 0, &forks).unwrap();
            for i in 0..=at {
                let (mine, was) = (&t.frames[i], &written.frames[i]);
                assert_eq!(mine.narration, was.narration, "fork at {at}, frame {i}");
                assert_eq!(mine.said, was.said, "fork at {at}, frame {i}");
            }
            // The paragraph is said once, at the user's move; each later
            // step has its own line and a one-sentence reminder.
            let first = &t.frames[at + 1];
            assert!(
                first
                    .narration
                    .starts_with(&format!("At step {} you changed the run", at + 1)),
                "fork at {at}: {}",
                first.narration
            );
            for f in &t.frames[at + 2..] {
                assert!(
                    f.narration
                        .starts_with(&format!("Since your change at step {} (", at + 1)),
                    "fork at {at}, frame {}: {}",
                    f.index,
                    f.narration
                );
                assert!(f.narration.len() < 140, "{}", f.narration);
                assert!(
                    !crate::sim::event::step_told(&f.events).trim().is_empty(),
                    "fork at {at}, frame {}: no words for what the step did",
                    f.index
                );
                // None of the script's later faults is made after the fork.
                assert!(
                    !matches!(
                        f.made_by,
                        Some(Move::LoseAck { .. } | Move::LoseResponse { .. })
                    ),
                    "fork at {at}: {:?}",
                    f.made_by
                );
            }
        }
    }
}
