//! One attempt at a level: the prover's report on the learner's design and
//! the level's conditions, and whether together they win the level.

use super::Level;
use crate::check::{self, CheckError, Counterexample, StrategyReport};
use crate::sim::Op;

/// States one attempt may explore: twenty times what a handler of the most
/// steps a design may have needed (24 steps: 2,566 states, 1.7 s), so a
/// learner's handler is never cut short, and a bound on the wait if one
/// ever were.
pub const MAX_STATES: u64 = 50_000;

/// How an attempt fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The prover found no counterexample and every condition holds.
    Won,
    /// The prover found none, but the design breaks a condition.
    Holds { broken: Vec<String> },
    /// A schedule breaks it.
    Broken,
    /// Nothing broke it, but no duplicate ever arrived either: the proof
    /// says nothing (a handler that never redelivers cannot be tested).
    Vacuous,
}

#[derive(Clone, Debug)]
pub struct Attempt {
    /// The level's number.
    pub level: usize,
    /// The failure the level is about, shown first when the design has it.
    pub about: crate::sim::Outcome,
    pub program: Vec<Op>,
    pub report: StrategyReport,
    pub verdict: Verdict,
}

impl Attempt {
    /// Runs the prover on `program` within the default bounds, and a
    /// handler that holds one bound further (see `check::further`). Takes up to
    /// about a second for the levels' designs and two for a handler of the
    /// most steps a design may have (release build), so callers on a UI
    /// thread run it elsewhere; [`MAX_STATES`] bounds it whatever the
    /// handler.
    pub fn check(level: &Level, program: &[Op]) -> Result<Attempt, CheckError> {
        let design = level.design(program);
        let watch = check::Watch::new(MAX_STATES);
        let report = check::check_watched(&design, &level.bounds(), &watch)?;
        let broken = level.broken_conditions(program);
        let verdict = if report.broken() {
            Verdict::Broken
        } else if report.vacuous() {
            Verdict::Vacuous
        } else if !broken.is_empty() {
            Verdict::Holds { broken }
        } else {
            Verdict::Won
        };
        Ok(Attempt {
            level: level.number,
            about: level.about,
            program: program.to_vec(),
            report,
            verdict,
        })
    }

    /// Whether this attempt wins its level: what a record of progress keeps.
    pub fn won(&self) -> bool {
        self.verdict == Verdict::Won
    }

    /// The shortest run that breaks the design: of the failure the level
    /// is about when it has one (the story the goal tells), else of the
    /// most severe class.
    /// A won level's handler can still break one bound further: then the
    /// shortest run of the way most schedules there fail, the one the won
    /// sentence tells of ("57 schedules there end charged, then
    /// dead-lettered…; see the shortest run (v)"), so `v` shows what the
    /// claim's bounds leave out.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        let all = &self.report.counterexamples;
        all.iter()
            .find(|c| c.class == self.about)
            .or(all.first())
            .or_else(|| {
                self.report
                    .further
                    .iter()
                    .find_map(|f| f.ways().first().map(|(_, cx)| *cx))
            })
    }
}
