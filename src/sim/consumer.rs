//! One instance of the Payments service: its connection, where it is in its
//! handler program, and the faults armed against it.

use super::Millis;
use super::admission::Admission;
use super::broker::Delivery;
use super::db::Session;
use super::provider::Response;
use serde::Serialize;

/// How a step of the handler program went, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Todo,
    Done,
    /// The step ran and failed (an ack lost or rejected, an error reply).
    Failed,
    /// The duplicate-key conflict on processed_messages.
    Conflict,
    /// Skipped because the message was already handled.
    Skipped,
    /// Blocked on another connection's write lock.
    Waiting,
    /// The process died here.
    Crashed,
    /// An ack the broker ignored (an out-of-date receipt). The broker
    /// answers OK, so the consumer took it as done; only the observer knows.
    Ignored,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    Idle,
    Handling,
    Blocked {
        by: String,
    },
    /// The provider answered 409: `by`'s request with the same key is not
    /// answered yet. The handler waits for that answer, then calls again.
    AwaitingKey {
        by: String,
    },
    Crashed,
}

pub struct Consumer {
    pub name: String,
    /// `None` after a crash, until the process restarts.
    pub(super) session: Option<Session>,
    pub pc: usize,
    pub status: Status,
    pub marks: Vec<Mark>,
    pub delivery: Option<Delivery>,
    pub in_txn: bool,
    /// This transaction inserted a payment row (to attribute it at commit).
    pub(super) txn_payment: bool,
    /// The provider's response, travelling back to the consumer.
    pub(super) response: Option<Response>,
    /// The Idempotency-Key of this consumer's call that the provider holds
    /// in flight until it answers (when the consumer takes the answer in).
    pub(super) awaiting_key: Option<String>,
    /// Why this delivery's check let it through when it was a repeat (a
    /// pruned ID, a row that keeps one ID only): part of the cause if the
    /// work turns out repeated.
    pub(super) admitted_note: Option<Admission>,
    /// Why the provider is being called again, when it is.
    pub(super) retry_cause: Option<String>,
    /// A duplicate was found: the handler is on its skip path.
    pub(super) skipping: bool,
    /// Another handler owns the work: leave without acking.
    pub(super) backing_off: bool,
    /// The charge ID the provider returned, for the in-progress record.
    pub(super) last_charge: Option<String>,
    pub lose_next_ack: bool,
    pub lose_next_response: bool,
    pub slow_next_ms: Millis,
}

impl Consumer {
    pub(super) fn new(name: &str, session: Session, steps: usize) -> Self {
        Consumer {
            name: name.to_string(),
            session: Some(session),
            pc: 0,
            status: Status::Idle,
            marks: vec![Mark::Todo; steps],
            delivery: None,
            in_txn: false,
            txn_payment: false,
            response: None,
            awaiting_key: None,
            retry_cause: None,
            admitted_note: None,
            skipping: false,
            backing_off: false,
            last_charge: None,
            lose_next_ack: false,
            lose_next_response: false,
            slow_next_ms: 0,
        }
    }

    /// The same consumer on another connection (`None`: down). Every field
    /// named, so that a new one cannot be forgotten here.
    pub(super) fn copy_with(&self, session: Option<Session>) -> Self {
        Consumer {
            name: self.name.clone(),
            session,
            pc: self.pc,
            status: self.status.clone(),
            marks: self.marks.clone(),
            delivery: self.delivery.clone(),
            in_txn: self.in_txn,
            txn_payment: self.txn_payment,
            response: self.response.clone(),
            awaiting_key: self.awaiting_key.clone(),
            admitted_note: self.admitted_note.clone(),
            retry_cause: self.retry_cause.clone(),
            skipping: self.skipping,
            backing_off: self.backing_off,
            last_charge: self.last_charge.clone(),
            lose_next_ack: self.lose_next_ack,
            lose_next_response: self.lose_next_response,
            slow_next_ms: self.slow_next_ms,
        }
    }

    /// The provider's response on its way back, if a call is outstanding.
    pub fn pending_response(&self) -> Option<&Response> {
        self.response.as_ref()
    }

    /// The key of this consumer's request that the provider has not
    /// answered yet: until it does, a repeat with the key gets 409.
    pub fn awaiting_key(&self) -> Option<&str> {
        self.awaiting_key.as_deref()
    }

    /// On the skip path after finding a duplicate.
    pub fn skipping(&self) -> bool {
        self.skipping
    }

    /// Leaving without an ack because another handler owns the work.
    pub fn backing_off(&self) -> bool {
        self.backing_off
    }

    /// The charge ID the provider returned in this delivery, if any.
    pub fn last_charge(&self) -> Option<&str> {
        self.last_charge.as_deref()
    }

    /// The faults waiting to hit this consumer, in words.
    pub fn armed(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.lose_next_ack {
            out.push("next ack will be lost".to_string());
        }
        if self.lose_next_response {
            out.push("next provider response will be lost".to_string());
        }
        if self.slow_next_ms > 0 {
            out.push(format!(
                "next step takes {}",
                super::format_duration(self.slow_next_ms)
            ));
        }
        out
    }

    /// Back to the top of the program, done with the current message.
    pub(super) fn finish(&mut self) {
        self.status = Status::Idle;
        self.pc = 0;
        self.delivery = None;
        self.in_txn = false;
        self.txn_payment = false;
        self.response = None;
        self.awaiting_key = None;
        self.retry_cause = None;
        self.admitted_note = None;
        self.skipping = false;
        self.backing_off = false;
        self.last_charge = None;
    }
}
