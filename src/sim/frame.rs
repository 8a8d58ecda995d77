//! A `Frame` is the whole visible state after one step, as plain data: the
//! front ends render frames and nothing else.

use super::Millis;
use super::change::Changes;
use super::consumer::{Mark, Status};
use super::db::{Engine, OrderRow, RecordRow, StatusRow};
use super::event::{Event, SqlRecord};
pub use super::provider::CallAnswer;
use super::provider::Charge;
use super::verdict::Verdict;
use super::world::Counters;
use serde::Serialize;

pub mod action_told;
mod borrowed;
mod earlier;
mod from_world;
mod move_told;
mod unsettled;
pub use borrowed::{Borrowed, WrittenFor};
pub use earlier::{Told, told_before};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// 0 is the state before the first step.
    pub index: usize,
    /// The database engine the run is on. Left out of SQLite's JSON, which
    /// was written before there was a choice.
    #[serde(skip_serializing_if = "Engine::is_sqlite")]
    pub engine: Engine,
    pub time_ms: Millis,
    pub strategy: String,
    /// Filled in by the timeline from the scenario.
    pub chapter: usize,
    pub chapter_title: String,
    #[serde(serialize_with = "crate::scenario::key_word::serialize_told")]
    pub narration: String,
    /// The scenario action this frame belongs to, in a reader's words
    /// (`run A to before charge the card`, where the file writes `run A to
    /// provider`: the step as the step list names it).
    pub action: String,
    pub queue: QueueView,
    pub consumers: Vec<ConsumerView>,
    pub db: DbView,
    pub provider: ProviderView,
    pub cache: CacheView,
    pub events: Vec<Event>,
    pub sql: Vec<SqlRecord>,
    pub counters: Counters,
    pub verdict: Verdict,
    /// What the action that ended with this frame says it did: true from
    /// this frame on, and already part of `narration`.
    #[serde(serialize_with = "crate::scenario::key_word::serialize_told_some")]
    pub said: Option<String>,
    /// Where `said` begins in `narration`, when this frame has one: the
    /// chapter's words before it are the text up to there.
    #[serde(skip)]
    pub said_from: usize,
    /// The chapter's words written for another design or engine, kept out
    /// of `narration` and `said`: the step's events tell this run, and
    /// these come after them, marked with whom they were written for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub borrowed: Option<Borrowed>,
    /// What this step changed against the frame before it; filled in by the
    /// timeline, empty for frame 0.
    pub changes: Changes,
    /// The position of this frame's action in its chapter's list of
    /// actions (a fork's frame: the action it follows). With `chapter` it
    /// names the moment of the story, the same under every design.
    pub action_index: usize,
    /// The consumer whose handler ran in this step, if one did. Another
    /// consumer's marks may move (a lock it waited on came free) without
    /// its handler running.
    #[serde(skip)]
    pub stepped: Option<String>,
    /// `stepped` polled the queue and found nothing to receive: the action
    /// ran no handler step (a consumer that finished earlier, or whose
    /// message another holds). A step line says so rather than name a run.
    #[serde(skip)]
    pub found_nothing: bool,
    /// The move that made this frame, as the world applied it (none for
    /// the setup): what a saved run replays.
    #[serde(skip)]
    pub made_by: Option<crate::sim::Move>,
    /// The move was the user's own (a fault or step from the `f` menu),
    /// not the script's.
    #[serde(skip)]
    pub yours: bool,
}

