//! The verdict is money: what was owed (published), what idem's provider
//! charged, and what the program's database records, judged by the
//! simulator's own rules (`sim::verdict::judge_fact`), with the cause
//! chains the run wrote down.

use super::database::ProgramDb;
use crate::sim::broker::Broker;
use crate::sim::cause::Cause;
use crate::sim::db::program::{Handled, Recorded};
use crate::sim::message::{Message, Payment};
use crate::sim::provider::Provider;
/// The one rule the simulator names a payment by, the judge's too.
pub use crate::sim::verdict::payment_name;
use crate::sim::verdict::{self, FactState, FactVerdict, LedgerEntry, LedgerKind, Verdict};
use std::collections::{BTreeMap, BTreeSet};

use super::instance::Held;

/// What a run knows about the money while it runs.
#[derive(Debug, Default)]
pub struct Ledger {
    /// Distinct messages per payment: each is owed once, whatever the copies.
    owed: BTreeMap<Payment, usize>,
    /// Each distinct message ID, and its payment.
    ids: BTreeMap<String, Payment>,
    charges: Vec<LedgerEntry>,
    /// What happened to each payment's messages, oldest first.
    notes: BTreeMap<Payment, Vec<Cause>>,
    acked_before_work: BTreeSet<Payment>,
    /// The last ack that removed a payment's message with no row saved,
    /// on a delivery that made no charge, and why that delivery came:
    /// the delivery that skipped the work, if the record says so.
    acked_unworked: BTreeMap<Payment, Vec<Cause>>,
}

/// Above this many messages, an ack does not look into the database (the
/// look costs a query per ack): a soak says "charge lost" where a small
/// run can say "message lost".
const LOOK_AT_ACKS_UP_TO: usize = 64;

impl Ledger {
    pub fn owe(&mut self, message: &Message) {
        if !self.ids.contains_key(&message.id) {
            self.ids.insert(message.id.clone(), message.payment.clone());
            *self.owed.entry(message.payment.clone()).or_default() += 1;
        }
    }

    pub fn charged(
        &mut self,
        payment: &Payment,
        charge_id: &str,
        step: usize,
        who: &str,
        key: Option<&str>,
        held: Option<&Held>,
    ) {
        let mut cause = vec![Cause::ProgramCharged {
            charge: charge_id.to_string(),
            who: who.to_string(),
            order: payment.order,
            amount: payment.amount,
            key: key.map(str::to_string),
            delivery: held.map(|h| (h.delivery, h.message.clone())),
        }];
        if let Some(h) = held {
            cause.extend(h.cause.iter().cloned());
        }
        self.charges.push(LedgerEntry {
            order: payment.order,
            amount: payment.amount,
            kind: LedgerKind::ProviderCharged,
            step,
            cause,
            let_through_by_retention: false,
        });
    }

    pub fn note(&mut self, payment: &Payment, what: Cause) {
        self.notes.entry(payment.clone()).or_default().push(what);
    }

    /// The broker removed the message of `held` on `who`'s ack: was its
    /// work saved? (`query` reads the payment rows, `handled` the IDs
    /// recorded as handled.)
    pub fn acked(&mut self, held: &Held, who: &str, db: &ProgramDb, query: &str, handled: &str) {
        if self.ids.len() > LOOK_AT_ACKS_UP_TO {
            return;
        }
        let payment = &held.payment;
        if let Ok(rows) = db.read_recorded(query)
            && !rows
                .iter()
                .any(|r| r.order == payment.order && r.amount == payment.amount)
        {
            self.acked_before_work.insert(payment.clone());
            let charged = self.charges.iter().any(|c| {
                matches!(c.cause.first(), Some(Cause::ProgramCharged { delivery: Some((n, id)), .. })
                    if *n == held.delivery && *id == held.message)
            });
            if !charged {
                // Whether the delivery met a record of its ID: read now,
                // at its ack, not at the end, where a later record would
                // answer for it. A query that fails here says nothing;
                // the end of the run reads it again and tells the failure.
                let recorded = db
                    .read_handled(handled)
                    .is_ok_and(|ids| ids.contains_key(&held.message));
                let mut chain = vec![Cause::ProgramAckedUnworked {
                    who: who.to_string(),
                    id: held.message.clone(),
                    delivery: held.delivery,
                    recorded,
                }];
                chain.extend(held.cause.iter().cloned());
                self.acked_unworked.insert(payment.clone(), chain);
            }
        }
    }

    /// Whether some message was removed on an ack with no work saved: only
    /// then does the run read which IDs the program records as handled.
    pub fn any_acked_unworked(&self) -> bool {
        !self.acked_unworked.is_empty()
    }

    /// Whether some payment has more rows in `recorded` than distinct
    /// messages owed it: then the run reads the handled IDs too, to see
    /// whether one was recorded again.
    pub fn any_extra_row(&self, recorded: &[Recorded]) -> bool {
        let mut rows: BTreeMap<Payment, usize> = BTreeMap::new();
        for r in recorded {
            let p = Payment {
                order: r.order,
                amount: r.amount,
            };
            let n = rows.entry(p.clone()).or_default();
            *n += 1;
            if *n > self.owed.get(&p).copied().unwrap_or(0) {
                return true;
            }
        }
        false
    }
}

