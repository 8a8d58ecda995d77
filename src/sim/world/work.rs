//! The work itself: the payment row or status change, and the call to the
//! payment provider that no local transaction covers.

use super::{SimError, World};
use crate::sim::cause::Cause;
use crate::sim::consumer::{Connection, Mark};
use crate::sim::event::{Actor, EventKind};
use crate::sim::message::Message;
use crate::sim::provider::Reply;
use crate::sim::skip::Skip;
use crate::sim::strategy::Op;
use crate::sim::verdict::{LedgerEntry, LedgerKind};

impl World {
    pub(super) fn apply_charge(&mut self, i: usize) -> Result<(), SimError> {
        self.apply_body(i, false)
    }

    /// The work itself: a payment row, or a status change for the order.
    pub(super) fn apply_body(&mut self, i: usize, only_if_newer: bool) -> Result<(), SimError> {
        let Message {
            payment, status, ..
        } = self.delivery(i).message.clone();
        if let Some(update) = status {
            let (written, ran) = self.session(i).set_status(
                payment.order,
                &update.status,
                update.version,
                only_if_newer,
            )?;
            self.ran(i, ran);
            if written {
                if let Connection::InTransaction { wrote_status, .. } =
                    &mut self.consumers[i].work().connection
                {
                    *wrote_status = true;
                }
                let newer = self
                    .store
                    .committed
                    .statuses
                    .iter()
                    .find(|s| s.order == payment.order && s.version > update.version)
                    .map(|s| (s.status.clone(), s.version));
                if let Some((status, version)) = newer {
                    let id = self.delivery(i).message.id.clone();
                    let mut why = vec![Cause::WroteOver {
                        id,
                        version: update.version,
                        newer: status,
                        newer_version: version,
                        step: self.step,
                    }];
                    why.extend(self.delivery_cause(i));
                    self.note(payment.clone(), why);
                }
                self.let_through(i);
                self.say(
                    self.actor(i),
                    EventKind::Info,
                    format!(
                        "sets order {} to {} (version {}, not committed yet)",
                        payment.order, update.status, update.version
                    ),
                );
            } else {
                let (order, version) = (payment.order, update.version);
                self.duplicate_found(i, Skip::OlderVersion { order, version });
            }
            return Ok(());
        }
        let key = self.message_key(i);
        let ran = self
            .session(i)
            .insert_payment(payment.order, payment.amount, &key)?;
        self.ran(i, ran);
        self.books.row_written.insert(payment.clone());
        // Attributed at commit: only then is the row there for good.
        if let Connection::InTransaction { wrote_payment, .. } =
            &mut self.consumers[i].work().connection
        {
            *wrote_payment = true;
        }
        self.done(i);
        self.say(
            self.actor(i),
            EventKind::Info,
            format!(
                "inserts a payment of ${} for order {} (not committed yet)",
                payment.amount, payment.order
            ),
        );
        Ok(())
    }

    /// A status change charges nothing: the provider steps pass without effect.
    pub(super) fn no_charge(&mut self, i: usize) -> bool {
        if self.delivery(i).message.status.is_none() {
            return false;
        }
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Skipped;
        c.pc += 1;
        self.say(
            self.actor(i),
            EventKind::Info,
            if self.strategy.program[self.consumers[i].pc - 1] == Op::AwaitResponse {
                "has no provider response to wait for".into()
            } else {
                "has nothing to charge for a status change: no provider call".into()
            },
        );
        true
    }

