//! The verdict over the world as it stands, judged from scratch: one per
//! business fact. The world keeps the same judgement as it goes
//! (`facts.rs`); this slow, obvious version is what the tests hold it to.

use super::World;
use crate::sim::message::Payment;
use crate::sim::verdict;
use crate::sim::verdict::{FactState, Verdict};
use std::collections::BTreeMap;

impl World {
    /// Judges the world as it stands, looking at everything: the same
    /// answer as `verdict`, at a cost that grows with the run. It knows the
    /// setup's messages only: a world that also `produce`s (the soak's) is
    /// judged as it goes, and forgets what it retires, so there is nothing
    /// whole to judge again.
    #[doc(hidden)]
    pub fn verdict_from_scratch(&self) -> Verdict {
        // A business fact is a payment the producer asked for; two setup
        // messages with the same order and amount are two such payments.
        let mut facts: Vec<(&Payment, usize)> = Vec::new();
        for m in self.setup.messages.iter().filter(|m| m.status.is_none()) {
            match facts.iter_mut().find(|(p, _)| **p == m.payment) {
                Some((_, n)) => *n += 1,
                None => facts.push((&m.payment, 1)),
            }
        }
        let states: Vec<FactState<'_>> = facts
            .into_iter()
            .map(|(payment, expected)| self.fact_state(payment, expected))
            .collect();
        let mut verdicts: Vec<_> = states.iter().map(verdict::judge_fact).collect();
        verdicts.extend(self.status_verdicts());
        verdict::combine(verdicts)
    }

    /// What the world knows about one fact, for the verdict.
    fn fact_state<'a>(&'a self, payment: &'a Payment, expected: usize) -> FactState<'a> {
        let handling = self
            .consumers
            .iter()
            .any(|c| c.delivery().is_some_and(|d| d.message.payment == *payment));
        let payments = self
            .store
            .committed
            .payments
            .iter()
            .filter(|p| p.order == payment.order && p.amount == payment.amount)
            .count();
        // IDs that only this fact's messages carry: a record of a
        // shared ID says nothing about this fact.
        let ids: Vec<&str> = self
            .setup
            .messages
            .iter()
            .filter(|m| m.payment == *payment)
            .map(|m| m.id.as_str())
            .filter(|id| {
                !self
                    .setup
                    .messages
                    .iter()
                    .any(|m| m.id == *id && m.payment != *payment)
            })
            .collect();
        let in_table = self
            .store
            .committed
            .processed
            .iter()
            .any(|row| ids.contains(&row.message_id.as_str()));
        let recorded = in_table
            || self
                .cache
                .entries(self.now)
                .iter()
                .any(|(key, _)| ids.contains(&key.as_str()));
        let shared = self.setup.messages.iter().any(|m| {
            m.status.is_none() && m.payment.order == payment.order && m.payment != *payment
        });
        FactState {
            payment,
            name: if shared {
                format!("order {} (${})", payment.order, payment.amount)
            } else {
                format!("order {}", payment.order)
            },
            expected,
            doomed: payments == 0 && recorded && !handling,
            recorded_unpaid: payments == 0 && recorded,
            record_lasts: in_table && self.books.facts.no_pruning,
            all_skipping: self.all_skipping(payment),
            keyed_charge: self.keyed_charge(payment, &ids),
            acked_before_work: self.books.acked_before_work.contains(payment),
            payments: self
                .store
                .committed
                .payments
                .iter()
                .filter(|p| p.order == payment.order && p.amount == payment.amount)
                .count(),
            charges: self.provider.charges_for_payment(payment),
            pending: handling || self.queue.broker.payment_pending(payment),
            to_come: self.books.facts.to_come.contains(payment),
            writing: self.writing(payment),
            row: self.unpaid_row(payment),
            dead_lettered: self.queue.broker.payment_dead_lettered(payment),
            poison: self.books.refused.contains(payment),
            ledger: self
                .books
                .ledger_by
                .get(payment)
                .map(|entries| entries.iter().collect())
                .unwrap_or_default(),
            notes: self.books.notes.get(payment).map_or(&[], Vec::as_slice),
            replays: self.books.replays.get(payment).map_or(&[], Vec::as_slice),
        }
    }

    /// One verdict per order that receives status changes.
    pub(super) fn status_verdicts(&self) -> Vec<verdict::FactVerdict> {
        let mut newest: BTreeMap<u32, &crate::sim::message::StatusUpdate> = BTreeMap::new();
        for m in &self.setup.messages {
            if let Some(update) = &m.status {
                let entry = newest.entry(m.payment.order).or_insert(update);
                if update.version > entry.version {
                    *entry = update;
                }
            }
        }
        newest
            .into_iter()
            .map(|(order, update)| {
                let key = Payment { order, amount: 0 };
                let pending = self.queue.broker.payment_pending(&key)
                    || self
                        .consumers
                        .iter()
                        .any(|c| c.delivery().is_some_and(|d| d.message.payment == key));
                let actual = self
                    .store
                    .committed
                    .statuses
                    .iter()
                    .find(|s| s.order == order)
                    .map(|s| s.status.as_str());
                let to_come = self.books.facts.to_come.iter().any(|p| p.order == order);
                let waits = to_come && actual != Some(update.status.as_str());
                verdict::judge_status(
                    order,
                    &update.status,
                    actual,
                    pending || waits,
                    self.queue.broker.payment_dead_lettered(&key),
                    self.books.notes.get(&key).map_or(&[], Vec::as_slice),
                )
            })
            .collect()
    }
}
