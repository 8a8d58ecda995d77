//! Handler designs as programs: a list of steps the engine runs one at a
//! time, each with exactly one externally visible effect, so that a crash can
//! be injected between any two of them.
//!
//! Control flow is small on purpose. Steps run in order; a step that finds
//! the message already handled (a duplicate) sends the handler down its
//! skip path: commit the open transaction if there is one, then acknowledge
//! if an ack is still ahead, marking everything in between as skipped.

use serde::Serialize;
use std::borrow::Cow;

mod op;

pub use op::Op;

/// What a design's promise rests on, beyond the handler itself: outside it
/// the design is not meant to hold, and its failures there are reported
/// as outside its promise, not as a broken claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Assumption {
    /// One ordered partition of a log: each payment is one record, written
    /// once, and records come back in the order they were written.
    OrderedLog,
    /// The messages are status changes that carry a version.
    StatusChanges,
    /// One message ID is one payment: a producer never gives a new
    /// payment an ID it used before. A design that tells a duplicate by
    /// its ID cannot see such a payment, and drops it (`reused-id`).
    OnePaymentPerId,
}

impl Assumption {
    /// In a few words, for a bounds line: `one ordered partition`.
    pub fn short(self) -> &'static str {
        match self {
            Assumption::OrderedLog => "one ordered partition",
            Assumption::StatusChanges => "status changes",
            Assumption::OnePaymentPerId => "one payment per message ID",
        }
    }

    /// The whole assumption, for a report that explains a result.
    pub fn text(self) -> &'static str {
        match self {
            Assumption::OrderedLog => {
                "one ordered partition: each payment is one record, written once, and a redelivery comes back in the order the records were written"
            }
            Assumption::StatusChanges => {
                "status changes: every message carries a version, and only a newer one is applied"
            }
            Assumption::OnePaymentPerId => {
                "one payment per message ID: a producer never gives a new payment an ID it used before (reused-id shows the payment such a producer loses)"
            }
        }
    }

    /// Whether a producer retry stays inside it. A retry on a log is a
    /// second record at a new offset, which the offset cannot tell from a
    /// new payment; a retried status change carries its old version.
    pub fn allows_retries(self) -> bool {
        match self {
            Assumption::OrderedLog => false,
            Assumption::StatusChanges => true,
            // A retry is the same payment again, under its own ID.
            Assumption::OnePaymentPerId => true,
        }
    }
}

/// A handler design: its name, what it claims, and its program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Strategy {
    /// Owned for a design read from a file; borrowed for the built-ins.
    pub name: Cow<'static, str>,
    pub summary: Cow<'static, str>,
    /// Whether the design promises an exactly-once effect. The checker
    /// holds a design to its promise. (The field keeps its name, which
    /// design files use; the words shown say "promises": "claim" is the
    /// pattern's word for inserting the ID.)
    pub claims_safe: bool,
    pub program: Vec<Op>,
}

use Op::*;

const KEYED: Op = CallProvider { with_key: true };
const UNKEYED: Op = CallProvider { with_key: false };

impl Strategy {
    pub fn naive() -> Self {
        Strategy {
            name: Cow::Borrowed("naive"),
            summary: Cow::Borrowed("does the work on every delivery; no record of what it handled"),
            claims_safe: false,
            program: vec![
                Receive,
                Begin,
                ApplyCharge,
                UNKEYED,
                AwaitResponse,
                Commit,
                Ack,
            ],
        }
    }

    pub fn idempotent() -> Self {
        Strategy {
            name: Cow::Borrowed("idempotent"),
            summary: Cow::Borrowed(
                "message ID and payment in one transaction, ack after commit, ID as Idempotency-Key",
            ),
            claims_safe: true,
            program: vec![
                Receive,
                Begin,
                ClaimId,
                ApplyCharge,
                KEYED,
                AwaitResponse,
                Commit,
                Ack,
            ],
        }
    }

