//! A validated scenario: its steps, what each action says, the design
//! its narration is written for, what each design is expected to do. What
//! `load` makes of a file, and what the timeline runs.

use super::action::Action;
use super::engine_key::on_engine;
pub use super::expectation::Expectation;
use crate::sim::Setup;
use crate::sim::frame::WrittenFor;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Tour,
    Failure,
    Design,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Tour => "The tour",
            Group::Failure => "Failure modes",
            Group::Design => "Designs compared",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Group> {
        match text {
            "tour" => Some(Group::Tour),
            "failure" => Some(Group::Failure),
            "design" => Some(Group::Design),
            _ => None,
        }
    }
}

/// What an action says once it has happened, for the scenario's design
/// and, where it goes differently, for others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saying {
    pub text: String,
    /// By design name; an empty text says nothing for that design.
    pub text_for: BTreeMap<String, String>,
    /// By design name (as `text_for`): words told at the step of the
    /// handler they are about, by the step's keyword (`commit`, or
    /// `commit#2` for the second commit the action runs; see
    /// [`super::step_key::step_key`]), so that an action that runs
    /// through several steps tells each at its own step.
    pub at: BTreeMap<String, BTreeMap<String, String>>,
}

impl Saying {
    /// Whether the file has words of its own for this design on PostgreSQL.
    pub fn has_postgres_words(&self, design: &str) -> bool {
        self.text_for.contains_key(&on_engine(design))
    }

    /// Whether the file tells this action step by step for this design on
    /// PostgreSQL.
    pub fn has_postgres_steps(&self, design: &str) -> bool {
        self.at.contains_key(&on_engine(design))
    }

    /// The words told step by step for a run under `design`, on
    /// PostgreSQL or not, if the file gives them; they take the place of
    /// the one paragraph.
    pub fn steps_for_run(
        &self,
        design: &str,
        on_postgres: bool,
    ) -> Option<&BTreeMap<String, String>> {
        if on_postgres {
            if let Some(steps) = self.at.get(&on_engine(design)) {
                return Some(steps);
            }
            // The server's own paragraph tells this run better than words
            // told step by step for SQLite's.
            if self.has_postgres_words(design) {
                return None;
            }
        }
        self.at.get(design)
    }

    /// The words for a run under `design`, if it has any.
    pub fn for_design(&self, design: &str) -> Option<&str> {
        self.for_run(design, false)
    }

    /// The words for a run under `design`, on PostgreSQL or not: a file may
    /// tell the PostgreSQL run apart (`say_for = { "naive@postgres" = … }`),
    /// where the server's lock point makes the story differ.
    pub fn for_run(&self, design: &str, on_postgres: bool) -> Option<&str> {
        let on_server = on_postgres
            .then(|| self.text_for.get(&on_engine(design)))
            .flatten();
        let text = on_server
            .or_else(|| self.text_for.get(design))
            .unwrap_or(&self.text);
        (!text.is_empty()).then_some(text.as_str())
    }
}

/// The `say_at` key for a crashed consumer's restart, which is no handler
/// step but the first step a `run` of a crashed consumer makes: its words
/// land there, not at the receive that follows.
pub const RESTART_KEY: &str = "restart";

/// Words chosen for a run, with whom they were written for: `None` when
/// they are this run's own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Told {
    pub text: String,
    pub written_for: Option<WrittenFor>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptStep {
    pub title: String,
    /// The title for other designs, by design name.
    pub title_for: BTreeMap<String, String>,
    /// Written for the scenario's `design`.
    pub narration: String,
    /// The chapter told for other designs, by design name.
    pub narration_for: BTreeMap<String, String>,
    pub actions: Vec<Action>,
    /// Beside each action: what it says once it has happened.
    pub sayings: Vec<Option<Saying>>,
    /// Beside each action: the questions asked before it runs (predict
    /// mode). Shorter than `actions` when the last ones ask nothing.
    pub asks: Vec<Vec<super::question::Question>>,
}

impl ScriptStep {
    /// The chapter's title for a run under `design`.
    pub fn title(&self, design: &str) -> &str {
        self.title_for.get(design).unwrap_or(&self.title)
    }

    /// Whether the file tells this chapter for this design on PostgreSQL.
    pub fn has_postgres_words(&self, design: &str) -> bool {
        self.narration_for.contains_key(&on_engine(design))
    }

    /// The chapter's title for a run under `design`, on PostgreSQL or not.
    pub fn title_on(&self, design: &str, on_postgres: bool) -> &str {
        on_postgres
            .then(|| self.title_for.get(&on_engine(design)))
            .flatten()
            .map_or_else(|| self.title(design), String::as_str)
    }

    /// The chapter's words for a run under `design`, on PostgreSQL or not:
    /// its own version when the file has one, else the main text, typed as
    /// written for the file's design when that is another (see
    /// [`Script::chapter_words`]).
    fn words_on(&self, design: &str, written_for: Option<&str>, on_postgres: bool) -> Told {
        if on_postgres && let Some(text) = self.narration_for.get(&on_engine(design)) {
            return Told {
                text: text.clone(),
                written_for: None,
            };
        }
        if let Some(text) = self.narration_for.get(design) {
            return Told {
                text: text.clone(),
                written_for: None,
            };
        }
        Told {
            text: self.narration.clone(),
            written_for: written_for
                .filter(|w| *w != design)
                .map(|w| WrittenFor::Design(w.to_string())),
        }
    }
}

