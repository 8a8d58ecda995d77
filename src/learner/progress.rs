//! A learner's progress as plain data. Sets and maps are ordered, so the
//! file reads the same whatever order things happened in.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The version this idem writes; a file from a newer one is kept, not read.
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub version: u32,
    /// Where the learner was when idem last saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<Place>,
    /// Scenarios seen through to their last step.
    #[serde(default)]
    pub finished: BTreeSet<String>,
    /// Levels whose goal the learner reached, by level id.
    #[serde(default)]
    pub levels_won: BTreeSet<String>,
    /// The best predict score per scenario.
    #[serde(default)]
    pub best_scores: BTreeMap<String, Score>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub scenario: String,
    pub design: String,
    pub step: usize,
}

/// Right answers out of the questions asked, under one design.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Score {
    pub design: String,
    pub right: usize,
    pub asked: usize,
}

impl Score {
    /// Better: a larger share right; on a tie, more questions.
    fn beats(&self, other: &Score) -> bool {
        let (a, b) = (
            self.right * other.asked.max(1),
            other.right * self.asked.max(1),
        );
        a > b || (a == b && self.asked > other.asked)
    }
}

impl Progress {
    pub fn new() -> Progress {
        Progress {
            version: VERSION,
            ..Progress::default()
        }
    }

    /// For levels: the learner won level `id`.
    pub fn mark_level_won(&mut self, id: &str) {
        self.levels_won.insert(id.to_string());
    }

    pub fn level_won(&self, id: &str) -> bool {
        self.levels_won.contains(id)
    }

    pub fn mark_finished(&mut self, scenario: &str) {
        if !self.finished.contains(scenario) {
            self.finished.insert(scenario.to_string());
        }
    }

    pub fn is_finished(&self, scenario: &str) -> bool {
        self.finished.contains(scenario)
    }

    /// Keeps the score if it is the scenario's best; says whether it was.
    pub fn record_score(&mut self, scenario: &str, score: Score) -> bool {
        let best = match self.best_scores.get(scenario) {
            Some(old) => score.beats(old),
            None => true,
        };
        if best {
            self.best_scores.insert(scenario.to_string(), score);
        }
        best
    }

    pub fn best_score(&self, scenario: &str) -> Option<&Score> {
        self.best_scores.get(scenario)
    }

    pub fn set_last(&mut self, scenario: &str, design: &str, step: usize) {
        let place = Place {
            scenario: scenario.to_string(),
            design: design.to_string(),
            step,
        };
        if self.last.as_ref() != Some(&place) {
            self.last = Some(place);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(right: usize, asked: usize) -> Score {
        Score {
            design: "naive".into(),
            right,
            asked,
        }
    }

    #[test]
    fn only_a_better_score_replaces_the_best() {
        let mut p = Progress::new();
        assert!(p.record_score("tour-1", score(2, 4)));
        assert!(!p.record_score("tour-1", score(1, 4)));
        assert!(!p.record_score("tour-1", score(2, 4)));
        assert!(p.record_score("tour-1", score(4, 5)));
        assert_eq!(p.best_score("tour-1"), Some(&score(4, 5)));
        assert!(p.record_score("tour-1", score(5, 5)));
        assert!(p.best_score("tour-2").is_none());
    }

    #[test]
    fn levels_won_are_a_set() {
        let mut p = Progress::new();
        p.mark_level_won("ack-first");
        p.mark_level_won("ack-first");
        p.mark_level_won("charge-first");
        assert!(p.level_won("ack-first"));
        assert!(!p.level_won("offset"));
        assert_eq!(p.levels_won.len(), 2);
    }
}