impl Frame {
    /// The chapter's words before what this frame's action said (all of
    /// them, at a frame whose action said nothing).
    pub fn opening(&self) -> &str {
        match self.said {
            Some(_) => &self.narration[..self.said_from],
            None => &self.narration,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueueView {
    pub name: String,
    pub lease_ms: Millis,
    pub max_receives: u32,
    /// One partition of an ordered log: broker IDs are offsets (`b-1` is offset 0).
    pub ordered: bool,
    pub messages: Vec<MessageView>,
    /// Consumers key on the broker's own IDs (`b-2`), so those lead.
    pub broker_ids_lead: bool,
    /// The payments table's message column holds something other than the
    /// producer's IDs (the broker's `b-2`, a content hash): a message's
    /// rows can then be told only by their order. Not exported: it is how
    /// the screen counts, not a fact of the run.
    #[serde(skip)]
    pub rows_by_order: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessagePhase {
    Waiting,
    InFlight,
    Acked,
    DeadLettered,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageView {
    pub message_id: String,
    pub broker_id: String,
    pub order: u32,
    pub amount: u32,
    /// What the message asks for, as shown: `$40`, or `SHIPPED v2` for a
    /// status change.
    pub body: String,
    pub phase: MessagePhase,
    /// The consumer holding the lease, or the one whose ack removed it.
    pub holder: Option<String>,
    pub lease_left_ms: Option<Millis>,
    /// The receipt handle of the current lease: an ack must present it.
    pub receipt: Option<String>,
    pub receives: u32,
    pub redelivered: bool,
    pub copy: u32,
    pub ack_lost: bool,
}

impl MessageView {
    /// The name to show: the ID the consumers remember, with the other in
    /// brackets where they differ (`b-2 (m-7f3)`).
    pub fn label(&self, broker_ids_lead: bool) -> String {
        if broker_ids_lead {
            format!("{} ({})", self.broker_id, self.message_id)
        } else {
            self.message_id.clone()
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepView {
    pub label: String,
    /// Its bare name (`charge the card`): the label without the key tag a
    /// keyed call's ends in. Made with the label, so the panel cuts the
    /// name and keeps the tag without reading the label back.
    #[serde(skip)]
    pub name: &'static str,
    /// A provider call that carries the Idempotency-Key: its label ends in
    /// the key tag (`(key)`).
    #[serde(skip)]
    pub keyed: bool,
    /// Its short name, where it has one (`answer` for `provider
    /// response`): what a cut gives where it would break the first word.
    #[serde(skip)]
    pub short: Option<&'static str>,
    pub keyword: String,
    pub mark: Mark,
    /// A provider call that has run again for this delivery: its retry's
    /// number (1 for the second call); 0 for a first call or any other step.
    #[serde(skip_serializing_if = "is_zero")]
    pub retry: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConsumerView {
    pub name: String,
    pub status: Status,
    /// The message it is handling.
    pub message: Option<String>,
    pub steps: Vec<StepView>,
    /// The step it will run next, while it handles a message.
    pub next: Option<usize>,
    pub in_txn: bool,
    pub armed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PaymentView {
    pub order: u32,
    pub amount: u32,
    pub message_id: String,
    /// `None` when committed; else the consumer whose transaction holds it.
    pub uncommitted_by: Option<String>,
    /// A committed row beyond the times the customer owes this payment
    /// (order and amount), as the observer counts what was asked for.
    pub repeat: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProcessedView {
    pub message_id: String,
    pub processed_at: Millis,
    pub uncommitted_by: Option<String>,
    /// A claim for this ID hit the unique key in this step.
    pub conflict: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DbView {
    pub payments: Vec<PaymentView>,
    /// Sum of committed payment rows, in dollars: what the shop recorded
    /// (`payments_total` in JSON; the card's side is the provider's
    /// `total_charged`).
    pub payments_total: u64,
    pub processed: Vec<ProcessedView>,
    /// False for designs that never touch processed_messages.
    pub uses_processed: bool,
    /// Order statuses written by status-change messages (committed).
    pub statuses: Vec<StatusRow>,
    pub uses_statuses: bool,
    /// The offset design's last applied offset (committed).
    pub last_offset: Option<u64>,
    pub uses_offsets: bool,
    /// The row-version design's order rows (committed).
    pub orders: Vec<OrderRow>,
    pub uses_orders: bool,
    /// The in-progress design's idempotency_records (committed rows).
    pub records: Vec<RecordRow>,
    pub uses_records: bool,
    /// What each open transaction has written to the tables above and not
    /// committed yet, as its own connection reads it: one holder on SQLite,
    /// any number on PostgreSQL (in the consumers' order).
    pub uncommitted: Vec<UncommittedRows>,
}

/// Rows of the smaller tables that an open transaction wrote or changed:
/// shown beside the committed ones, as the payments rows are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UncommittedRows {
    pub by: String,
    pub statuses: Vec<StatusRow>,
    pub orders: Vec<OrderRow>,
    pub records: Vec<RecordRow>,
    /// The offset the transaction stored, when it differs from the committed one.
    pub last_offset: Option<u64>,
}

impl UncommittedRows {
    pub fn is_empty(&self) -> bool {
        self.statuses.is_empty()
            && self.orders.is_empty()
            && self.records.is_empty()
            && self.last_offset.is_none()
    }
}

/// A key in the cache that cache-based designs use, with its time left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CacheEntryView {
    pub key: String,
    pub ttl_left_ms: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CacheView {
    pub entries: Vec<CacheEntryView>,
    /// False for designs that keep no cache.
    pub used: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyView {
    pub key: String,
    pub result: String,
    pub replays: u32,
    pub replayed_now: bool,
}

impl KeyView {
    /// A stored key as every front end shows it: its result in the
    /// fewest words (`ch_81`, not `201 Created ch_81`), or `processing`
    /// while the first request is unanswered, when a repeat gets 409. The
    /// simulator's frames and `idem test --replay` both draw it so.
    pub fn of(k: &super::provider::KeyRecord, replayed_now: bool) -> KeyView {
        use super::provider::Reply;
        KeyView {
            key: k.key.clone(),
            result: match &k.result {
                // The work is done but the result is not given out yet:
                // what a repeat would get now is a 409.
                _ if k.in_flight => "processing".into(),
                Reply::Charged { charge_id } => charge_id.clone(),
                other => other.describe(),
            },
            replays: k.replays,
            replayed_now,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProviderView {
    pub charges: Vec<Charge>,
    pub total_charged: u64,
    pub keys: Vec<KeyView>,
    /// What the provider answered a call made in this step, if one was.
    pub answered_now: Option<CallAnswer>,
}
