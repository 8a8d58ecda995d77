//! "Build the handler yourself": levels that hand the learner a broken
//! handler and a goal, and let the prover judge each attempt. A level is a
//! data file in `levels/` (embedded in the binary): a goal, the starting
//! design, the conditions a solution must meet, and a reference solution
//! that the tests hold to the same judgement as the learner's.

mod attempt;
mod faults;
mod file;

pub use attempt::{Attempt, Verdict};
pub use faults::Fault;
pub use file::{is_level_file, load_warned, parse, parse_warned};

use crate::sim::{Op, Outcome, Strategy};
use std::borrow::Cow;

/// (file name, text), in play order; the number in the name is the level's.
pub const BUILTIN: &[(&str, &str)] = &[
    ("01-naive.toml", include_str!("../../levels/01-naive.toml")),
    (
        "02-ack-first.toml",
        include_str!("../../levels/02-ack-first.toml"),
    ),
    (
        "03-id-first.toml",
        include_str!("../../levels/03-id-first.toml"),
    ),
    (
        "04-charge-first.toml",
        include_str!("../../levels/04-charge-first.toml"),
    ),
    (
        "05-no-provider-key.toml",
        include_str!("../../levels/05-no-provider-key.toml"),
    ),
    (
        "06-cache-claim-first.toml",
        include_str!("../../levels/06-cache-claim-first.toml"),
    ),
    (
        "07-cache-work-first.toml",
        include_str!("../../levels/07-cache-work-first.toml"),
    ),
    (
        "08-offset.toml",
        include_str!("../../levels/08-offset.toml"),
    ),
    (
        "09-from-scratch.toml",
        include_str!("../../levels/09-from-scratch.toml"),
    ),
];

/// One level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// 1 for the first level: the number `idem play --level N` takes, and
    /// the id a record of levels won keeps.
    pub number: usize,
    /// `naive`, from the file name: stable across versions.
    pub slug: String,
    pub title: String,
    /// What to achieve, in the learner's terms.
    pub goal: String,
    /// The failure the starting design shows: what the level is about.
    pub about: Outcome,
    /// The faults the prover injects: those the goal names (every kind
    /// when the file names none).
    pub faults: Vec<Fault>,
    /// Said when asked for help; never the answer itself.
    pub hint: String,
    /// The level's condition in words (`without the cache`), if it has one.
    pub rule: Option<String>,
    /// Building blocks a solution may not use.
    pub forbid: Vec<Op>,
    /// The blocks offered to add, in the order the palette lists them.
    pub palette: Vec<Op>,
    pub start: Vec<Op>,
    /// A design that wins: kept so the tests prove the level can be won.
    pub solution: Vec<Op>,
}

impl Level {
    /// The design an attempt is checked as: the learner says it is safe,
    /// and the prover holds it to that.
    pub fn design(&self, program: &[Op]) -> Strategy {
        Strategy {
            name: Cow::Owned(format!("level-{}", self.number)),
            summary: Cow::Owned(format!(
                "your handler for level {}: {}",
                self.number, self.title
            )),
            claims_safe: true,
            program: program.to_vec(),
        }
    }

    /// The bounds every attempt at this level is proven within.
    pub fn bounds(&self) -> crate::check::Bounds {
        faults::bounds(&self.faults)
    }

    /// The conditions `program` breaks, in words; empty when it meets them all.
    pub fn broken_conditions(&self, program: &[Op]) -> Vec<String> {
        let mut used: Vec<Op> = self
            .forbid
            .iter()
            .copied()
            .filter(|op| program.contains(op))
            .collect();
        used.dedup();
        used.into_iter()
            .map(|op| {
                format!(
                    "uses `{}`, which this level forbids{}",
                    crate::sim::step_name::label(op),
                    self.rule
                        .as_deref()
                        .map_or(String::new(), |r| format!(" ({r})"))
                )
            })
            .collect()
    }
}

/// Every level, in order. The built-in files are tested, so an error here
/// is a bug, and names the file.
pub fn all() -> Vec<Level> {
    BUILTIN
        .iter()
        .map(|(name, text)| parse(name, text).unwrap_or_else(|e| panic!("built-in level {e}")))
        .collect()
}

/// Level `number` (1 is the first).
pub fn get(number: usize) -> Option<Level> {
    all().into_iter().find(|l| l.number == number)
}
