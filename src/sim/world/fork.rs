//! A copy of a world, for the checker: reaching a state again by replaying
//! its whole path from the start costs a move per step of the path; a copy
//! costs one database restore. A database cannot be copied while a
//! transaction is open in it (the uncommitted rows live inside that
//! consumer's connection), so only a world with no transaction open can be
//! copied.

use super::World;
use crate::sim::SimError;
use crate::sim::db::DbError;

impl World {
    /// Whether [`World::fork_onto`] can copy this world: no transaction is
    /// open and nothing was retired, so the committed tables are the whole
    /// database.
    pub fn forkable(&self) -> bool {
        self.lock_holder().is_none() && !self.books.facts.forgot
    }

    /// This world, copied onto `spare`'s database (a world of the same
    /// setup that nobody needs any more): its rows replaced with this
    /// world's committed rows, and a connection for every consumer that has
    /// one. From here on the copy behaves exactly as this world would.
    pub fn fork_onto(&self, spare: World) -> Result<World, SimError> {
        if let Some(holder) = self.lock_holder() {
            return Err(DbError::OpenTransaction {
                holder: holder.to_string(),
            }
            .into());
        }
        let World {
            store, consumers, ..
        } = spare;
        // Their connections go idle before the tables are replaced (an open
        // transaction rolls back: the database then holds what the spare
        // saw committed), and come back below as this world's consumers'
        // connections.
        for mut c in consumers {
            if let Some(session) = c.session.take() {
                session.recycle();
            }
        }
        let db = store.db;
        db.restore_over(Some(&store.committed), &self.store.committed)?;
        let consumers = self
            .consumers
            .iter()
            .map(|c| {
                let session = match c.session {
                    Some(_) => Some(db.connect()?),
                    None => None,
                };
                Ok(c.copy_with(session))
            })
            .collect::<Result<Vec<_>, SimError>>()?;
        // Every part named, so that a new one cannot be forgotten here.
        Ok(World {
            setup: self.setup.clone(),
            strategy: self.strategy.clone(),
            now: self.now,
            step: self.step,
            queue: self.queue.clone(),
            consumers,
            store: self.store.copy_onto(db),
            provider: self.provider.clone(),
            cache: self.cache.clone(),
            counters: self.counters.clone(),
            books: self.books.clone(),
            moment: self.moment.clone(),
            replaying: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Message, Move, Setup, Strategy};

    fn setup() -> Setup {
        Setup {
            consumers: vec!["A".into(), "B".into()],
            messages: vec![
                Message::payment("m-7f3", 1042, 40),
                Message::payment("m-9c2", 1043, 25),
            ],
            ..Setup::default()
        }
    }

    fn step(consumer: &str) -> Move {
        Move::Step {
            consumer: consumer.into(),
        }
    }

    /// A run with commits, a crash inside a transaction, a lost ack and a
    /// redelivery: every table and every part of the world moves.
    fn schedule() -> Vec<Move> {
        let mut moves = vec![step("A"), step("B"), step("A"), step("B")];
        moves.extend((0..6).map(|_| step("A")));
        moves.push(Move::LoseAck {
            consumer: "B".into(),
        });
        moves.extend((0..4).map(|_| step("B")));
        moves.push(Move::Crash {
            consumer: "B".into(),
        });
        moves.push(Move::Wait { ms: 60_000 });
        moves.extend((0..12).map(|_| step("A")));
        moves.extend((0..12).map(|_| step("B")));
        moves
    }

    /// A spare world left in the middle of its own transaction, with rows
    /// the copy must not keep.
    fn spare(strategy: &Strategy) -> World {
        let mut spare = World::new(setup(), strategy.clone(), 0).unwrap();
        for mv in schedule().iter().take(9) {
            spare.apply(mv).unwrap();
        }
        spare
    }

    /// The incremental parts agree too: the same running verdict, and a
    /// copy of the committed tables that is what its own database holds
    /// (read back row by row after each commit since the copy or the
    /// start over, never whole).
    fn assert_same_run(copy: &World, world: &World) {
        assert_eq!(copy.tally(), world.tally());
        assert_eq!(copy.fact_verdicts(), world.fact_verdicts());
        if copy.forkable() {
            assert_eq!(copy.committed(), &copy.committed_from_scratch().unwrap());
        }
    }

    #[test]
    fn a_copy_goes_on_exactly_as_the_world_it_copies() {
        for strategy in [Strategy::idempotent(), Strategy::naive()] {
            let moves = schedule();
            let mut copied = 0;
            for at in 0..moves.len() {
                let mut world = World::new(setup(), strategy.clone(), 0).unwrap();
                for mv in &moves[..at] {
                    world.apply(mv).unwrap();
                }
                if !world.forkable() {
                    assert!(world.fork_onto(spare(&strategy)).is_err());
                    continue;
                }
                let mut copy = world.fork_onto(spare(&strategy)).unwrap();
                copied += 1;
                assert_eq!(copy.frame().unwrap(), world.frame().unwrap());
                for mv in &moves[at..] {
                    world.apply(mv).unwrap();
                    copy.apply(mv).unwrap();
                    assert_eq!(
                        copy.frame().unwrap(),
                        world.frame().unwrap(),
                        "{} copied after {at} moves, then {mv:?}",
                        strategy.name
                    );
                    assert_same_run(&copy, &world);
                }
            }
            assert!(copied > 5, "only {copied} points to copy at");
        }
    }

    #[test]
    fn a_world_started_over_goes_on_as_a_new_one() {
        let strategy = Strategy::idempotent();
        let mut again = spare(&strategy).start_over(0).unwrap();
        let mut new = World::new(setup(), strategy, 0).unwrap();
        assert_eq!(again.frame().unwrap(), new.frame().unwrap());
        for mv in schedule() {
            again.apply(&mv).unwrap();
            new.apply(&mv).unwrap();
            assert_eq!(again.frame().unwrap(), new.frame().unwrap(), "{mv:?}");
            assert_same_run(&again, &new);
        }
    }
}
