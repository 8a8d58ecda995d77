//! Running a handler program: one step per move, the skip path taken on a
//! duplicate, receive, the transaction boundaries and the ack.

use super::setup::{IdSource, content_hash};
use super::{SimError, World};
use crate::sim::broker::AckOutcome;
use crate::sim::cause::Cause;
use crate::sim::consumer::{Connection, Mark, Path, Phase};
use crate::sim::db::{Begin, DbError, Ran};
use crate::sim::event::{Actor, Event, EventKind};
use crate::sim::format_duration;
use crate::sim::message::Payment;
use crate::sim::skip::Skip;
use crate::sim::strategy::Op;
use crate::sim::verdict::{LedgerEntry, LedgerKind};

impl World {
    pub(super) fn step_consumer(&mut self, i: usize) -> Result<(), SimError> {
        if self.consumers[i].is_crashed() {
            return self.restart(i);
        }
        if let Some(by) = self.consumers[i]
            .handling()
            .and_then(|h| h.held_by_key.clone())
        {
            // Calling again before the first request is answered would only
            // get 409 again: the handler goes on waiting.
            let text = format!("still waits for the provider to answer {by}'s request");
            self.say(self.actor(i), EventKind::Info, text);
            return Ok(());
        }
        if self.consumers[i].is_blocked() {
            let c = self.consumers[i].work();
            c.connection = match std::mem::replace(&mut c.connection, Connection::Autocommit) {
                // A statement the server holds: asked again, it answers
                // once the server lets it finish, or is seen waiting still.
                Connection::Waiting(wait) => wait.before,
                // A retry of the step that found the lock taken.
                _ => Connection::Autocommit,
            };
        }
        self.run_op(i)?;
        let c = &mut self.consumers[i];
        if !c.is_idle() && c.pc >= c.marks.len() {
            c.finish();
        }
        Ok(())
    }

    /// The step at the consumer's `pc`, once. A statement the server holds
    /// waiting leaves the step as it was, and the consumer waiting.
    pub(super) fn run_op(&mut self, i: usize) -> Result<(), SimError> {
        let before = self.before_op(i);
        match self.run_op_once(i) {
            Err(SimError::Db(DbError::Waiting { blockers })) => {
                self.waits_on_server(i, before, &blockers)
            }
            other => other,
        }
    }

    fn run_op_once(&mut self, i: usize) -> Result<(), SimError> {
        let op = self.strategy.program[self.consumers[i].pc];
        let from = self.moment.events.len();
        self.run_op_at(i, op)?;
        // A handler's step is told leading with what it did for that
        // handler, the other parties' parts after it, each in the order it
        // happened (teacher trial: at 80x24 the story led with the
        // provider's part while the step's effect was only in Events). An
        // answer lost on its way back is the exception: the loss is told
        // after the answer it lost (trial 39, tour-4 step 7 read the loss
        // before the answer).
        if self.moment.answer_lost {
            return Ok(());
        }
        let own = self.actor(i);
        let (mine, others): (Vec<_>, Vec<_>) = self
            .moment
            .events
            .drain(from..)
            .partition(|e| e.actor == own);
        self.moment.events.extend(mine.into_iter().chain(others));
        Ok(())
    }

    fn run_op_at(&mut self, i: usize, op: Op) -> Result<(), SimError> {
        match op {
            Op::Receive => self.receive(i)?,
            Op::Begin => self.begin(i)?,
            Op::ClaimId => self.claim(i)?,
            Op::CheckId => self.check_id(i)?,
            Op::ApplyCharge => self.apply_charge(i)?,
            Op::CallProvider { with_key } => self.call_provider(i, with_key)?,
            Op::AwaitResponse => self.await_response(i)?,
            Op::Commit => self.commit(i)?,
            Op::Ack => self.ack(i)?,
            Op::CacheClaim => self.cache_claim(i),
            Op::CacheCheck => self.cache_check(i),
            Op::CacheSet => self.cache_set(i),
            Op::ClaimInProgress => self.claim_record(i)?,
            Op::MarkCompleted => self.complete_record(i)?,
            Op::GuardRow => self.guard_row(i)?,
            Op::CheckOffset => self.check_offset(i)?,
            Op::SaveOffset => self.save_offset(i)?,
            Op::ApplyIfNewer => self.apply_body(i, true)?,
        }
        Ok(())
    }

