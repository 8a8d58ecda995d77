//! Which consumers the class is watching at a step. When the service panel
//! cannot show every consumer's steps whole, the others fold first: the
//! list a teacher points at stays a list.

use crate::sim::Frame;
use crate::sim::event::Actor;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watch {
    /// The consumers this step is about: each ran a step of its program,
    /// said something in the step's events, or had a mark changed (a
    /// crash, an ack the broker ignored).
    acted: Vec<String>,
    /// The ones the class looks to next: those the nearest later step with
    /// a consumer in it is about, or at the end of the run those the last
    /// such step was about. Every step in between names the same ones, so
    /// a run of quiet steps does not flip which list is folded.
    next: Vec<String>,
    /// Every consumer heading the run draws (name, status, message, a
    /// transaction open), once each: the service panel sizes its heading's
    /// form for the longest, so the form holds from step to step.
    pub(super) heads: Vec<Head>,
}

/// What a consumer's heading in the service panel is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Head {
    pub name: String,
    pub status: crate::sim::consumer::Status,
    pub message: Option<String>,
    pub in_txn: bool,
}

impl Watch {
    /// The watch at `frames[at]`. Bounded by the run's length: one pass
    /// forward, at most one back.
    pub fn of(frames: &[Frame], at: usize) -> Watch {
        if at >= frames.len() {
            return Watch::default();
        }
        let about = |i: usize| about(frames, i);
        let next = (at + 1..frames.len())
            .map(about)
            .find(|a| !a.is_empty())
            .or_else(|| (0..at).rev().map(about).find(|a| !a.is_empty()))
            .unwrap_or_default();
        let mut heads: Vec<Head> = Vec::new();
        for c in frames.iter().flat_map(|f| &f.consumers) {
            let head = Head {
                name: c.name.clone(),
                status: c.status.clone(),
                message: c.message.clone(),
                in_txn: c.in_txn,
            };
            if !heads.contains(&head) {
                heads.push(head);
            }
        }
        Watch {
            acted: about(at),
            next,
            heads,
        }
    }

    /// A watch on no consumer in particular that still sizes the service
    /// panel's headings for the whole run: compare folds its lists in
    /// order, but a heading there must keep its form from step to step
    /// too.
    pub fn of_run(frames: &[Frame]) -> Watch {
        Watch {
            heads: Watch::of(frames, 0).heads,
            ..Watch::default()
        }
    }

    /// As `of_run`, sized for the headings of every run in `runs`: the
    /// engines view draws one design on two engines, and both sides take
    /// the one form both fit (trial: `consumer A idle` beside `A: idle`).
    pub fn of_runs(runs: &[&[Frame]]) -> Watch {
        let mut heads: Vec<Head> = Vec::new();
        for head in runs.iter().flat_map(|frames| Watch::of_run(frames).heads) {
            if !heads.contains(&head) {
                heads.push(head);
            }
        }
        Watch {
            heads,
            ..Watch::default()
        }
    }

    /// How much the class is watching `consumer`: the one that acted, then
    /// the one that acts next, then any other; folding starts from the least.
    pub fn rank(&self, consumer: &str) -> u8 {
        let named = |names: &[String]| names.iter().any(|n| n == consumer);
        if named(&self.acted) {
            2
        } else if named(&self.next) {
            1
        } else {
            0
        }
    }
}

/// The consumers step `at` is about, in the panel's order.
fn about(frames: &[Frame], at: usize) -> Vec<String> {
    let Some(f) = frames.get(at) else {
        return Vec::new();
    };
    let before = at.checked_sub(1).and_then(|i| frames.get(i));
    f.consumers
        .iter()
        .filter(|c| {
            let spoke = f
                .events
                .iter()
                .any(|e| matches!(&e.actor, Actor::Consumer(n) if *n == c.name));
            let marks_moved = before.is_some_and(|b| {
                b.consumers
                    .iter()
                    .find(|o| o.name == c.name)
                    .is_some_and(|o| {
                        o.steps.len() == c.steps.len()
                            && o.steps.iter().zip(&c.steps).any(|(x, y)| x.mark != y.mark)
                    })
            });
            f.changes.step_of(&c.name).is_some() || spoke || marks_moved
        })
        .map(|c| c.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    fn tour_3() -> Vec<Frame> {
        let script = scenario::find("tour-3").unwrap();
        Timeline::build(&script, &Strategy::idempotent(), 0, &[])
            .unwrap()
            .frames
    }

    #[test]
    fn the_consumer_that_ran_ranks_first_and_the_next_one_second() {
        let frames = tour_3();
        // The step where B takes m-7f3 while A, still inside its
        // transaction, acts again later.
        let at = frames
            .iter()
            .position(|f| f.changes.step_of("B") == Some(0))
            .expect("B receives");
        let w = Watch::of(&frames, at);
        assert_eq!(w.rank("B"), 2, "{w:?}");
        let next = (at + 1..frames.len())
            .find(|&i| !about(&frames, i).is_empty())
            .unwrap();
        for c in about(&frames, next) {
            assert!(w.rank(&c) >= 1, "{c} acts next: {w:?}");
        }
    }

    #[test]
    fn quiet_steps_all_watch_the_same_consumer() {
        // Two steps in a row with no consumer in them (the setup, a fault
        // armed, the clock) name the same consumers to watch, in every
        // built-in run; and the end of a run watches who acted last.
        let mut pairs = 0;
        for script in scenario::load::builtins() {
            for design in script.strategies() {
                let s = Strategy::by_name(&design).unwrap();
                let frames = Timeline::build(&script, &s, 0, &[]).unwrap().frames;
                for i in 1..frames.len() {
                    if about(&frames, i - 1).is_empty() && about(&frames, i).is_empty() {
                        pairs += 1;
                        let (a, b) = (Watch::of(&frames, i - 1), Watch::of(&frames, i));
                        assert_eq!(a, b, "{} {design} steps {} and {i}", script.name, i - 1);
                    }
                }
                let last = Watch::of(&frames, frames.len() - 1);
                assert!(!last.next.is_empty(), "{} {design}: {last:?}", script.name);
            }
        }
        assert!(pairs > 0, "no two quiet steps in a row anywhere");
    }

    #[test]
    fn a_mark_changed_by_someone_else_is_about_its_consumer() {
        // A step of B's in which A's row changes, though A neither ran nor
        // spoke (as when another party's act re-marks A's step): A is news.
        let mut frames = tour_3();
        let at = frames
            .iter()
            .position(|f| f.changes.step_of("B").is_some())
            .expect("B runs");
        assert!(!about(&frames, at).contains(&"A".to_string()));
        let before = Watch::of(&frames, at).rank("A");
        let k = frames[at].consumers[0].steps.len() - 1;
        frames[at].consumers[0].steps[k].mark = crate::sim::consumer::Mark::Failed;
        assert_eq!(Watch::of(&frames, at).rank("A"), 2, "was {before}");
        assert_eq!(Watch::of(&[], 3), Watch::default(), "no frame, no watch");
    }
}