    pub(super) fn call_provider(&mut self, i: usize, with_key: bool) -> Result<(), SimError> {
        if self.no_charge(i) {
            return Ok(());
        }
        // A call made again after a lost answer waits for a new answer:
        // the failed mark belonged to the attempt before.
        let c = &mut self.consumers[i];
        if let Some(answer) = c.marks.get_mut(c.pc + 1)
            && matches!(*answer, Mark::Failed | Mark::Lost | Mark::Refused)
        {
            *answer = Mark::Todo;
        }
        c.calls += 1;
        // A call made again says so: once it has run, no mark is left of
        // the attempt before.
        let again = match c.calls {
            1 => String::new(),
            n => format!(" again, retry {}", n - 1),
        };
        let payment = self.delivery(i).message.payment.clone();
        let id = self.message_key(i);
        let key = with_key.then_some(id.as_str());
        let charges_before = self.provider.charges().len();
        // Keys the provider forgets on this call change what a retry of
        // their facts would do: those facts are judged again.
        let forgotten = self.provider.forget_expired(self.now);
        self.moment.touched_ids.extend(forgotten);
        let response = self.provider.post_charge(key, &payment, self.now);
        let header = match key {
            Some(k) => format!("Idempotency-Key: {k}"),
            None => "no Idempotency-Key".into(),
        };
        self.say_brief(
            self.actor(i),
            EventKind::Info,
            format!(
                "calls POST /charges{again} (order {}, ${}) with {header}",
                payment.order, payment.amount
            ),
            format!("calls POST /charges{again} with {header}"),
        );
        if self.provider.charges().len() > charges_before {
            let mut cause = Vec::new();
            let consumer = self.consumers[i].name.clone();
            match self.consumers[i].work().retry_cause.clone() {
                Some(why) => {
                    cause.push(Cause::CalledAgain { consumer, with_key });
                    cause.push(why);
                }
                None => match self.repeated(i, false, Some(with_key)) {
                    Some(repeated) => cause.push(repeated),
                    None if !with_key => cause.push(Cause::NoKey { consumer }),
                    None => {}
                },
            }
            cause.extend(self.delivery_cause(i));
            self.record(LedgerEntry {
                order: payment.order,
                amount: payment.amount,
                kind: LedgerKind::ProviderCharged,
                step: self.step,
                cause,
                let_through_by_retention: false,
            });
            self.work_done(i);
            let charge = self
                .provider
                .charges()
                .last()
                .expect("just charged")
                .id
                .clone();
            self.say(
                Actor::Provider,
                EventKind::Info,
                format!("charges the card ${}: {charge}", payment.amount),
            );
        } else if response.replayed {
            self.moment.replayed = key.map(str::to_string);
            if let (Some(k), Reply::Charged { charge_id }) = (key, &response.reply) {
                let mut why = vec![Cause::Replayed {
                    key: k.to_string(),
                    charge: charge_id.clone(),
                    step: self.step,
                }];
                why.extend(self.delivery_cause(i));
                self.moment.touched_facts.push(payment.clone());
                self.books
                    .replays
                    .entry(payment.clone())
                    .or_default()
                    .push(why);
            }
            self.say_brief(
                Actor::Provider,
                EventKind::Good,
                format!(
                    "has seen key {id} before: no new charge, it returns the stored result ({})",
                    response.reply.describe()
                ),
                format!("has seen key {id}: no new charge, it replays its answer"),
            );
        } else {
            self.say(
                Actor::Provider,
                EventKind::Warning,
                format!("answers {}", response.reply.describe()),
            );
        }
        self.moment.answered = Some(crate::sim::provider::CallAnswer {
            caller: self.consumers[i].name.clone(),
            status: response.reply.status(),
            replayed: response.replayed,
        });
        // A fresh keyed request stays in flight at the provider until it
        // answers: a repeat in between gets 409.
        if let Some(k) = key
            && !response.replayed
            && matches!(response.reply, Reply::Charged { .. } | Reply::Declined)
        {
            self.consumers[i].work().awaiting_key = Some(k.to_string());
        }
        self.consumers[i].work().response = Some(response);
        self.done(i);
        Ok(())
    }

    /// The provider answers consumer `i`'s request, if it holds one in
    /// flight: the key's result is kept for repeats from now on, and a
    /// handler that got 409 for the key can call again. `key` is the
    /// request's key, taken from the handler (which may be dying).
    pub(super) fn provider_answers(&mut self, i: usize, key: Option<String>, to_whom: &str) {
        let Some(key) = key else {
            return;
        };
        if !self.provider.answer(&key) {
            return;
        }
        let result = self
            .provider
            .key_record(&key)
            .map(|k| k.result.describe())
            .unwrap_or_default();
        self.say_brief(
            Actor::Provider,
            EventKind::Info,
            format!(
                "answers {to_whom} ({result}) and keeps it under key {key}: a repeat now gets it"
            ),
            format!("answers {to_whom}, kept under key {key} for a repeat"),
        );
        let answered = self.consumers[i].name.clone();
        for j in 0..self.consumers.len() {
            let c = &mut self.consumers[j];
            let waits = c
                .handling()
                .is_some_and(|h| h.held_by_key.as_deref() == Some(answered.as_str()));
            if !waits {
                continue;
            }
            c.work().held_by_key = None;
            if c.marks.get(c.pc) == Some(&Mark::AwaitsAnswer) {
                c.marks[c.pc] = Mark::Todo;
            }
            self.say(
                self.actor(j),
                EventKind::Info,
                format!("can go on: the provider has answered {answered}, so its next call with key {key} gets that answer"),
            );
        }
    }

