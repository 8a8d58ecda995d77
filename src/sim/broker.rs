//! An at-least-once queue with leases (visibility timeouts), receipts, a
//! maximum receive count and a dead-letter queue.

use super::Millis;
use super::message::{Message, Payment};
use serde::Serialize;

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
    pending_cause: Option<String>,
    /// Why this copy is visible again: shown on its next delivery.
    #[serde(skip)]
    redelivery_cause: Vec<String>,
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
    pub cause: Vec<String>,
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
        cause: Vec<String>,
    },
    DeadLettered {
        message_id: String,
        receives: u32,
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
    messages: Vec<StoredMessage>,
    published_at: Vec<(String, Millis)>,
    next_seq: u32,
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
            published_at: Vec::new(),
            next_seq: 1,
        }
    }

    pub fn messages(&self) -> &[StoredMessage] {
        &self.messages
    }

    /// Stores a copy of `message`. With a dedup window, a repeat of the same
    /// producer ID inside the window is accepted and dropped: returns `None`.
    pub fn publish(&mut self, message: Message, now: Millis) -> Option<u32> {
        if self.dedup_window_ms > 0 {
            let inside = self
                .published_at
                .iter()
                .any(|(id, at)| *id == message.id && now < at + self.dedup_window_ms);
            if inside {
                return None;
            }
        }
        self.published_at.push((message.id.clone(), now));
        let copy = 1 + self
            .messages
            .iter()
            .filter(|m| m.message.id == message.id && m.message.payment == message.payment)
            .count() as u32;
        let seq = self.next_seq;
        self.next_seq += 1;
        self.messages.push(StoredMessage {
            seq,
            message,
            state: MessageState::Waiting,
            receives: 0,
            redelivered: false,
            copy,
            last_receipt: None,
            pending_cause: None,
            redelivery_cause: Vec::new(),
            ack_lost: false,
        });
        Some(seq)
    }

    /// The message a receive would get now: the oldest visible one (on an
    /// ordered queue, only the oldest pending one, if it is visible).
    fn next_visible(&self) -> Option<usize> {
        self.messages
            .iter()
            .position(|m| {
                if self.ordered {
                    m.is_pending()
                } else {
                    m.state == MessageState::Waiting
                }
            })
            .filter(|&i| self.messages[i].state == MessageState::Waiting)
    }

    /// Whether a receive now would get a message.
    pub fn can_receive(&self) -> bool {
        self.next_visible().is_some()
    }

    /// Hands the oldest visible message to `consumer` under a lease.
    pub fn receive(&mut self, consumer: &str, receipt: String, now: Millis) -> Option<Delivery> {
        let lease_ms = self.lease_ms;
        let next = self.next_visible()?;
        let stored = &mut self.messages[next];
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
    }

    /// Removes the message whose current receipt this is. As in SQS, an ack
    /// still works after the lease ran out, as long as nobody received the
    /// message since.
    pub fn ack(&mut self, receipt: &str, consumer: &str) -> AckOutcome {
        let Some(stored) = self
            .messages
            .iter_mut()
            .find(|m| m.last_receipt.as_deref() == Some(receipt))
        else {
            return AckOutcome::Rejected {
                reason: "out-of-date receipt: the message was received again since".into(),
            };
        };
        match stored.state {
            MessageState::Acked { .. } => AckOutcome::Rejected {
                reason: "the message was already removed".into(),
            },
            MessageState::DeadLettered => AckOutcome::Rejected {
                reason: "the message was moved to the dead-letter queue".into(),
            },
            _ => {
                stored.state = MessageState::Acked {
                    by: consumer.to_string(),
                };
                stored.pending_cause = None;
                AckOutcome::Removed {
                    message_id: stored.message.id.clone(),
                }
            }
        }
    }

    /// Records why the lease held under `receipt` will run out, so that the
    /// redelivery can say why it happened.
    pub fn note_lost_lease(&mut self, receipt: &str, cause: String) {
        if let Some(stored) = self
            .messages
            .iter_mut()
            .find(|m| m.last_receipt.as_deref() == Some(receipt))
        {
            stored.pending_cause = Some(cause);
        }
    }

    pub fn mark_ack_lost(&mut self, receipt: &str) {
        if let Some(stored) = self
            .messages
            .iter_mut()
            .find(|m| m.last_receipt.as_deref() == Some(receipt))
        {
            stored.ack_lost = true;
        }
    }

    /// Makes every message whose lease has run out by `now` visible again,
    /// or dead-letters it once it has been received `max_receives` times.
    pub fn expire_leases(&mut self, now: Millis) -> Vec<ExpiryOutcome> {
        let expired: Vec<u32> = self
            .messages
            .iter()
            .filter(|m| matches!(m.state, MessageState::InFlight { until, .. } if until <= now))
            .map(|m| m.seq)
            .collect();
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
        let seq = self
            .messages
            .iter()
            .find(|m| {
                m.message.id == message_id && matches!(m.state, MessageState::InFlight { .. })
            })?
            .seq;
        self.end_lease(seq)
    }

    fn end_lease(&mut self, seq: u32) -> Option<ExpiryOutcome> {
        let max_receives = self.max_receives;
        let stored = self.messages.iter_mut().find(|m| m.seq == seq)?;
        let MessageState::InFlight { consumer, .. } = stored.state.clone() else {
            return None;
        };
        if stored.receives >= max_receives {
            stored.state = MessageState::DeadLettered;
            return Some(ExpiryOutcome::DeadLettered {
                message_id: stored.message.id.clone(),
                receives: stored.receives,
            });
        }
        let mut cause = vec!["lease expired".to_string()];
        match stored.pending_cause.take() {
            Some(why) => cause.push(why),
            None => cause.push(format!(
                "{consumer} was still working when the lease ran out"
            )),
        }
        stored.state = MessageState::Waiting;
        stored.redelivery_cause = cause.clone();
        Some(ExpiryOutcome::Visible {
            message_id: stored.message.id.clone(),
            holder: consumer,
            cause,
        })
    }

    /// True while any copy carrying this order is still waiting or leased.
    pub fn order_pending(&self, order: u32) -> bool {
        self.messages
            .iter()
            .any(|m| m.message.payment.order == order && m.is_pending())
    }

    /// True while any copy carrying this payment is still waiting or leased.
    pub fn payment_pending(&self, payment: &Payment) -> bool {
        self.messages
            .iter()
            .any(|m| m.message.payment == *payment && m.is_pending())
    }

    pub fn payment_dead_lettered(&self, payment: &Payment) -> bool {
        self.messages
            .iter()
            .any(|m| m.message.payment == *payment && m.state == MessageState::DeadLettered)
    }

    pub fn order_dead_lettered(&self, order: u32) -> bool {
        self.messages
            .iter()
            .any(|m| m.message.payment.order == order && m.state == MessageState::DeadLettered)
    }

    pub fn find(&self, message_id: &str) -> Option<&StoredMessage> {
        self.messages.iter().find(|m| m.message.id == message_id)
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
        broker.note_lost_lease("r1", "ack lost at step 7".into());
        let expired = broker.expire_leases(30_000);
        assert_eq!(expired.len(), 1);
        let second = broker.receive("B", "r2".into(), 30_000).unwrap();
        assert!(second.redelivered);
        assert_eq!(second.receive_count, 2);
        assert_eq!(second.cause, ["lease expired", "ack lost at step 7"]);
        assert!(matches!(broker.ack("r1", "A"), AckOutcome::Rejected { .. }));
        assert!(matches!(broker.ack("r2", "B"), AckOutcome::Removed { .. }));
        assert!(!broker.order_pending(1042));
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