    /// The ID this consumer deduplicates on: the producer's, or the
    /// broker's ID of the stored copy.
    /// The message as the queue panel names it: where consumers key on the
    /// broker's own IDs, that ID leads (`b-2 (m-7f3)`), so the events and
    /// the queue speak of the same thing.
    pub(super) fn shown_id(&self, i: usize) -> String {
        self.shown_id_of(self.delivery(i))
    }

    fn shown_id_of(&self, d: &crate::sim::broker::Delivery) -> String {
        match self.setup.id_source {
            IdSource::Broker => format!("b-{} ({})", d.seq, d.message.id),
            IdSource::Producer | IdSource::Content => d.message.id.clone(),
        }
    }

    pub(super) fn message_key(&self, i: usize) -> String {
        let d = self.delivery(i);
        match self.setup.id_source {
            IdSource::Producer => d.message.id.clone(),
            IdSource::Broker => format!("b-{}", d.seq),
            IdSource::Content => content_hash(&d.message.payment),
        }
    }

    /// The skip path, taken when a step finds the message already handled:
    /// commit the open transaction if there is one, then acknowledge if an
    /// ack is still ahead. Steps jumped over are marked skipped.
    ///
    /// The whole path is known where the skip is decided, so every step it
    /// jumps over is marked then, also those past the commit it stops at
    /// (a design with two transactions): marked only at that commit, they
    /// stood unmarked below the refused step for a move, as if the work
    /// would still run.
    pub(super) fn skip_ahead(&mut self, i: usize) {
        let len = self.strategy.program.len();
        let c = &self.consumers[i];
        // Where the path goes on from `pc` outside a transaction.
        let onward = |pc: usize| {
            if c.backing_off() {
                len
            } else {
                self.strategy.next(Op::Ack, pc).unwrap_or(len)
            }
        };
        let (end, resumes) = if c.in_txn() {
            match self.strategy.next(Op::Commit, c.pc) {
                Some(commit) => (commit, Some((commit + 1, onward(commit)))),
                None => (len, None),
            }
        } else {
            (onward(c.pc), None)
        };
        let c = &mut self.consumers[i];
        for mark in &mut c.marks[c.pc + 1..end] {
            *mark = Mark::Skipped;
        }
        if let Some((from, to)) = resumes {
            for mark in &mut c.marks[from..to] {
                *mark = Mark::Skipped;
            }
        }
        c.pc = end;
    }

    pub(super) fn duplicate_found(&mut self, i: usize, skip: Skip) {
        // Losing the record to another delivery is no duplicate found: the
        // handler gave up a claim, and counts nothing.
        let superseded = matches!(skip, Skip::TakenOver { .. });
        if !superseded {
            self.counters.duplicates_skipped += 1;
            if !self.books.went_on.contains(&self.message_of(i)) {
                self.counters.skipped_not_duplicates += 1;
            }
        }
        // Why this delivery did nothing: the cause of a lost charge, when
        // the record it trusted was wrong.
        let d = self.delivery(i).clone();
        // The skip's own reason names the mechanism (a unique key, an
        // offset, a cache hit), so the chain says why, not only that.
        let mut why = vec![Cause::Skipped {
            id: d.message.id.clone(),
            step: self.step,
            consumer: self.consumers[i].name.clone(),
            skip: skip.clone(),
        }];
        why.extend(self.delivery_cause(i));
        self.note(d.message.payment.clone(), why);
        let c = &mut self.consumers[i];
        c.marks[c.pc] = if superseded {
            Mark::Superseded
        } else {
            Mark::Conflict
        };
        c.work().path = Path::Skipping;
        self.skip_ahead(i);
        self.say(self.actor(i), EventKind::Good, skip.event());
        if !superseded {
            self.unpaid_skip_seen(i, &d.message.payment, &d.message.id);
        }
    }

