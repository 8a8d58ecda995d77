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
    /// open, so the committed tables are the whole database.
    pub fn forkable(&self) -> bool {
        self.lock_holder().is_none()
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
            db,
            consumers,
            committed,
            ..
        } = spare;
        // Their connections go idle before the tables are replaced (an open
        // transaction rolls back: the database then holds what the spare
        // saw committed), and come back below as this world's consumers'
        // connections.
        drop(consumers);
        db.restore_over(Some(&committed), &self.committed)?;
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
        // Every field named, so that a new one cannot be forgotten here.
        Ok(World {
            setup: self.setup.clone(),
            strategy: self.strategy.clone(),
            now: self.now,
            broker: self.broker.clone(),
            db,
            consumers,
            provider: self.provider.clone(),
            cache: self.cache.clone(),
            step: self.step,
            events: self.events.clone(),
            sql: self.sql.clone(),
            committed: self.committed.clone(),
            counters: self.counters.clone(),
            ledger: self.ledger.clone(),
            notes: self.notes.clone(),
            seen: self.seen.clone(),
            acked_before_work: self.acked_before_work.clone(),
            refused: self.refused.clone(),
            receipts: self.receipts.clone(),
            pruned: self.pruned.clone(),
            conflict: self.conflict.clone(),
            replayed: self.replayed.clone(),
        })
    }
}
