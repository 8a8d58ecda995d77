//! The level screen's state: which level, the learner's handler as it is
//! being edited, and what the prover said about it. The prover runs outside
//! `update` (the terminal layer puts it on a thread: it takes up to about a
//! second) and its answer comes back as an action.

use crate::levels::{self, Attempt, Level};
use crate::scenario::runnable::{self, StepError};
use crate::sim::Op;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Where the prover is for the handler on screen.
#[derive(Clone, Debug, Default)]
pub enum Proving {
    /// Not asked since the last edit.
    #[default]
    Idle,
    /// Asked; `ms` is how long it has been running.
    Running {
        ms: u64,
    },
    Done(Arc<Attempt>),
    Failed(String),
}

/// The prover's answer, handed back to `update`.
#[derive(Clone, Debug)]
pub struct Proved(pub Arc<Result<Attempt, String>>);

#[derive(Clone, Debug)]
pub struct LevelPlay {
    pub levels: Vec<Level>,
    /// Index into `levels`.
    pub current: usize,
    /// The learner's handler.
    pub program: Vec<Op>,
    /// The step the keys act on; new blocks go in after it.
    pub selected: usize,
    pub proving: Proving,
    /// Whether the hint (and the keys the bar has no room for) is shown.
    pub hint: bool,
    /// Whether the goal and the prover's words fill the screen (`w`): on a
    /// small one the prover's box has a row, and a claim's bounds and the
    /// rest of its words do not fit in it.
    pub whole: bool,
    /// Numbers of the levels won in this session, for a record of progress
    /// to keep (see `won`).
    pub won: BTreeSet<usize>,
    /// Of those, the ones whose last win in this session the try one
    /// fault further broke: the header marks them `!`, as the explorer
    /// does a design that holds only within its bounds.
    pub only_within: BTreeSet<usize>,
    /// Of those, the ones won in an earlier session whose progress file
    /// did not keep how the win fared one fault further (written by an
    /// idem before it kept that): the header says so, not a bare `✓`.
    pub further_unknown: BTreeSet<usize>,
}

impl Default for LevelPlay {
    fn default() -> Self {
        let levels = levels::all();
        let program = levels[0].start.clone();
        LevelPlay {
            levels,
            current: 0,
            program,
            selected: 0,
            proving: Proving::Idle,
            hint: false,
            whole: false,
            won: BTreeSet::new(),
            only_within: BTreeSet::new(),
            further_unknown: BTreeSet::new(),
        }
    }
}

impl LevelPlay {
    pub fn level(&self) -> &Level {
        &self.levels[self.current]
    }

    /// Opens level `index` at its starting design.
    pub fn go_to(&mut self, index: usize) {
        self.current = index.min(self.levels.len() - 1);
        self.program = self.level().start.clone();
        self.selected = 0;
        self.proving = Proving::Idle;
        self.hint = false;
        self.whole = false;
    }

    /// Why the handler cannot run as it stands, if it cannot, naming the
    /// blocks as the level screen shows them.
    pub fn invalid(&self) -> Option<StepError> {
        runnable::check_order_named(&self.program, crate::sim::step_name::label).err()
    }

    /// The levels the learner's saved progress says were won before.
    pub fn recall(&mut self, progress: &crate::learner::Progress) {
        use crate::learner::Further;
        for level in &self.levels {
            if progress.level_won(&level.slug) {
                self.won.insert(level.number);
                match progress.level_further(&level.slug) {
                    Some(Further::Breaks) => {
                        self.only_within.insert(level.number);
                    }
                    Some(Further::Holds) => {}
                    None => {
                        self.further_unknown.insert(level.number);
                    }
                }
            }
        }
    }

    /// Whether level `number` was won, in this session or an earlier one.
    pub fn won(&self, number: usize) -> bool {
        self.won.contains(&number)
    }

    /// Whether level `number` was last won, in this session, by a handler
    /// that breaks one fault further.
    pub fn won_only_within(&self, number: usize) -> bool {
        self.only_within.contains(&number)
    }

    /// Whether level `number` was won in an earlier session whose file did
    /// not keep how that win fared one fault further.
    pub fn won_further_unknown(&self, number: usize) -> bool {
        self.further_unknown.contains(&number)
    }

    /// The prover's answer for the handler on screen, if it has one.
    pub fn attempt(&self) -> Option<&Attempt> {
        match &self.proving {
            Proving::Done(a) => Some(a),
            _ => None,
        }
    }

    /// Any edit makes an earlier verdict stale.
    pub fn edited(&mut self) {
        self.proving = Proving::Idle;
        self.selected = self.selected.min(self.program.len().saturating_sub(1));
    }
}