    pub(super) fn await_response(&mut self, i: usize) -> Result<(), SimError> {
        if self.no_charge(i) {
            return Ok(());
        }
        let step = self.step;
        let name = self.consumers[i].name.clone();
        let key = self.consumers[i].work().awaiting_key.take();
        self.provider_answers(i, key, &format!("{name}'s request"));
        let c = &mut self.consumers[i];
        let response = c.work().response.take();
        if std::mem::take(&mut c.lose_next_response) || response.is_none() {
            // The handler times out and calls again: same program step as before.
            c.work().retry_cause = Some(Cause::ResponseLost { step });
            self.moment.answer_lost = true;
            c.marks[c.pc] = Mark::Lost;
            c.pc -= 1;
            c.marks[c.pc] = Mark::Todo;
            self.say(
                self.actor(i),
                EventKind::Warning,
                "gets no response (lost on the way back): it will call the provider again".into(),
            );
            return Ok(());
        }
        let response = response.expect("checked above");
        if response.reply == Reply::StillProcessing {
            // 409 is no answer about the request, only "not yet": the
            // handler waits for the first request's answer, keeping its
            // lease, and then calls again with the same key, as it would
            // after a lost response.
            let key = self.message_key(i);
            let by = self
                .consumers
                .iter()
                .find(|c| c.awaiting_key() == Some(key.as_str()))
                .map(|c| c.name.clone());
            let c = &mut self.consumers[i];
            c.work().retry_cause = Some(Cause::ProviderAnswered {
                reply: Reply::StillProcessing,
                step,
            });
            c.marks[c.pc] = Mark::Refused;
            c.pc -= 1;
            c.marks[c.pc] = if by.is_some() {
                Mark::AwaitsAnswer
            } else {
                Mark::Todo
            };
            let whose = match &by {
                Some(by) => format!("{by}'s request"),
                None => "the first request".into(),
            };
            c.work().held_by_key = by;
            self.say_brief(
                self.actor(i),
                EventKind::Warning,
                format!(
                    "gets 409 Conflict: {whose} with key {key} is not answered yet, so it waits for that answer and will then call again with the same key"
                ),
                format!("gets 409 Conflict: {whose} with key {key} is not answered yet"),
            );
            return Ok(());
        }
        let replay = if response.replayed {
            " (a replay: its header Idempotent-Replayed is true)"
        } else {
            ""
        };
        match response.reply {
            Reply::Charged { ref charge_id } => {
                self.consumers[i].work().last_charge = Some(charge_id.clone());
                self.done(i);
                self.say(
                    self.actor(i),
                    EventKind::Good,
                    format!("gets {}{replay}", response.reply.describe()),
                );
            }
            other => {
                // Any error: give up on this delivery and let the lease run
                // out, so the broker tries again (and dead-letters at last).
                let rolled_back = self.consumers[i].in_txn();
                if rolled_back {
                    let ran = self.session(i).rollback()?;
                    self.ran(i, ran);
                    self.consumers[i].work().connection = Connection::Autocommit;
                    self.release_waiters();
                }
                let name = self.consumers[i].name.clone();
                let c = &mut self.consumers[i];
                c.marks[c.pc] = Mark::Failed;
                if let Some(d) = c.delivery().cloned() {
                    self.queue.broker.note_lost_lease(
                        &d.receipt,
                        Cause::GaveUp {
                            consumer: name,
                            reply: other.clone(),
                            step,
                        },
                    );
                    self.note(
                        d.message.payment.clone(),
                        vec![Cause::ProviderAnswered {
                            reply: other.clone(),
                            step,
                        }],
                    );
                    // A decline or a reused key is an answer about the
                    // request itself: every retry will get it again.
                    if matches!(other, Reply::Declined | Reply::KeyReused) {
                        self.books.refused.insert(d.message.payment.clone());
                    }
                }
                self.consumers[i].finish();
                let undo = if rolled_back { "rolls back and " } else { "" };
                // The story's shorter form, where the events panel shows
                // the whole: the answer and that A gives up, whole.
                let brief_replay = if response.replayed { " (a replay)" } else { "" };
                self.say_brief(
                    self.actor(i),
                    EventKind::Bad,
                    format!(
                        "gets {}{replay}: {undo}gives up, leaving the message to be redelivered",
                        other.describe()
                    ),
                    format!("gets {}{brief_replay}: gives up", other.describe()),
                );
            }
        }
        Ok(())
    }
}
