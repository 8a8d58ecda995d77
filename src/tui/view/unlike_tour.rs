//! A design's shortest breaking run beside the tour that tells how the
//! design breaks: the check finds the fewest moves to each end, which
//! need not be the fault the tour teaches (naive's shortest double charge
//! loses a provider response; tour 1 loses an ack). Both are read off
//! their moves, so the line stays true if either changes.

use crate::check::Counterexample;
use crate::scenario::{Action, Group, Script};
use crate::sim::Move;

/// The fault a move injects, in words; none for a move of the run itself.
fn fault(m: &Move) -> Option<&'static str> {
    Some(match m {
        Move::Crash { .. } => "a crash",
        Move::LoseAck { .. } => "a lost ack",
        Move::LoseResponse { .. } => "a lost provider response",
        Move::Slow { .. } => "a slow consumer",
        Move::ExpireLease { .. } => "a lease that runs out early",
        Move::Publish { .. } => "a producer retry",
        Move::Step { .. } | Move::Wait { .. } | Move::Prune { .. } | Move::Produce { .. } => {
            return None;
        }
    })
}

/// The faults of a list of moves, in the order they fall, joined.
fn faults<'a>(moves: impl Iterator<Item = &'a Move>) -> Vec<&'static str> {
    moves.filter_map(fault).collect()
}

/// The tours, parsed once: a screen is drawn many times a second.
fn tours() -> &'static [Script] {
    static TOURS: std::sync::OnceLock<Vec<Script>> = std::sync::OnceLock::new();
    TOURS.get_or_init(|| {
        crate::scenario::load::builtins()
            .into_iter()
            .filter(|s| s.group == Group::Tour)
            .collect()
    })
}

/// The first tour told for `design`, if a tour is.
fn tour_of(design: &str) -> Option<&'static Script> {
    tours()
        .iter()
        .filter(|s| s.design() == design)
        .min_by_key(|s| s.order)
}

/// One plain line on how `cx` differs from the tour told for its design:
/// ` tour 1 breaks naive with a lost ack; this shortest run needs only a
/// lost provider response`. None when the faults are the same, or no
/// tour tells this design.
pub fn line(cx: &Counterexample) -> Option<String> {
    let tour = tour_of(&cx.strategy)?;
    let told = faults(
        tour.steps
            .iter()
            .flat_map(|s| &s.actions)
            .filter_map(|a| match a {
                Action::Move(m) => Some(m),
                Action::Run { .. } => None,
            }),
    );
    let run = faults(cx.moves.iter());
    if told == run || told.is_empty() {
        return None;
    }
    let said = |f: &[&str]| {
        if f.is_empty() {
            "no fault at all".to_string()
        } else {
            f.join(" and ")
        }
    };
    Some(format!(
        " tour {} breaks {} with {}; this shortest run needs {} instead",
        tour.order,
        cx.strategy,
        said(&told),
        said(&run)
    ))
}