    /// The consumer's skip is right from where it stands; whether it loses
    /// the payment is the observer's knowledge, said beside it on the same
    /// step: nothing was paid or charged, and no other handler is doing the
    /// work.
    fn unpaid_skip_seen(&mut self, i: usize, payment: &Payment, id: &str) {
        let unpaid = self.store.index.payments_for(payment) == 0
            && self.provider.charges_for_payment(payment) == 0;
        if !unpaid || !self.all_skipping(payment) {
            return;
        }
        let name = self.consumers[i].name.clone();
        let order = payment.order;
        // A committed row nobody prunes meets every later delivery too.
        let lasts = self.store.index.processed.contains_key(id) && self.books.facts.no_pruning;
        let text = if lasts {
            format!(
                "sees what {name} cannot: order {order} was never paid, and every later delivery of {id} meets the same row: this skip loses the charge"
            )
        } else {
            format!(
                "sees what {name} cannot: order {order} was never paid: this skip leaves it unpaid"
            )
        };
        self.say(Actor::Observer, EventKind::Bad, text);
    }

    pub(super) fn session(&self, i: usize) -> &crate::sim::db::Session {
        self.consumers[i]
            .session
            .as_ref()
            .expect("a running consumer has a connection")
    }

    pub(super) fn actor(&self, i: usize) -> Actor {
        Actor::Consumer(self.consumers[i].name.clone())
    }

    pub(super) fn delivery(&self, i: usize) -> &crate::sim::broker::Delivery {
        self.consumers[i]
            .delivery()
            .expect("past receive, a consumer holds a delivery")
    }

    /// The message consumer `i` handles, as the observer tells messages
    /// apart: its ID and its payment.
    fn message_of(&self, i: usize) -> (String, Payment) {
        let m = &self.delivery(i).message;
        (m.id.clone(), m.payment.clone())
    }

    /// The handler's check let this delivery through, and its step is
    /// done: from now on a skip of the same message is a duplicate skipped
    /// (the observer's books).
    pub(super) fn let_through(&mut self, i: usize) {
        let m = self.message_of(i);
        self.books.went_on.insert(m);
        self.done(i);
    }

    pub(super) fn done(&mut self, i: usize) {
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Done;
        c.pc += 1;
    }

    pub(super) fn receive(&mut self, i: usize) -> Result<(), SimError> {
        let name = self.consumers[i].name.clone();
        // An empty poll mints no receipt: receipts are drawn only for a
        // delivery, so polling cannot use them up.
        let delivery = if self.queue.broker.can_receive() {
            let receipt = self.queue.receipts.mint();
            self.queue.broker.receive(&name, receipt, self.now)
        } else {
            None
        };
        let Some(delivery) = delivery else {
            self.moment.found_nothing = true;
            let held_back = self.queue.broker.ordered && self.queue.broker.has_pending();
            self.say(
                self.actor(i),
                EventKind::Info,
                "polls the queue: nothing visible to receive".into(),
            );
            if held_back {
                // The partition's rule, which the broker applies: the
                // consumer only sees that nothing came.
                // Broker IDs are offsets: b-1 is offset 0.
                let offset = self.queue.broker.first_pending().map_or(0, |seq| seq - 1);
                self.say(
                    Actor::Broker,
                    EventKind::Info,
                    format!("holds the partition at offset {offset}: it is not acknowledged yet, and nothing overtakes it on an ordered log"),
                );
            }
            return Ok(());
        };
        self.counters.delivered += 1;
        let id = delivery.message.id.clone();
        let payment = delivery.message.payment.clone();
        // A new attempt at the fact: a row an earlier one wrote and lost is
        // no longer the news.
        self.books.row_written.remove(&payment);
        // A duplicate is the same message again; the same ID on another
        // payment is a producer reusing IDs, a different thing.
        let seen = self.books.seen.entry(id.clone()).or_default();
        let reused = seen.iter().any(|p| *p != payment);
        let duplicate = !seen.insert(payment.clone());
        let body = match &delivery.message.status {
            Some(update) => format!(
                "order {} to {}, version {}",
                payment.order, update.status, update.version
            ),
            None => format!("order {}, ${}", payment.order, payment.amount),
        };
        let mut text = format!(
            "receives {} ({body}), lease {}, receipt {}",
            self.shown_id_of(&delivery),
            format_duration(self.setup.lease_ms),
            delivery.receipt
        );
        // Without the body and receipt the events panel gives whole.
        let mut brief = format!(
            "receives {}, lease {}",
            self.shown_id_of(&delivery),
            format_duration(self.setup.lease_ms),
        );
        let mut kind = EventKind::Info;
        // What the consumer can see (the redelivered flag) goes in its own
        // line; what only the observer knows (a copy, a reused ID) apart.
        let mut observed = None;
        if delivery.redelivered {
            self.counters.redeliveries += 1;
            let redelivered = format!("; delivery {}, flagged redelivered", delivery.receive_count);
            text.push_str(&redelivered);
            brief.push_str(&redelivered);
            kind = EventKind::Warning;
        } else if duplicate {
            observed = Some(format!(
                "sees what {} cannot: this is a second copy of {id}, not a new payment",
                self.consumers[i].name
            ));
        } else if reused {
            observed = Some(format!(
                "sees what {} cannot: this {id} is a different payment (order {}) that reuses the ID",
                self.consumers[i].name, payment.order
            ));
        }
        let steps = self.strategy.program.len();
        let c = &mut self.consumers[i];
        c.marks = vec![Mark::Todo; steps];
        c.calls = 0;
        c.take(delivery);
        self.count_duplicates(&(id.clone(), payment.clone()));
        self.done(i);
        self.say_brief(self.actor(i), kind, text, brief);
        if let Some(observed) = observed {
            self.say(Actor::Observer, EventKind::Warning, observed);
        }
        Ok(())
    }

