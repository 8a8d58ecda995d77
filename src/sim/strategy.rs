//! Handler designs as programs: a list of steps the engine runs one at a
//! time, each with exactly one externally visible effect, so that a crash can
//! be injected between any two of them.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Take the next visible message from the queue under a lease.
    Receive,
    /// `BEGIN IMMEDIATE`: may find the write lock taken and wait.
    Begin,
    /// Insert the message ID into processed_messages. Zero rows inserted
    /// means a duplicate: the handler skips to the commit.
    ClaimId,
    /// Insert the payment row.
    ApplyCharge,
    /// `POST /charges`, with or without the message ID as Idempotency-Key.
    CallProvider {
        with_key: bool,
    },
    /// The provider's response arrives (or is lost, and the call is retried).
    AwaitResponse,
    Commit,
    /// Tell the broker the message is done, with the lease's receipt.
    Ack,
}

impl Op {
    /// The name a scenario file uses for this step (`run A to commit`).
    pub fn keyword(self) -> &'static str {
        match self {
            Op::Receive => "receive",
            Op::Begin => "begin",
            Op::ClaimId => "claim",
            Op::ApplyCharge => "charge",
            Op::CallProvider { .. } => "provider",
            Op::AwaitResponse => "response",
            Op::Commit => "commit",
            Op::Ack => "ack",
        }
    }

    /// The step as a person would name it on screen.
    pub fn label(self) -> &'static str {
        match self {
            Op::Receive => "receive",
            Op::Begin => "begin transaction",
            Op::ClaimId => "insert message ID",
            Op::ApplyCharge => "apply the charge",
            Op::CallProvider { with_key: true } => "charge via provider (key)",
            Op::CallProvider { with_key: false } => "charge via provider",
            Op::AwaitResponse => "provider response",
            Op::Commit => "commit",
            Op::Ack => "acknowledge",
        }
    }

    pub const KEYWORDS: [&'static str; 8] = [
        "receive", "begin", "claim", "charge", "provider", "response", "commit", "ack",
    ];
}

/// A handler design: its name, what it claims, and its program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Strategy {
    pub name: &'static str,
    pub summary: &'static str,
    /// Whether the design claims an exactly-once effect. The checker holds a
    /// design to its claim.
    pub claims_safe: bool,
    pub program: Vec<Op>,
}

impl Strategy {
    pub fn naive() -> Self {
        Strategy {
            name: "naive",
            summary: "does the work on every delivery; no record of what it handled",
            claims_safe: false,
            program: vec![
                Op::Receive,
                Op::Begin,
                Op::ApplyCharge,
                Op::CallProvider { with_key: false },
                Op::AwaitResponse,
                Op::Commit,
                Op::Ack,
            ],
        }
    }

    pub fn idempotent() -> Self {
        Strategy {
            name: "idempotent",
            summary: "message ID and payment in one transaction, ack after commit, ID as Idempotency-Key",
            claims_safe: true,
            program: vec![
                Op::Receive,
                Op::Begin,
                Op::ClaimId,
                Op::ApplyCharge,
                Op::CallProvider { with_key: true },
                Op::AwaitResponse,
                Op::Commit,
                Op::Ack,
            ],
        }
    }

    pub fn all() -> Vec<Strategy> {
        vec![Self::naive(), Self::idempotent()]
    }

    pub fn names() -> Vec<&'static str> {
        Self::all().iter().map(|s| s.name).collect()
    }

    pub fn by_name(name: &str) -> Option<Strategy> {
        Self::all().into_iter().find(|s| s.name == name)
    }

    pub fn position(&self, keyword: &str) -> Option<usize> {
        self.program.iter().position(|op| op.keyword() == keyword)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_program_acks_last_and_receives_first() {
        for s in Strategy::all() {
            assert_eq!(s.program.first(), Some(&Op::Receive), "{}", s.name);
            assert_eq!(s.program.last(), Some(&Op::Ack), "{}", s.name);
        }
    }

    #[test]
    fn keywords_cover_every_op() {
        for s in Strategy::all() {
            for op in &s.program {
                assert!(Op::KEYWORDS.contains(&op.keyword()));
            }
        }
    }
}
