//! An at-least-once queue with leases (visibility timeouts), receipts, a
//! maximum receive count and a dead-letter queue.

use super::Millis;
use super::cause::Cause;
use super::message::{Message, Payment};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MessageState {
    Waiting,
    InFlight {
        consumer: String,
        receipt: String,
        since: Millis,
        until: Millis,
    },
    Acked {
        by: String,
    },
    DeadLettered,
}

/// One stored copy of a message. A producer retry stores a second copy with
/// the same producer ID but a new broker sequence number.
#[derive(Clone, Debug, Serialize)]
pub struct StoredMessage {
    /// The broker's own identity for this copy (`b-1`, `b-2`, ...).
    pub seq: u32,
    pub message: Message,
    pub state: MessageState,
    pub receives: u32,
    pub redelivered: bool,
    /// Which copy of this producer ID this is: 1 for the first publish.
    pub copy: u32,
    /// The receipt that was handed out last; an ack must present it.
    #[serde(skip)]
    last_receipt: Option<String>,
    /// Why the current lease will not end in an ack, noted when a fault hits.
    #[serde(skip)]
    pending_cause: Option<Cause>,
    /// Why this copy is visible again: shown on its next delivery.
    #[serde(skip)]
    redelivery_cause: Vec<Cause>,
    /// Why each lease on this copy ended without an ack, newest first:
    /// what a dead-lettering is explained by.
    #[serde(skip)]
    lost_leases: Vec<Cause>,
    /// An ack for this copy was lost on its way to the broker.
    pub ack_lost: bool,
}

impl StoredMessage {
    pub fn broker_id(&self) -> String {
        format!("b-{}", self.seq)
    }

    /// The receipt handed out last: an ack presenting it still works after
    /// the lease ran out, as long as nobody received the copy since.
    pub fn last_receipt(&self) -> Option<&str> {
        self.last_receipt.as_deref()
    }

    pub fn is_pending(&self) -> bool {
        matches!(
            self.state,
            MessageState::Waiting | MessageState::InFlight { .. }
        )
    }
}

