//! A `Frame` is the whole visible state after one step, as plain data: the
//! front ends render frames and nothing else.

use super::broker::MessageState;
use super::change::Changes;
use super::consumer::{Mark, Status};
use super::db::{Engine, OrderRow, RecordRow, StatusRow, Tables};
use super::event::{Event, SqlRecord};
pub use super::provider::CallAnswer;
use super::provider::{Charge, Reply};
use super::strategy::Op;
use super::verdict::Verdict;
use super::world::{Counters, IdSource, World};
use super::{Millis, SimError};
use serde::Serialize;

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
    pub narration: String,
    /// The scenario action this frame belongs to, as written in the file.
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
    pub said: Option<String>,
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
    /// The move that made this frame, as the world applied it (none for
    /// the setup): what a saved run replays.
    #[serde(skip)]
    pub made_by: Option<crate::sim::Move>,
    /// The move was the user's own (a fault or step from the `f` menu),
    /// not the script's.
    #[serde(skip)]
    pub yours: bool,
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
    pub keyword: String,
    pub mark: Mark,
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
    /// A second (or later) committed row for the same order.
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
    /// Sum of committed payments, in dollars.
    pub total_charged: u64,
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProviderView {
    pub charges: Vec<Charge>,
    pub total_charged: u64,
    pub keys: Vec<KeyView>,
    /// What the provider answered a call made in this step, if one was.
    pub answered_now: Option<CallAnswer>,
}

impl World {
    /// The frame for the state as it stands, with this step's events and SQL.
    pub fn frame(&self) -> Result<Frame, SimError> {
        Ok(Frame {
            index: self.step,
            engine: self.db.engine(),
            time_ms: self.now,
            strategy: self.strategy.name.to_string(),
            chapter: 0,
            chapter_title: String::new(),
            narration: String::new(),
            action: String::new(),
            queue: self.queue_view(),
            consumers: self.consumer_views(),
            db: self.db_view()?,
            provider: self.provider_view(),
            cache: CacheView {
                entries: self
                    .cache
                    .entries(self.now)
                    .into_iter()
                    .map(|(key, ttl_left_ms)| CacheEntryView { key, ttl_left_ms })
                    .collect(),
                used: [Op::CacheClaim, Op::CacheCheck, Op::CacheSet]
                    .iter()
                    .any(|op| self.strategy.uses(*op)),
            },
            events: self.moment.events.clone(),
            sql: self.moment.sql.clone(),
            counters: self.counters.clone(),
            verdict: self.verdict(),
            said: None,
            changes: Changes::default(),
            action_index: 0,
            stepped: self.moment.stepped.clone(),
            made_by: self.moment.last_move.clone(),
            yours: false,
        })
    }

    fn queue_view(&self) -> QueueView {
        let messages = self
            .broker
            .messages()
            .iter()
            .map(|m| self.message_view(m))
            .collect();
        QueueView {
            name: self.broker.queue.clone(),
            lease_ms: self.broker.lease_ms,
            max_receives: self.broker.max_receives,
            ordered: self.broker.ordered,
            messages,
            broker_ids_lead: self.setup.id_source == IdSource::Broker,
        }
    }

    /// The copies whose state changed in the last move, as shown.
    pub fn touched_views(&self) -> Vec<MessageView> {
        self.touched_copies()
            .iter()
            .filter_map(|seq| self.broker.get(*seq))
            .map(|m| self.message_view(m))
            .collect()
    }

    fn message_view(&self, m: &super::broker::StoredMessage) -> MessageView {
        {
            {
                let (phase, holder, lease_left_ms, receipt) = match &m.state {
                    MessageState::Waiting => (MessagePhase::Waiting, None, None, None),
                    MessageState::InFlight {
                        consumer,
                        until,
                        receipt,
                        ..
                    } => (
                        MessagePhase::InFlight,
                        Some(consumer.clone()),
                        Some(until.saturating_sub(self.now)),
                        Some(receipt.clone()),
                    ),
                    MessageState::Acked { by } => {
                        (MessagePhase::Acked, Some(by.clone()), None, None)
                    }
                    MessageState::DeadLettered => (MessagePhase::DeadLettered, None, None, None),
                };
                MessageView {
                    message_id: m.message.id.clone(),
                    broker_id: m.broker_id(),
                    order: m.message.payment.order,
                    amount: m.message.payment.amount,
                    body: match &m.message.status {
                        Some(update) => format!("{} v{}", update.status, update.version),
                        None => format!("${}", m.message.payment.amount),
                    },
                    phase,
                    holder,
                    lease_left_ms,
                    receipt,
                    receives: m.receives,
                    redelivered: m.redelivered,
                    copy: m.copy,
                    ack_lost: m.ack_lost,
                }
            }
        }
    }

    pub fn consumer_views(&self) -> Vec<ConsumerView> {
        self.consumers
            .iter()
            .map(|c| self.consumer_view(c))
            .collect()
    }

    /// Whether `view` still shows consumer `i` as it is, checked without
    /// building a new view: a long run asks this for every consumer at
    /// every step.
    pub fn consumer_shown(&self, i: usize, view: &ConsumerView) -> bool {
        let Some(c) = self.consumers.get(i) else {
            return false;
        };
        view.name == c.name
            && view.status == c.status()
            && view.in_txn == c.in_txn()
            && view.message.as_deref() == c.delivery().map(|d| d.message.id.as_str())
            && view.next == (!c.is_idle() && !c.is_crashed()).then_some(c.pc)
            && view.steps.len() == c.marks.len()
            && view.steps.iter().zip(&c.marks).all(|(s, m)| s.mark == *m)
            && view.armed == c.armed()
    }