pub fn verdict(
    ledger: &Ledger,
    broker: &Broker,
    provider: &Provider,
    recorded: &[Recorded],
    handled: &Handled,
) -> Verdict {
    let mut rows: BTreeMap<Payment, usize> = BTreeMap::new();
    for r in recorded {
        *rows
            .entry(Payment {
                order: r.order,
                amount: r.amount,
            })
            .or_default() += 1;
    }
    let mut payments: BTreeSet<Payment> = ledger.owed.keys().cloned().collect();
    payments.extend(rows.keys().cloned());
    payments.extend(ledger.charges.iter().map(|c| Payment {
        order: c.order,
        amount: c.amount,
    }));
    // Each of a payment's message IDs the handled query lists on more
    // than one row: recorded again, and nothing refused it.
    let again = |p: &Payment| -> Vec<Cause> {
        ledger
            .ids
            .iter()
            .filter(|(_, q)| *q == p)
            .filter_map(|(id, _)| match handled.get(id) {
                Some(&records) if records > 1 => Some(Cause::ProgramRecordedAgain {
                    id: id.clone(),
                    records,
                }),
                _ => None,
            })
            .collect()
    };
    // idem cannot see which process wrote a row: a row's chain is the
    // row, then what happened to its payment's messages, newest first. A
    // row beyond the messages owed whose ID was recorded again says so
    // next: nothing refused that second record, where a unique key on the
    // ID would have stopped the delivery that wrote the second row.
    let row_entries: Vec<LedgerEntry> = rows
        .iter()
        .flat_map(|(p, n)| {
            let owed = ledger.owed.get(p).copied().unwrap_or(0);
            let again = again(p);
            (0..*n).map(move |k| {
                let mut cause = vec![Cause::ProgramRow {
                    row: k + 1,
                    order: p.order,
                    amount: p.amount,
                }];
                if k >= owed {
                    cause.extend(again.iter().cloned());
                }
                if let Some(notes) = ledger.notes.get(p) {
                    cause.extend(notes.iter().rev().cloned());
                }
                LedgerEntry {
                    order: p.order,
                    amount: p.amount,
                    kind: LedgerKind::PaymentCommitted,
                    step: usize::MAX,
                    cause,
                    let_through_by_retention: false,
                }
            })
        })
        .collect();
    // Recorded as handled with no payment row, its message removed on an
    // ack of a delivery that did no work: every redelivery would have met
    // the record. Its chain is told from that delivery, the step that
    // lost the row (the simulator's id-first skip), whether or not an
    // earlier delivery charged.
    let skipped_unpaid: BTreeSet<&Payment> = ledger
        .ids
        .iter()
        .filter(|(id, p)| {
            handled.contains_key(*id)
                && ledger.acked_unworked.contains_key(p)
                && !rows.contains_key(p)
        })
        .map(|(_, p)| p)
        .collect();
    // With no charge either, the charge is lost (the simulator's
    // "recorded as handled, with no payment").
    let recorded_unpaid: BTreeSet<&Payment> = skipped_unpaid
        .iter()
        .copied()
        .filter(|p| provider.charges_for_payment(p) == 0)
        .collect();
    let notes: BTreeMap<&Payment, Vec<Vec<Cause>>> = payments
        .iter()
        .map(|p| {
            let chain: Vec<Cause> = match ledger.acked_unworked.get(p) {
                Some(acked) if skipped_unpaid.contains(p) => acked.clone(),
                _ => ledger
                    .notes
                    .get(p)
                    .map(|n| n.iter().rev().cloned().collect())
                    .unwrap_or_default(),
            };
            (
                p,
                if chain.is_empty() {
                    Vec::new()
                } else {
                    vec![chain]
                },
            )
        })
        .collect();
    let mut per_order: BTreeMap<u32, usize> = BTreeMap::new();
    for p in &payments {
        *per_order.entry(p.order).or_default() += 1;
    }
    let same_order = |p: &Payment| per_order[&p.order] > 1;
    // Each payment's entries, found once: a soak judges thousands.
    let mut entries: BTreeMap<Payment, Vec<&LedgerEntry>> = BTreeMap::new();
    for e in ledger.charges.iter().chain(row_entries.iter()) {
        entries
            .entry(Payment {
                order: e.order,
                amount: e.amount,
            })
            .or_default()
            .push(e);
    }
    let facts: Vec<FactState<'_>> = payments
        .iter()
        .map(|p| FactState {
            payment: p,
            name: payment_name(p.order, p.amount, same_order(p)),
            expected: ledger.owed.get(p).copied().unwrap_or(0),
            payments: rows.get(p).copied().unwrap_or(0),
            charges: provider.charges_for_payment(p),
            pending: broker.payment_pending(p),
            to_come: false,
            writing: false,
            doomed: recorded_unpaid.contains(p),
            recorded_unpaid: recorded_unpaid.contains(p),
            record_lasts: recorded_unpaid.contains(p),
            all_skipping: false,
            keyed_charge: None,
            row: Default::default(),
            acked_before_work: ledger.acked_before_work.contains(p),
            dead_lettered: broker.payment_dead_lettered(p),
            poison: false,
            ledger: entries.remove(p).unwrap_or_default(),
            notes: &notes[p],
            replays: &[],
        })
        .collect();
    verdict::combine(
        facts
            .iter()
            .map(|f| every_outcome_told(f, verdict::judge_fact(f)))
            .collect(),
    )
}

