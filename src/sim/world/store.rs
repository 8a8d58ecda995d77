//! The database side of the world: the engine the consumers' sessions
//! write to, and the world's own copy of what it has committed, kept
//! current by reading back only the rows each commit wrote: a step costs
//! the same whether the tables hold ten rows or ten thousand.

use super::moment::Moment;
use super::{SimError, World};
use crate::sim::Millis;
use crate::sim::db::{Database, Fresh, Tables, Written};
use crate::sim::message::Payment;
use std::collections::BTreeMap;

pub(in crate::sim) struct Store {
    pub(in crate::sim) db: Database,
    /// The committed tables, read whenever no write transaction is open
    /// (they cannot change while one is).
    pub(in crate::sim) committed: Tables,
    /// Lookups over `committed`.
    pub(super) index: TableIndex,
    /// Processed IDs a retention job deleted, with the step it did so.
    pub(super) pruned: BTreeMap<String, usize>,
}

impl Store {
    /// A database as the run finds it at the start: nothing read back yet.
    pub(super) fn on(db: Database) -> Store {
        Store {
            db,
            committed: Tables::default(),
            index: TableIndex::default(),
            pruned: BTreeMap::new(),
        }
    }

    /// This store's copy of the committed tables, over `db` (which holds
    /// the same rows): every field named, so that a new one is not forgotten.
    pub(super) fn copy_onto(&self, db: Database) -> Store {
        Store {
            db,
            committed: self.committed.clone(),
            index: self.index.clone(),
            pruned: self.pruned.clone(),
        }
    }
}

/// Lookups over the committed tables that the verdict and the handlers
/// make on every step.
#[derive(Clone, Debug, Default)]
pub(super) struct TableIndex {
    /// Committed payment rows per (order, amount).
    pub(super) paid: BTreeMap<Payment, usize>,
    /// processed_messages: message ID -> processed_at.
    pub(super) processed: BTreeMap<String, Millis>,
    /// What the database holds in all, retired facts' rows included:
    /// processed_messages rows, and the sum of the payments' amounts.
    pub(super) processed_rows: u64,
    pub(super) recorded: u64,
    /// The highest payment row ID read back so far.
    pub(super) last_payment: i64,
}

impl TableIndex {
    pub(super) fn of(tables: &Tables) -> TableIndex {
        let mut index = TableIndex::default();
        for p in &tables.payments {
            index.count_payment(p.order, p.amount);
            index.last_payment = index.last_payment.max(p.id);
        }
        for row in &tables.processed {
            index
                .processed
                .insert(row.message_id.clone(), row.processed_at);
        }
        index.processed_rows = tables.processed.len() as u64;
        index
    }

    fn count_payment(&mut self, order: u32, amount: u32) {
        *self.paid.entry(Payment { order, amount }).or_default() += 1;
        self.recorded += u64::from(amount);
    }

    pub(super) fn payments_for(&self, payment: &Payment) -> usize {
        self.paid.get(payment).copied().unwrap_or(0)
    }
}

impl World {
    /// The committed tables read whole from the database, for tests that
    /// hold `committed` to it. Only while no write transaction is open.
    #[doc(hidden)]
    pub fn committed_from_scratch(&self) -> Result<Tables, SimError> {
        Ok(self.store.db.committed()?)
    }

    /// Brings `committed` up to date with what the sessions committed in
    /// this move. The memdb VFS keeps readers out while a writer holds its
    /// lock, and nothing committed can change while one does: so this waits
    /// until no write transaction is open.
    pub(super) fn refresh_committed(&mut self) -> Result<(), SimError> {
        if self.store.db.readers_wait_for_writers() && self.lock_holder().is_some() {
            return Ok(());
        }
        let mut written = Written::default();
        for session in self.consumers.iter().filter_map(|c| c.session.as_ref()) {
            if let Some(w) = session.take_committed() {
                written.payments |= w.payments;
                written.payment_ids.extend(w.payment_ids);
                written.offset |= w.offset;
                written.processed.extend(w.processed);
                written.records.extend(w.records);
                written.orders.extend(w.orders);
                written.statuses.extend(w.statuses);
            }
        }
        if written.is_empty() {
            return Ok(());
        }
        let fresh = self
            .store
            .db
            .fresh(&written, self.store.index.last_payment)?;
        self.store.merge(fresh, &mut self.moment);
        Ok(())
    }
}

