//! A retention job, as production runs one: it deletes processed IDs older
//! than an age, which lets a late duplicate of one through.

use super::{SimError, World};
use crate::sim::event::{Actor, EventKind, SqlRecord};
use crate::sim::{Millis, format_duration};

impl World {
    /// A janitor deletes old processed IDs, as retention jobs do in production.
    pub(super) fn prune(&mut self, age_ms: Millis) -> Result<(), SimError> {
        // PostgreSQL's janitor deletes committed rows without waiting for
        // anyone's open transaction; SQLite's cannot while one is open.
        if let Some(holder) = self
            .lock_holder()
            .filter(|_| self.store.db.readers_wait_for_writers())
        {
            let text = format!("janitor cannot prune now: {holder} holds the write lock");
            self.say(Actor::Janitor, EventKind::Info, text);
            return Ok(());
        }
        if age_ms > self.now {
            let text = format!(
                "finds nothing older than {}: the run is younger than that",
                format_duration(age_ms)
            );
            self.say(Actor::Janitor, EventKind::Info, text);
            return Ok(());
        }
        let cutoff = self.now - age_ms;
        let (deleted, ran) = self.store.db.prune_processed(cutoff)?;
        self.store.forget_processed(&deleted, &mut self.moment);
        // Kept for a duplicate that may still come: a retired payment's
        // IDs never come again, and a long run would keep one per payment.
        for id in deleted {
            if self.message(&id).is_some() {
                self.store.pruned.insert(id, self.step);
            }
        }
        self.say(
            Actor::Janitor,
            EventKind::Warning,
            format!(
                "deletes processed IDs older than {} ({})",
                format_duration(age_ms),
                ran.result
            ),
        );
        self.moment.sql.push(SqlRecord {
            consumer: "janitor".into(),
            sql: ran.sql,
            result: ran.result,
            answer: ran.answer,
        });
        Ok(())
    }
}
