//! Whether a run ever prunes processed_messages: the script's own moves or
//! the user's. Until told otherwise the verdict assumes a committed ID row
//! may be pruned, and so never calls a skipped, unpaid fact lost before its
//! message is gone.

use super::Fork;
use crate::scenario::{Action, Script};
use crate::sim::Move;

/// Some move of the script or of the user's prunes processed IDs.
pub(super) fn prunes(script: &Script, forks: &[Fork]) -> bool {
    let prune = |mv: &Move| matches!(mv, Move::Prune { .. });
    script
        .steps
        .iter()
        .flat_map(|step| &step.actions)
        .any(|action| matches!(action, Action::Move(mv) if prune(mv)))
        || forks.iter().any(|f| prune(&f.mv))
}
