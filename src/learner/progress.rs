//! A learner's progress as plain data. Sets and maps are ordered, so the
//! file reads the same whatever order things happened in.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The version this idem writes; a file from a newer one is kept, not read.
/// 2: a level won keeps how the win fared one bound further
/// (`levels_further`); a version 1 file reads as that not known.
pub const VERSION: u32 = 2;

/// How a level's winning handler fared one fault further than the level
/// tried: a win that breaks there is marked `!`, as on the day it was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Further {
    Holds,
    Breaks,
}

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
    /// Of the levels won, how the last win fared one fault further, by
    /// level id. A level won with no entry was kept by an idem that did
    /// not write this: not known.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub levels_further: BTreeMap<String, Further>,
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

    /// For levels: the learner won level `id`, with a handler that fared
    /// `further` one fault further.
    pub fn mark_level_won(&mut self, id: &str, further: Further) {
        self.levels_won.insert(id.to_string());
        self.levels_further.insert(id.to_string(), further);
    }

    pub fn level_won(&self, id: &str) -> bool {
        self.levels_won.contains(id)
    }

    /// How level `id`'s last win fared one fault further, where that was
    /// kept (a file from before version 2 did not keep it).
    pub fn level_further(&self, id: &str) -> Option<Further> {
        self.levels_further.get(id).copied()
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

    /// Takes in everything `other` holds: finished scenarios and levels
    /// won are joined, the better score is kept per scenario. The place
    /// is left to the caller, who knows which one was set last.
    pub fn merge(&mut self, other: &Progress) {
        self.finished.extend(other.finished.iter().cloned());
        self.levels_won.extend(other.levels_won.iter().cloned());
        // This window's own win, where both have one: it is the one it shows.
        for (id, further) in &other.levels_further {
            self.levels_further.entry(id.clone()).or_insert(*further);
        }
        for (scenario, score) in &other.best_scores {
            self.record_score(scenario, score.clone());
        }
    }

    /// Drops what a file may say but idem never writes: a score with more
    /// right answers than questions asked, a name that is empty, too long,
    /// or holds a control character. Says what was dropped, in words.
    pub fn drop_impossible(&mut self) -> Vec<String> {
        let mut dropped = Vec::new();
        let names = |set: &mut BTreeSet<String>, what: &str, dropped: &mut Vec<String>| {
            let before = set.len();
            set.retain(|n| plausible(n));
            if set.len() < before {
                dropped.push(format!(
                    "{} {what} with an impossible name",
                    before - set.len()
                ));
            }
        };
        names(&mut self.finished, "finished scenario(s)", &mut dropped);
        names(&mut self.levels_won, "level(s) won", &mut dropped);
        // How a level fared further belongs to a level won, by a name idem
        // could have written.
        let before = self.levels_further.len();
        let won = &self.levels_won;
        self.levels_further.retain(|id, _| won.contains(id));
        if self.levels_further.len() < before {
            dropped.push(format!(
                "{} note(s) of a level one bound further for a level not won",
                before - self.levels_further.len()
            ));
        }
        self.best_scores.retain(|scenario, score| {
            if !plausible(scenario) || !plausible(&score.design) {
                dropped.push("a score with an impossible name".to_string());
                false
            } else if score.right > score.asked {
                dropped.push(format!(
                    "the score for {scenario} ({} right of {} asked is not a score)",
                    score.right, score.asked
                ));
                false
            } else {
                true
            }
        });
        if let Some(place) = &self.last
            && !(plausible(&place.scenario) && plausible(&place.design))
        {
            self.last = None;
            dropped.push("the last place (an impossible name)".to_string());
        }
        dropped
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

/// Longest name a progress file may hold: a scenario's path included.
pub const MAX_NAME: usize = 4096;

/// A name idem could have written: a scenario, level or design.
fn plausible(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME && !name.chars().any(char::is_control)
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
    fn merging_joins_sets_and_keeps_the_better_score() {
        let mut a = Progress::new();
        a.mark_finished("tour-1");
        a.record_score("tour-1", score(2, 4));
        a.set_last("tour-1", "naive", 3);
        let mut b = Progress::new();
        b.mark_finished("tour-2");
        b.mark_level_won("ack-first", Further::Breaks);
        b.record_score("tour-1", score(3, 4));
        b.record_score("tour-2", score(1, 4));
        a.merge(&b);
        assert_eq!(a.finished.len(), 2);
        assert!(a.level_won("ack-first"));
        assert_eq!(a.level_further("ack-first"), Some(Further::Breaks));
        assert_eq!(a.best_score("tour-1"), Some(&score(3, 4)));
        assert_eq!(a.best_score("tour-2"), Some(&score(1, 4)));
        assert_eq!(a.last.as_ref().map(|p| p.step), Some(3), "place untouched");
    }

    #[test]
    fn impossible_values_are_dropped_and_named() {
        let mut p = Progress::new();
        p.record_score("tour-1", score(5, 4));
        p.record_score("tour-2", score(4, 4));
        p.mark_finished("bad\u{1b}[2Jname");
        p.mark_finished("tour-1");
        let dropped = p.drop_impossible();
        assert_eq!(dropped.len(), 2, "{dropped:?}");
        assert!(dropped.iter().any(|d| d.contains("5 right of 4 asked")));
        assert_eq!(p.best_score("tour-1"), None);
        assert_eq!(p.best_score("tour-2"), Some(&score(4, 4)));
        assert_eq!(p.finished.len(), 1);
    }

    #[test]
    fn levels_won_are_a_set() {
        let mut p = Progress::new();
        p.mark_level_won("ack-first", Further::Holds);
        p.mark_level_won("ack-first", Further::Breaks);
        p.mark_level_won("charge-first", Further::Holds);
        assert!(p.level_won("ack-first"));
        assert!(!p.level_won("offset"));
        assert_eq!(p.levels_won.len(), 2);
        assert_eq!(
            p.level_further("ack-first"),
            Some(Further::Breaks),
            "the last win's"
        );
    }
}
