//! The verdict kept as it goes: one judged fact per business fact, judged
//! again only when something it depends on changed in a move, and running
//! totals over all of them (`tally.rs`). A step costs the same early and
//! late in a long run; `judge.rs` holds the same judgement made from
//! scratch, which the tests compare against after every move.

use super::World;
use super::tally::Tally;
use crate::sim::Op;
use crate::sim::consumer::Consumer;
use crate::sim::message::{Message, Payment};
use crate::sim::verdict;
use crate::sim::verdict::FactVerdict;
use crate::sim::verdict::{FactState, UnpaidRow, Verdict};
use std::collections::{BTreeMap, BTreeSet};

/// Which fact: a payment the producer asked for, or an order's status.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FactKey {
    Payment(Payment),
    Status(u32),
}

/// What never changes about a fact during a run.
#[derive(Clone, Debug)]
struct FactDef {
    key: FactKey,
    /// How the verdict names a payment: `order 1042`, or `order 1042 ($40)`.
    name: String,
    /// Payments: how many times the producer asked. Unused for a status.
    expected: usize,
    /// IDs only this fact's messages carry.
    ids: Vec<String>,
    /// A status fact: the newest status the producer sent.
    newest: Option<String>,
}

/// Every fact's current verdict, and what to judge again after a move.
#[derive(Clone, Debug, Default)]
pub(super) struct FactBook {
    defs: Vec<FactDef>,
    index: BTreeMap<FactKey, usize>,
    /// Message ID -> the facts that count it as theirs.
    by_id: BTreeMap<String, Vec<usize>>,
    /// Status orders, for marking a payment's order.
    status_orders: BTreeSet<u32>,
    verdicts: Vec<FactVerdict>,
    tally: Tally,
    /// Facts whose verdict changed in the last move, in fact order.
    changed: Vec<usize>,
    /// Slots of retired facts, for the next new fact to take: a long run
    /// keeps as many slots as facts live at once.
    free: Vec<usize>,
    /// Per slot: retired, its verdict no longer counted or listed.
    retired: Vec<bool>,
    /// Some fact was ever retired: the world's copies of the tables no
    /// longer hold the whole database.
    pub(super) forgot: bool,
    /// Payments a copy of which is still to be published (by the script a
    /// timeline plays): a wrong effect such a copy could undo is "so far",
    /// not declared, so that no later step takes it back.
    pub(super) to_come: BTreeSet<Payment>,
    /// Nothing in this run prunes processed_messages (the timeline knows
    /// its script): a committed ID row stands for the rest of the run.
    /// Unknown is taken as "may prune", which declares nothing early.
    pub(super) no_pruning: bool,
}

impl FactBook {
    /// The facts of a setup, in the order the verdict lists them:
    /// payments as their first message comes, then statuses by order.
    fn of(messages: &[Message]) -> FactBook {
        let mut book = FactBook::default();
        let mut expected: Vec<(Payment, usize)> = Vec::new();
        let mut positions: BTreeMap<Payment, usize> = BTreeMap::new();
        for m in messages.iter().filter(|m| m.status.is_none()) {
            match positions.get(&m.payment) {
                Some(&i) => expected[i].1 += 1,
                None => {
                    positions.insert(m.payment.clone(), expected.len());
                    expected.push((m.payment.clone(), 1));
                }
            }
        }
        // Which payments each order and each ID belong to, for names and
        // for IDs that only one fact carries.
        let mut per_order: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for m in messages.iter().filter(|m| m.status.is_none()) {
            per_order
                .entry(m.payment.order)
                .or_default()
                .insert(m.payment.amount);
        }
        let mut id_payments: BTreeMap<&str, BTreeSet<&Payment>> = BTreeMap::new();
        let mut fact_ids: BTreeMap<&Payment, Vec<&str>> = BTreeMap::new();
        for m in messages {
            id_payments.entry(&m.id).or_default().insert(&m.payment);
            fact_ids.entry(&m.payment).or_default().push(&m.id);
        }
        for (payment, n) in expected {
            let shared = per_order[&payment.order].len() > 1;
            let ids: Vec<String> = fact_ids[&payment]
                .iter()
                .filter(|id| id_payments[*id].len() == 1)
                .map(|id| id.to_string())
                .collect();
            book.push(FactDef {
                key: FactKey::Payment(payment.clone()),
                name: crate::sim::verdict::payment_name(payment.order, payment.amount, shared),
                expected: n,
                ids,
                newest: None,
            });
        }
        let mut newest: BTreeMap<u32, &crate::sim::message::StatusUpdate> = BTreeMap::new();
        for m in messages {
            if let Some(update) = &m.status {
                let entry = newest.entry(m.payment.order).or_insert(update);
                if update.version > entry.version {
                    *entry = update;
                }
            }
        }
        for (order, update) in newest {
            book.status_orders.insert(order);
            book.push(FactDef {
                key: FactKey::Status(order),
                name: format!("order {order}"),
                expected: 1,
                ids: Vec::new(),
                newest: Some(update.status.clone()),
            });
        }
        book
    }

