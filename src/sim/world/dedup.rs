//! The ways a handler can tell that a message was handled before: the
//! processed_messages table, a business row, a log offset, a cache, an
//! in-progress record.

use super::{SimError, World};
use crate::sim::admission::Admission;
use crate::sim::cause::Cause;
use crate::sim::consumer::{Connection, Mark, Path};
use crate::sim::db::{RecordClaim, render_look_up};
use crate::sim::event::EventKind;
use crate::sim::format_duration;
use crate::sim::skip::Skip;

impl World {
    /// A record's offset in the single partition: its place in the log.
    pub(super) fn offset(&self, i: usize) -> u64 {
        u64::from(self.delivery(i).seq - 1)
    }

    pub(super) fn check_offset(&mut self, i: usize) -> Result<(), SimError> {
        let offset = self.offset(i);
        let (last, ran) = self.session(i).read_offset()?;
        self.ran(i, ran);
        match last {
            Some(last) if offset <= last => self.duplicate_found(i, Skip::Offset { offset, last }),
            applied => {
                self.let_through(i);
                self.say(
                    self.actor(i),
                    EventKind::Info,
                    match applied {
                        Some(last) => format!(
                            "finds offset {offset} past the last applied offset {last}: goes on with the work"
                        ),
                        None => format!(
                            "finds no offset applied yet, so offset {offset} is new: goes on with the work"
                        ),
                    },
                );
            }
        }
        Ok(())
    }

    pub(super) fn save_offset(&mut self, i: usize) -> Result<(), SimError> {
        let offset = self.offset(i);
        let ran = self.session(i).save_offset(offset)?;
        self.ran(i, ran);
        self.done(i);
        self.say(
            self.actor(i),
            EventKind::Info,
            format!("records offset {offset} as applied, in the same transaction as the payment"),
        );
        Ok(())
    }

    pub(super) fn guard_row(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let order = self.delivery(i).message.payment.order;
        let (changed, remembered, ran) = self.session(i).guard_order_row(order, &key)?;
        self.ran(i, ran);
        if changed {
            // The guard let this delivery through because the row keeps one
            // ID only: say so, should this turn out to be a repeat.
            if let Some(prev) = remembered.filter(|p| *p != key) {
                self.consumers[i].work().admitted = Some(Admission::RowForgot {
                    order,
                    previous: prev,
                    key: key.clone(),
                });
            }
            self.let_through(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!("order {order}'s row now remembers {key} as its last message"),
            );
        } else {
            self.duplicate_found(i, Skip::RowRemembers { order, key });
        }
        Ok(())
    }

    pub(super) fn check_id(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let Some((found, ran)) = self.session(i).look_up_message(&key)? else {
            self.wait_for_lock(i, render_look_up(&key));
            return Ok(());
        };
        self.ran(i, ran);
        if !found {
            self.let_through(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!("finds no record of {key}: goes on with the work"),
            );
            return Ok(());
        }
        self.duplicate_found(i, Skip::IdFound { key });
        Ok(())
    }

    pub(super) fn cache_claim(&mut self, i: usize) {
        let key = self.message_key(i);
        let ttl = format_duration(self.setup.cache_ttl_ms);
        if self.cache.set_nx(&key, self.now) {
            self.let_through(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!(
                    "cache: SET {key} 1 NX EX {ttl} -> OK, the ID is claimed (outside the database)"
                ),
            );
        } else {
            self.duplicate_found(i, Skip::CacheClaimed { key, ttl });
        }
    }

    pub(super) fn cache_check(&mut self, i: usize) {
        let key = self.message_key(i);
        if self.cache.get(&key, self.now) {
            self.duplicate_found(i, Skip::CacheHit { key });
        } else {
            self.let_through(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!("cache: GET {key} -> miss: goes on with the work"),
            );
        }
    }

    pub(super) fn cache_set(&mut self, i: usize) {
        let key = self.message_key(i);
        self.cache.set(&key, self.now);
        self.done(i);
        self.say(
            self.actor(i),
            EventKind::Info,
            format!(
                "cache: SET {key} 1 EX {} -> OK, the ID is remembered",
                format_duration(self.setup.cache_ttl_ms)
            ),
        );
    }

    /// The owner token of an in-progress record: consumer and receipt.
    pub(super) fn owner(&self, i: usize) -> String {
        format!("{}/{}", self.consumers[i].name, self.delivery(i).receipt)
    }

    pub(super) fn claim_record(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let owner = self.owner(i);
        let deadline = self.now + self.setup.record_timeout_ms;
        let (claim, ran) = self
            .session(i)
            .claim_record(&key, &owner, self.now, deadline)?;
        for r in ran {
            self.ran(i, r);
        }
        match claim {
            RecordClaim::Claimed => {
                self.let_through(i);
                self.say(
                    self.actor(i),
                    EventKind::Good,
                    format!(
                        "records {key} as in progress until {}",
                        format_duration(deadline)
                    ),
                );
            }
            RecordClaim::TookOver { previous_owner } => {
                self.let_through(i);
                self.say(
                    self.actor(i),
                    EventKind::Warning,
                    format!("takes over {key}: {previous_owner}'s deadline has passed, so the work runs again"),
                );
            }
            RecordClaim::Busy { owner, deadline } => {
                let c = &mut self.consumers[i];
                c.marks[c.pc] = Mark::BackedOff;
                c.work().path = Path::BackingOff;
                self.skip_ahead(i);
                let receipt = self.delivery(i).receipt.clone();
                let name = self.consumers[i].name.clone();
                self.queue.broker.note_lost_lease(
                    &receipt,
                    Cause::BackedOff {
                        consumer: name,
                        key: key.clone(),
                    },
                );
                self.say(
                    self.actor(i),
                    EventKind::Warning,
                    format!(
                        "finds {key} in progress ({owner}, until {}): backs off without acking",
                        format_duration(deadline)
                    ),
                );
            }
            RecordClaim::Completed { result } => {
                let result = result.unwrap_or_else(|| "none".into());
                self.duplicate_found(i, Skip::Completed { key, result });
            }
        }
        Ok(())
    }

    pub(super) fn complete_record(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let owner = self.owner(i);
        let result = self.consumers[i]
            .last_charge()
            .map(str::to_string)
            .unwrap_or_else(|| "none".into());
        let (ok, ran) = self.session(i).complete_record(&key, &owner, &result)?;
        self.ran(i, ran);
        if ok {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Good,
                format!("marks {key} completed with result {result}"),
            );
            return Ok(());
        }
        // Someone took the record over and finished first: this attempt's
        // payment row must not survive.
        let ran = self.session(i).rollback()?;
        self.ran(i, ran);
        let c = &mut self.consumers[i];
        c.work().connection = Connection::Autocommit;
        self.release_waiters();
        self.duplicate_found(i, Skip::TakenOver { key });
        Ok(())
    }

    pub(super) fn claim(&mut self, i: usize) -> Result<(), SimError> {
        let id = self.message_key(i);
        let claim = self.session(i).claim_message(&id, self.now)?;
        self.ran(i, claim.ran);
        if claim.first_time {
            if let Some(step) = self.store.pruned.get(&id) {
                self.consumers[i].work().admitted = Some(Admission::Pruned {
                    id: id.clone(),
                    step: *step,
                });
            }
            self.let_through(i);
            self.say(
                self.actor(i),
                EventKind::Good,
                format!("records {id} in processed_messages: first time this ID is seen"),
            );
            return Ok(());
        }
        self.moment.conflict = Some(id.clone());
        self.duplicate_found(i, Skip::UniqueKey { key: id });
        Ok(())
    }
}