    /// Consumer `i`'s delivery has done its message's work (a commit that
    /// wrote it, a charge the provider made): noted for the observer, and
    /// every other delivery of the message held now is a duplicate.
    pub(super) fn work_done(&mut self, i: usize) {
        let message = self.message_of(i);
        let receipt = self.delivery(i).receipt.clone();
        self.books.worked.entry(message.clone()).or_insert(receipt);
        self.count_duplicates(&message);
    }

    /// Counts, once each, the deliveries of `message` held now that did
    /// not do its work while another delivery did: duplicates, which only
    /// the observer can tell.
    fn count_duplicates(&mut self, message: &(String, Payment)) {
        let Some(doer) = self.books.worked.get(message) else {
            return;
        };
        for c in &mut self.consumers {
            let Phase::Handling(h) = &mut c.phase else {
                continue;
            };
            if !h.duplicate
                && h.delivery.receipt != *doer
                && h.delivery.message.id == message.0
                && h.delivery.message.payment == message.1
            {
                h.duplicate = true;
                self.counters.duplicates_delivered += 1;
            }
        }
    }

    /// Why this delivery exists, for the cause chains: empty for a first one.
    pub(super) fn delivery_cause(&self, i: usize) -> Vec<Cause> {
        let d = self.delivery(i);
        let copies = self.queue.broker.get(d.seq).map_or(1, |m| m.copy);
        let mut cause = Vec::new();
        if d.redelivered {
            cause.push(Cause::Redelivered {
                id: d.message.id.clone(),
            });
            cause.extend(d.cause.iter().cloned());
        } else if copies > 1 {
            cause.push(Cause::ProducerRetry {
                id: d.message.id.clone(),
                copy: copies,
                window: self.setup.dedup_window_ms,
            });
        }
        // The later of two payments that share an ID is the one that reused it.
        if let Some(order) = self
            .books
            .reused
            .get(&(d.message.id.clone(), d.message.payment.clone()))
        {
            cause.push(Cause::ReusedId {
                id: d.message.id.clone(),
                first: *order,
                order: d.message.payment.order,
            });
        }
        cause
    }

    /// Where this design keeps no record of what it handled and the
    /// delivery repeats a message (a redelivery, a producer's second copy):
    /// the work done again, as the first link of its effect's chain. The
    /// missing record, not the missing key, is why such a design repeats
    /// the work; the key only decides whether the provider notices.
    /// Only where an earlier delivery's work still stands (its payment
    /// committed, or written in a transaction still open): a record kept in
    /// that work's transaction would have stopped this one. Where the
    /// earlier work rolled back (a crash after the charge), no record
    /// would be there either, and the missing key is the cause.
    pub(super) fn repeated(&self, i: usize, row: bool, charge: Option<bool>) -> Option<Cause> {
        let d = self.delivery(i);
        let repeat = d.redelivered || self.queue.broker.get(d.seq).is_some_and(|m| m.copy > 1);
        let stands = self.earlier_work_stands(i);
        (repeat && stands && !self.strategy.checks_duplicates()).then(|| Cause::Repeated {
            consumer: self.consumers[i].name.clone(),
            id: d.message.id.clone(),
            row,
            charge,
        })
    }

