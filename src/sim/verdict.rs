//! Did the customer pay what they owe? Expected effects come from the
//! distinct business facts (one charge per order); actual effects from the
//! committed payments table and the provider's ledger.

use super::message::Payment;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Correct,
    InProgress,
    DeadLettered,
    /// The message left the queue with no effect and no record of it.
    MessageLost,
    ChargeLost,
    /// An older status change overwrote a newer one.
    StaleState,
    Disagree,
    ChargedTwice,
}

impl Outcome {
    pub const ALL: [Outcome; 8] = [
        Outcome::Correct,
        Outcome::InProgress,
        Outcome::DeadLettered,
        Outcome::MessageLost,
        Outcome::ChargeLost,
        Outcome::StaleState,
        Outcome::Disagree,
        Outcome::ChargedTwice,
    ];

    /// The words scenario files and transcripts use.
    pub fn text(self) -> &'static str {
        match self {
            Outcome::Correct => "correct",
            Outcome::InProgress => "in progress",
            Outcome::DeadLettered => "dead-lettered",
            Outcome::MessageLost => "message lost",
            Outcome::ChargeLost => "charge lost",
            Outcome::StaleState => "stale state",
            Outcome::Disagree => "provider and database disagree",
            Outcome::ChargedTwice => "charged twice",
        }
    }

    /// The wrong effects, most severe first: the order tables show them in.
    pub const FAILURES: [Outcome; 5] = [
        Outcome::ChargedTwice,
        Outcome::ChargeLost,
        Outcome::Disagree,
        Outcome::MessageLost,
        Outcome::StaleState,
    ];

    /// From its words (`charged twice`) or its slug (`charged-twice`).
    pub fn parse(text: &str) -> Option<Outcome> {
        Self::ALL
            .into_iter()
            .find(|o| o.text() == text || o.slug() == text)
    }

    /// For file names: `charged-twice`.
    pub fn slug(self) -> String {
        self.text()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// One bit per outcome, for small sets of them.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// A wrong effect on the customer, as opposed to fine or not yet known.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Outcome::ChargeLost
                | Outcome::MessageLost
                | Outcome::StaleState
                | Outcome::Disagree
                | Outcome::ChargedTwice
        )
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// Which side recorded a charge, for the cause chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerKind {
    PaymentCommitted,
    ProviderCharged,
}

/// One effect that happened, with the chain of reasons behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LedgerEntry {
    pub order: u32,
    pub amount: u32,
    pub kind: LedgerKind,
    pub step: usize,
    pub cause: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactVerdict {
    pub order: u32,
    pub amount: u32,
    /// How many times the producer asked for this payment.
    pub expected: usize,
    /// For a status fact: the newest status the producer sent, and the
    /// status the committed row has.
    pub expected_status: Option<String>,
    pub actual_status: Option<String>,
    /// Committed rows in `payments` for this order.
    pub payments: usize,
    /// Charges the provider made for this order.
    pub charges: usize,
    pub outcome: Outcome,
    pub cause: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub outcome: Outcome,
    pub facts: Vec<FactVerdict>,
    /// The cause chain of the worst fact, effect first.
    pub cause: Vec<String>,
}

impl Verdict {
    /// One line: `charged twice <- m-7f3 redelivered <- lease expired <- ack lost at step 7`.
    pub fn chain(&self) -> String {
        let mut parts = vec![self.outcome.text().to_string()];
        parts.extend(self.cause.iter().cloned());
        parts.join(" <- ")
    }
}

/// What the world knows about one business fact when judging it.
pub struct FactState<'a> {
    pub payment: &'a Payment,
    pub expected: usize,
    pub payments: usize,
    pub charges: usize,
    /// A copy is still queued or leased, or a consumer is handling it.
    pub pending: bool,
    /// Recorded as handled (processed_messages or the cache) with no
    /// payment while nobody works on it: every redelivery will be skipped.
    pub doomed: bool,
    /// The broker removed a copy on an ack that came before any work was
    /// saved, as acking on receipt does.
    pub acked_before_work: bool,
    pub dead_lettered: bool,
    pub ledger: Vec<&'a LedgerEntry>,
    pub notes: &'a [String],
}