impl Store {
    /// Takes in the rows the last commits wrote; the payments and IDs they
    /// touched go to `moment`, to be judged again.
    fn merge(&mut self, fresh: Fresh, moment: &mut Moment) {
        for row in fresh.payments {
            self.index.count_payment(row.order, row.amount);
            self.index.last_payment = self.index.last_payment.max(row.id);
            moment.touched_facts.push(Payment {
                order: row.order,
                amount: row.amount,
            });
            // In id order, as the database lists them: on PostgreSQL a
            // transaction that began later may commit first.
            let at = self.committed.payments.partition_point(|p| p.id < row.id);
            self.committed.payments.insert(at, row);
        }
        for (id, row) in fresh.processed {
            if self.drop_processed_copy(&id) {
                self.index.processed_rows -= 1;
            }
            let tables = &mut self.committed;
            if let Some(row) = row {
                self.index.processed_rows += 1;
                self.index
                    .processed
                    .insert(row.message_id.clone(), row.processed_at);
                let key = (row.processed_at, row.message_id.as_str());
                let i = tables
                    .processed
                    .binary_search_by(|r| (r.processed_at, r.message_id.as_str()).cmp(&key))
                    .unwrap_or_else(|i| i);
                tables.processed.insert(i, row);
            }
            moment.touched_ids.push(id);
        }
        let tables = &mut self.committed;
        for (id, row) in fresh.records {
            put(&mut tables.records, row, |r| r.message_id.clone(), id);
        }
        for (order, row) in fresh.orders {
            put(&mut tables.orders, row, |r| r.order, order);
        }
        for (order, row) in fresh.statuses {
            put(&mut tables.statuses, row, |r| r.order, order);
            moment.touched_facts.push(Payment { order, amount: 0 });
        }
        if let Some(offset) = fresh.last_offset {
            tables.last_offset = offset;
        }
    }

    /// The janitor deleted these processed IDs.
    pub(super) fn forget_processed(&mut self, ids: &[String], moment: &mut Moment) {
        // Every deleted row was counted: the janitor runs only while no
        // write transaction is open, and each commit is read back in its move.
        debug_assert!(self.index.processed_rows >= ids.len() as u64);
        self.index.processed_rows -= ids.len() as u64;
        for id in ids {
            self.drop_processed_copy(id);
            moment.touched_ids.push(id.clone());
        }
    }

    /// Takes a processed ID's row out of the world's copy of the table and
    /// its index; false when the copy did not hold it.
    pub(super) fn drop_processed_copy(&mut self, id: &str) -> bool {
        let Some(at) = self.index.processed.remove(id) else {
            return false;
        };
        let key = (at, id);
        if let Ok(i) = self
            .committed
            .processed
            .binary_search_by(|r| (r.processed_at, r.message_id.as_str()).cmp(&key))
        {
            self.committed.processed.remove(i);
        }
        true
    }
}

/// Puts `row` (or removes the row, for `None`) under `key` in a table
/// sorted by that key.
fn put<T, K: Ord>(table: &mut Vec<T>, row: Option<T>, key_of: impl Fn(&T) -> K, key: K) {
    match (table.binary_search_by(|r| key_of(r).cmp(&key)), row) {
        (Ok(i), Some(row)) => table[i] = row,
        (Ok(i), None) => {
            table.remove(i);
        }
        (Err(i), Some(row)) => table.insert(i, row),
        (Err(_), None) => {}
    }
}
