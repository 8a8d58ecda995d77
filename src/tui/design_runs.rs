//! The runs of every design `m` reaches from the one on screen, which the
//! header fits its form over, so that `m` changes the design's name and
//! the verdict but not the header around them. `update` builds them when
//! the scenario, the design or the seed changes, and the app keeps them:
//! the view renders frames and never runs a simulation. A run is the same
//! for the same scenario, design and seed, so each is built once.

use crate::scenario::Script;
use crate::sim::{Frame, Strategy};
use std::rc::Rc;

/// One design's run: its design and its frames.
pub type Run = (Strategy, Rc<Vec<Frame>>);

/// Whose run it is: the scenario, the design and the seed.
type Whose = (Script, Strategy, u64);

/// The runs built so far, a few scenarios' worth.
#[derive(Default)]
pub struct DesignRuns {
    /// Each run built, or `None` where it failed to build (so it is not
    /// tried again at every action).
    kept: Vec<(Whose, Option<Rc<Vec<Frame>>>)>,
}

/// Every built-in's designs, with room to spare: a bound on what a long
/// session keeps.
const KEEP: usize = 64;

impl DesignRuns {
    /// Builds the runs of the designs `m` reaches from the one on screen
    /// that are not kept yet.
    pub fn sync(&mut self, script: &Script, shown: &Strategy, own: Option<&Strategy>, seed: u64) {
        for design in reached(script, shown, own) {
            // Called after every action, ticks too: a run kept costs a
            // comparison, and nothing is cloned until one is missing.
            if self.find(script, &design, seed).is_some() {
                continue;
            }
            // A database file the learner named (`--db FILE`) holds the
            // run they opened, not one the header measured: these runs
            // keep to memory. A PostgreSQL scenario still runs on its
            // server, as `m` would open it: its steps are told in the
            // server's words, and the header measures those.
            let mut memory = script.clone();
            memory.setup.db_file = None;
            let frames = crate::timeline::Timeline::build(&memory, &design, seed, &[])
                .ok()
                .map(|t| Rc::new(t.frames));
            if self.kept.len() >= KEEP {
                self.kept.remove(0);
            }
            self.kept.push(((script.clone(), design, seed), frames));
        }
    }

    /// The kept run of `design`, if it was built (`Some(None)`: it was
    /// tried and failed).
    fn find(
        &self,
        script: &Script,
        design: &Strategy,
        seed: u64,
    ) -> Option<&Option<Rc<Vec<Frame>>>> {
        self.kept
            .iter()
            .find(|((s, d, n), _)| s == script && d == design && *n == seed)
            .map(|(_, frames)| frames)
    }

    /// The run of each design `m` reaches from the one on screen, as `m`
    /// would open it, where `sync` built it. A design whose run cannot be
    /// built is left out.
    pub fn others(
        &self,
        script: &Script,
        shown: &Strategy,
        own: Option<&Strategy>,
        seed: u64,
    ) -> Vec<Run> {
        reached(script, shown, own)
            .into_iter()
            .filter_map(|design| {
                self.find(script, &design, seed)
                    .cloned()
                    .flatten()
                    .map(|frames| (design, frames))
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
