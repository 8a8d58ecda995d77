//! Time passing: the clock moves on, leases run out (the broker makes the
//! message visible again or moves it to the dead-letter queue), and the
//! provider forgets keys older than their lifetime.

use super::{SimError, World};
use crate::sim::broker::ExpiryOutcome;
use crate::sim::cause::Cause;
use crate::sim::event::{Actor, Event, EventKind};
use crate::sim::{Millis, format_duration};

impl World {
    /// Lets virtual time pass: leases and idempotency keys run out.
    pub(super) fn advance(&mut self, ms: Millis) -> Result<(), SimError> {
        self.now = self.now.saturating_add(ms);
        self.cache.expire(self.now);
        for outcome in self.queue.broker.expire_leases(self.now) {
            self.report_expiry(outcome);
        }
        for key in self.provider.forget_expired(self.now) {
            // A fact whose charge was safe to repeat under this key is not
            // any more: judge it again.
            self.moment.touched_ids.push(key.clone());
            self.say(
                Actor::Provider,
                EventKind::Info,
                format!("forgets Idempotency-Key {key}: older than its lifetime"),
            );
        }
        Ok(())
    }

    /// A lease runs out at its deadline, not before: the clock moves there
    /// first, so time, the other leases and every TTL read as in any run.
    pub(super) fn expire_lease(&mut self, message: &str) -> Result<(), SimError> {
        if let Some(until) = self.queue.broker.lease_deadline(message)
            && until > self.now
        {
            let wait = until - self.now;
            self.say(
                Actor::Clock,
                EventKind::Info,
                format!(
                    "advances {}: the lease on {message} reaches its deadline",
                    format_duration(wait)
                ),
            );
            // Reaching the deadline ends the lease through the clock itself.
            return self.advance(wait);
        }
        match self.queue.broker.expire_now(message) {
            Some(outcome) => self.report_expiry(outcome),
            None => self.say(
                Actor::Broker,
                EventKind::Info,
                format!("{message} is not leased to anyone: no lease to expire"),
            ),
        }
        Ok(())
    }

    pub(super) fn report_expiry(&mut self, outcome: ExpiryOutcome) {
        match outcome {
            ExpiryOutcome::Visible {
                message_id,
                holder,
                cause,
            } => {
                // The broker saw only that no ack came in time; why is the
                // observer's knowledge, told apart. `with no ack` read as
                // "the holder forgot to ack" where it was still working
                // (trial 36, tour-3): the words say only what the broker saw.
                self.say(
                    Actor::Broker,
                    EventKind::Warning,
                    format!(
                        "makes {message_id} visible again: the lease {holder} held ran out before an ack came"
                    ),
                );
                // The first cause is the expiry the broker saw itself.
                if let Some((_, unseen)) = cause.split_first()
                    && !unseen.is_empty()
                {
                    self.moment.events.push(Event::unseen(unseen.to_vec()));
                }
            }
            ExpiryOutcome::DeadLettered {
                message_id,
                payment,
                receives,
                lost_leases,
            } => {
                self.counters.dead_lettered += 1;
                // Why its receives ran out, for the verdict's chain.
                let mut why = vec![Cause::DeadLetterQueue {
                    id: message_id.clone(),
                    receives,
                }];
                why.extend(lost_leases);
                self.note(payment, why);
                self.say(
                    Actor::Broker,
                    EventKind::Bad,
                    format!(
                        "moves {message_id} to the dead-letter queue after {receives} receives"
                    ),
                );
            }
        }
    }
}
