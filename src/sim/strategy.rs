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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Take the next visible message from the queue under a lease.
    Receive,
    /// `BEGIN IMMEDIATE`: may find the write lock taken and wait.
    Begin,
    /// Insert the message ID into processed_messages with ON CONFLICT DO
    /// NOTHING. Zero rows inserted means a duplicate.
    ClaimId,
    /// Look the ID up in processed_messages without writing it (the
    /// check-then-act of designs that record the ID after the work).
    CheckId,
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
    /// `SET id 1 NX EX ttl` in a cache outside the database: nil means a duplicate.
    CacheClaim,
    /// `GET id` in the cache: a hit means a duplicate.
    CacheCheck,
    /// `SET id 1 EX ttl` in the cache, after the work.
    CacheSet,
    /// Insert an in-progress record with a deadline, or take over an expired
    /// one; a completed record means a duplicate, a live one means back off.
    ClaimInProgress,
    /// Mark the record completed, but only if this handler still owns it.
    MarkCompleted,
    /// Set the order row's last message ID, conditional on it differing:
    /// zero rows written means a duplicate of the row's latest message.
    GuardRow,
    /// Read the last applied offset; a record at or below it is a duplicate.
    CheckOffset,
    /// Store this record's offset as the last applied, in the transaction.
    SaveOffset,
    /// Apply a status change only if its version is newer than the row's.
    /// (A payment has no version and is applied as `ApplyCharge` would.)
    ApplyIfNewer,
}

impl Op {
    /// The name a scenario file uses for this step (`run A to commit`).
    /// Steps that read or write the database: they run in the handler's
    /// transaction, and the engine keeps no other connection state.
    pub fn needs_transaction(self) -> bool {
        matches!(
            self,
            Op::ClaimId
                | Op::CheckId
                | Op::ApplyCharge
                | Op::ClaimInProgress
                | Op::MarkCompleted
                | Op::GuardRow
                | Op::CheckOffset
                | Op::SaveOffset
                | Op::ApplyIfNewer
        )
    }

    pub fn keyword(self) -> &'static str {
        match self {
            Op::Receive => "receive",
            Op::Begin => "begin",
            Op::ClaimId => "claim",
            Op::CheckId => "check",
            Op::ApplyCharge => "charge",
            Op::CallProvider { .. } => "provider",
            Op::AwaitResponse => "response",
            Op::Commit => "commit",
            Op::Ack => "ack",
            Op::CacheClaim => "cache-claim",
            Op::CacheCheck => "cache-check",
            Op::CacheSet => "cache-set",
            Op::ClaimInProgress => "claim-record",
            Op::MarkCompleted => "complete",
            Op::GuardRow => "guard-row",
            Op::CheckOffset => "check-offset",
            Op::SaveOffset => "save-offset",
            Op::ApplyIfNewer => "apply-if-newer",
        }
    }

    /// The step as a person would name it on screen.
    pub fn label(self) -> &'static str {
        match self {
            Op::Receive => "receive",
            Op::Begin => "begin transaction",
            Op::ClaimId => "insert message ID",
            Op::CheckId => "look up message ID",
            Op::ApplyCharge => "insert payment row",
            Op::CallProvider { with_key: true } => "charge the card (key)",
            Op::CallProvider { with_key: false } => "charge the card",
            Op::AwaitResponse => "provider response",
            Op::Commit => "commit",
            Op::Ack => "acknowledge",
            Op::CacheClaim => "claim ID in cache",
            Op::CacheCheck => "look up ID in cache",
            Op::CacheSet => "write ID to cache",
            Op::ClaimInProgress => "record in progress",
            Op::MarkCompleted => "mark completed",
            Op::GuardRow => "update row if new message",
            Op::CheckOffset => "read last offset",
            Op::SaveOffset => "save offset",
            Op::ApplyIfNewer => "apply if newer version",
        }
    }

    /// Every building block, in the order a handler would usually use
    /// them; the provider call once with its key and once without. The one
    /// list the step words of scenario, design and level files come from.
    pub const ALL: [Op; 19] = [
        Op::Receive,
        Op::Begin,
        Op::ClaimId,
        Op::CheckId,
        Op::ApplyCharge,
        Op::CallProvider { with_key: true },
        Op::CallProvider { with_key: false },
        Op::AwaitResponse,
        Op::Commit,
        Op::Ack,
        Op::CacheClaim,
        Op::CacheCheck,
        Op::CacheSet,
        Op::ClaimInProgress,
        Op::MarkCompleted,
        Op::GuardRow,
        Op::CheckOffset,
        Op::SaveOffset,
        Op::ApplyIfNewer,
    ];

    /// Every step's name in a scenario file, each once (the provider call
    /// has one name with or without its key).
    pub fn keywords() -> Vec<&'static str> {
        let mut words: Vec<&'static str> = Op::ALL.iter().map(|op| op.keyword()).collect();
        words.dedup();
        words
    }
}

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
}

impl Assumption {
    /// In a few words, for a bounds line: `one ordered partition`.
    pub fn short(self) -> &'static str {
        match self {
            Assumption::OrderedLog => "one ordered partition",
            Assumption::StatusChanges => "status changes",
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
        }
    }

    /// Whether a producer retry stays inside it. A retry on a log is a
    /// second record at a new offset, which the offset cannot tell from a
    /// new payment; a retried status change carries its old version.
    pub fn allows_retries(self) -> bool {
        match self {
            Assumption::OrderedLog => false,
            Assumption::StatusChanges => true,
        }
    }
}

/// A handler design: its name, what it claims, and its program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Strategy {
    /// Owned for a design read from a file; borrowed for the built-ins.
    pub name: Cow<'static, str>,
    pub summary: Cow<'static, str>,
    /// Whether the design claims an exactly-once effect. The checker holds a
    /// design to its claim.
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
                // timeout equals the lease.
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

    pub fn uses(&self, op: Op) -> bool {
        self.program.contains(&op)
    }

    /// What the design's promise rests on, read from its program: keeping
    /// only the last offset needs an ordered log, applying only newer
    /// versions needs versioned status changes. Empty for a design that
    /// promises its effect on any queue and any message.
    pub fn assumptions(&self) -> Vec<Assumption> {
        let mut out = Vec::new();
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
