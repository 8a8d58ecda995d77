//! Answering one parked request: the broker's delivery, the provider's
//! charge, the broker's ack, each with the fault the source picks for
//! this point (a kill, a lost answer or ack, a lease that runs out, a
//! duplicate publish).

use super::{HeldRequest, Run};
use crate::harness::diagnosis::Diagnosis;
use crate::harness::faults::{Fault, Point};
use crate::harness::instance::{Held, State};
use crate::harness::protocol::{Answer, Body, Request};
use crate::sim::broker::AckOutcome;
use crate::sim::cause::{Arrow, Cause, KillPoint};
use crate::sim::message::Message;
use crate::sim::provider::Reply;

impl Run<'_, '_> {
    /// Answers the parked request of instance `i`, with the fault the
    /// source picks for this point, or with `forced`.
    pub(super) fn serve(&mut self, i: usize, forced: Option<Fault>) -> Result<(), Diagnosis> {
        let State::Parked(request) = self.instances[i].state.clone() else {
            unreachable!("only parked instances are served");
        };
        let held = self.instances[i].held_for(&request).cloned();
        let lease_running = held
            .as_ref()
            .is_some_and(|h| self.broker.lease_held(&h.receipt));
        let faults: Vec<Fault> = Fault::on(request.kind())
            .iter()
            .copied()
            .filter(|f| match f {
                Fault::ExpireLease => lease_running,
                Fault::Duplicate => held.is_some(),
                _ => true,
            })
            .collect();
        let point = Point {
            index: self.points.len(),
            instance: self.instances[i].name.clone(),
            start: self.instances[i].start,
            kind: request.kind(),
            message: held.as_ref().map(|h| h.message.clone()),
            faults,
        };
        let fault = forced.or_else(|| self.faults.at(&point));
        let fault = fault.filter(|f| point.faults.contains(f));
        let index = point.index;
        self.points.push(point);
        self.instances[i].served += 1;
        self.instances[i].held_back = false;
        if let Some(f) = fault {
            self.applied.push((index, f));
        }
        let label = self.instances[i].label();
        // A request held by a fault is told once as sent (at the fault's
        // step); here it is that request reaching idem, not a new one.
        let first = match self.instances[i].held_at.take() {
            Some(sent) => {
                self.held = Some(HeldRequest::Reaches { sent });
                held_request_reaches(&label, &request, sent)
            }
            None => format!("{label} → {}", request.describe()),
        };
        let mut lines = vec![first];
        match request {
            Request::Hello { .. } => unreachable!("hellos are answered as they come"),
            Request::Receive {} => {
                let receipt = format!("r-{}", self.next_receipt);
                self.next_receipt += 1;
                let delivery = self
                    .broker
                    .receive(&label, receipt.clone(), self.now)
                    .expect("served only when a message is visible");
                self.instances[i].holding.push(Held {
                    receipt: receipt.clone(),
                    message: delivery.message.id.clone(),
                    payment: delivery.message.payment.clone(),
                    delivery: delivery.receive_count,
                    cause: delivery.cause.clone(),
                });
                let answer = Answer::Deliver {
                    id: delivery.message.id.clone(),
                    receipt,
                    delivery: delivery.receive_count,
                    redelivered: delivery.redelivered,
                    body: Body {
                        order: delivery.message.payment.order,
                        amount: delivery.message.payment.amount,
                    },
                };
                let mut said = format!(
                    "{label} ← deliver {} (delivery {}{}), order {} ${}",
                    delivery.message.id,
                    delivery.receive_count,
                    if delivery.redelivered {
                        ", redelivered"
                    } else {
                        ""
                    },
                    delivery.message.payment.order,
                    delivery.message.payment.amount
                );
                if !delivery.cause.is_empty() {
                    said.push_str(&format!(": {}", Arrow::Drawn.join(&delivery.cause)));
                }
                lines.push(said);
                self.answer(i, answer);
                self.instances[i].state = State::Running;
            }
            Request::Charge {
                req,
                order,
                amount,
                ref idempotency_key,
            } => {
                let payment = crate::sim::message::Payment { order, amount };
                if self.shared_fault(i, fault, held.as_ref(), &mut lines) {
                    self.note_fault(index, fault, lines);
                    return Ok(());
                }
                if fault == Some(Fault::KillBeforeCharge) {
                    self.fault_said(
                        &mut lines,
                        format!("{label} killed before the provider got the charge"),
                    );
                    self.kill(i, KillPoint::BeforeCharge, &mut lines);
                    self.note_fault(index, fault, lines);
                    self.stand_down(i);
                    return Ok(());
                }
                let response =
                    self.provider
                        .post_charge(idempotency_key.as_deref(), &payment, self.now);
                // The call ends here whatever happens to its answer (taken
                // in, lost on the way, or its caller killed): the key's
                // in-flight window closes, and a repeat gets the result.
                if let Some(key) = idempotency_key.as_deref() {
                    self.provider.answer(key);
                }
                let (status, charge) = match &response.reply {
                    Reply::Charged { charge_id } => {
                        (response.reply.status(), Some(charge_id.clone()))
                    }
                    other => (other.status(), None),
                };
                if let (Reply::Charged { charge_id }, false) = (&response.reply, response.replayed)
                {
                    self.ledger.charged(
                        &payment,
                        charge_id,
                        index,
                        &label,
                        idempotency_key.as_deref(),
                        held.as_ref(),
                    );
                }
                lines.push(format!(
                    "provider: {}{}",
                    response.reply.describe(),
                    if response.replayed {
                        " (replayed from the key store)"
                    } else {
                        ""
                    }
                ));
                match fault {
                    Some(Fault::LoseResponse) => {
                        self.fault_said(
                            &mut lines,
                            format!("the answer to {label} is lost: it hears the call timed out"),
                        );
                        if let Some(h) = &held {
                            let why = Cause::ProgramResponseLost { who: label.clone() };
                            self.broker.note_lost_lease(&h.receipt, why.clone());
                            self.ledger.note(&h.payment, why);
                        }
                        self.answer(
                            i,
                            Answer::ChargeResult {
                                req,
                                status: None,
                                replayed: false,
                                charge: None,
                                lost: true,
                            },
                        );
                        self.instances[i].state = State::Running;
                    }
                    Some(Fault::KillAfterCharge) => {
                        self.fault_said(
                            &mut lines,
                            format!("{label} killed after the charge, before it heard the answer"),
                        );
                        self.kill(i, KillPoint::AfterCharge, &mut lines);
                        self.note_fault(index, fault, lines);
                        self.stand_down(i);
                        return Ok(());
                    }
                    _ => {
                        lines.push(format!(
                            "{label} ← charge_result {status}{}",
                            charge.as_ref().map(|c| format!(" {c}")).unwrap_or_default()
                        ));
                        self.answer(
                            i,
                            Answer::ChargeResult {
                                req,
                                status: Some(status),
                                replayed: response.replayed,
                                charge,
                                lost: false,
                            },
                        );
                        self.instances[i].state = State::Running;
                    }
                }
            }
            Request::Ack { ref receipt } => {
                if self.shared_fault(i, fault, held.as_ref(), &mut lines) {
                    self.note_fault(index, fault, lines);
                    return Ok(());
                }
                if fault == Some(Fault::LoseAck) {
                    self.broker.mark_ack_lost(receipt);
                    self.broker
                        .note_lost_lease(receipt, Cause::ProgramAckLost { who: label.clone() });
                    self.fault_said(
                        &mut lines,
                        format!(
                            "the broker never gets {label}'s ack; {label} hears the call timed out"
                        ),
                    );
                    self.answer(
                        i,
                        Answer::AckResult {
                            receipt: receipt.clone(),
                            status: "lost",
                            reason: None,
                        },
                    );
                    self.instances[i].state = State::Running;
                    self.note_fault(index, fault, lines);
                    return Ok(());
                }
                let outcome = self.broker.ack(receipt, &label);
                let (status, reason) = match &outcome {
                    AckOutcome::Removed { message_id } => {
                        lines.push(format!("broker: {message_id} removed"));
                        self.instances[i].holding.retain(|h| &h.receipt != receipt);
                        self.broker.forget_settled();
                        if let Some(h) = &held {
                            self.ledger.acked(
                                h,
                                &label,
                                &self.db,
                                &self.cfg.recorded_query,
                                self.cfg.handled_query(),
                            );
                        }
                        ("ok", None)
                    }
                    AckOutcome::Rejected { reason } => {
                        let (whole, short) = ack_refused(reason);
                        self.short.push((lines.len(), short));
                        lines.push(whole);
                        self.instances[i].holding.retain(|h| &h.receipt != receipt);
                        ("rejected", Some(reason.clone()))
                    }
                };
                if fault == Some(Fault::KillAfterAck) {
                    self.fault_said(
                        &mut lines,
                        format!("{label} killed after the broker took its ack"),
                    );
                    if let Some(h) = &held {
                        self.ledger.note(
                            &h.payment,
                            Cause::ProgramKilled {
                                who: label.clone(),
                                point: KillPoint::AfterAck,
                            },
                        );
                    }
                    self.kill(i, KillPoint::AfterAck, &mut lines);
                    self.note_fault(index, fault, lines);
                    self.stand_down(i);
                    return Ok(());
                }
                lines.push(format!("{label} ← ack_result {status}"));
                self.answer(
                    i,
                    Answer::AckResult {
                        receipt: receipt.clone(),
                        status,
                        reason,
                    },
                );
                self.instances[i].state = State::Running;
            }
        }
        self.note_fault(index, fault, lines);
        Ok(())
    }

