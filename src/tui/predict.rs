//! Predict mode's state: the run's questions with their computed answers,
//! what the learner said to each, and where the mode stands (watching,
//! asking, revealing). The questions belong to one run; a new run (another
//! scenario, design, or a fork) asks them afresh.

use crate::scenario::question::Kind;
use crate::timeline::{Answer, Asked, Timeline};
use std::collections::BTreeMap;

/// Digits a typed answer may have: more than any figure a scenario reaches.
pub const MAX_TYPED: usize = 9;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Stepping as usual, until the run is about to pass a question.
    Watching,
    /// Question `at` (an index into `asked`) waits for an answer; `typed`
    /// holds the digits of a number so far.
    Asking { at: usize, typed: String },
    /// The action ran; the answers to questions `from..=to` are shown.
    Revealed { from: usize, to: usize },
}

/// What the learner said to one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Given {
    pub said: Answer,
    pub right: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predict {
    /// The run the questions belong to: scenario, design, forks made.
    pub run: (String, String, usize),
    pub asked: Vec<Asked>,
    /// By index into `asked`.
    pub given: BTreeMap<usize, Given>,
    pub stage: Stage,
}

impl Predict {
    pub fn new(run: (String, String, usize), asked: Vec<Asked>) -> Predict {
        Predict {
            run,
            asked,
            given: BTreeMap::new(),
            stage: Stage::Watching,
        }
    }

    /// Right answers, and questions answered.
    pub fn score(&self) -> (usize, usize) {
        let right = self.given.values().filter(|g| g.right).count();
        (right, self.given.len())
    }

    /// The first question not answered yet whose action starts after
    /// frame `from` and no later than `to`: stepping from `from` to `to`
    /// would run past it.
    pub fn passed(&self, from: usize, to: usize) -> Option<usize> {
        (0..self.asked.len()).find(|&i| {
            let a = &self.asked[i];
            !self.given.contains_key(&i) && a.ask_at >= from && a.ask_at < to
        })
    }

    /// The learner's answer to the question being asked. A number comes
    /// from the digits typed; a choice from its number, 1 being the first.
    /// `None` when it is not an answer the question takes.
    pub fn answer(&mut self, said: Answer) -> Option<Given> {
        let Stage::Asking { at, .. } = self.stage else {
            return None;
        };
        let asked = &self.asked[at];
        let fits = match (&asked.kind, said) {
            (Kind::Number { .. }, Answer::Number(_)) => true,
            (Kind::Choice(options), Answer::Choice(i)) => i < options.len(),
            _ => false,
        };
        if !fits {
            return None;
        }
        let given = Given {
            said,
            right: said == asked.answer,
        };
        self.given.insert(at, given);
        Some(given)
    }

    /// The question after `at` that the same action asks, if any.
    pub fn next_on_same_action(&self, at: usize) -> Option<usize> {
        let a = &self.asked[at];
        let next = at + 1;
        self.asked
            .get(next)
            .filter(|b| (b.chapter, b.action) == (a.chapter, a.action))
            .map(|_| next)
    }

    /// The first question of the action that question `at` belongs to.
    pub fn first_on_action(&self, at: usize) -> usize {
        let a = &self.asked[at];
        (0..=at)
            .find(|&i| (self.asked[i].chapter, self.asked[i].action) == (a.chapter, a.action))
            .unwrap_or(at)
    }

    /// Every question of the run has an answer.
    pub fn finished(&self) -> bool {
        !self.asked.is_empty() && self.given.len() == self.asked.len()
    }
}

/// The run a timeline shows, as predict mode tells runs apart.
pub fn run_of(timeline: &Timeline) -> (String, String, usize) {
    (
        timeline.scenario.clone(),
        timeline.strategy.clone(),
        timeline.forks.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;

    fn predict(name: &str, design: &str) -> Predict {
        let script = scenario::find(name).unwrap();
        let t = Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap();
        Predict::new(run_of(&t), t.asked(&script))
    }

    #[test]
    fn a_right_and_a_wrong_answer_are_scored() {
        let mut p = predict("tour-1", "naive");
        let first = p.passed(0, usize::MAX).expect("tour-1 asks");
        p.stage = Stage::Asking {
            at: first,
            typed: String::new(),
        };
        let right = p.asked[first].answer;
        assert!(p.answer(right).unwrap().right);
        let second = p.passed(0, usize::MAX).expect("a second question");
        assert!(second > first);
        p.stage = Stage::Asking {
            at: second,
            typed: String::new(),
        };
        let wrong = match p.asked[second].answer {
            Answer::Choice(i) => Answer::Choice(if i == 0 { 1 } else { 0 }),
            Answer::Number(n) => Answer::Number(n + 1),
        };
        assert!(!p.answer(wrong).unwrap().right);
        assert_eq!(p.score(), (1, 2));
    }

    #[test]
    fn an_answer_of_the_wrong_kind_or_out_of_range_is_refused() {
        let mut p = predict("tour-1", "naive");
        let holder = p
            .asked
            .iter()
            .position(|a| matches!(a.kind, Kind::Choice(_)))
            .unwrap();
        p.stage = Stage::Asking {
            at: holder,
            typed: String::new(),
        };
        assert_eq!(p.answer(Answer::Number(1)), None);
        assert_eq!(p.answer(Answer::Choice(9)), None);
        assert!(p.given.is_empty());
    }
}