    /// Another delivery of consumer `i`'s message did its work and that
    /// work stands: its payment row is committed, or another consumer's
    /// open transaction holds it.
    fn earlier_work_stands(&self, i: usize) -> bool {
        let d = self.delivery(i);
        let committed = self
            .books
            .ledger_by
            .get(&d.message.payment)
            .is_some_and(|entries| {
                entries
                    .iter()
                    .any(|e| e.kind == LedgerKind::PaymentCommitted)
            });
        let open = self.consumers.iter().enumerate().any(|(j, c)| {
            j != i
                && c.handling().is_some_and(|h| {
                    let wrote = |c: &Connection| {
                        matches!(
                            c,
                            Connection::InTransaction {
                                wrote_payment: true,
                                ..
                            }
                        )
                    };
                    h.delivery.message.id == d.message.id
                        && match &h.connection {
                            Connection::Waiting(wait) => wrote(&wait.before),
                            other => wrote(other),
                        }
                })
        });
        committed || open
    }

    pub(super) fn begin(&mut self, i: usize) -> Result<(), SimError> {
        match self.session(i).begin()? {
            Begin::Open(ran) => {
                self.ran(i, ran);
                self.consumers[i].work().connection = Connection::InTransaction {
                    wrote_payment: false,
                    wrote_status: false,
                };
                self.done(i);
                self.say(self.actor(i), EventKind::Info, "opens a transaction".into());
            }
            Begin::Busy(ran) => self.wait_for_lock(i, ran.sql),
        }
        Ok(())
    }

    /// SQLITE_BUSY: the step did not happen; the consumer waits for the
    /// lock holder to commit or roll back, then runs the same step again.
    pub(super) fn wait_for_lock(&mut self, i: usize, sql: String) {
        let holder = self
            .lock_holder()
            .unwrap_or("another connection")
            .to_string();
        self.ran(
            i,
            Ran {
                sql,
                result: format!("SQLITE_BUSY: waiting for {holder}'s transaction"),
                answer: crate::sim::event::SqlAnswer::Nothing,
            },
        );
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Waiting;
        c.work().connection = Connection::Blocked { by: holder.clone() };
        self.say_brief(
            self.actor(i),
            EventKind::Warning,
            format!("is blocked: {holder} holds the write lock, so it waits for {holder} to commit or roll back"),
            format!("is blocked: {holder} holds the write lock until {holder} commits or rolls back"),
        );
    }

    pub(super) fn commit(&mut self, i: usize) -> Result<(), SimError> {
        let ran = self.session(i).commit()?;
        self.ran(i, ran);
        let (wrote_payment, wrote_status) = match std::mem::replace(
            &mut self.consumers[i].work().connection,
            Connection::Autocommit,
        ) {
            Connection::InTransaction {
                wrote_payment,
                wrote_status,
            } => (wrote_payment, wrote_status),
            _ => (false, false),
        };
        self.done(i);
        if wrote_payment || wrote_status {
            self.work_done(i);
        }
        if wrote_status {
            let message = &self.delivery(i).message;
            if let Some(version) = message.status.as_ref().map(|u| u.version) {
                let order = message.payment.order;
                self.books
                    .applied_versions
                    .entry(order)
                    .or_default()
                    .entry(version)
                    .and_modify(|n| *n += 1)
                    .or_insert(1);
            }
        }
        if wrote_payment {
            let payment = self.delivery(i).message.payment.clone();
            let mut cause = self.delivery_cause(i);
            cause.splice(0..0, self.repeated(i, true, None));
            let admission = self.consumers[i].work().admitted.take();
            if let Some(note) = &admission {
                cause.insert(0, Cause::Admitted(note.clone()));
            }
            self.record(LedgerEntry {
                order: payment.order,
                amount: payment.amount,
                kind: LedgerKind::PaymentCommitted,
                step: self.step,
                cause,
                let_through_by_retention: admission.is_some_and(|a| a.by_retention()),
            });
        }
        let idle = self.consumers[i].skipping() || self.consumers[i].backing_off();
        self.say(
            self.actor(i),
            EventKind::Good,
            if idle {
                "commits: the transaction wrote nothing".into()
            } else {
                "commits: everything in the transaction is saved together".into()
            },
        );
        if idle {
            // The commit was the first half of the skip path; the pc already
            // moved past it, so continue from the step before.
            self.consumers[i].pc -= 1;
            self.skip_ahead(i);
        }
        self.release_waiters();
        Ok(())
    }

