//! The publishes still to come in a run: the script's own and those of the
//! user's moves not yet applied. While any remain, a fact that looks settled
//! may still be reopened, so the verdict says "so far".

use super::Fork;
use crate::scenario::{Action, Script};
use crate::sim::Move;

/// The chapter (numbered from 1) and action of the script's last publish.
pub(super) fn last_publish(script: &Script) -> Option<(usize, usize)> {
    script
        .steps
        .iter()
        .enumerate()
        .flat_map(|(c, step)| {
            step.actions
                .iter()
                .enumerate()
                .map(move |(a, x)| (c + 1, a, x))
        })
        .filter(|(_, _, action)| matches!(action, Action::Move(Move::Publish { .. })))
        .map(|(c, a, _)| (c, a))
        .next_back()
}

/// Every publish of the script, with its place (chapter, action), in order.
pub(super) fn publishes_of(script: &Script) -> Vec<((usize, usize), String)> {
    let mut out = Vec::new();
    for (c, step) in script.steps.iter().enumerate() {
        for (a, action) in step.actions.iter().enumerate() {
            if let Action::Move(Move::Publish { message }) = action {
                out.push(((c + 1, a), message.clone()));
            }
        }
    }
    out
}

/// The messages the user's moves still to apply will publish.
pub(super) fn fork_publishes(forks: &[Fork]) -> impl Iterator<Item = &str> {
    forks.iter().filter_map(|f| match &f.mv {
        Move::Publish { message } => Some(message.as_str()),
        _ => None,
    })
}

/// Whether any of the user's moves still to apply publishes.
pub(super) fn publishes(forks: &[Fork]) -> bool {
    forks.iter().any(|f| matches!(f.mv, Move::Publish { .. }))
}