/// A fact's verdict with a cause for every outcome it names. Beside a
/// double charge the simulator leaves the disagreement no chain: its
/// panel's figures say it. A program's run is read as a list of causes
/// under `w` ("every cause"), in `--text` and in a saved schedule, none
/// of which show those figures beside it, so the disagreement is told by
/// its counts after the double charge's chain (teacher trial 31: the
/// headline named two outcomes and the list explained one).
fn every_outcome_told(f: &FactState<'_>, mut v: FactVerdict) -> FactVerdict {
    use crate::sim::verdict::Outcome;
    // A dead-lettering beside the double charge is the disagreement's
    // own chain; the counts would only restate it.
    let told = v.causes.iter().any(|c| {
        matches!(
            c.first(),
            Some(Cause::Counts { .. } | Cause::DeadLettered { .. })
        )
    });
    if v.failures.contains(&Outcome::Disagree) && !told {
        v.causes.push(vec![Cause::Counts {
            fact: f.name.clone(),
            charges: v.charges,
            payments: v.payments,
        }]);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m1() -> (Message, Payment) {
        let m = Message::payment("m-1", 1042, 40);
        let p = m.payment.clone();
        (m, p)
    }

    fn charged_once(p: &Payment) -> Provider {
        let mut provider = Provider::new(86_400_000, 1, BTreeSet::new());
        provider.post_charge(Some("m-1"), p, 0);
        provider
    }

    /// The links of the one chain after the headline, as values.
    fn chain(v: &Verdict) -> Vec<Cause> {
        assert_eq!(v.causes.len(), 1, "{:?}", v.causes);
        v.causes[0].clone()
    }

    /// Two rows for one message whose ID the handled query lists twice:
    /// the second row's chain says the ID was recorded again, unrefused,
    /// between the row and why its delivery came (check-then-insert).
    #[test]
    fn a_second_row_names_the_id_recorded_again() {
        let (m, p) = m1();
        let mut ledger = Ledger::default();
        ledger.owe(&m);
        let lease = Cause::ProgramLeaseRanOut {
            who: "A (start 1)".into(),
            id: "m-1".into(),
        };
        ledger.note(&p, lease.clone());
        let row = Recorded {
            order: 1042,
            amount: 40,
        };
        let recorded = [row, row];
        assert!(ledger.any_extra_row(&recorded));
        let handled = Handled::from([("m-1".to_string(), 2)]);
        let broker = Broker::new("payments", 30_000, 5);
        let v = verdict(&ledger, &broker, &charged_once(&p), &recorded, &handled);
        assert_eq!(
            chain(&v)[1..],
            [
                Cause::ProgramRow {
                    row: 2,
                    order: 1042,
                    amount: 40
                },
                Cause::ProgramRecordedAgain {
                    id: "m-1".into(),
                    records: 2
                },
                lease,
            ]
        );
        // Listed once: no such link.
        let once = Handled::from([("m-1".to_string(), 1)]);
        let v = verdict(&ledger, &broker, &charged_once(&p), &recorded, &once);
        assert!(
            !chain(&v)
                .iter()
                .any(|c| matches!(c, Cause::ProgramRecordedAgain { .. }))
        );
    }

    /// Charged once, no row, the ID recorded and a later delivery acked
    /// with no work: the disagreement's chain goes through that delivery
    /// to the lost response, in causal order (id-first's story).
    #[test]
    fn a_charge_with_no_row_names_the_delivery_that_skipped() {
        let (m, p) = m1();
        let mut ledger = Ledger::default();
        ledger.owe(&m);
        let lost = Cause::ProgramResponseLost {
            who: "A (start 1)".into(),
        };
        ledger.note(&p, lost.clone());
        let skipped = Cause::ProgramAckedUnworked {
            who: "A (start 1)".into(),
            id: "m-1".into(),
            delivery: 2,
            recorded: true,
        };
        ledger.acked_unworked.insert(
            p.clone(),
            vec![skipped.clone(), Cause::LeaseExpired, lost.clone()],
        );
        let handled = Handled::from([("m-1".to_string(), 1)]);
        let broker = Broker::new("payments", 30_000, 5);
        let v = verdict(&ledger, &broker, &charged_once(&p), &[], &handled);
        assert_eq!(chain(&v)[1..], [skipped, Cause::LeaseExpired, lost]);
    }
}