    /// The write lock is free (a commit, a rollback, a crash): whoever was
    /// blocked on it is no longer waiting, and retries its step when it
    /// next runs. Left `Blocked`, it would claim to wait for a lock nobody holds.
    pub(super) fn release_waiters(&mut self) {
        if self.consumers.iter().any(|c| c.in_txn()) {
            return;
        }
        for c in &mut self.consumers {
            // Only SQLite's refusal at BEGIN; a statement the server holds
            // waiting is settled by the server (`settle_waits`).
            if !matches!(
                c.handling().map(|h| &h.connection),
                Some(Connection::Blocked { .. })
            ) {
                continue;
            }
            c.work().connection = Connection::Autocommit;
            if c.pc < c.marks.len() && c.marks[c.pc] == Mark::Waiting {
                c.marks[c.pc] = Mark::Todo;
            }
            let name = c.name.clone();
            self.moment.events.push(Event::new(
                Actor::Consumer(name),
                EventKind::Info,
                "can go on: the write lock is free, so its next step retries".into(),
            ));
        }
    }

    pub(super) fn ack(&mut self, i: usize) -> Result<(), SimError> {
        let step = self.step;
        let d = self.delivery(i).clone();
        let name = self.consumers[i].name.clone();
        let id = d.message.id.clone();
        let shown = self.shown_id(i);
        let payment = d.message.payment.clone();
        if std::mem::take(&mut self.consumers[i].lose_next_ack) {
            self.counters.acks_lost += 1;
            self.queue.broker.mark_ack_lost(&d.receipt);
            self.queue
                .broker
                .note_lost_lease(&d.receipt, Cause::AckLost { step });
            // The consumer cannot tell: as far as it knows, the ack went
            // out and is done; the mark carries what only the observer
            // knows beside it, so the screen can say it at this step.
            let c = &mut self.consumers[i];
            c.marks[c.pc] = Mark::AckLost;
            // A believes it acked; only the observer sees the packet drop.
            self.say(self.actor(i), EventKind::Info, format!("acks {shown}"));
            self.say(
                Actor::Network,
                EventKind::Bad,
                format!(
                    "drops {name}'s ack for {id}: the broker never gets it, and {name} believes it is done"
                ),
            );
        } else {
            self.say(self.actor(i), EventKind::Info, format!("acks {shown}"));
            match self.queue.broker.ack(&d.receipt, &name) {
                AckOutcome::Removed { .. } => {
                    self.counters.acked += 1;
                    let c = &mut self.consumers[i];
                    c.marks[c.pc] = Mark::Done;
                    // An ack for a payment not yet saved, and not a skip
                    // (which left its own note): acked before the work.
                    if !self.consumers[i].skipping()
                        && d.message.status.is_none()
                        && self.store.index.payments_for(&payment) == 0
                    {
                        self.note(
                            payment.clone(),
                            vec![Cause::AckedUnpaid {
                                id: id.clone(),
                                step,
                            }],
                        );
                        self.books.acked_before_work.insert(payment.clone());
                    }
                    self.say(
                        Actor::Broker,
                        EventKind::Good,
                        format!("removes {shown} from {}", self.setup.queue_words()),
                    );
                }
                AckOutcome::Rejected { reason } => {
                    // The broker answers OK: as far as the consumer knows, it acked.
                    let c = &mut self.consumers[i];
                    c.marks[c.pc] = Mark::Ignored;
                    self.say(
                        Actor::Broker,
                        EventKind::Warning,
                        format!(
                            "ignores {name}'s ack for {id} ({reason}); like SQS it answers OK, so {name} cannot tell"
                        ),
                    );
                }
            }
        }
        self.done_unless_marked(i);
        Ok(())
    }

    /// Moves past the current step without overwriting a failure mark.
    pub(super) fn done_unless_marked(&mut self, i: usize) {
        let c = &mut self.consumers[i];
        if c.marks[c.pc] == Mark::Todo {
            c.marks[c.pc] = Mark::Done;
        }
        c.pc += 1;
    }
}