    /// Consumer `i` as shown.
    pub fn consumer_view_of(&self, i: usize) -> Option<ConsumerView> {
        self.consumers.get(i).map(|c| self.consumer_view(c))
    }

    fn consumer_view(&self, c: &super::consumer::Consumer) -> ConsumerView {
        {
            {
                ConsumerView {
                    name: c.name.clone(),
                    status: c.status(),
                    message: c.delivery().map(|d| d.message.id.clone()),
                    steps: self
                        .strategy
                        .program
                        .iter()
                        .zip(&c.marks)
                        .map(|(op, mark)| StepView {
                            label: op.label().to_string(),
                            keyword: op.keyword().to_string(),
                            mark: *mark,
                        })
                        .collect(),
                    next: (!c.is_idle() && !c.is_crashed()).then_some(c.pc),
                    in_txn: c.in_txn(),
                    armed: c.armed(),
                }
            }
        }
    }

    /// Committed rows, plus the rows an open transaction has written so far,
    /// read through that transaction's own connection.
    fn db_view(&self) -> Result<DbView, SimError> {
        let committed = &self.committed;
        let mut payments: Vec<PaymentView> = Vec::new();
        for row in &committed.payments {
            let repeat = payments.iter().any(|p| p.order == row.order);
            payments.push(PaymentView {
                order: row.order,
                amount: row.amount,
                message_id: row.message_id.clone(),
                uncommitted_by: None,
                repeat,
            });
        }
        let mut processed: Vec<ProcessedView> = committed
            .processed
            .iter()
            .map(|row| ProcessedView {
                message_id: row.message_id.clone(),
                processed_at: row.processed_at,
                uncommitted_by: None,
                conflict: self.moment.conflict.as_deref() == Some(row.message_id.as_str()),
            })
            .collect();
        let mut uncommitted = Vec::new();
        // One holder on SQLite (its write lock lets one writer in); on
        // PostgreSQL, every consumer with a transaction open.
        for holder in self.consumers.iter().filter(|c| c.in_txn()) {
            let session = holder.session.as_ref().expect("in a transaction");
            let own: Tables = session.own_view()?;
            let rows = UncommittedRows {
                by: holder.name.clone(),
                statuses: new_rows(&own.statuses, &committed.statuses),
                orders: new_rows(&own.orders, &committed.orders),
                records: new_rows(&own.records, &committed.records),
                last_offset: own
                    .last_offset
                    .filter(|_| own.last_offset != committed.last_offset),
            };
            if !rows.is_empty() {
                uncommitted.push(rows);
            }
            let known = |id: i64| committed.payments.iter().any(|p| p.id == id);
            for row in own.payments.iter().filter(|row| !known(row.id)) {
                payments.push(PaymentView {
                    order: row.order,
                    amount: row.amount,
                    message_id: row.message_id.clone(),
                    uncommitted_by: Some(holder.name.clone()),
                    repeat: false,
                });
            }
            for row in &own.processed {
                if let Some(p) = processed
                    .iter_mut()
                    .find(|p| p.message_id == row.message_id)
                {
                    p.conflict |= self.moment.conflict.as_deref() == Some(row.message_id.as_str());
                } else {
                    processed.push(ProcessedView {
                        message_id: row.message_id.clone(),
                        processed_at: row.processed_at,
                        uncommitted_by: Some(holder.name.clone()),
                        conflict: false,
                    });
                }
            }
        }
        Ok(DbView {
            total_charged: committed.payments.iter().map(|p| u64::from(p.amount)).sum(),
            payments,
            processed,
            uses_processed: self.strategy.uses(Op::ClaimId) || self.strategy.uses(Op::CheckId),
            statuses: committed.statuses.clone(),
            uses_statuses: self.setup.messages.iter().any(|m| m.status.is_some()),
            last_offset: committed.last_offset,
            uses_offsets: self.strategy.uses(Op::CheckOffset),
            orders: committed.orders.clone(),
            uses_orders: self.strategy.uses(Op::GuardRow),
            records: committed.records.clone(),
            uses_records: self.strategy.uses(Op::ClaimInProgress),
            uncommitted,
        })
    }

    fn provider_view(&self) -> ProviderView {
        let charges = self.provider.charges().to_vec();
        ProviderView {
            total_charged: charges.iter().map(|c| u64::from(c.amount)).sum(),
            charges,
            keys: self
                .provider
                .keys()
                .map(|k| KeyView {
                    key: k.key.clone(),
                    result: match &k.result {
                        // The work is done but the result is not given out
                        // yet: what a repeat would get now is a 409.
                        _ if k.in_flight => "processing".into(),
                        Reply::Charged { charge_id } => charge_id.clone(),
                        other => other.describe(),
                    },
                    replays: k.replays,
                    replayed_now: self.moment.replayed.as_deref() == Some(k.key.as_str()),
                })
                .collect(),
            answered_now: self.moment.answered.clone(),
        }
    }
}

/// The rows of `own` that the committed table does not have as they are.
fn new_rows<T: Clone + PartialEq>(own: &[T], committed: &[T]) -> Vec<T> {
    own.iter()
        .filter(|row| !committed.contains(row))
        .cloned()
        .collect()
}