    /// The faults that fall on any request about a held message: the
    /// lease runs out, or the producer publishes the message again. True
    /// when the request stays unanswered for now.
    pub(super) fn shared_fault(
        &mut self,
        i: usize,
        fault: Option<Fault>,
        held: Option<&Held>,
        lines: &mut Vec<String>,
    ) -> bool {
        let label = self.instances[i].label();
        match (fault, held) {
            (Some(Fault::ExpireLease), Some(h)) => {
                self.broker.note_still_working(&h.receipt, &label);
                // A lease runs out only at its end: the clock moves there
                // first, so the time every step shows stays true and a
                // lease taken later is measured from then (as the
                // simulator's clock does). Any lease that ended before it
                // ran out first; one that ends at the same instant runs
                // out when the clock next moves, as the fault names only
                // this one.
                if let Some(until) = self.broker.lease_deadline(&h.message)
                    && until > self.now
                {
                    self.now = until;
                    let earlier = self.broker.expire_leases(until - 1);
                    lines.extend(self.expiry_lines(&earlier));
                }
                self.broker.expire_now(&h.message);
                self.ledger.note(
                    &h.payment,
                    Cause::ProgramLeaseRanOut {
                        who: label.clone(),
                        id: h.message.clone(),
                    },
                );
                // The request is sent and goes no further for now: said
                // on its own line, so that the step where it reaches idem
                // reads as this request, not a second one.
                if let (Some(sent), State::Parked(request)) =
                    (lines.first_mut(), &self.instances[i].state)
                {
                    sent.push_str(&format!(
                        " (sent; held: the {} has not got it)",
                        request_to(request)
                    ));
                }
                self.fault_said(lines, format!("the lease on {} runs out at {} while {label} waits for the answer; its request is held until the others can go no further", h.message, crate::sim::format_duration(self.now)));
                self.instances[i].held_back = true;
                // The step being told: its number, once `note` counts it.
                self.instances[i].held_at = Some(self.step_points.len() + 1);
                self.held = Some(HeldRequest::Held);
                self.instances[i].served -= 1;
                // Its request is answered later, with no fault.
                true
            }
            (Some(Fault::Duplicate), Some(h)) => {
                let message = Message::payment(&h.message, h.payment.order, h.payment.amount);
                self.broker.publish(message, self.now);
                self.ledger.note(
                    &h.payment,
                    Cause::ProgramDuplicate {
                        id: h.message.clone(),
                    },
                );
                self.fault_said(lines, format!("the producer publishes {} again", h.message));
                false
            }
            _ => false,
        }
    }

