//! The steps a handler program is made of: each with exactly one
//! externally visible effect, its word in a scenario file and its label on
//! screen.

use serde::Serialize;

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
    /// Steps that look for an earlier handling of the message (an ID, an
    /// offset, a version, a cache key, an in-progress record). A design
    /// with none of them does the work again on every repeat delivery.
    pub fn checks_duplicates(self) -> bool {
        matches!(
            self,
            Op::ClaimId
                | Op::CheckId
                | Op::CacheClaim
                | Op::CacheCheck
                | Op::ClaimInProgress
                | Op::GuardRow
                | Op::CheckOffset
                | Op::ApplyIfNewer
        )
    }

    /// Steps that tell a duplicate by its message ID (not by an offset
    /// or a version): the design then trusts one ID to be one payment.
    pub fn checks_by_id(self) -> bool {
        self.checks_duplicates() && !matches!(self, Op::CheckOffset | Op::ApplyIfNewer)
    }

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

    /// The keyword a scenario file uses for this step (`run A to commit`);
    /// a file may write its name instead (`sim::step_name`).
    pub fn keyword(self) -> &'static str {
        match self {
            Op::Receive => "receive",
            Op::Begin => "begin",
            Op::ClaimId => "claim",
            Op::CheckId => "check",
            Op::ApplyCharge => "payment",
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
