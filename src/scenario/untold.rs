//! A scenario run under a built-in design it is not written for. Such a
//! run is a fair experiment, but the scenario's words (its intro, chapter
//! titles and narration, what each action says, the questions' whys)
//! were written about other designs' runs and would tell a story this run
//! does not have. Every front end runs it with those words left out, so
//! that only the step's own events, made from the world, are told, and
//! says so once.

use super::Script;
use crate::sim::Strategy;

impl Script {
    /// Whether the scenario's words are written for `design`: it lists an
    /// expectation for it.
    pub fn is_written_for(&self, design: &str) -> bool {
        self.expect.contains_key(design)
    }

    /// The note a run under `design` opens with when the scenario's story
    /// is left out of it; `None` when the story is this design's. A design
    /// of the learner's own (a file) is never written for: a built-in
    /// scenario's words tell its own designs' runs ("has paid $80" under a
    /// handler that paid once), so they are left out of it too. A scenario
    /// whose own design is not a built-in one (a moment saved under the
    /// learner's design) keeps its story.
    pub fn story_left_out(&self, design: &str) -> Option<String> {
        (!self.tells(design)).then(|| {
            format!(
                "{} is not written for {design}: its story is left out; each step shows this run's own events",
                self.name
            )
        })
    }

    /// Whether a run under `design` keeps the scenario's words (see
    /// `story_left_out`, which says when it does not).
    pub fn tells(&self, design: &str) -> bool {
        let has_own = Strategy::by_name(&self.design()).is_some();
        self.tells_every_design || !has_own || self.is_written_for(design)
    }

    /// A chapter's title for a run under `design`: none when the story is
    /// left out of that run.
    pub fn chapter_title<'a>(&self, step: &'a super::ScriptStep, design: &str) -> &'a str {
        if self.tells(design) {
            step.title(design)
        } else {
            ""
        }
    }

    /// The designs it is written for, for a note that names them.
    pub fn written_for_list(&self) -> String {
        self.strategies().join(", ")
    }

    /// The same scenario with every authored word left out: the setup,
    /// the actions and the expectations stay, so the run is the same.
    pub fn without_story(&self) -> Script {
        let mut script = self.clone();
        script.intro.clear();
        script.intro_for.clear();
        script.narrated_for = None;
        for step in &mut script.steps {
            step.title.clear();
            step.title_for.clear();
            step.narration.clear();
            step.narration_for.clear();
            step.sayings.iter_mut().for_each(|s| *s = None);
            step.asks.clear();
        }
        script
    }

    /// The script to run under `design`: this one, or, when its story is
    /// not written for that design, the same without its words.
    pub fn told_for(&self, design: &str) -> std::borrow::Cow<'_, Script> {
        match self.story_left_out(design) {
            Some(_) => std::borrow::Cow::Owned(self.without_story()),
            None => std::borrow::Cow::Borrowed(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario;

    #[test]
    fn a_design_not_written_for_gets_no_story() {
        let script = scenario::find("tour-1").expect("built-in");
        assert!(script.story_left_out("naive").is_none());
        assert!(script.story_left_out("idempotent").is_none());
        let note = script.story_left_out("id-first").expect("not written for");
        assert!(
            note.starts_with("tour-1 is not written for id-first"),
            "{note}"
        );
        // A design of the learner's own is not one it was written for.
        assert!(script.story_left_out("my-handler").is_some());
        let bare = script.without_story();
        assert!(bare.intro.is_empty());
        for (step, told) in bare.steps.iter().zip(&script.steps) {
            assert!(step.narration.is_empty() && step.title.is_empty());
            assert!(step.sayings.iter().all(Option::is_none));
            assert_eq!(step.actions, told.actions);
        }
    }
}