    pub(super) fn kill(&mut self, i: usize, point: KillPoint, lines: &mut Vec<String>) {
        let label = self.instances[i].label();
        let holding = self.instances[i].holding.clone();
        for h in &holding {
            let why = Cause::ProgramKilled {
                who: label.clone(),
                point,
            };
            self.broker.note_lost_lease(&h.receipt, why.clone());
            self.ledger.note(&h.payment, why);
        }
        self.drop_proc(i);
        if self.db.is_server() {
            lines.push(format!(
                "the server shows no backend of {label} left: what it had not committed is rolled back"
            ));
        }
    }

    /// Ends instance `i`'s process, keeping what it wrote to stderr for
    /// the next look.
    pub(super) fn drop_proc(&mut self, i: usize) {
        if let Some(proc) = self.instances[i].proc.as_mut() {
            proc.kill();
        }
        if self.cfg.record {
            let lines = self.stderr_since(i);
            self.stderr_carry.extend(lines);
        }
        self.instances[i].last_stderr = self.instances[i].stderr_tail();
        self.instances[i].proc = None;
        self.backends_gone(i);
    }
}

/// Who a parked request is for: the provider takes a charge, the broker
/// the rest.
fn request_to(request: &Request) -> &'static str {
    match request {
        Request::Charge { .. } => "provider",
        _ => "broker",
    }
}

/// A held request reaching idem at last: named as the one sent at step
/// `sent`, with no `→`, which tells a request sent now. What it carries
/// was told where it was sent; left out here, the line fits one row at
/// 80 columns, where a second row cost the verdict its rows.
fn held_request_reaches(label: &str, request: &Request, sent: usize) -> String {
    let (name, _) = request.named();
    format!(
        "{label}'s {name}, sent at step {sent}, reaches the {} now",
        request_to(request)
    )
}

/// The broker's line for an ack it refused, whole and short. idem's test
/// broker answers `rejected` (docs/consumer-protocol.md), where SQS, as
/// the simulator's broker, answers OK and the program cannot tell: the
/// line says which broker this is, so the two do not read as disagreeing.
/// Not "and keep the message": the message may be gone already (acked by
/// the instance that received it since).
fn ack_refused(reason: &str) -> (String, String) {
    let head = reason.split(':').next().unwrap_or(reason);
    (
        format!(
            "broker: ack refused: {reason} (idem's test broker tells the program; SQS would answer OK, so the program could not tell)"
        ),
        format!("broker: ack refused: {head} (idem says so; SQS would answer OK)"),
    )
}
