//! One instance of the Payments service: its connection, where it is in its
//! handler program, and the faults armed against it.

use super::Millis;
use super::admission::Admission;
use super::broker::Delivery;
use super::cause::Cause;
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
    /// The provider's answer never came back: the call may well have
    /// worked, so from the handler's side the answer is lost, not failed.
    Lost,
    /// The duplicate-key conflict on processed_messages.
    Conflict,
    /// Skipped because the message was already handled.
    Skipped,
    /// The conditional update found another delivery owning the
    /// message's record: this delivery's work is not a duplicate's skip,
    /// it lost the claim, and rolls back.
    Superseded,
    /// Blocked on another connection's write lock (or, on PostgreSQL,
    /// its row lock): a lock wait, and only that.
    Waiting,
    /// The provider answered 409 (a request with the same key is not
    /// answered yet): the handler waits for that answer, then calls again.
    AwaitsAnswer,
    /// The answer that was a 409: the provider refused the call because a
    /// request with the same key is still in progress. No error about the
    /// payment, only "not yet", so not `Failed`.
    Refused,
    /// A live in-progress record of another delivery: the handler backed
    /// off, leaving the message to come back once that record's deadline
    /// has passed.
    BackedOff,
    /// The process died here.
    Crashed,
    /// The process died waiting for the provider's answer: the request
    /// was sent and the provider may answer it, but into a closed
    /// connection, so the step did not "never run": its answer was never
    /// received.
    CrashedAwaiting,
    /// An ack the broker ignored (an out-of-date receipt). The broker
    /// answers OK, so the consumer took it as done; only the observer knows.
    Ignored,
    /// An ack the network dropped on its way to the broker. The consumer
    /// sent it and, hearing nothing back, takes it as done, as it must;
    /// only the observer knows it never arrived.
    AckLost,
}

/// The consumer's state as the screens name it: a summary of its `Phase`.
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

/// Where the handler is: one value, so that a state the program cannot be
/// in (a transaction open with no message, a crashed process holding a
/// delivery, skipping and backing off at once) cannot be written down.
// Most consumers handle a delivery most of the time: boxing it would cost
// an allocation per receive for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Phase {
    /// At the top of its program, holding nothing: the next step receives.
    Idle,
    /// Holding a delivery under lease, somewhere in its program.
    /// (Boxed: idle and crashed consumers stay small.)
    Handling(Box<Handling>),
    /// The process is gone; the next step restarts it.
    Crashed,
}

/// What a consumer holds while it handles one delivery. It all goes when
/// the handler finishes, gives up or crashes.
#[derive(Clone, Debug)]
pub struct Handling {
    pub delivery: Delivery,
    /// Its connection's side of the database.
    pub(super) connection: Connection,
    /// The way through the program this delivery takes.
    pub(super) path: Path,
    /// The provider's response, travelling back to the consumer.
    pub(super) response: Option<Response>,
    /// Why this delivery's check let it through when it was a repeat (a
    /// pruned ID, a row that keeps one ID only): part of the cause if the
    /// work turns out repeated.
    pub(super) admitted: Option<Admission>,
    /// Why the provider is being called again, when it is.
    pub(super) retry_cause: Option<Cause>,
    /// The charge ID the provider returned, for the in-progress record.
    pub(super) last_charge: Option<String>,
    /// The Idempotency-Key of this handler's call that the provider holds
    /// in flight until it answers (when the handler takes the answer in,
    /// or dies).
    pub(super) awaiting_key: Option<String>,
    /// The provider answered 409: the handler waits until the provider has
    /// answered this consumer's request with the same key.
    pub(super) held_by_key: Option<String>,
    /// The observer counted this delivery as a duplicate (another delivery
    /// had done its message's work): counted once.
    pub(super) duplicate: bool,
}

/// The consumer's connection, as far as this delivery is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Connection {
    /// No transaction open: each statement stands alone.
    Autocommit,
    /// A statement found the write lock taken: it runs again once `by`
    /// commits or rolls back. No transaction of its own is open.
    Blocked { by: String },
    /// Between BEGIN and COMMIT; `wrote_payment` if this transaction
    /// inserted a payment row (to attribute it at commit), `wrote_status`
    /// if it set the order's status (to enter the version in the books at
    /// commit: a rollback or a crash forgets both with the transaction).
    InTransaction {
        wrote_payment: bool,
        wrote_status: bool,
    },
    /// A statement was sent and the server holds it (PostgreSQL).
    Waiting(Box<Wait>),
}

/// A statement the server holds: it waits for a lock that `by`'s
/// transaction holds. `before` is the connection as it was when the
/// statement went out, which the step goes on from once the server lets
/// the statement finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    pub by: String,
    pub before: Connection,
}

/// The way a delivery takes through the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Doing the work, step after step.
    Working,
    /// A duplicate was found: commit what is open, then acknowledge.
    Skipping,
    /// Another handler owns the work: leave without acking.
    BackingOff,
}

impl Handling {
    fn new(delivery: Delivery) -> Self {
        Handling {
            delivery,
            connection: Connection::Autocommit,
            path: Path::Working,
            response: None,
            admitted: None,
            retry_cause: None,
            last_charge: None,
            awaiting_key: None,
            held_by_key: None,
            duplicate: false,
        }
    }

    pub(super) fn in_txn(&self) -> bool {
        self.connection.in_txn()
    }
}