    /// Enters a fact, in a retired fact's slot if there is one; the caller
    /// gives it its verdict (`verdicts[i]`, pushed for a new slot).
    fn push(&mut self, def: FactDef) -> usize {
        let i = self.free.pop().unwrap_or(self.defs.len());
        for id in &def.ids {
            self.by_id.entry(id.clone()).or_default().push(i);
        }
        self.index.insert(def.key.clone(), i);
        if i == self.defs.len() {
            self.defs.push(def);
            self.retired.push(false);
        } else {
            self.defs[i] = def;
            self.retired[i] = false;
        }
        i
    }

    /// Takes a settled fact out: its verdict leaves the totals, and its
    /// slot and IDs are free for the facts to come. The IDs it carried.
    fn retire(&mut self, i: usize) -> Vec<String> {
        self.tally.account(&self.verdicts[i], false);
        self.retired[i] = true;
        self.forgot = true;
        self.changed.retain(|&j| j != i);
        self.free.push(i);
        let def = &mut self.defs[i];
        self.index.remove(&def.key);
        let ids = std::mem::take(&mut def.ids);
        for id in &ids {
            if let Some(facts) = self.by_id.get_mut(id) {
                facts.retain(|f| *f != i);
                if facts.is_empty() {
                    self.by_id.remove(id);
                }
            }
        }
        ids
    }

    /// The verdicts of the facts not retired, in slot order.
    fn live_verdicts(&self) -> impl Iterator<Item = &FactVerdict> {
        self.verdicts
            .iter()
            .zip(&self.retired)
            .filter(|(_, retired)| !**retired)
            .map(|(v, _)| v)
    }

    /// The facts a change to this payment's messages may move.
    fn of_payment(&self, payment: &Payment, out: &mut BTreeSet<usize>) {
        out.extend(self.index.get(&FactKey::Payment(payment.clone())));
        if self.status_orders.contains(&payment.order) {
            out.extend(self.index.get(&FactKey::Status(payment.order)));
        }
    }
}

impl World {
    /// Judges every fact once, at the start of a run.
    pub(super) fn open_facts(&mut self) {
        let mut book = FactBook::of(&self.setup.messages);
        book.verdicts = (0..book.defs.len())
            .map(|i| self.judge_one(&book.defs[i]))
            .collect();
        for v in &book.verdicts {
            book.tally.account(v, true);
        }
        self.books.facts = book;
    }

    /// Judges again the facts this move may have changed: those of the
    /// copies the broker touched, of the deliveries consumers held before
    /// or hold now, of rows committed or pruned, of keys cached or expired,
    /// and of every note, charge and ledger entry made.
    pub(super) fn rejudge(&mut self, held_before: &[Payment]) {
        let mut dirty = BTreeSet::new();
        self.moment.touched_copies = self.queue.broker.take_touched();
        for &seq in &self.moment.touched_copies {
            if let Some(m) = self.queue.broker.get(seq) {
                self.books.facts.of_payment(&m.message.payment, &mut dirty);
            }
        }
        let held_now = self.held_payments();
        for p in held_before.iter().chain(&held_now) {
            self.books.facts.of_payment(p, &mut dirty);
        }
        for p in std::mem::take(&mut self.moment.touched_facts) {
            self.books.facts.of_payment(&p, &mut dirty);
        }
        for key in self.cache.take_changed() {
            self.moment.touched_ids.push(key);
        }
        for id in std::mem::take(&mut self.moment.touched_ids) {
            if let Some(facts) = self.books.facts.by_id.get(&id) {
                dirty.extend(facts.iter().copied());
            }
        }
        self.books.facts.changed.clear();
        self.judge_again(dirty);
    }

