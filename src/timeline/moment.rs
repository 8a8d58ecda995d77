//! The moment a frame shows, named so that it means the same under every
//! design: the chapter, the action of that chapter, and inside a `run` the
//! handler step that ran. Designs have programs of different lengths, so
//! switching design keeps the moment, never the frame index.

use super::Timeline;
use crate::sim::Frame;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    pub chapter: usize,
    pub action: usize,
    /// The consumer and the keyword of the handler step that ran (`payment`,
    /// `commit`), with the program's keywords up to it.
    pub step: Option<(String, String, Vec<String>)>,
    /// Which frame of its action this is, counting from 0.
    pub ordinal: usize,
}

/// The consumer and keyword of the step a frame ran, and the keywords of
/// that consumer's program up to it.
fn ran(f: &Frame) -> Option<(String, String, Vec<String>)> {
    let s = f.changes.steps.first()?;
    let c = f.consumers.iter().find(|c| c.name == s.consumer)?;
    let upto = c.steps.iter().take(s.step + 1).map(|x| x.keyword.clone());
    Some((
        s.consumer.clone(),
        c.steps.get(s.step)?.keyword.clone(),
        upto.collect(),
    ))
}

impl Timeline {
    fn same_action(&self, chapter: usize, action: usize) -> Vec<usize> {
        (0..self.frames.len())
            .filter(|&i| {
                let f = &self.frames[i];
                f.chapter == chapter && f.action_index == action
            })
            .collect()
    }

    pub fn moment(&self, frame: usize) -> Moment {
        let f = &self.frames[frame.min(self.frames.len() - 1)];
        let ordinal = self
            .same_action(f.chapter, f.action_index)
            .iter()
            .position(|&i| i == f.index)
            .unwrap_or(0);
        Moment {
            chapter: f.chapter,
            action: f.action_index,
            step: ran(f),
            ordinal,
        }
    }

    /// The user's moves, made on this timeline, placed on `to` (the same
    /// script under another design, as written): the first move at the same
    /// moment of the story, every later one as many steps after it as here,
    /// since from the first move on both runs play out on their own.
    pub fn carry_forks(&self, forks: &[super::Fork], to: &Timeline) -> Vec<super::Fork> {
        let Some(first) = forks.first() else {
            return Vec::new();
        };
        let at = to.find(&self.moment(first.at));
        forks
            .iter()
            .map(|f| super::Fork {
                at: at + (f.at - first.at),
                mv: f.mv.clone(),
            })
            .collect()
    }

    /// The frame that shows the moment, or, when this design has no frame
    /// for it (a `run` that stopped at once), the last frame before it.
    pub fn find(&self, m: &Moment) -> usize {
        let candidates = self.same_action(m.chapter, m.action);
        let Some(&first) = candidates.first() else {
            return self
                .frames
                .iter()
                .rposition(|f| (f.chapter, f.action_index) < (m.chapter, m.action))
                .unwrap_or(0);
        };
        let Some((consumer, keyword, upto)) = &m.step else {
            return candidates[m.ordinal.min(candidates.len() - 1)];
        };
        let by = |wanted: &dyn Fn(&str) -> bool| -> Vec<usize> {
            candidates
                .iter()
                .copied()
                .filter(|&i| {
                    ran(&self.frames[i]).is_some_and(|(c, k, _)| c == *consumer && wanted(&k))
                })
                .collect()
        };
        // The same step of the program; else the step where this design
        // parted from the other: the one after the last step both ran (an
        // idempotent handler's refused insert, where a naive one charged).
        by(&|k| k == keyword)
            .first()
            .copied()
            .or_else(|| {
                let last = *by(&|k| upto.iter().any(|u| u == k)).last()?;
                by(&|_| true).into_iter().find(|&i| i > last).or(Some(last))
            })
            .unwrap_or(first)
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::{self, Group};
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    #[test]
    fn every_tour_moment_has_its_match_in_the_other_design() {
        let tour = scenario::load::builtins()
            .into_iter()
            .filter(|s| s.group == Group::Tour);
        for script in tour {
            let names = script.strategies();
            for from in &names {
                for to in names.iter().filter(|n| n != &from) {
                    let build = |n: &str| {
                        Timeline::build(&script, &Strategy::by_name(n).unwrap(), 0, &[]).unwrap()
                    };
                    let (a, b) = (build(from), build(to));
                    for i in 0..a.frames.len() {
                        let m = a.moment(i);
                        let j = b.find(&m);
                        let (fa, fb) = (&a.frames[i], &b.frames[j]);
                        let at = format!("{} {from}->{to} frame {i}->{j}", script.name);
                        assert_eq!(fa.chapter, fb.chapter, "{at}");
                        let theirs = b.moment(j);
                        if b.frames
                            .iter()
                            .any(|f| (f.chapter, f.action_index) == (fa.chapter, fa.action_index))
                        {
                            assert_eq!(fb.action_index, fa.action_index, "{at}");
                            assert_eq!(fb.action, fa.action, "{at}");
                        } else {
                            assert!(theirs.action < m.action, "{at}");
                        }
                        // The same handler step where the other design has it.
                        if let (Some((c, k, _)), Some((c2, k2, _))) = (&m.step, &theirs.step)
                            && b.same_action(m.chapter, m.action).iter().any(|&x| {
                                super::ran(&b.frames[x])
                                    .is_some_and(|(cx, kx, _)| &cx == c && &kx == k)
                            })
                        {
                            assert_eq!((c, k), (c2, k2), "{at}");
                        }
                    }
                }
            }
        }
    }
}