/// What a consumer holds after a receive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Delivery {
    pub seq: u32,
    pub message: Message,
    pub receipt: String,
    pub receive_count: u32,
    pub redelivered: bool,
    /// Why this delivery happened when it is not the first: newest reason first.
    pub cause: Vec<Cause>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AckOutcome {
    Removed {
        message_id: String,
    },
    /// The receipt is no longer the message's current one: another consumer
    /// received it since, or it is already gone.
    Rejected {
        reason: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpiryOutcome {
    Visible {
        message_id: String,
        holder: String,
        cause: Vec<Cause>,
    },
    DeadLettered {
        message_id: String,
        payment: Payment,
        receives: u32,
        /// Why each of its leases ended without an ack, newest first.
        lost_leases: Vec<Cause>,
    },
}

#[derive(Clone, Debug)]
pub struct Broker {
    pub queue: String,
    pub lease_ms: Millis,
    pub max_receives: u32,
    /// Send-side deduplication window (SQS FIFO, Service Bus); 0 = off.
    pub dedup_window_ms: Millis,
    /// One partition of an ordered log: records go out strictly in order,
    /// and an unacknowledged record holds back every record behind it.
    pub ordered: bool,
    /// The stored copies in sequence order (acked ones may be forgotten).
    messages: Vec<StoredMessage>,
    /// The latest accepted publish of each producer ID: all a dedup
    /// window needs to know.
    published_at: BTreeMap<String, Millis>,
    next_seq: u32,
    /// Indexes that keep every operation logarithmic in the queue's size,
    /// so a step costs the same early and late in a long run.
    index: Index,
    /// Drop acked copies from `messages` (see `forget_acked`).
    forget_acked: bool,
    /// Sequence numbers below this that are not stored were acked and forgotten.
    forgotten: usize,
    /// Copies whose state changed since `take_touched`.
    touched: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
struct Index {
    waiting: BTreeSet<u32>,
    /// Waiting or in flight.
    pending: BTreeSet<u32>,
    /// (lease end, seq) of every copy in flight.
    leases: BTreeSet<(Millis, u32)>,
    /// The receipt each copy handed out last.
    receipts: BTreeMap<String, u32>,
    /// Every stored copy of a producer ID, oldest first.
    by_id: BTreeMap<String, Vec<u32>>,
    /// Copies ever stored per (producer ID, payment).
    copies: BTreeMap<(String, Payment), u32>,
    pending_by_payment: BTreeMap<Payment, u32>,
    pending_by_order: BTreeMap<u32, u32>,
    dead_by_payment: BTreeMap<Payment, u32>,
    dead_by_order: BTreeMap<u32, u32>,
    acked: usize,
}

fn bump<K: Ord>(map: &mut BTreeMap<K, u32>, key: K, up: bool) {
    if up {
        *map.entry(key).or_default() += 1;
    } else if let std::collections::btree_map::Entry::Occupied(mut e) = map.entry(key) {
        *e.get_mut() -= 1;
        if *e.get() == 0 {
            e.remove();
        }
    }
}

impl Index {
    /// Enters (`up`) or leaves a copy's state in the indexes.
    fn account(&mut self, m: &StoredMessage, up: bool) {
        let set = |s: &mut BTreeSet<u32>| {
            if up {
                s.insert(m.seq);
            } else {
                s.remove(&m.seq);
            }
        };
        let payment = &m.message.payment;
        match &m.state {
            MessageState::Waiting => set(&mut self.waiting),
            MessageState::InFlight { until, .. } => {
                if up {
                    self.leases.insert((*until, m.seq));
                } else {
                    self.leases.remove(&(*until, m.seq));
                }
            }
            MessageState::Acked { .. } => {
                if up {
                    self.acked += 1;
                } else {
                    self.acked -= 1;
                }
            }
            MessageState::DeadLettered => {
                bump(&mut self.dead_by_payment, payment.clone(), up);
                bump(&mut self.dead_by_order, payment.order, up);
            }
        }
        if m.is_pending() {
            set(&mut self.pending);
            bump(&mut self.pending_by_payment, payment.clone(), up);
            bump(&mut self.pending_by_order, payment.order, up);
        }
    }
}

impl Broker {
    pub fn new(queue: &str, lease_ms: Millis, max_receives: u32) -> Self {
        Broker {
            queue: queue.to_string(),
            lease_ms,
            max_receives,
            dedup_window_ms: 0,
            ordered: false,
            messages: Vec::new(),
            published_at: BTreeMap::new(),
            next_seq: 1,
            index: Index::default(),
            forget_acked: false,
            forgotten: 0,
            touched: Vec::new(),
        }
    }

    /// The stored copies, oldest first; with `forget_acked`, acked copies
    /// drop out of this list.
    pub fn messages(&self) -> &[StoredMessage] {
        &self.messages
    }

    /// A long run keeps only what can still change: acked copies are
    /// dropped (in batches, by `forget_settled`), so memory follows the
    /// messages in the queue, not the messages ever sent. Off by default:
    /// the simulator shows acked copies.
    pub fn set_forget_acked(&mut self, on: bool) {
        self.forget_acked = on;
    }

    /// Drops acked copies once they are at least half of what is stored,
    /// so each copy is moved a bounded number of times.
    pub fn forget_settled(&mut self) {
        if !self.forget_acked || self.index.acked < 64 || self.index.acked * 2 < self.messages.len()
        {
            return;
        }
        let index = &mut self.index;
        self.messages.retain(|m| {
            let keep = !matches!(m.state, MessageState::Acked { .. });
            if !keep {
                index.account(m, false);
                if let Some(receipt) = &m.last_receipt {
                    index.receipts.remove(receipt);
                }
                if let Some(seqs) = index.by_id.get_mut(&m.message.id) {
                    seqs.retain(|s| *s != m.seq);
                    if seqs.is_empty() {
                        index.by_id.remove(&m.message.id);
                    }
                }
            }
            keep
        });
        self.forgotten = self.next_seq as usize;
    }

    /// Forgets what it keeps of a producer ID that will never be published
    /// again (its payment settled): the dedup window's last publish and
    /// the count of copies. Stored copies are left as they are.
    pub fn forget_id(&mut self, message_id: &str, payment: &Payment) {
        self.published_at.remove(message_id);
        self.index
            .copies
            .remove(&(message_id.to_string(), payment.clone()));
    }

    /// Entries kept per copy or per ID, for a long run's tests.
    #[doc(hidden)]
    pub fn footprint(&self) -> usize {
        self.messages.len()
            + self.published_at.len()
            + self.index.by_id.len()
            + self.index.copies.len()
            + self.index.receipts.len()
    }

    /// True when this copy was acked and then forgotten.
    pub fn forgot(&self, seq: u32) -> bool {
        (seq as usize) < self.forgotten && self.get(seq).is_none()
    }

    /// The copies whose state changed since the last call, in sequence order.
    pub fn take_touched(&mut self) -> Vec<u32> {
        let mut touched = std::mem::take(&mut self.touched);
        touched.sort_unstable();
        touched.dedup();
        touched
    }

    fn position(&self, seq: u32) -> Option<usize> {
        self.messages.binary_search_by_key(&seq, |m| m.seq).ok()
    }

    /// The stored copy with this broker sequence number.
    pub fn get(&self, seq: u32) -> Option<&StoredMessage> {
        self.position(seq).map(|i| &self.messages[i])
    }

    /// Changes a stored copy, keeping the indexes true.
    fn update<T>(&mut self, i: usize, change: impl FnOnce(&mut StoredMessage) -> T) -> T {
        self.index.account(&self.messages[i], false);
        if let Some(receipt) = &self.messages[i].last_receipt {
            self.index.receipts.remove(receipt);
        }
        let out = change(&mut self.messages[i]);
        let m = &self.messages[i];
        self.index.account(m, true);
        if let Some(receipt) = &m.last_receipt {
            self.index.receipts.insert(receipt.clone(), m.seq);
        }
        self.touched.push(m.seq);
        out
    }

    /// Stores a copy of `message`. With a dedup window, a repeat of the same
    /// producer ID inside the window is accepted and dropped: returns `None`.
    pub fn publish(&mut self, message: Message, now: Millis) -> Option<u32> {
        if self.dedup_window_ms > 0
            && let Some(at) = self.published_at.get(&message.id)
            && now < at + self.dedup_window_ms
        {
            return None;
        }
        self.published_at.insert(message.id.clone(), now);
        let copies = self
            .index
            .copies
            .entry((message.id.clone(), message.payment.clone()))
            .or_default();
        *copies += 1;
        let copy = *copies;
        let seq = self.next_seq;
        self.next_seq += 1;
        self.index
            .by_id
            .entry(message.id.clone())
            .or_default()
            .push(seq);
        let stored = StoredMessage {
            seq,
            message,
            state: MessageState::Waiting,
            receives: 0,
            redelivered: false,
            copy,
            last_receipt: None,
            pending_cause: None,
            redelivery_cause: Vec::new(),
            lost_leases: Vec::new(),
            ack_lost: false,
        };
        self.index.account(&stored, true);
        self.messages.push(stored);
        self.touched.push(seq);
        Some(seq)
    }

    /// How many copies carrying this producer ID are stored now.
    pub fn copies_of(&self, message_id: &str) -> usize {
        self.index.by_id.get(message_id).map_or(0, Vec::len)
    }

    /// The message a receive would get now: the oldest visible one (on an
    /// ordered queue, only the oldest pending one, if it is visible).
    fn next_visible(&self) -> Option<usize> {
        let seq = if self.ordered {
            let first = *self.index.pending.first()?;
            self.index.waiting.contains(&first).then_some(first)?
        } else {
            *self.index.waiting.first()?
        };
        self.position(seq)
    }

    /// Whether a receive now would get a message.
    pub fn can_receive(&self) -> bool {
        self.next_visible().is_some()
    }

    /// True while any copy is waiting or leased.
    pub fn has_pending(&self) -> bool {
        !self.index.pending.is_empty()
    }

    /// The oldest copy still waiting or leased.
    pub fn first_pending(&self) -> Option<u32> {
        self.index.pending.first().copied()
    }

    /// True while any copy is leased.
    pub fn has_in_flight(&self) -> bool {
        !self.index.leases.is_empty()
    }

    /// Hands the oldest visible message to `consumer` under a lease.
    pub fn receive(&mut self, consumer: &str, receipt: String, now: Millis) -> Option<Delivery> {
        let lease_ms = self.lease_ms;
        let next = self.next_visible()?;
        self.update(next, |stored| {
            stored.receives += 1;
            stored.redelivered = stored.receives > 1;
            stored.state = MessageState::InFlight {
                consumer: consumer.to_string(),
                receipt: receipt.clone(),
                since: now,
                until: now + lease_ms,
            };
            stored.last_receipt = Some(receipt.clone());
            stored.ack_lost = false;
            Some(Delivery {
                seq: stored.seq,
                message: stored.message.clone(),
                receipt,
                receive_count: stored.receives,
                redelivered: stored.redelivered,
                cause: std::mem::take(&mut stored.redelivery_cause),
            })
        })
    }

    fn by_receipt(&self, receipt: &str) -> Option<usize> {
        self.position(*self.index.receipts.get(receipt)?)
    }

    /// Removes the message whose current receipt this is. As in SQS, an ack
    /// still works after the lease ran out, as long as nobody received the
    /// message since.
    pub fn ack(&mut self, receipt: &str, consumer: &str) -> AckOutcome {
        let Some(i) = self.by_receipt(receipt) else {
            return AckOutcome::Rejected {
                reason: "out-of-date receipt: the message was received again since".into(),
            };
        };
        match self.messages[i].state {
            MessageState::Acked { .. } => AckOutcome::Rejected {
                reason: "the message was already removed".into(),
            },
            MessageState::DeadLettered => AckOutcome::Rejected {
                reason: "the message was moved to the dead-letter queue".into(),
            },
            _ => self.update(i, |stored| {
                stored.state = MessageState::Acked {
                    by: consumer.to_string(),
                };
                stored.pending_cause = None;
                AckOutcome::Removed {
                    message_id: stored.message.id.clone(),
                }
            }),
        }
    }

    /// Records why the lease held under `receipt` will run out, so that the
    /// redelivery can say why it happened.
    pub fn note_lost_lease(&mut self, receipt: &str, cause: Cause) {
        if let Some(i) = self.by_receipt(receipt) {
            self.messages[i].pending_cause = Some(cause);
        }
    }

    /// Notes that the lease under `receipt` will run out while `consumer`
    /// (as the caller names it) still works on it.
    pub fn note_still_working(&mut self, receipt: &str, consumer: &str) {
        if let Some(i) = self.by_receipt(receipt) {
            let delivery = self.messages[i].receives;
            self.messages[i].pending_cause = Some(Cause::StillWorking {
                consumer: consumer.to_string(),
                delivery,
            });
        }
    }

    pub fn mark_ack_lost(&mut self, receipt: &str) {
        if let Some(i) = self.by_receipt(receipt) {
            self.update(i, |stored| stored.ack_lost = true);
        }
    }

    /// True while the copy handed out under `receipt` is still leased
    /// under it (for `idem test`, which asks at every request).
    pub fn lease_held(&self, receipt: &str) -> bool {
        self.by_receipt(receipt).is_some_and(|i| {
            matches!(&self.messages[i].state, MessageState::InFlight { receipt: r, .. } if r == receipt)
        })
    }

    /// When the next lease runs out, if any copy is leased.
    pub fn next_lease_end(&self) -> Option<Millis> {
        self.index.leases.first().map(|&(until, _)| until)
    }

    /// Makes every message whose lease has run out by `now` visible again,
    /// or dead-letters it once it has been received `max_receives` times.
    pub fn expire_leases(&mut self, now: Millis) -> Vec<ExpiryOutcome> {
        let mut expired: Vec<u32> = self
            .index
            .leases
            .range(..=(now, u32::MAX))
            .map(|&(_, seq)| seq)
            .collect();
        // In queue order, whatever order the leases ran out in.
        expired.sort_unstable();
        expired
            .into_iter()
            .filter_map(|seq| self.end_lease(seq))
            .collect()
    }

    /// When the lease on the in-flight copy of `message_id` runs out.
    pub fn lease_deadline(&self, message_id: &str) -> Option<Millis> {
        self.messages.iter().find_map(|m| match m.state {
            MessageState::InFlight { until, .. } if m.message.id == message_id => Some(until),
            _ => None,
        })
    }

    /// Ends the lease on the in-flight copy of `message_id` at once, as if its
    /// visibility timeout had just run out.
    pub fn expire_now(&mut self, message_id: &str) -> Option<ExpiryOutcome> {
        let seq = *self.index.by_id.get(message_id)?.iter().find(|&&seq| {
            self.get(seq)
                .is_some_and(|m| matches!(m.state, MessageState::InFlight { .. }))
        })?;
        self.end_lease(seq)
    }

    fn end_lease(&mut self, seq: u32) -> Option<ExpiryOutcome> {
        let max_receives = self.max_receives;
        let i = self.position(seq)?;
        let MessageState::InFlight { consumer, .. } = self.messages[i].state.clone() else {
            return None;
        };
        Some(self.update(i, |stored| {
            let lost = stored
                .pending_cause
                .take()
                .unwrap_or_else(|| Cause::StillWorking {
                    consumer: consumer.clone(),
                    delivery: stored.receives,
                });
            stored.lost_leases.insert(0, lost.clone());
            if stored.receives >= max_receives {
                stored.state = MessageState::DeadLettered;
                return ExpiryOutcome::DeadLettered {
                    message_id: stored.message.id.clone(),
                    payment: stored.message.payment.clone(),
                    receives: stored.receives,
                    lost_leases: std::mem::take(&mut stored.lost_leases),
                };
            }
            let cause = vec![Cause::LeaseExpired, lost];
            stored.state = MessageState::Waiting;
            stored.redelivery_cause = cause.clone();
            ExpiryOutcome::Visible {
                message_id: stored.message.id.clone(),
                holder: consumer,
                cause,
            }
        }))
    }

    /// True while any copy carrying this order is still waiting or leased.
    pub fn order_pending(&self, order: u32) -> bool {
        self.index.pending_by_order.contains_key(&order)
    }

    /// True while any copy carrying this payment is still waiting or leased.
    pub fn payment_pending(&self, payment: &Payment) -> bool {
        self.index.pending_by_payment.contains_key(payment)
    }

    pub fn payment_dead_lettered(&self, payment: &Payment) -> bool {
        self.index.dead_by_payment.contains_key(payment)
    }

    pub fn order_dead_lettered(&self, order: u32) -> bool {
        self.index.dead_by_order.contains_key(&order)
    }

    /// The oldest stored copy of this producer ID.
    pub fn find(&self, message_id: &str) -> Option<&StoredMessage> {
        self.get(*self.index.by_id.get(message_id)?.first()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(id: &str) -> Message {
        Message::payment(id, 1042, 40)
    }

    #[test]
    fn an_expired_lease_redelivers_with_the_count_up() {
        let mut broker = Broker::new("payments", 30_000, 5);
        broker.publish(msg("m-7f3"), 0);
        let first = broker.receive("A", "r1".into(), 0).unwrap();
        assert!(!first.redelivered);
        assert!(
            broker.receive("B", "r2".into(), 1_000).is_none(),
            "leased away"
        );
        broker.note_lost_lease("r1", Cause::AckLost { step: 7 });
        let expired = broker.expire_leases(30_000);
        assert_eq!(expired.len(), 1);
        let second = broker.receive("B", "r2".into(), 30_000).unwrap();
        assert!(second.redelivered);
        assert_eq!(second.receive_count, 2);
        assert_eq!(
            second.cause,
            [Cause::LeaseExpired, Cause::AckLost { step: 7 }]
        );
        assert!(matches!(broker.ack("r1", "A"), AckOutcome::Rejected { .. }));
        assert!(matches!(broker.ack("r2", "B"), AckOutcome::Removed { .. }));
        assert!(!broker.order_pending(1042));
    }

    #[test]
    fn a_lease_is_held_by_its_receipt_until_it_runs_out() {
        let mut broker = Broker::new("payments", 30_000, 5);
        broker.publish(msg("m-1"), 0);
        assert_eq!(broker.next_lease_end(), None);
        broker.receive("A", "r1".into(), 1_000).unwrap();
        assert!(broker.lease_held("r1"));
        assert!(!broker.lease_held("r2"));
        assert_eq!(broker.next_lease_end(), Some(31_000));
        broker.expire_leases(31_000);
        assert!(!broker.lease_held("r1"), "visible again, leased to no one");
        broker.receive("B", "r2".into(), 31_000).unwrap();
        assert!(!broker.lease_held("r1"));
        assert!(broker.lease_held("r2"));
        broker.ack("r2", "B");
        assert!(!broker.lease_held("r2"));
        assert_eq!(broker.next_lease_end(), None);
    }

    /// Trial 38: `A was still working when the lease ran out ← A crashed
    /// at move 2` read as a contradiction where A had restarted and taken
    /// the message again. Each lost lease names its delivery.
    #[test]
    fn a_lease_that_ran_out_under_a_working_holder_names_its_delivery() {
        let mut broker = Broker::new("payments", 10, 2);
        broker.publish(msg("m-1"), 0);
        broker.receive("A", "r1".into(), 0).unwrap();
        broker.note_lost_lease(
            "r1",
            Cause::Crashed {
                consumer: "A".into(),
                step: 2,
            },
        );
        broker.expire_leases(10);
        broker.receive("A", "r2".into(), 10).unwrap();
        let out = broker.expire_leases(20);
        let ExpiryOutcome::DeadLettered { lost_leases, .. } = &out[0] else {
            panic!("{out:?}");
        };
        let said: Vec<String> = lost_leases.iter().map(|c| c.to_string()).collect();
        assert_eq!(
            said,
            ["A was still working on delivery 2", "A crashed at step 2"]
        );
    }

    #[test]
    fn max_receives_dead_letters() {
        let mut broker = Broker::new("payments", 10, 2);
        broker.publish(msg("m-1"), 0);
        broker.receive("A", "r1".into(), 0).unwrap();
        broker.expire_leases(10);
        broker.receive("A", "r2".into(), 10).unwrap();
        let out = broker.expire_leases(20);
        assert!(matches!(
            out[0],
            ExpiryOutcome::DeadLettered { receives: 2, .. }
        ));
        assert!(broker.order_dead_lettered(1042));
        assert!(broker.receive("A", "r3".into(), 20).is_none());
    }

    #[test]
    fn an_ordered_log_holds_back_records_behind_an_unacked_one() {
        let mut broker = Broker::new("payments", 10, 5);
        broker.ordered = true;
        broker.publish(msg("m-1"), 0);
        broker.publish(msg("m-2"), 0);
        let first = broker.receive("A", "r1".into(), 0).unwrap();
        assert!(broker.receive("A", "r2".into(), 0).is_none());
        broker.expire_leases(10);
        let again = broker.receive("A", "r3".into(), 10).unwrap();
        assert_eq!(again.seq, first.seq);
        broker.ack("r3", "A");
        assert_eq!(
            broker.receive("A", "r4".into(), 10).unwrap().message.id,
            "m-2"
        );
    }

    #[test]
    fn dedup_window_drops_a_repeat_inside_it_only() {
        let mut broker = Broker::new("payments", 10, 5);
        broker.dedup_window_ms = 300_000;
        assert!(broker.publish(msg("m-1"), 0).is_some());
        assert!(broker.publish(msg("m-1"), 1_000).is_none());
        assert!(broker.publish(msg("m-1"), 300_000).is_some());
    }
}