    /// Tells the verdict which messages are still to be published, and
    /// judges again the facts whose outlook that changes: until the last
    /// copy of a payment has come, a wrong effect it could undo waits.
    pub fn expect_publishes<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) {
        let to_come: BTreeSet<Payment> = ids
            .into_iter()
            .filter_map(|id| self.message(id).map(|m| m.payment.clone()))
            .collect();
        if to_come == self.books.facts.to_come {
            return;
        }
        let mut dirty = BTreeSet::new();
        for p in self.books.facts.to_come.symmetric_difference(&to_come) {
            self.books.facts.of_payment(p, &mut dirty);
        }
        self.books.facts.to_come = to_come;
        self.judge_again(dirty);
    }

    /// Tells the verdict that nothing in this run will prune
    /// processed_messages, and judges every fact again: a delivery that
    /// skips an unpaid fact then loses its charge at once, since every
    /// later delivery will meet the same row.
    pub fn expect_no_pruning(&mut self, none: bool) {
        if self.books.facts.no_pruning == none {
            return;
        }
        self.books.facts.no_pruning = none;
        let all = (0..self.books.facts.defs.len())
            .filter(|&i| !self.books.facts.retired[i])
            .collect();
        self.judge_again(all);
    }

    /// Judges these facts again, keeping the totals and noting each whose
    /// verdict changed.
    fn judge_again(&mut self, dirty: BTreeSet<usize>) {
        for i in dirty {
            let fresh = self.judge_one(&self.books.facts.defs[i]);
            if fresh != self.books.facts.verdicts[i] {
                let book = &mut self.books.facts;
                book.tally.account(&book.verdicts[i], false);
                book.tally.account(&fresh, true);
                book.verdicts[i] = fresh;
                book.changed.push(i);
            }
        }
    }

    /// The payments the consumers are handling now.
    pub(super) fn held_payments(&self) -> Vec<Payment> {
        self.consumers
            .iter()
            .filter_map(|c| c.delivery().map(|d| d.message.payment.clone()))
            .collect()
    }

    fn handling(&self, payment: &Payment) -> bool {
        self.consumers
            .iter()
            .any(|c| c.delivery().is_some_and(|d| d.message.payment == *payment))
    }

    /// Every consumer handling this payment is on its skip path (true when
    /// none is).
    pub(super) fn all_skipping(&self, payment: &Payment) -> bool {
        self.consumers
            .iter()
            .filter(|c| c.delivery().is_some_and(|d| d.message.payment == *payment))
            .all(Consumer::skipping)
    }

    /// A consumer handling this payment may still move the payments
    /// table: its open transaction has inserted the payment row, or its
    /// handler has a payment insert still to run (the in-progress design
    /// records the payment after the provider call, outside the first
    /// transaction). A handler whose only writes left record the ID
    /// (charge-first's second transaction) changes no payment count, so it
    /// does not take back a disagreement already declared.
    pub(super) fn writing(&self, payment: &Payment) -> bool {
        let program = &self.strategy.program;
        // The steps that insert a payment row (a payment has no version:
        // `ApplyIfNewer` inserts it as `ApplyCharge` would).
        let pays = |op: &Op| matches!(op, Op::ApplyCharge | Op::ApplyIfNewer);
        self.consumers.iter().any(|c| {
            if c.delivery().is_none_or(|d| d.message.payment != *payment) {
                return false;
            }
            let pc = c.pc.min(program.len());
            let opened = program[..pc]
                .iter()
                .rposition(|op| *op == Op::Begin)
                .unwrap_or(0);
            let done = c.in_txn() && program[opened..pc].iter().any(pays);
            done || program[pc..].iter().any(pays)
        })
    }

    /// Where this payment's row stands for the line that tells a keyed
    /// charge in flight: held in a handler's open transaction, still to be
    /// written by a handler, or awaiting the next delivery (rolled back
    /// where the design writes it before the keyed call, in the call's
    /// transaction, and the last delivery wrote it).
    pub(super) fn unpaid_row(&self, payment: &Payment) -> UnpaidRow {
        let program = &self.strategy.program;
        let pays = |op: &Op| matches!(op, Op::ApplyCharge | Op::ApplyIfNewer);
        let keyed = |op: &Op| *op == Op::CallProvider { with_key: true };
        // Whether a handler is still to write the row, and whether any of
        // them makes the keyed call first: the one that does is the one
        // the line tells (the order of the consumers does not decide it).
        let mut to_write: Option<bool> = None;
        for c in &self.consumers {
            if c.delivery().is_none_or(|d| d.message.payment != *payment) {
                continue;
            }
            let pc = c.pc.min(program.len());
            let opened = program[..pc]
                .iter()
                .rposition(|op| *op == Op::Begin)
                .unwrap_or(0);
            if c.in_txn() && program[opened..pc].iter().any(pays) {
                return UnpaidRow::Open;
            }
            // A handler that backed off or took its skip path runs none of
            // the steps left in the program: it neither calls nor writes.
            if c.backing_off() || c.skipping() {
                continue;
            }
            let rest = &program[pc..];
            if rest.iter().any(pays) {
                to_write = Some(to_write.unwrap_or(false) || rest.iter().any(keyed));
            }
        }
        to_write
            .map(|calls| UnpaidRow::ToWrite { calls })
            .unwrap_or_else(|| {
                // The keyed call's transaction: from the Begin before it.
                let call = program.iter().position(keyed);
                let written_first = call.is_some_and(|call| {
                    let opened = program[..call].iter().rposition(|op| *op == Op::Begin);
                    let closed = |op: &Op| *op == Op::Commit;
                    opened.is_some_and(|b| {
                        let inside = &program[b..call];
                        inside.iter().any(pays) && !inside.iter().any(closed)
                    })
                });
                // Rolled back only where the attempt the fact waits on
                // wrote the row: one that died before writing it rolled
                // nothing back.
                if written_first && self.books.row_written.contains(payment) {
                    UnpaidRow::RolledBack
                } else {
                    UnpaidRow::Awaited
                }
            })
    }

    fn judge_one(&self, def: &FactDef) -> FactVerdict {
        let notes = |p: &Payment| self.books.notes.get(p).map_or(&[][..], Vec::as_slice);
        match &def.key {
            FactKey::Payment(payment) => {
                let handling = self.handling(payment);
                let payments = self.store.index.payments_for(payment);
                let in_table = def
                    .ids
                    .iter()
                    .any(|id| self.store.index.processed.contains_key(id));
                let recorded = in_table || def.ids.iter().any(|id| self.cache.holds(id, self.now));
                let ledger = self
                    .books
                    .ledger_by
                    .get(payment)
                    .map(|entries| entries.iter().collect())
                    .unwrap_or_default();
                verdict::judge_fact(&FactState {
                    payment,
                    name: def.name.clone(),
                    expected: def.expected,
                    doomed: payments == 0 && recorded && !handling,
                    recorded_unpaid: payments == 0 && recorded,
                    record_lasts: in_table && self.books.facts.no_pruning,
                    all_skipping: self.all_skipping(payment),
                    keyed_charge: self.keyed_charge(
                        payment,
                        &def.ids.iter().map(String::as_str).collect::<Vec<_>>(),
                    ),
                    acked_before_work: self.books.acked_before_work.contains(payment),
                    payments,
                    charges: self.provider.charges_for_payment(payment),
                    pending: handling || self.queue.broker.payment_pending(payment),
                    to_come: self.books.facts.to_come.contains(payment),
                    writing: self.writing(payment),
                    row: self.unpaid_row(payment),
                    dead_lettered: self.queue.broker.payment_dead_lettered(payment),
                    poison: self.books.refused.contains(payment),
                    ledger,
                    notes: notes(payment),
                    replays: self.books.replays.get(payment).map_or(&[], Vec::as_slice),
                })
            }
            FactKey::Status(order) => {
                let key = Payment {
                    order: *order,
                    amount: 0,
                };
                let to_come = self.books.facts.to_come.iter().any(|p| p.order == *order);
                let pending = self.queue.broker.payment_pending(&key) || self.handling(&key);
                let actual = self
                    .store
                    .committed
                    .statuses
                    .binary_search_by_key(order, |s| s.order)
                    .ok()
                    .map(|i| self.store.committed.statuses[i].status.as_str());
                let newest = def.newest.as_deref().unwrap_or_default();
                // A stale status a copy still to come could set right waits.
                let waits = to_come && actual != Some(newest);
                verdict::judge_status(
                    *order,
                    newest,
                    actual,
                    pending || waits,
                    self.queue.broker.payment_dead_lettered(&key),
                    notes(&key),
                )
            }
        }
    }

    /// Judges the world as it stands: every fact, combined.
    pub fn verdict(&self) -> Verdict {
        verdict::combine(self.books.facts.live_verdicts().cloned().collect())
    }

    /// Running totals over every fact's verdict, without building it.
    pub fn tally(&self) -> &Tally {
        &self.books.facts.tally
    }

    /// The facts whose verdict changed in the last move, with their new
    /// verdicts, in the order the verdict lists facts. A fact whose outcome
    /// is no longer in progress has settled: the verdict says what
    /// happened to it.
    pub fn changed_facts(&self) -> impl Iterator<Item = &FactVerdict> {
        self.books
            .facts
            .changed
            .iter()
            .map(|&i| &self.books.facts.verdicts[i])
    }

    /// One payment's verdict as it stands (every message that asks for
    /// it), as `verdict` lists it; `None` when no message asks for it.
    pub fn fact_verdict(&self, payment: &Payment) -> Option<&FactVerdict> {
        let i = self
            .books
            .facts
            .index
            .get(&FactKey::Payment(payment.clone()))?;
        Some(&self.books.facts.verdicts[*i])
    }

    /// A payment message published after the start (`World::produce`):
    /// one more of a payment already owed, or a new fact, judged at once
    /// and again at the end of the move like any other.
    pub(super) fn open_fact(&mut self, m: &Message) {
        let key = FactKey::Payment(m.payment.clone());
        if let Some(&i) = self.books.facts.index.get(&key) {
            let def = &mut self.books.facts.defs[i];
            def.expected += 1;
            if !def.ids.contains(&m.id) {
                def.ids.push(m.id.clone());
                self.books
                    .facts
                    .by_id
                    .entry(m.id.clone())
                    .or_default()
                    .push(i);
            }
            return;
        }
        let i = self.books.facts.push(FactDef {
            key,
            name: format!("order {}", m.payment.order),
            expected: 1,
            ids: vec![m.id.clone()],
            newest: None,
        });
        let fresh = self.judge_one(&self.books.facts.defs[i]);
        self.books.facts.tally.account(&fresh, true);
        if i == self.books.facts.verdicts.len() {
            self.books.facts.verdicts.push(fresh);
        } else {
            self.books.facts.verdicts[i] = fresh;
        }
    }

    /// The broker's copies the last move changed, by sequence number.
    pub fn touched_copies(&self) -> &[u32] {
        &self.moment.touched_copies
    }

    /// Every fact's verdict as it stands, in order.
    pub fn fact_verdicts(&self) -> Vec<&FactVerdict> {
        self.books.facts.live_verdicts().collect()
    }

    /// Fact slots and the IDs and keys that index them.
    pub(super) fn fact_slots(&self) -> usize {
        self.books.facts.defs.len() + self.books.facts.by_id.len() + self.books.facts.index.len()
    }

    /// Whether a payment fact of this order is still open (not retired).
    pub(super) fn fact_open_for_order(&self, order: u32) -> bool {
        let from = FactKey::Payment(Payment { order, amount: 0 });
        let to = FactKey::Payment(Payment {
            order,
            amount: u32::MAX,
        });
        self.books.facts.index.range(from..=to).next().is_some()
    }

    /// Takes a settled payment's fact out of the verdict (see
    /// `World::retire`); the IDs its messages carried.
    pub(super) fn retire_fact(&mut self, payment: &Payment) -> Option<Vec<String>> {
        let i = *self
            .books
            .facts
            .index
            .get(&FactKey::Payment(payment.clone()))?;
        Some(self.books.facts.retire(i))
    }
}