    pub fn all() -> Vec<Strategy> {
        vec![
            Self::naive(),
            Self::idempotent(),
            Strategy {
                name: Cow::Borrowed("id-first"),
                summary: Cow::Borrowed(
                    "saves the message ID in one transaction, then does the work in a second",
                ),
                claims_safe: false,
                program: vec![
                    Receive,
                    Begin,
                    ClaimId,
                    Commit,
                    Begin,
                    ApplyCharge,
                    KEYED,
                    AwaitResponse,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("charge-first"),
                summary: Cow::Borrowed(
                    "looks the ID up and does the work in one transaction, then saves the ID in a second; no provider key",
                ),
                claims_safe: false,
                program: vec![
                    Receive,
                    Begin,
                    CheckId,
                    ApplyCharge,
                    UNKEYED,
                    AwaitResponse,
                    Commit,
                    Begin,
                    ClaimId,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("ack-first"),
                summary: Cow::Borrowed("acknowledges on receipt, then does the work: at-most-once"),
                claims_safe: false,
                program: vec![
                    Receive,
                    Ack,
                    Begin,
                    ClaimId,
                    ApplyCharge,
                    KEYED,
                    AwaitResponse,
                    Commit,
                ],
            },
            Strategy {
                name: Cow::Borrowed("no-provider-key"),
                summary: Cow::Borrowed(
                    "the one-transaction design, but the provider call carries no Idempotency-Key",
                ),
                claims_safe: false,
                program: vec![
                    Receive,
                    Begin,
                    ClaimId,
                    ApplyCharge,
                    UNKEYED,
                    AwaitResponse,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("cache-claim-first"),
                summary: Cow::Borrowed(
                    "claims the ID in a cache (SET NX EX) before the work, outside the transaction; no provider key",
                ),
                claims_safe: false,
                program: vec![
                    Receive,
                    CacheClaim,
                    Begin,
                    ApplyCharge,
                    UNKEYED,
                    AwaitResponse,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("cache-work-first"),
                summary: Cow::Borrowed(
                    "checks a cache, does the work, then writes the ID to the cache; no provider key",
                ),
                claims_safe: false,
                program: vec![
                    Receive,
                    CacheCheck,
                    Begin,
                    ApplyCharge,
                    UNKEYED,
                    AwaitResponse,
                    Commit,
                    CacheSet,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("row-version"),
                summary: Cow::Borrowed(
                    "no ID table: the order row keeps its last message ID and the update is conditional on it",
                ),
                claims_safe: false,
                program: vec![
                    Receive,
                    Begin,
                    GuardRow,
                    ApplyCharge,
                    KEYED,
                    AwaitResponse,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("offset"),
                summary: Cow::Borrowed(
                    "no ID table: stores the last applied log offset with the work and skips anything at or below it",
                ),
                // Safe on an ordered log, which is what it claims and what
                // the checker holds it to; on a queue that reorders
                // redeliveries it loses charges (offset-on-a-queue).
                claims_safe: true,
                program: vec![
                    Receive,
                    Begin,
                    CheckOffset,
                    ApplyCharge,
                    KEYED,
                    AwaitResponse,
                    SaveOffset,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("versioned"),
                summary: Cow::Borrowed(
                    "no ID table: a status change is applied only if its version is newer than the row's",
                ),
                // Meant for status changes, which the checker holds it to.
                claims_safe: true,
                program: vec![
                    Receive,
                    Begin,
                    ApplyIfNewer,
                    KEYED,
                    AwaitResponse,
                    Commit,
                    Ack,
                ],
            },
            Strategy {
                name: Cow::Borrowed("in-progress"),
                summary: Cow::Borrowed(
                    "an in-progress record with a deadline; a late duplicate backs off or takes over",
                ),
                // Safe only while a redelivery finds the record's deadline
                // passed: a back-off still uses up one of the message's
                // receives, so a record that outlives the lease by much lets
                // a healthy message run out of receives. The default record
                // timeout is the lease's length, counted from the record's
                // write, so it ends a few seconds after the lease does.
                claims_safe: true,
                // The provider call runs outside any transaction, so no
                // connection is held while the provider takes its time; the
                // record, not a lock, keeps other deliveries away.
                program: vec![
                    Receive,
                    Begin,
                    ClaimInProgress,
                    Commit,
                    KEYED,
                    AwaitResponse,
                    Begin,
                    ApplyCharge,
                    MarkCompleted,
                    Commit,
                    Ack,
                ],
            },
        ]
    }

    pub fn names() -> Vec<&'static str> {
        Self::all()
            .into_iter()
            .map(|s| match s.name {
                Cow::Borrowed(name) => name,
                // Every built-in name is a literal.
                Cow::Owned(_) => unreachable!("a built-in design has a literal name"),
            })
            .collect()
    }

    pub fn by_name(name: &str) -> Option<Strategy> {
        Self::all().into_iter().find(|s| s.name == name)
    }

    /// The first step with this keyword at or after `from`.
    pub fn position_from(&self, keyword: &str, from: usize) -> Option<usize> {
        (from..self.program.len()).find(|&i| self.program[i].keyword() == keyword)
    }

    pub fn position(&self, keyword: &str) -> Option<usize> {
        self.position_from(keyword, 0)
    }

    /// The first step equal to `op` after `pc`.
    pub fn next(&self, op: Op, pc: usize) -> Option<usize> {
        (pc + 1..self.program.len()).find(|&i| self.program[i] == op)
    }

    /// Whether any step looks for an earlier handling of the message: a
    /// design without one keeps no record of what it handled.
    pub fn checks_duplicates(&self) -> bool {
        self.program.iter().any(|op| op.checks_duplicates())
    }

    pub fn uses(&self, op: Op) -> bool {
        self.program.contains(&op)
    }

    /// What the design's promise rests on, read from its program: keeping
    /// only the last offset needs an ordered log, applying only newer
    /// versions needs versioned status changes, and telling a duplicate
    /// by its message ID needs one payment per ID. Empty for a design
    /// that looks up nothing.
    pub fn assumptions(&self) -> Vec<Assumption> {
        let mut out = Vec::new();
        if self.program.iter().any(|op| op.checks_by_id()) {
            out.push(Assumption::OnePaymentPerId);
        }
        if self.uses(Op::CheckOffset) {
            out.push(Assumption::OrderedLog);
        }
        if self.uses(Op::ApplyIfNewer) {
            out.push(Assumption::StatusChanges);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_program_receives_first_and_acks_once() {
        for s in Strategy::all() {
            assert_eq!(s.program.first(), Some(&Op::Receive), "{}", s.name);
            let acks = s.program.iter().filter(|op| **op == Op::Ack).count();
            assert_eq!(acks, 1, "{}", s.name);
        }
    }

    #[test]
    fn transactions_are_balanced() {
        for s in Strategy::all() {
            let mut open = false;
            for op in &s.program {
                match op {
                    Op::Begin => {
                        assert!(!open, "{}: BEGIN inside a transaction", s.name);
                        open = true;
                    }
                    Op::Commit => {
                        assert!(open, "{}: COMMIT without BEGIN", s.name);
                        open = false;
                    }
                    // Reads too: a read outside a transaction would behave
                    // differently on the memdb VFS and on a file (--db).
                    op if op.needs_transaction() => {
                        assert!(open, "{}: {:?} outside a transaction", s.name, op)
                    }
                    _ => {}
                }
            }
            assert!(!open, "{}: ends inside a transaction", s.name);
        }
    }

    #[test]
    fn names_and_keywords_are_unique_and_known() {
        let names = Strategy::names();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(n), "{n} twice");
        }
        let keywords = Op::keywords();
        for (i, k) in keywords.iter().enumerate() {
            assert!(!keywords[i + 1..].contains(k), "{k} twice");
        }
        for s in Strategy::all() {
            for op in &s.program {
                assert!(keywords.contains(&op.keyword()));
            }
        }
    }
}
