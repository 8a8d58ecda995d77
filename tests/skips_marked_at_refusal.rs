//! A skip is marked where it is decided: the move in which a handler finds
//! the message already handled (its claim refused, its look-up found, its
//! record busy) marks every step the skip path jumps over, at once. Teacher
//! trial, level 3 at 100x30: the replay's move 10 refused A's claim
//! (`≠ insert message ID  key taken ◀`) and still listed `begin transaction`,
//! `insert payment row`, `charge the card (key)` unmarked below the commit,
//! as if A would pay; they turned `↷ skipped` only at move 11, A's commit.

use crate::common::sweep;
use idem::sim::Frame;
use idem::sim::consumer::Mark;
use idem::timeline::Timeline;

/// The steps of each consumer that turn skipped in a move that refused
/// nothing for that consumer, other than the one step the move ran
/// (a status change's provider call passes as skipped where it runs).
pub fn skipped_late(timeline: &Timeline) -> Vec<String> {
    let refusal = |m: Mark| matches!(m, Mark::Conflict | Mark::Superseded | Mark::BackedOff);
    let mut late = Vec::new();
    for pair in timeline.frames.windows(2) {
        let (before, now): (&Frame, &Frame) = (&pair[0], &pair[1]);
        for c in &now.consumers {
            let Some(was) = before.consumers.iter().find(|b| b.name == c.name) else {
                continue;
            };
            let refused_now = c
                .steps
                .iter()
                .zip(&was.steps)
                .any(|(s, w)| refusal(s.mark) && !refusal(w.mark));
            if refused_now {
                continue;
            }
            for (j, (s, w)) in c.steps.iter().zip(&was.steps).enumerate() {
                if s.mark == Mark::Skipped && w.mark != Mark::Skipped && was.next != Some(j) {
                    late.push(format!(
                        "{} under {}, move {}: {}'s `{}` turns skipped only now",
                        timeline.scenario, timeline.strategy, now.index, c.name, s.label
                    ));
                }
            }
        }
    }
    late
}

/// Every built-in scenario under every design it lists (the walk the
/// screen sweeps keep): the built-in designs mark a skip at the refusing
/// step.
#[test]
fn built_in_designs_mark_a_skip_where_it_is_decided() {
    let mut late = Vec::new();
    sweep::each_timeline(|t| late.extend(skipped_late(t)));
    assert!(late.is_empty(), "\n{}", late.join("\n"));
}
