//! The soak's books for one design: each business fact judged by the
//! world's own verdict when it settles, counted under every outcome it
//! ends with (as `idem check` counts a run), with the money owed, charged
//! and recorded, and one example of each violation.

use crate::sim::Outcome;
use crate::sim::verdict::{self, FactVerdict};
use serde::Serialize;
use std::collections::BTreeMap;

/// Dollars, summed over the facts judged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Money {
    /// What the customers asked to pay: every payment the producer
    /// published, counting one made twice on purpose twice.
    pub owed: u64,
    /// What the provider took from their cards.
    pub charged: u64,
    /// What the payments table holds.
    pub recorded: u64,
}

/// How far one outcome's facts moved the money from what was owed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Drift {
    pub facts: u64,
    pub charged: i64,
    pub recorded: i64,
}

/// One violation, as it was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// `order 1031 ($40)`.
    pub fact: String,
    pub messages: Vec<String>,
    /// The verdict with its cause chain.
    pub chain: String,
    /// The file `--save` writes its story to, when the story replays on
    /// its own to the same outcome.
    pub story: Option<String>,
    /// Why there is no story file, when there is none.
    pub no_story: Option<String>,
    /// The story as a scenario file (not in the report itself).
    #[serde(skip)]
    pub story_text: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Business facts judged (a payment made twice on purpose is one fact
    /// owed twice).
    pub facts: u64,
    /// Facts by outcome: a fact counts under each outcome it ends with
    /// (charged twice and provider and database disagree: both), so the
    /// counts overlap where `overlapping` is above 0.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Facts counted under more than one outcome.
    pub overlapping: u64,
    pub money: Money,
    /// Per failing outcome: how much its facts moved the money (a fact
    /// under two outcomes moves both).
    pub drift: BTreeMap<Outcome, Drift>,
    /// Every failing fact once, whatever its outcomes: how many, and how
    /// far they moved the money together.
    pub violations: Drift,
    pub examples: BTreeMap<Outcome, Example>,
    /// Facts that went wrong because a late copy came after its ID was
    /// pruned: what the retention cost.
    pub let_through_by_retention: u64,
    /// Messages judged with an earlier one of the same payment: each
    /// payment made twice on purpose is two messages and one fact, so the
    /// messages published outnumber the facts judged by this many.
    pub made_twice: u64,
    /// Facts still under way when the soak stopped that had already gone
    /// wrong: counted under their violations, not as in progress.
    pub under_way_wrong: u64,
}

impl Tally {
    /// Books one settled fact under each outcome it ends with; the failing
    /// outcomes it is the first of (its example is wanted for each).
    pub fn book(&mut self, fact: &FactVerdict) -> Vec<Outcome> {
        self.book_as(fact, false)
    }

    /// Books a fact the soak stopped with still under way, as it stands:
    /// in progress, unless it has already gone wrong (a wrong effect is
    /// never taken back). Its money so far counts as a settled fact's
    /// does, so the books still match the database's and the provider's.
    pub fn book_in_progress(&mut self, fact: &FactVerdict) -> Vec<Outcome> {
        self.book_as(fact, true)
    }

    fn book_as(&mut self, fact: &FactVerdict, under_way: bool) -> Vec<Outcome> {
        let amount = u64::from(fact.amount);
        let owed = fact.expected as u64 * amount;
        let charged = fact.charges as u64 * amount;
        let recorded = fact.payments as u64 * amount;
        self.facts += 1;
        self.made_twice += (fact.expected as u64).saturating_sub(1);
        let outcomes = if under_way && fact.failures.is_empty() {
            vec![Outcome::InProgress]
        } else {
            fact.outcomes()
        };
        if under_way && !fact.failures.is_empty() {
            self.under_way_wrong += 1;
        }
        for o in &outcomes {
            *self.outcomes.entry(*o).or_default() += 1;
        }
        if outcomes.len() > 1 {
            self.overlapping += 1;
        }
        self.money.owed += owed;
        self.money.charged += charged;
        self.money.recorded += recorded;
        let failures: Vec<Outcome> = outcomes.into_iter().filter(|o| o.is_failure()).collect();
        if failures.is_empty() {
            return failures;
        }
        let moved = |drift: &mut Drift| {
            drift.facts += 1;
            drift.charged += charged as i64 - owed as i64;
            drift.recorded += recorded as i64 - owed as i64;
        };
        moved(&mut self.violations);
        for o in &failures {
            moved(self.drift.entry(*o).or_default());
        }
        if fact.let_through_by_retention {
            self.let_through_by_retention += 1;
        }
        failures
            .into_iter()
            .filter(|o| !self.examples.contains_key(o))
            .collect()
    }

    /// Failing facts, each once however many outcomes it ends with.
    pub fn violations(&self) -> u64 {
        self.violations.facts
    }
}

/// One fact's verdict with its cause chain, in one line, its steps by
/// the soak's count (`soak step 645`): its story counts its own.
pub fn chain(fact: &FactVerdict) -> String {
    verdict(fact).chain_at(crate::sim::cause::Arrow::Ascii, &soak_step)
}