impl Connection {
    /// A transaction of its own is open (a statement of it may be waiting).
    pub fn in_txn(&self) -> bool {
        match self {
            Connection::InTransaction { .. } => true,
            Connection::Waiting(wait) => wait.before.in_txn(),
            Connection::Autocommit | Connection::Blocked { .. } => false,
        }
    }

    /// Held up by another transaction: its next step cannot run yet.
    pub fn held_up(&self) -> bool {
        matches!(self, Connection::Blocked { .. } | Connection::Waiting(_))
    }
}

pub struct Consumer {
    pub name: String,
    /// `None` after a crash, until the process restarts.
    pub(super) session: Option<Session>,
    pub pc: usize,
    pub marks: Vec<Mark>,
    /// The provider calls made for the delivery it handles (or handled
    /// last): from the second on, a call is a retry, and the screens say
    /// so once the call has run, when its first attempt's marks are gone.
    pub calls: u32,
    pub(super) phase: Phase,
    // The faults armed against it: they wait for the step they hit,
    // whatever the handler is doing meanwhile.
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
            marks: vec![Mark::Todo; steps],
            calls: 0,
            phase: Phase::Idle,
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
            marks: self.marks.clone(),
            calls: self.calls,
            phase: self.phase.clone(),
            lose_next_ack: self.lose_next_ack,
            lose_next_response: self.lose_next_response,
            slow_next_ms: self.slow_next_ms,
        }
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The phase in the screens' words.
    pub fn status(&self) -> Status {
        match &self.phase {
            Phase::Idle => Status::Idle,
            Phase::Crashed => Status::Crashed,
            Phase::Handling(h) => match (&h.connection, &h.held_by_key) {
                (Connection::Blocked { by }, _) => Status::Blocked { by: by.clone() },
                (Connection::Waiting(wait), _) => Status::Blocked {
                    by: wait.by.clone(),
                },
                (_, Some(by)) => Status::AwaitingKey { by: by.clone() },
                _ => Status::Handling,
            },
        }
    }

    pub fn is_idle(&self) -> bool {
        matches!(self.phase, Phase::Idle)
    }

    pub fn is_crashed(&self) -> bool {
        matches!(self.phase, Phase::Crashed)
    }

    /// Waiting for another connection's write lock.
    pub fn is_blocked(&self) -> bool {
        self.handling().is_some_and(|h| h.connection.held_up())
    }

    /// Handling a delivery and not waiting for a lock or for the provider's
    /// answer to another request with its key: its next step runs.
    pub fn is_running(&self) -> bool {
        self.handling()
            .is_some_and(|h| !h.connection.held_up() && h.held_by_key.is_none())
    }

    /// Waiting, after a 409, for the provider to answer another consumer's
    /// request with the same key.
    pub fn is_held_by_key(&self) -> bool {
        self.handling().is_some_and(|h| h.held_by_key.is_some())
    }

    /// The key of this consumer's request that the provider has not
    /// answered yet: until it does, a repeat with the key gets 409.
    pub fn awaiting_key(&self) -> Option<&str> {
        self.handling().and_then(|h| h.awaiting_key.as_deref())
    }

    pub fn handling(&self) -> Option<&Handling> {
        match &self.phase {
            Phase::Handling(h) => Some(h.as_ref()),
            _ => None,
        }
    }

    /// The delivery it holds, if it is handling one.
    pub fn delivery(&self) -> Option<&Delivery> {
        self.handling().map(|h| &h.delivery)
    }

    /// Inside a transaction (so holding the database's write lock).
    pub fn in_txn(&self) -> bool {
        self.handling().is_some_and(Handling::in_txn)
    }

    /// The provider's response on its way back, if a call is outstanding.
    pub fn pending_response(&self) -> Option<&Response> {
        self.handling().and_then(|h| h.response.as_ref())
    }

    /// On the skip path after finding a duplicate.
    pub fn skipping(&self) -> bool {
        self.handling().is_some_and(|h| h.path == Path::Skipping)
    }

    /// Leaving without an ack because another handler owns the work.
    pub fn backing_off(&self) -> bool {
        self.handling().is_some_and(|h| h.path == Path::BackingOff)
    }

    /// The charge ID the provider returned in this delivery, if any.
    pub fn last_charge(&self) -> Option<&str> {
        self.handling().and_then(|h| h.last_charge.as_deref())
    }

    /// The delivery being handled; only called past `receive`.
    pub(super) fn work(&mut self) -> &mut Handling {
        match &mut self.phase {
            Phase::Handling(h) => h.as_mut(),
            _ => panic!("past receive, a consumer holds a delivery"),
        }
    }

    /// Takes a delivery: the program runs from its second step.
    pub(super) fn take(&mut self, delivery: Delivery) {
        self.phase = Phase::Handling(Box::new(Handling::new(delivery)));
    }

    /// The process dies: what it held goes with it, the faults armed
    /// against its connection too.
    pub(super) fn die(&mut self) -> Option<Delivery> {
        self.session = None;
        self.lose_next_ack = false;
        self.lose_next_response = false;
        match std::mem::replace(&mut self.phase, Phase::Crashed) {
            Phase::Handling(h) => Some(h.delivery),
            _ => None,
        }
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
        self.phase = Phase::Idle;
        self.pc = 0;
    }
}
