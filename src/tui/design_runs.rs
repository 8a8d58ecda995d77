//! The runs of every design `m` reaches from the one on screen, which the
//! header fits its form over, so that `m` changes the design's name and
//! the verdict but not the header around them. `update` builds them when
//! the scenario, the design or the seed changes, and the app keeps them:
//! the view renders frames and never runs a simulation. A run is the same
//! for the same scenario, design, seed and forks, so each is built once.
//! After a fork, `m` opens the other design with the forks carried over
//! (`Timeline::carry_forks`): the runs kept are those forked runs, so the
//! header's form holds across `m` there too.

use crate::scenario::Script;
use crate::sim::Strategy;
use crate::timeline::{Fork, Timeline};
use std::sync::Arc;

/// One design's run: its design and its timeline.
pub type Run = (Strategy, Arc<Timeline>);

/// Whose run it is: the scenario, the design, the seed and the forks.
type Whose = (Script, Strategy, u64, Vec<Fork>);

/// The run on screen, whose forks `m` carries to the other designs.
pub struct Shown<'a> {
    pub design: &'a Strategy,
    pub timeline: &'a Timeline,
    pub forks: &'a [Fork],
}

/// The runs built so far, a few scenarios' worth.
#[derive(Clone, Default)]
pub struct DesignRuns {
    /// Each run built, or `None` where it failed to build (so it is not
    /// tried again at every action).
    kept: Vec<(Whose, Option<Arc<Timeline>>)>,
}

/// Every built-in's designs, with room to spare: a bound on what a long
/// session keeps.
const KEEP: usize = 64;

impl DesignRuns {
    /// Builds the runs of the designs `m` reaches from the one on screen
    /// that are not kept yet: each as written, and, after a fork, with
    /// the forks carried over as `m` would carry them.
    pub fn sync(&mut self, script: &Script, shown: &Shown, own: Option<&Strategy>, seed: u64) {
        for design in reached(script, shown.design, own) {
            // Called after every action, ticks too: a run kept costs a
            // comparison, and nothing is cloned until one is missing.
            let written = self.built(script, &design, seed, &[]);
            if let Some(written) = written.filter(|_| !shown.forks.is_empty()) {
                let carried = shown.timeline.carry_forks(shown.forks, &written);
                self.built(script, &design, seed, &carried);
            }
        }
    }

    /// The kept run, built first where it is missing.
    fn built(
        &mut self,
        script: &Script,
        design: &Strategy,
        seed: u64,
        forks: &[Fork],
    ) -> Option<Arc<Timeline>> {
        if let Some(kept) = self.find(script, design, seed, forks) {
            return kept.clone();
        }
        // A database file the learner named (`--db FILE`) holds the
        // run they opened, not one the header measured: these runs
        // keep to memory. A PostgreSQL scenario still runs on its
        // server, as `m` would open it: its steps are told in the
        // server's words, and the header measures those.
        let mut memory = script.clone();
        memory.setup.db_file = None;
        let run = Timeline::build(&memory, design, seed, forks)
            .ok()
            .map(Arc::new);
        if self.kept.len() >= KEEP {
            self.kept.remove(0);
        }
        let whose = (script.clone(), design.clone(), seed, forks.to_vec());
        self.kept.push((whose, run.clone()));
        run
    }

    /// The kept run of `design` with `forks`, if it was built
    /// (`Some(None)`: it was tried and failed).
    fn find(
        &self,
        script: &Script,
        design: &Strategy,
        seed: u64,
        forks: &[Fork],
    ) -> Option<&Option<Arc<Timeline>>> {
        self.kept
            .iter()
            .find(|((s, d, n, f), _)| s == script && d == design && *n == seed && f == forks)
            .map(|(_, run)| run)
    }

    /// The run of each design `m` reaches from the one on screen, as `m`
    /// would open it (forks carried over), where `sync` built it. A design
    /// whose run cannot be built is left out.
    pub fn others(
        &self,
        script: &Script,
        shown: &Shown,
        own: Option<&Strategy>,
        seed: u64,
    ) -> Vec<Run> {
        reached(script, shown.design, own)
            .into_iter()
            .filter_map(|design| {
                let written = self.find(script, &design, seed, &[]).cloned().flatten()?;
                let run = if shown.forks.is_empty() {
                    written
                } else {
                    let carried = shown.timeline.carry_forks(shown.forks, &written);
                    self.find(script, &design, seed, &carried)
                        .cloned()
                        .flatten()?
                };
                Some((design, run))
            })
            .collect()
    }
}

/// The designs `m` reaches from the one on screen: the scenario's, and
/// the learner's own once `m` has left it.
fn reached(script: &Script, shown: &Strategy, own: Option<&Strategy>) -> Vec<Strategy> {
    let mut all: Vec<Strategy> = Vec::new();
    for design in designs(script).into_iter().chain(own.cloned()) {
        if design.name != shown.name && !all.iter().any(|d| d.name == design.name) {
            all.push(design);
        }
    }
    all
}

/// The designs `m` goes through for a scenario: those it has expectations
/// for, the one it opens in first, then the rest by name.
pub fn designs(script: &Script) -> Vec<Strategy> {
    let first = script.design();
    let mut names = vec![first.clone()];
    names.extend(script.strategies().into_iter().filter(|n| *n != first));
    names.iter().filter_map(|n| Strategy::by_name(n)).collect()
}
