//! Judging: from what the world knows about a business fact, its outcome,
//! the effects it has beyond what was asked, and the causes of each; and
//! the verdict over all facts. (`verdict.rs` holds what a verdict is.)

use super::{FactVerdict, LedgerEntry, LedgerKind, Outcome, Verdict};
use crate::sim::cause::{Cause, rows, times};
use crate::sim::message::Payment;

/// What the world knows about one business fact when judging it.
pub struct FactState<'a> {
    pub payment: &'a Payment,
    /// How the verdict names this fact: `order 1042`, or `order 1042 ($40)`
    /// where another payment for the same order is judged beside it.
    pub name: String,
    pub expected: usize,
    pub payments: usize,
    pub charges: usize,
    /// A copy is still queued or leased, or a consumer is handling it.
    pub pending: bool,
    /// A copy of this payment is still to be published: a wrong effect it
    /// could undo (a disagreement, a lost charge) is not declared yet.
    pub to_come: bool,
    /// A consumer handling this fact has a transaction open: a payment row
    /// may still commit or roll back.
    pub writing: bool,
    /// Recorded as handled (processed_messages or the cache) with no
    /// payment while nobody works on it: every redelivery will be skipped.
    pub doomed: bool,
    /// Recorded as handled with no payment, whether or not a handler is on
    /// it right now: the risk a redelivery meets.
    pub recorded_unpaid: bool,
    /// That record is a committed processed_messages row and nothing in
    /// this run prunes the table: every later delivery of the ID meets it.
    /// (A cache entry expires, a pruned row is gone: a delivery after that
    /// does the work.)
    pub record_lasts: bool,
    /// Every consumer handling this fact right now has taken its skip
    /// path: none of them will do the work.
    pub all_skipping: bool,
    /// The Idempotency-Key every charge of this fact was made with, when
    /// the provider still stores it and every copy that may still be
    /// handled would send it again: a retry gets the stored charge back
    /// and cannot charge twice.
    pub keyed_charge: Option<KeyedCharge>,
    /// Where the payment row of a keyed charge stands while its fact is
    /// still open: what the in-flight line may say about it.
    pub row: UnpaidRow,
    /// The broker removed a copy on an ack that came before any work was
    /// saved, as acking on receipt does.
    pub acked_before_work: bool,
    pub dead_lettered: bool,
    /// The provider refused the request for good (402, 422): no handler can
    /// succeed, so the dead-letter queue is where the message belongs.
    pub poison: bool,
    pub ledger: Vec<&'a LedgerEntry>,
    pub notes: &'a [Vec<Cause>],
    /// Each replay of a stored charge by the provider, with its chain.
    pub replays: &'a [Vec<Cause>],
}

/// Where a charged fact's payment row stands while the fact is open. The
/// line that tells a charge in flight says this, not a guess: after a
/// crash the row is gone, and saying "not committed yet" would promise a
/// commit that cannot come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnpaidRow {
    /// A handler's open transaction holds the row: it may commit or roll
    /// back.
    Open,
    /// A handler on the fact has the row still to write; `calls` when it
    /// calls the provider with the key first, and gets the charge back.
    ToWrite { calls: bool },
    /// No handler holds the row or will write it: the fact waits for its
    /// next delivery (a design that would write the row after the call,
    /// whose handler died in between, never wrote it).
    #[default]
    Awaited,
    /// As `Awaited`, where the design writes the row before the keyed call
    /// in the same transaction, and the last delivery wrote the row: it
    /// was rolled back with that transaction (a crash, a failed call). A
    /// delivery that died before writing leaves `Awaited`.
    RolledBack,
}

/// What the provider's key store holds under a keyed charge's key: what a
/// repeat with the key gets now. The in-flight line promises the charge
/// back only when the store has it; while the first request is unanswered
/// a repeat is turned away with 409 and must wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyHolds {
    /// The first request is answered: a repeat gets its charge back.
    Charge,
    /// The first request is not answered yet: a repeat gets 409 Conflict.
    Processing,
}

/// A charge made with an Idempotency-Key the provider still stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyedCharge {
    pub key: String,
    pub holds: KeyHolds,
}

