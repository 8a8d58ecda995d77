//! How many facts stand at each outcome over a whole run, kept as facts
//! are judged again: the verdict's headline without going through every
//! fact.

use crate::sim::verdict::{FactVerdict, Outcome};
use std::collections::BTreeMap;

/// How many facts stand at each outcome, kept as facts are judged again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Facts per outcome, indexed by `Outcome as usize`.
    pub outcomes: [usize; 8],
    /// Facts per wrong effect that holds for them (a fact can have several).
    pub failures: [usize; 8],
    /// For facts charged twice or more: how many were charged n times.
    charged_times: BTreeMap<usize, usize>,
}

impl Tally {
    pub(super) fn account(&mut self, f: &FactVerdict, up: bool) {
        let step = |n: &mut usize| {
            if up { *n += 1 } else { *n -= 1 }
        };
        step(&mut self.outcomes[f.outcome as usize]);
        for o in &f.failures {
            step(&mut self.failures[*o as usize]);
        }
        if f.failures.contains(&Outcome::ChargedTwice) {
            let n = self
                .charged_times
                .entry(f.charges.max(f.payments))
                .or_default();
            step(n);
            if *n == 0 {
                self.charged_times.remove(&f.charges.max(f.payments));
            }
        }
    }

    /// The worst outcome over all facts: the verdict's headline outcome.
    pub fn outcome(&self) -> Outcome {
        Outcome::ALL
            .into_iter()
            .rev()
            .find(|o| self.outcomes[*o as usize] > 0)
            .unwrap_or(Outcome::Correct)
    }

    /// Every wrong effect that holds, worst first.
    pub fn failures(&self) -> Vec<Outcome> {
        Outcome::ALL
            .into_iter()
            .rev()
            .filter(|o| self.failures[*o as usize] > 0)
            .collect()
    }

    /// The most times any fact was charged, among those charged twice or more.
    pub fn most_charged(&self) -> Option<usize> {
        self.charged_times.keys().next_back().copied()
    }

    /// The verdict's headline (`charged 3 times, provider and database
    /// disagree`), as `Verdict::headline` words it; `open`: more messages
    /// are still to come.
    pub fn headline(&self, open: bool) -> String {
        let counted = |o: Outcome| match o {
            Outcome::ChargedTwice => format!(
                "charged {}",
                crate::sim::cause::times(self.most_charged().unwrap_or(2))
            ),
            other => other.text().to_string(),
        };
        let outcome = self.outcome();
        let mut parts = vec![counted(outcome)];
        parts.extend(
            self.failures()
                .into_iter()
                .filter(|o| *o != outcome)
                .map(counted),
        );
        let mut line = parts.join(", ");
        if open && matches!(outcome, Outcome::Correct | Outcome::DeadLettered) {
            line.push_str(crate::sim::verdict::SO_FAR);
        }
        line
    }

    /// Facts whose outcome is settled (not in progress).
    pub fn settled(&self) -> usize {
        self.outcomes.iter().sum::<usize>() - self.outcomes[Outcome::InProgress as usize]
    }
}