fn times(n: usize) -> String {
    match n {
        0 => "not at all".into(),
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

fn rows(n: usize) -> String {
    match n {
        0 => "no payment row".into(),
        1 => "1 payment row".into(),
        n => format!("{n} payment rows"),
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
    notes: &[String],
) -> FactVerdict {
    let (outcome, cause) = if pending {
        (Outcome::InProgress, Vec::new())
    } else if actual == Some(expected) {
        (Outcome::Correct, Vec::new())
    } else if dead_lettered {
        (
            Outcome::DeadLettered,
            vec![format!(
                "a status change for order {order} was dead-lettered"
            )],
        )
    } else {
        let mut cause = vec![format!(
            "order {order} ends {}, its newest status is {expected}",
            actual.unwrap_or("without a status")
        )];
        cause.extend(notes.last().cloned());
        (Outcome::StaleState, cause)
    };
    FactVerdict {
        order,
        amount: 0,
        expected: 1,
        expected_status: Some(expected.to_string()),
        actual_status: actual.map(str::to_string),
        payments: 0,
        charges: 0,
        outcome,
        cause,
    }
}

/// The verdict over all facts: the worst one decides.
pub fn combine(facts: Vec<FactVerdict>) -> Verdict {
    let worst = facts.iter().max_by_key(|f| f.outcome);
    Verdict {
        outcome: worst.map_or(Outcome::Correct, |f| f.outcome),
        cause: worst.map(|f| f.cause.clone()).unwrap_or_default(),
        facts,
    }
}

pub fn judge_fact(f: &FactState<'_>) -> FactVerdict {
    let nth = |kind: LedgerKind, n: usize| -> Vec<String> {
        f.ledger
            .iter()
            .filter(|e| e.kind == kind)
            .nth(n)
            .map(|e| e.cause.clone())
            .unwrap_or_default()
    };
    let disagree = |extra: Vec<String>| {
        let mut cause = vec![format!(
            "the provider charged {}, the database has {}",
            times(f.charges),
            rows(f.payments)
        )];
        cause.extend(extra);
        (Outcome::Disagree, cause)
    };
    let n = f.expected;
    let (outcome, cause) = if f.payments > n && f.charges > n {
        (Outcome::ChargedTwice, nth(LedgerKind::PaymentCommitted, n))
    } else if f.charges > n {
        disagree(nth(LedgerKind::ProviderCharged, n))
    } else if f.payments > n {
        disagree(nth(LedgerKind::PaymentCommitted, n))
    } else if f.pending && !f.doomed {
        // Even with the counts right, a copy still on its way can change them.
        (Outcome::InProgress, Vec::new())
    } else if f.payments == n && f.charges == n {
        (Outcome::Correct, Vec::new())
    } else if f.dead_lettered {
        let mut cause = vec![format!(
            "order {} moved to the dead-letter queue",
            f.payment.order
        )];
        if f.payments != f.charges {
            cause.push(format!(
                "the provider charged {}, the database has {}",
                times(f.charges),
                rows(f.payments)
            ));
        }
        (Outcome::DeadLettered, cause)
    } else if f.payments != f.charges {
        disagree(f.notes.last().cloned().into_iter().collect())
    } else if f.acked_before_work && !f.doomed {
        let mut cause = vec![format!(
            "the broker removed the message for order {} before its work was saved",
            f.payment.order
        )];
        cause.extend(f.notes.last().cloned());
        (Outcome::MessageLost, cause)
    } else {
        let mut cause = vec![if f.doomed {
            format!(
                "order {} is recorded as handled, with no payment",
                f.payment.order
            )
        } else {
            format!("nothing left to redeliver for order {}", f.payment.order)
        }];
        cause.extend(f.notes.last().cloned());
        (Outcome::ChargeLost, cause)
    };
    FactVerdict {
        order: f.payment.order,
        amount: f.payment.amount,
        expected: f.expected,
        expected_status: None,
        actual_status: None,
        payments: f.payments,
        charges: f.charges,
        outcome,
        cause,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(payments: usize, charges: usize, pending: bool) -> FactVerdict {
        let payment = Payment {
            order: 1042,
            amount: 40,
        };
        judge_fact(&FactState {
            payment: &payment,
            expected: 1,
            payments,
            charges,
            pending,
            doomed: false,
            acked_before_work: false,
            dead_lettered: false,
            ledger: Vec::new(),
            notes: &[],
        })
    }

    #[test]
    fn outcomes_follow_the_counts() {
        assert_eq!(fact(1, 1, false).outcome, Outcome::Correct);
        assert_eq!(fact(1, 1, true).outcome, Outcome::InProgress);
        assert_eq!(fact(2, 2, false).outcome, Outcome::ChargedTwice);
        assert_eq!(fact(1, 2, false).outcome, Outcome::Disagree);
        assert_eq!(fact(2, 1, false).outcome, Outcome::Disagree);
        assert_eq!(fact(0, 0, true).outcome, Outcome::InProgress);
        assert_eq!(fact(0, 0, false).outcome, Outcome::ChargeLost);
        assert_eq!(fact(0, 1, false).outcome, Outcome::Disagree);
        assert_eq!(fact(0, 1, true).outcome, Outcome::InProgress);
    }

    #[test]
    fn outcome_words_round_trip() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::parse(o.text()), Some(o));
            assert_eq!(Outcome::parse(&o.slug()), Some(o));
        }
        assert_eq!(Outcome::Disagree.slug(), "provider-and-database-disagree");
    }

    #[test]
    fn failures_are_exactly_the_wrong_effects() {
        let mut failures: Vec<Outcome> = Outcome::ALL
            .into_iter()
            .filter(|o| o.is_failure())
            .collect();
        let mut listed = Outcome::FAILURES.to_vec();
        failures.sort();
        listed.sort();
        assert_eq!(failures, listed);
    }
}
