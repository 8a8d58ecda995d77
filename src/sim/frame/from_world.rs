//! The world seen as a frame: each part of the state as the front ends
//! show it, the rows an open transaction wrote read through its own
//! connection.

use super::{
    CacheEntryView, CacheView, ConsumerView, DbView, Frame, KeyView, MessagePhase, MessageView,
    PaymentView, ProcessedView, ProviderView, QueueView, StepView, UncommittedRows,
};
use crate::sim::SimError;
use crate::sim::broker::{MessageState, StoredMessage};
use crate::sim::change::Changes;
use crate::sim::consumer::{Consumer, Mark};
use crate::sim::db::Tables;
use crate::sim::message::Payment;
use crate::sim::strategy::Op;
use crate::sim::world::{IdSource, World};

impl World {
    /// The frame for the state as it stands, with this step's events and SQL.
    pub fn frame(&self) -> Result<Frame, SimError> {
        Ok(Frame {
            index: self.step,
            engine: self.store.db.engine(),
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
            said_from: 0,
            borrowed: None,
            changes: Changes::default(),
            action_index: 0,
            stepped: self.moment.stepped.clone(),
            found_nothing: self.moment.found_nothing,
            made_by: self.moment.last_move.clone(),
            yours: false,
        })
    }

    fn queue_view(&self) -> QueueView {
        let messages = self
            .queue
            .broker
            .messages()
            .iter()
            .map(|m| self.message_view(m))
            .collect();
        QueueView {
            name: self.queue.broker.queue.clone(),
            lease_ms: self.queue.broker.lease_ms,
            max_receives: self.queue.broker.max_receives,
            ordered: self.queue.broker.ordered,
            messages,
            broker_ids_lead: self.setup.id_source == IdSource::Broker,
            rows_by_order: self.setup.id_source != IdSource::Producer,
        }
    }

    /// The copies whose state changed in the last move, as shown.
    pub fn touched_views(&self) -> Vec<MessageView> {
        self.touched_copies()
            .iter()
            .filter_map(|seq| self.queue.broker.get(*seq))
            .map(|m| self.message_view(m))
            .collect()
    }

    fn message_view(&self, m: &StoredMessage) -> MessageView {
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

    fn consumer_view(&self, c: &Consumer) -> ConsumerView {
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
                            label: crate::sim::step_name::label(*op).to_string(),
                            name: crate::sim::step_name::name(*op),
                            keyed: matches!(op, Op::CallProvider { with_key: true }),
                            short: crate::sim::step_name::short_name(*op),
                            keyword: op.keyword().to_string(),
                            mark: *mark,
                            retry: match op {
                                Op::CallProvider { .. } if *mark == Mark::Done => {
                                    c.calls.saturating_sub(1)
                                }
                                _ => 0,
                            },
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
        let committed = &self.store.committed;
        let mut payments: Vec<PaymentView> = Vec::new();
        for row in &committed.payments {
            // A repeat is a row the customer does not owe: beyond the times
            // the producer asked for this payment (the observer's books). A
            // second instalment of the same order and amount is owed, and
            // no duplicate; a payment no fact holds (retired) counts once.
            let payment = Payment {
                order: row.order,
                amount: row.amount,
            };
            let owed = self.fact_verdict(&payment).map_or(1, |v| v.expected);
            let before = payments
                .iter()
                .filter(|p| p.order == row.order && p.amount == row.amount)
                .count();
            let repeat = before >= owed;
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
            if session.sees_only_committed() {
                continue;
            }
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
            payments_total: committed.payments.iter().map(|p| u64::from(p.amount)).sum(),
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
                .map(|k| {
                    let now = self.moment.replayed.as_deref() == Some(k.key.as_str());
                    KeyView::of(k, now)
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