impl UnpaidRow {
    /// What the in-flight line says of the row, after the charge, and of
    /// what a repeat with the key gets where the line speaks of one.
    fn text(self, holds: KeyHolds) -> String {
        // The key's first request is not answered yet (its caller still
        // waits): a repeat is turned away with 409, not given the charge.
        const WAIT: &str = "key still processing: a repeat gets 409 and waits";
        let (row, repeat) = match self {
            UnpaidRow::Open => return "payment row not committed yet".into(),
            UnpaidRow::ToWrite { calls: false } => return "payment row not written yet".into(),
            UnpaidRow::ToWrite { calls: true } => (
                "no payment row yet",
                "the delivery in hand gets the charge back by key",
            ),
            UnpaidRow::RolledBack => (
                "payment row rolled back",
                "if the message is delivered again, its key gets the charge back",
            ),
            UnpaidRow::Awaited => (
                "no payment row",
                "if the message is delivered again, its key gets the charge back",
            ),
        };
        match holds {
            KeyHolds::Charge => format!("{row}; {repeat}"),
            KeyHolds::Processing => format!("{row}; {WAIT}"),
        }
    }
}

pub fn judge(facts: &[FactState<'_>]) -> Verdict {
    combine(facts.iter().map(judge_fact).collect())
}

/// One status fact: the order must end at its newest status.
pub fn judge_status(
    order: u32,
    expected: &str,
    actual: Option<&str>,
    pending: bool,
    dead_lettered: bool,
    notes: &[Vec<Cause>],
) -> FactVerdict {
    let (outcome, cause, at_risk) = if pending {
        let risk = actual
            .filter(|a| *a != expected)
            .map(|a| format!("order {order} is {a} so far, its newest status is {expected}"));
        (Outcome::InProgress, Vec::new(), risk)
    } else if actual == Some(expected) {
        (Outcome::Correct, Vec::new(), None)
    } else if dead_lettered {
        (
            Outcome::DeadLettered,
            vec![Cause::StatusDeadLettered { order }],
            None,
        )
    } else {
        let mut cause = vec![Cause::StaleStatus {
            order,
            actual: actual.map(str::to_string),
            expected: expected.to_string(),
        }];
        cause.extend(notes.last().into_iter().flatten().cloned());
        (Outcome::StaleState, cause, None)
    };
    FactVerdict {
        order,
        amount: 0,
        expected: 1,
        held: Vec::new(),
        expected_status: Some(expected.to_string()),
        actual_status: actual.map(str::to_string),
        payments: 0,
        charges: 0,
        outcome,
        failures: if outcome.is_failure() {
            vec![outcome]
        } else {
            Vec::new()
        },
        causes: if cause.is_empty() {
            Vec::new()
        } else {
            vec![cause]
        },
        at_risk,
        in_flight: None,
        harm_step: None,
        let_through_by_retention: false,
    }
}

/// The verdict over all facts: the worst one decides the headline, and
/// every failure and cause of every fact is kept.
pub fn combine(facts: Vec<FactVerdict>) -> Verdict {
    let worst = facts.iter().max_by_key(|f| f.outcome);
    let mut failures: Vec<Outcome> = facts.iter().flat_map(|f| f.failures.clone()).collect();
    failures.sort_by(|a, b| b.cmp(a));
    failures.dedup();
    let mut causes: Vec<Vec<Cause>> = worst.map(|f| f.causes.clone()).unwrap_or_default();
    for fact in &facts {
        for chain in &fact.causes {
            if !causes.contains(chain) {
                causes.push(chain.clone());
            }
        }
    }
    let facts_held: Vec<Vec<Cause>> = facts.iter().flat_map(|f| f.held.clone()).collect();
    Verdict {
        outcome: worst.map_or(Outcome::Correct, |f| f.outcome),
        failures,
        causes,
        at_risk: facts.iter().filter_map(|f| f.at_risk.clone()).collect(),
        in_flight: facts.iter().filter_map(|f| f.in_flight.clone()).collect(),
        facts,
        open: false,
        unsettled: Vec::new(),
        held: facts_held,
    }
}

/// The last note that tells a dead-lettering (why each receive of the
/// message ended, without its head), and the last note made after it.
fn dead_letter_story(notes: &[Vec<Cause>]) -> (Option<&[Cause]>, Option<&Vec<Cause>>) {
    let at = notes
        .iter()
        .rposition(|n| matches!(n.first(), Some(Cause::DeadLetterQueue { .. })));
    match at {
        Some(i) => (Some(&notes[i][1..]), notes[i + 1..].last()),
        None => (None, None),
    }
}

/// Why a correct fact's repeats did no harm, in the order they happened:
/// each delivery skipped as handled and each charge the provider gave back
/// from its key store, with the chain of why that repeat came at all.
fn held(f: &FactState<'_>) -> Vec<Vec<Cause>> {
    use crate::sim::skip::Skip;
    let step = |chain: &Vec<Cause>| match chain.first() {
        Some(Cause::Skipped { step, .. } | Cause::Replayed { step, .. }) => *step,
        _ => usize::MAX,
    };
    let mut held: Vec<Vec<Cause>> = f
        .notes
        .iter()
        .filter(|n| {
            matches!(n.first(), Some(Cause::Skipped { skip, .. }) if !matches!(skip, Skip::TakenOver { .. }))
        })
        .chain(f.replays)
        .cloned()
        .collect();
    held.sort_by_key(step);
    held
}

/// The last skip of this fact's message by a delivery that found it
/// handled (not one that lost its claim to another delivery, which did
/// not decide the work was done).
fn last_skip(notes: &[Vec<Cause>]) -> Option<&Cause> {
    use crate::sim::skip::Skip;
    notes.iter().rev().filter_map(|note| note.first()).find(
        |c| matches!(c, Cause::Skipped { skip, .. } if !matches!(skip, Skip::TakenOver { .. })),
    )
}

/// The cause chains of every effect beyond the `n` the producer asked for:
/// each extra row and each extra charge names what made it.
/// Each chain comes with whether an effect it tells was let through by
/// retention.
fn extra_causes(f: &FactState<'_>, n: usize, kinds: &[LedgerKind]) -> Vec<(Vec<Cause>, bool)> {
    let mut chains: Vec<(Vec<Cause>, bool)> = Vec::new();
    for kind in kinds {
        // The effects beyond the `n` asked for are the ones a repeat made,
        // whatever order they landed in: on PostgreSQL a redelivery's row
        // can commit before the first delivery's, and that first row, with
        // no cause of its own, was counted extra in its place (teacher
        // trial 27: tour-3's verdict lost "another row"). The sort is
        // stable, so each group keeps the order it landed in.
        let mut entries: Vec<_> = f.ledger.iter().filter(|e| e.kind == *kind).collect();
        entries.sort_by_key(|e| !e.cause.is_empty());
        for entry in entries.into_iter().skip(n) {
            // A charge made by a delivery whose row is already told shares
            // that chain's story and may add a reason in front of it
            // ("called without an Idempotency-Key"): the longer chain tells
            // both, in causal order, so it takes the shorter one's place.
            // A chain that another already ends with adds nothing.
            let cause = &entry.cause;
            let retention = entry.let_through_by_retention;
            // The row and the charge of one repeated delivery: one link
            // says what that delivery did again.
            if let Some((joined, told)) = chains.iter_mut().find_map(|c| {
                let same_story =
                    !cause.is_empty() && c.0.len() == cause.len() && c.0[1..] == cause[1..];
                same_story
                    .then(|| c.0[0].joined(&cause[0]))
                    .flatten()
                    .map(|joined| (joined, c))
            }) {
                told.0[0] = joined;
                told.1 |= retention;
                continue;
            }
            if let Some(longer) = chains.iter_mut().find(|c| c.0.ends_with(cause)) {
                longer.1 |= retention;
                continue;
            }
            match chains.iter_mut().find(|c| cause.ends_with(&c.0)) {
                Some(shorter) => *shorter = (cause.clone(), shorter.1 || retention),
                None if cause.is_empty() => {}
                None => chains.push((cause.clone(), retention)),
            }
        }
    }
    chains
}

/// Judges one payment. Counts of rows and charges only ever grow, so a
/// double charge is declared the moment it happens; every other outcome
/// waits until no copy of the message is queued, leased or in a handler,
/// since a redelivery could still change it. Until then the verdict says
/// what is wrong so far, as a risk.
pub fn judge_fact(f: &FactState<'_>) -> FactVerdict {
    use LedgerKind::{PaymentCommitted, ProviderCharged};
    let n = f.expected;
    let order = f.payment.order;
    let counts = || Cause::Counts {
        fact: f.name.clone(),
        charges: f.charges,
        payments: f.payments,
    };
    // The last dead-lettering of this fact's message, and the last note
    // made after it.
    let (dead_letter, after) = dead_letter_story(f.notes);
    let skipped = last_skip(f.notes);
    // The delivery that would have done the work skipped it, nothing was
    // charged or paid, and every later delivery will skip the same way:
    // the charge is lost at the skip, not at the ack that follows it.
    let lost_at_skip = skipped.is_some()
        && f.recorded_unpaid
        && f.record_lasts
        && f.all_skipping
        && f.payments == 0
        && f.charges == 0
        && !f.to_come
        && !f.dead_lettered;
    let doomed = f.doomed || lost_at_skip;
    let mut failures = Vec::new();
    let mut causes: Vec<Vec<Cause>> = Vec::new();
    let add = |chains: Vec<Vec<Cause>>, causes: &mut Vec<Vec<Cause>>| {
        for chain in chains {
            if !causes.contains(&chain) {
                causes.push(chain);
            }
        }
    };
    // A card charged more than owed cannot be uncharged: the customer has
    // paid twice the moment the provider says so, whatever the database
    // will hold, so this is declared at once. (Rows never shrink either,
    // but an extra row alone is not yet money taken.)
    // Whether a chain told here has an effect retention let through.
    let mut let_through_by_retention = false;
    if f.charges > n {
        failures.push(Outcome::ChargedTwice);
        let extra = extra_causes(f, n, &[PaymentCommitted, ProviderCharged]);
        let_through_by_retention |= extra.iter().any(|(_, retention)| *retention);
        add(
            extra.into_iter().map(|(chain, _)| chain).collect(),
            &mut causes,
        );
    }
    // The two ledgers disagree, with the chain that says why.
    let disagree = |failures: &[Outcome]| {
        let mut chain = vec![counts()];
        let mut also = Vec::new();
        if f.dead_lettered {
            chain.push(Cause::DeadLettered { order });
            // Why each receive of the message ended without an ack.
            chain.extend(dead_letter.iter().copied().flatten().cloned());
            also.extend(after.cloned());
        }
        let extra = if f.charges > n {
            extra_causes(f, n, &[ProviderCharged])
        } else if f.payments > n {
            extra_causes(f, n, &[PaymentCommitted])
        } else {
            Vec::new()
        };
        // Beside a double charge, whose causes are told already, the
        // disagreement needs only its counts.
        let mut retention = false;
        if !failures.contains(&Outcome::ChargedTwice) {
            match extra.into_iter().next() {
                // The dead-lettering did not make the extra effect: the
                // effect's own chain stands beside it.
                Some((more, through)) if f.dead_lettered => {
                    also = vec![more];
                    retention = through;
                }
                Some((more, through)) => {
                    chain.extend(more);
                    retention = through;
                }
                None if f.dead_lettered => {}
                None => chain.extend(f.notes.last().into_iter().flatten().cloned()),
            }
        } else {
            also.clear();
            // The counts restate what the figures beside the headline
            // show, and the double charge's own chain already tells why the
            // two ledgers part: the disagreement keeps only what that chain
            // does not tell (a dead-lettering), as a chain of its own.
            chain.remove(0);
        }
        let mut chains = vec![chain];
        chains.retain(|c| !c.is_empty());
        chains.extend(also.into_iter().filter(|c| !c.is_empty()));
        (chains, retention)
    };
    // The books are closed on a disagreement before the message settles
    // when the card was charged beyond what was owed and no transaction of
    // this fact is open: the extra charge stays, the committed rows are
    // what the database says, and a later delivery that commits a row also
    // calls the provider, so nothing brings the two back into line. (A
    // delivery that would commit a row without a new charge needs a key the
    // provider replays, and a keyed call never charged twice.) Declared
    // here, at the step that closes the books, not when the ack lands.
    if f.pending && f.charges > n && !f.writing && f.payments != f.charges {
        let (chains, retention) = disagree(&failures);
        let_through_by_retention |= retention;
        failures.push(Outcome::Disagree);
        add(chains, &mut causes);
    }
    let mut outcome = None;
    let mut at_risk = None;
    let mut in_flight = None;
    // With a copy still to come, what would be declared wrong now is only
    // wrong so far: the copy may set it right, and a declared verdict is
    // never taken back. (A double charge is declared above: no copy can
    // take a charge back.)
    let wrong_now = f.payments != f.charges || (f.payments < n && !(f.dead_lettered && f.poison));
    if (f.pending && !lost_at_skip) || (f.to_come && wrong_now) {
        if failures.is_empty() {
            let name = &f.name;
            at_risk = if f.recorded_unpaid {
                // Once a delivery has skipped it, say so: "would" is for
                // what has not happened yet. No step number: a note is
                // text, and a found schedule counts moves (trial 46: `at
                // step 14` beside `move 15/17`); the events say where.
                Some(match skipped {
                    Some(Cause::Skipped { id, consumer, .. }) => format!(
                        "{name} is recorded as handled, its payment is not: {consumer} has skipped {id}, and every delivery is skipped while that record stands"
                    ),
                    _ => format!(
                        "{name} is recorded as handled, its payment is not: a redelivery would be skipped"
                    ),
                })
            } else if let Some(KeyedCharge { key, holds }) = &f.keyed_charge
                && f.charges > f.payments
                && f.charges <= n
            {
                // Under a keyed design a retry is replayed, not charged
                // again: the charge is under way, not a risk.
                in_flight = Some(format!(
                    "{name}: charged {} with key {key}; {}",
                    times(f.charges),
                    f.row.text(*holds)
                ));
                None
            } else if f.payments != f.charges || f.payments > n {
                Some(format!(
                    "{name}: so far the provider charged {}, the database has {}",
                    times(f.charges),
                    rows(f.payments)
                ))
            } else if f.acked_before_work {
                Some(format!(
                    "the broker removed the message for {name} before its work was saved"
                ))
            } else {
                None
            };
            outcome = Some(Outcome::InProgress);
        }
    } else {
        if f.payments != f.charges {
            let (chains, retention) = disagree(&failures);
            let_through_by_retention |= retention;
            failures.push(Outcome::Disagree);
            add(chains, &mut causes);
        } else if f.payments < n {
            // Rows and charges agree, and fall short.
            if f.dead_lettered && f.poison {
                outcome = Some(Outcome::DeadLettered);
                add(
                    vec![vec![Cause::DeadLetteredRefused { order }]],
                    &mut causes,
                );
            } else if f.dead_lettered {
                failures.push(Outcome::ChargeLost);
                // Why each receive ended without an ack, newest first; a
                // note made after the dead-lettering (a late copy's skip)
                // is a cause beside it, not behind it.
                let mut chain = vec![Cause::ReceivesRanOut { order }];
                chain.extend(dead_letter.iter().copied().flatten().cloned());
                let mut chains = vec![chain];
                chains.extend(after.cloned());
                add(chains, &mut causes);
            } else if f.acked_before_work && !doomed {
                failures.push(Outcome::MessageLost);
                let mut chain = vec![Cause::RemovedBeforeWork { order }];
                chain.extend(f.notes.last().into_iter().flatten().cloned());
                add(vec![chain], &mut causes);
            } else {
                failures.push(Outcome::ChargeLost);
                let mut chain = vec![if doomed {
                    Cause::RecordedUnpaid { order }
                } else {
                    Cause::NothingLeft { order }
                }];
                chain.extend(f.notes.last().into_iter().flatten().cloned());
                add(vec![chain], &mut causes);
            }
        }
        if failures.is_empty() && outcome.is_none() {
            outcome = Some(Outcome::Correct);
        }
    }
    failures.sort_by(|a, b| b.cmp(a));
    let correct = failures.is_empty() && matches!(outcome, None | Some(Outcome::Correct));
    FactVerdict {
        held: if correct { held(f) } else { Vec::new() },
        order,
        amount: f.payment.amount,
        expected: n,
        expected_status: None,
        actual_status: None,
        payments: f.payments,
        charges: f.charges,
        outcome: failures
            .first()
            .copied()
            .or(outcome)
            .unwrap_or(Outcome::Correct),
        failures,
        causes,
        at_risk,
        in_flight,
        harm_step: f
            .ledger
            .iter()
            .filter(|e| e.kind == ProviderCharged)
            .nth(n)
            .into_iter()
            .chain(
                f.ledger
                    .iter()
                    .filter(|e| e.kind == PaymentCommitted)
                    .nth(n),
            )
            .map(|e| e.step)
            .min(),
        let_through_by_retention,
    }
}