/// Who made a scenario: a person (a built-in, or a file someone wrote),
/// a soak, which writes the story of a fact that went wrong, or the
/// checker, which writes the moves of a schedule it found. A front end
/// says which; it never reads it out of the name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    #[default]
    Scenario,
    /// Written by `idem soak` (its file says `origin = "soak"`).
    SoakStory,
    /// A schedule `idem check` found (its file says `origin = "check"`):
    /// each step is one move of the schedule, not a chapter of a story.
    FoundSchedule,
}

impl Origin {
    /// The value of a file's `origin` key.
    pub fn key(self) -> Option<&'static str> {
        match self {
            Origin::Scenario => None,
            Origin::SoakStory => Some("soak"),
            Origin::FoundSchedule => Some("check"),
        }
    }

    /// What one step of the script is: a chapter of a story, or one move
    /// of a found schedule.
    pub fn part(self) -> &'static str {
        match self {
            Origin::FoundSchedule => "move",
            Origin::Scenario | Origin::SoakStory => "chapter",
        }
    }

    /// What a step of the run is called: one move of a found schedule,
    /// or a step of a story. Where the story calls it a move, the header,
    /// the step line, the SQL and events titles, the causes and the key
    /// bar say move too, so one screen has one word for it.
    pub fn step(self) -> &'static str {
        match self {
            Origin::FoundSchedule => "move",
            Origin::Scenario | Origin::SoakStory => "step",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Origin> {
        match text {
            "soak" => Some(Origin::SoakStory),
            "check" => Some(Origin::FoundSchedule),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The built-in name, or the file path it came from.
    pub name: String,
    pub origin: Origin,
    pub title: String,
    pub summary: String,
    pub intro: String,
    /// The step `idem play` opens at, when the file names one.
    pub open_at: Option<usize>,
    /// The title and intro for other designs, by design name.
    pub title_for: BTreeMap<String, String>,
    pub intro_for: BTreeMap<String, String>,
    pub group: Group,
    pub order: u32,
    /// The design the narration is written for, when the file names one;
    /// without it the narration reads true for every design it lists.
    pub narrated_for: Option<String>,
    /// The words describe SQLite's locking (`engine = "sqlite"`): on
    /// PostgreSQL, words without their own version are marked.
    pub words_for_sqlite: bool,
    /// Its words for designs it is not written for were made to hold
    /// under any design (a counterexample's titles name only the move, as
    /// idem wrote them): a run under such a design keeps them. A file
    /// never says so; see `story_left_out`.
    pub tells_every_design: bool,
    pub setup: Setup,
    pub steps: Vec<ScriptStep>,
    /// By strategy name, in name order.
    pub expect: BTreeMap<String, Expectation>,
}

impl Script {
    /// The scenario's title as told for `design`.
    pub fn title_for(&self, design: &str) -> &str {
        self.title_for.get(design).unwrap_or(&self.title)
    }

    /// The words before the first step, as told for `design`.
    pub fn intro_for(&self, design: &str) -> &str {
        self.intro_for.get(design).unwrap_or(&self.intro)
    }

    /// Words about SQLite's lock, on another engine, without a version of
    /// their own for it: borrowed from SQLite.
    fn for_sqlite(&self, on_postgres: bool, has_own: bool) -> Option<WrittenFor> {
        (on_postgres && self.words_for_sqlite && !has_own).then_some(WrittenFor::Sqlite)
    }

    /// A chapter's opening words for a run under `design`, on PostgreSQL
    /// or not, with whom they were written for.
    pub fn chapter_words(&self, step: &ScriptStep, design: &str, on_postgres: bool) -> Told {
        let mut told = step.words_on(design, self.narrated_for.as_deref(), on_postgres);
        let sqlite = self.for_sqlite(on_postgres, step.has_postgres_words(design));
        told.written_for = join(told.written_for, sqlite);
        told
    }

    /// An action's words for such a run, with whom they were written for;
    /// `None` when it says nothing for this design.
    pub fn saying_words(&self, saying: &Saying, design: &str, on_postgres: bool) -> Option<Told> {
        let text = saying.for_run(design, on_postgres)?;
        Some(Told {
            text: text.to_string(),
            written_for: self.for_sqlite(on_postgres, saying.has_postgres_words(design)),
        })
    }

    /// An action's words told step by step for such a run, if the file
    /// gives them, with whom they were written for.
    pub fn saying_steps(
        &self,
        saying: &Saying,
        design: &str,
        on_postgres: bool,
    ) -> Option<(BTreeMap<String, String>, Option<WrittenFor>)> {
        let steps = saying.steps_for_run(design, on_postgres)?;
        let sqlite = self.for_sqlite(on_postgres, saying.has_postgres_steps(design));
        Some((steps.clone(), sqlite))
    }

    /// The strategies this scenario is meant for: those it has expectations for.
    pub fn strategies(&self) -> Vec<String> {
        self.expect.keys().cloned().collect()
    }

    /// The design to open the scenario in, in the terminal and the handout
    /// alike: the one its narration is written for (the file says so, for
    /// its reason); else naive, so that a learner meets the problem before
    /// the fix; else idempotent; else the first it lists.
    pub fn design(&self) -> String {
        let has = |name: &str| self.expect.contains_key(name).then(|| name.to_string());
        self.narrated_for
            .clone()
            .or_else(|| has("naive"))
            .or_else(|| has("idempotent"))
            .or_else(|| self.expect.keys().next().cloned())
            .unwrap_or_default()
    }
}

/// Whom words were written for, when one reason or both apply.
fn join(a: Option<WrittenFor>, b: Option<WrittenFor>) -> Option<WrittenFor> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.and(&b)),
        (a, b) => a.or(b),
    }
}