/// A step of the soak in words: `soak step 645`, never read as a step of
/// the story, which counts from its own start.
pub fn soak_step(step: usize) -> String {
    format!("soak step {step}")
}

/// One fact's verdict, as a run's verdict of that fact alone.
pub fn verdict(fact: &FactVerdict) -> verdict::Verdict {
    verdict::combine(vec![fact.clone()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(outcome: Outcome, expected: usize, payments: usize, charges: usize) -> FactVerdict {
        FactVerdict {
            held: Vec::new(),
            order: 1001,
            amount: 40,
            expected,
            expected_status: None,
            actual_status: None,
            payments,
            charges,
            outcome,
            failures: vec![outcome]
                .into_iter()
                .filter(|o| o.is_failure())
                .collect(),
            causes: vec![vec![
                crate::sim::Cause::Redelivered { id: "m-1".into() },
                crate::sim::Cause::LeaseExpired,
            ]],
            at_risk: None,
            in_flight: None,
            harm_step: None,
            let_through_by_retention: false,
        }
    }

    #[test]
    fn money_and_drift_add_up() {
        let mut tally = Tally::default();
        assert!(tally.book(&fact(Outcome::Correct, 2, 2, 2)).is_empty());
        assert_eq!(
            tally.book(&fact(Outcome::ChargedTwice, 1, 2, 2)),
            [Outcome::ChargedTwice]
        );
        let example = Example {
            fact: "order 1001 ($40)".into(),
            messages: vec!["m-1".into()],
            chain: "charged twice".into(),
            story: None,
            no_story: None,
            story_text: None,
        };
        tally.examples.insert(Outcome::ChargedTwice, example);
        assert!(tally.book(&fact(Outcome::ChargedTwice, 1, 3, 3)).is_empty());
        assert_eq!(
            tally.book(&fact(Outcome::ChargeLost, 1, 0, 0)),
            [Outcome::ChargeLost]
        );
        assert_eq!(tally.facts, 4);
        assert_eq!(tally.overlapping, 0);
        assert_eq!(
            tally.money,
            Money {
                owed: 200,
                charged: 280,
                recorded: 280
            }
        );
        let drift: i64 = tally.drift.values().map(|d| d.recorded).sum();
        assert_eq!(tally.money.owed as i64 + drift, tally.money.recorded as i64);
        assert_eq!(tally.drift[&Outcome::ChargedTwice].facts, 2);
        assert_eq!(tally.violations(), 3);
        assert_eq!(tally.let_through_by_retention, 0);
    }

    /// A fact charged twice whose provider and database disagree counts
    /// under both outcomes and moves both outcomes' money, once among the
    /// violations and once in the money (`idem check` counts a run so).
    #[test]
    fn a_fact_counts_under_every_outcome_it_ends_with() {
        let mut tally = Tally::default();
        let mut both = fact(Outcome::ChargedTwice, 1, 1, 2);
        both.failures = vec![Outcome::ChargedTwice, Outcome::Disagree];
        assert_eq!(
            tally.book(&both),
            [Outcome::ChargedTwice, Outcome::Disagree]
        );
        tally.book(&fact(Outcome::Correct, 1, 1, 1));
        assert_eq!(tally.outcomes[&Outcome::ChargedTwice], 1);
        assert_eq!(tally.outcomes[&Outcome::Disagree], 1);
        assert_eq!(tally.outcomes[&Outcome::Correct], 1);
        assert_eq!(tally.overlapping, 1);
        assert_eq!(tally.violations(), 1);
        assert_eq!(tally.drift[&Outcome::Disagree].charged, 40);
        assert_eq!(tally.drift[&Outcome::Disagree].recorded, 0);
        assert_eq!(
            tally.money.owed as i64 + tally.violations.charged,
            tally.money.charged as i64
        );
    }

    #[test]
    fn the_retention_count_reads_the_verdict_not_its_words() {
        let mut tally = Tally::default();
        // A pruned ID in the chain with no let-through behind it (the
        // copy it let through did nothing): not counted.
        let mut worded = fact(Outcome::ChargedTwice, 1, 2, 2);
        worded.causes = vec![vec![crate::sim::Cause::Admitted(
            crate::sim::admission::Admission::Pruned {
                id: "m-1".into(),
                step: 3,
            },
        )]];
        tally.book(&worded);
        assert_eq!(tally.let_through_by_retention, 0);
        let mut typed = fact(Outcome::ChargedTwice, 1, 2, 2);
        typed.let_through_by_retention = true;
        tally.book(&typed);
        assert_eq!(tally.let_through_by_retention, 1);
        // A correct fact is never a cost of retention.
        let mut correct = fact(Outcome::Correct, 1, 1, 1);
        correct.let_through_by_retention = true;
        tally.book(&correct);
        assert_eq!(tally.let_through_by_retention, 1);
    }
}
