//! What `idem check` found: one row per design checked within the bounds
//! (its schedules by outcome, the properties and whether they held, the
//! shortest counterexamples), and the report over all of them.

use super::further;
use super::{Bounds, Counterexample, Eventually, Invariant, Kind, Witness};
use crate::sim::{Move, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;

/// An always-property and whether it held in every state.
#[derive(Clone, Debug, Serialize)]
pub struct InvariantResult {
    pub invariant: Invariant,
    pub text: String,
    pub holds: bool,
    /// The shortest schedule to a state that breaks it.
    pub shortest: Option<Vec<Move>>,
}

/// The eventually-property of the run's kind and whether every quiet
/// state met it.
#[derive(Clone, Debug, Serialize)]
pub struct EventuallyResult {
    pub property: Eventually,
    pub text: String,
    pub holds: bool,
    /// Schedules that ended without it (see `StrategyReport::failing`).
    pub failing: u64,
}

/// A sometimes-property and whether some state showed it.
#[derive(Clone, Debug, Serialize)]
pub struct WitnessResult {
    pub witness: Witness,
    pub text: String,
    /// `false` also when it cannot apply (one consumer cannot share).
    pub seen: bool,
    /// Whether the bounds make it possible at all.
    pub required: bool,
    /// Moves of the shortest schedule that shows it.
    pub depth: Option<u32>,
}

/// One row of the table: one strategy checked within the bounds.
#[derive(Clone, Debug, Serialize)]
pub struct StrategyReport {
    pub strategy: String,
    pub summary: String,
    pub claims_safe: bool,
    /// The messages published at the start: `m-7f3 (order 1042, $40)`.
    pub messages: Vec<String>,
    /// The bounds this strategy was checked under, when they differ from
    /// the report's (see `Bounds::for_strategy`).
    pub bounds: Option<Bounds>,
    /// Complete schedules (start to a quiet state) through the explored
    /// state graph, identical consumers counted once; saturates at u64::MAX.
    pub schedules: u64,
    /// Whether `outcomes` counts schedules (true) or quiet states (false,
    /// only if the state graph had a cycle).
    pub schedules_counted: bool,
    /// Distinct states.
    pub states: u64,
    /// Moves applied to a replayed world.
    pub transitions: u64,
    /// States reached again other than by the world that found them: a
    /// copy of a kept world, and the moves from there (or from the start),
    /// on a spare database. The same count whatever the copying saves.
    pub replays: u64,
    pub max_depth: u32,
    /// States left unexpanded at `Bounds::max_depth`; 0 means the search
    /// covered everything within the fault bounds.
    pub truncated: u64,
    /// Schedules by every outcome they ended with: a schedule that ends
    /// charged twice and with the books in disagreement counts under both,
    /// so the counts can add up to more than `schedules`.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Of the schedules with some wrong outcome, those that dead-lettered
    /// a message every one of whose receives a crash ended: no handler
    /// could have finished them.
    #[serde(skip_serializing_if = "is_zero")]
    pub unfinishable: u64,
    /// What the messages carry: the properties below are the ones that
    /// say something about a run of this kind, and only those.
    pub kind: Kind,
    pub invariants: Vec<InvariantResult>,
    pub eventually: EventuallyResult,
    pub witnesses: Vec<WitnessResult>,
    /// The shortest schedule for each failure class found.
    pub counterexamples: Vec<Counterexample>,
    /// What the design's promise rests on (an ordered log, status changes).
    pub assumptions: Vec<crate::sim::Assumption>,
    /// Where the bounds step outside those assumptions, in words: then a
    /// failure is outside the design's promise, not a broken claim.
    pub outside: Option<String>,
    /// A design that held, tried one bound further (see `further`).
    pub further: Vec<further::Further>,
    /// Wall-clock seconds; zero after `CheckReport::without_timings`.
    pub seconds: f64,
}

impl StrategyReport {
    /// Some schedule within the bounds breaks the design.
    pub fn broken(&self) -> bool {
        !self.counterexamples.is_empty() || self.invariants.iter().any(|i| !i.holds)
    }

    /// The design promises an exactly-once effect (its `claims_safe`, a
    /// field name kept for the files that use it), and the checker found
    /// a schedule that contradicts it.
    pub fn contradicts_claim(&self) -> bool {
        self.claims_safe && self.broken() && self.outside.is_none()
    }

    /// A sometimes-property that the bounds allow was never seen: the search
    /// did not exercise what it is supposed to prove.
    pub fn vacuous(&self) -> bool {
        self.witnesses.iter().any(|w| w.required && !w.seen)
    }

    /// Schedules that ended with this outcome, among others or alone.
    pub fn count(&self, class: Outcome) -> u64 {
        self.outcomes.get(&class).copied().unwrap_or(0)
    }

    /// Schedules that ended with some wrong effect, each counted once.
    pub fn failing(&self) -> u64 {
        failing(&self.outcomes, self.schedules)
    }

    pub fn states_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.states as f64 / self.seconds
        } else {
            0.0
        }
    }

    pub fn counterexample(&self, class: Outcome) -> Option<&Counterexample> {
        self.counterexamples.iter().find(|c| c.class == class)
    }
}

/// Of `schedules` that ended with these outcomes, the ones with some wrong
/// effect, each counted once (a run with none counts under its one right
/// outcome alone).
pub(super) fn failing(outcomes: &BTreeMap<Outcome, u64>, schedules: u64) -> u64 {
    let right: u64 = Outcome::ALL
        .into_iter()
        .filter(|o| !o.is_failure())
        .map(|o| outcomes.get(&o).copied().unwrap_or(0))
        .sum();
    schedules.saturating_sub(right)
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub bounds: Bounds,
    pub strategies: Vec<StrategyReport>,
    pub seconds: f64,
}

impl CheckReport {
    /// Whether the table gives `class` a column of counts: every end a
    /// payment can come to, zero or not, and a stale status only where
    /// some design can produce one. `idem check` and the explorer ask
    /// here, so the two count the same outcomes. (A run in progress is
    /// never a quiet state's end: never a column.)
    pub fn counts_column(&self, class: Outcome) -> bool {
        match class {
            Outcome::InProgress => false,
            Outcome::StaleState => self.strategies.iter().any(|s| s.count(class) > 0),
            _ => true,
        }
    }

    /// Every strategy held to its claim, and no pass was vacuous.
    pub fn passed(&self) -> bool {
        self.strategies
            .iter()
            .all(|s| !s.contradicts_claim() && !s.vacuous())
    }

    /// The same report with every wall-clock figure set to zero, so that two
    /// runs compare equal.
    pub fn without_timings(mut self) -> Self {
        self.seconds = 0.0;
        for s in &mut self.strategies {
            s.seconds = 0.0;
            for f in &mut s.further {
                f.seconds = 0.0;
            }
        }
        self
    }

    pub fn strategy(&self, name: &str) -> Option<&StrategyReport> {
        self.strategies.iter().find(|s| s.strategy == name)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the report is plain data")
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
