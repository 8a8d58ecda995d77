//! The whole state of the interactive simulator. Everything the screen shows
//! is derived from it; `update` is the only thing that changes it.

use super::animation::Transition;
use super::compare::Compare;
use super::explorer::Exploration;
use super::levels::LevelPlay;
pub use super::overlay::Overlay;
pub use super::panel::Panel;
use super::theme::Theme;
use crate::scenario::{Group, Script, load::builtins};
use crate::sim::{Frame, SimError, Strategy};
use crate::timeline::{Fork, Timeline};
use ratatui::layout::Rect;

/// How the screen looks, chosen on the command line and from the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub animation: bool,
    pub color: bool,
    pub ascii: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            animation: true,
            color: true,
            ascii: false,
        }
    }
}

/// Work that `update` asks for and the terminal layer does: `update` stays
/// pure, and the answer comes back as an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Run `idem check` with the default bounds; answer with
    /// `Action::ExploreDone`.
    Explore,
    /// Save the screen and the run into the current folder; answer with
    /// `Action::Exported`.
    Export,
    /// Run the prover on the level screen's handler; answer with
    /// `Action::Proved`.
    Prove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickerRow {
    Group(Group),
    /// Indexes `App::scripts`.
    Script(usize),
}

/// Autoplay speeds, in milliseconds per step.
pub const SPEEDS: [u64; 5] = [3000, 1500, 800, 400, 150];
pub const DEFAULT_SPEED: usize = 1;

/// A speed as the screen says it, the same in the header and the status
/// line: `1.5s`, `0.15s`.
pub fn seconds_per_step(speed: usize) -> String {
    format!("{}s", SPEEDS[speed] as f64 / 1000.0)
}

#[derive(Clone)]
pub struct App {
    pub script: Script,
    /// The server `--db postgres://…` opened the session on, kept apart
    /// from the script on screen: a replay from the explorer runs on
    /// SQLite, and the scenarios opened after it must still go to the
    /// server the user chose (it was dropped for good after one replay).
    pub server: Option<crate::sim::db::PgUrl>,
    /// The scenarios the picker offers: built-ins, plus the current one if it
    /// came from a file. In group order, then by their `order`.
    pub scripts: Vec<Script>,
    pub strategy: Strategy,
    pub seed: u64,
    pub forks: Vec<Fork>,
    pub timeline: Timeline,
    /// Index into `timeline.frames` (or into the compare alignment while
    /// comparing).
    pub pos: usize,
    pub overlay: Overlay,
    pub compare: Option<Compare>,
    pub playing: bool,
    pub speed: usize,
    /// Time since the last autoplay step.
    pub play_ms: u64,
    pub transition: Option<Transition>,
    pub animation: bool,
    pub focus: Panel,
    /// The focused panel fills the body.
    pub zoom: bool,
    /// The presenter view: narration and four figures in large type.
    pub presenter: bool,
    /// What `w` found on screen when it opened the verdict whole, for
    /// leaving it to give back (`update::why`).
    pub why_from: Option<super::why_from::WhyFrom>,
    /// Lines of the help scrolled past, on a screen too short for all.
    pub help_scroll: usize,
    /// The size of the screen, for layout-based mouse hits.
    pub viewport: Rect,
    /// How it draws; its `medium` also says whose keys the screen names.
    /// A screen drawn for the lesson page (`Medium::Page`) shows no key
    /// bar and no `(m)`: there the terminal's keys would do nothing.
    pub theme: Theme,
    /// A one-line note for the user (why a key did nothing, a fork made).
    pub status: Option<String>,
    /// The note in `status` and its shorter forms, each whole, longest
    /// first: the bar draws the first that fits (a replay's note from the
    /// explorer, `replay_note`). Read only while its first form is the
    /// note on the bar, so a note set since without forms is never
    /// mistaken for them.
    pub status_forms: Vec<String>,
    /// The checker's report, computed the first time the explorer opens.
    pub exploration: Exploration,
    /// Names of the scripts the explorer opened: counterexamples found by
    /// the checker, not scenarios written by hand.
    pub found_by_check: Vec<String>,
    /// The explorer's selection a replay was opened from, with the replayed
    /// scenario's name: Esc there goes back to it (teacher trial: Esc in a
    /// replay said "Esc closes menus and views" and no key showed the way
    /// back). Any other scenario opened since has another name.
    pub from_explorer: Option<(String, crate::tui::explorer::Selection)>,
    /// Work for the terminal layer to pick up (see `Effect`).
    pub pending: Option<Effect>,
    /// The level screen: kept while the learner watches a counterexample.
    pub levels: LevelPlay,
    pub quit: bool,
    /// Predict mode, when on: the run's questions and the answers given.
    pub predict: Option<super::predict::Predict>,
    /// The learner's progress, as `update` keeps it.
    pub progress: crate::learner::Progress,
    /// The file it is saved to, by the terminal layer; none in tests.
    pub keeper: crate::learner::Keeping,
    /// The main screen behind a level screen opened on its own (tour-1 at
    /// its start): no place the learner went to, so it is not remembered
    /// as where they left off until they move from it.
    pub stand_in: Option<crate::learner::Place>,
    /// The design file the run's design came from, as the learner named it
    /// (`idem play --design FILE`): the command that checks it is said
    /// with the verdict of this one run.
    pub design_file: Option<String>,
    /// The learner's own design (not a built-in), once `m` has left it:
    /// `m` comes back to it after the scenario's designs, else the run
    /// of the design file could not be seen again (teacher trial 13).
    pub own_design: Option<Strategy>,
    /// Where each design was left by `m` since the last move: `m` round
    /// the designs and back comes home to the step it left (teacher
    /// trial 18: naive 13 → idempotent 13 → naive 12 lost the charge).
    pub design_trail: super::design_trail::DesignTrail,
    /// The runs of the other designs `m` reaches, which the header fits
    /// its form over; `update` keeps them current.
    pub design_runs: super::design_runs::DesignRuns,
    /// The forms chosen over those runs and the run on screen (the
    /// header's, the one-row verdict's, the provider heading's), kept
    /// per terminal size so that a draw walks no run; `update` keeps them
    /// current, the view reads them.
    pub run_forms: super::run_forms::RunForms,
}

impl App {
    pub fn new(
        script: Script,
        strategy: Strategy,
        seed: u64,
        options: Options,
    ) -> Result<App, SimError> {
        // A design the scenario says nothing about would show a run nobody
        // wrote a word for: open it in its own design instead. A design of
        // the learner's own (a file) is what they came to watch: it runs as
        // asked, with the scenario's story left out where the scenario has
        // a design of its own (`story_left_out` says which).
        if Strategy::by_name(&strategy.name).is_none() {
            return App::as_asked(script, strategy, seed, options);
        }
        let mut status = None;
        let strategy = match opening_design(&script) {
            Some(own) if script.story_left_out(&strategy.name).is_some() => {
                status = Some(format!(
                    "{} is not written for {}: showing {}, its own design",
                    script.name, strategy.name, own.name
                ));
                own
            }
            _ => strategy,
        };
        App::build(script, strategy, seed, options, status)
    }

    /// The app on the design asked for, even one the scenario is not
    /// written for (`idem shot --mode`): that run is shown with the
    /// scenario's story left out, and the status line says so.
    pub fn as_asked(
        script: Script,
        strategy: Strategy,
        seed: u64,
        options: Options,
    ) -> Result<App, SimError> {
        // Short enough for the status line of an 80-column screen.
        let status = script.story_left_out(&strategy.name).map(|_| {
            format!(
                "{} is not written for {}: its story is left out",
                script.name, strategy.name
            )
        });
        App::build(script, strategy, seed, options, status)
    }

    fn build(
        script: Script,
        strategy: Strategy,
        seed: u64,
        options: Options,
        status: Option<String>,
    ) -> Result<App, SimError> {
        let timeline = Timeline::build(&script, &strategy, seed, &[])?;
        let mut scripts = builtins();
        if !scripts.iter().any(|s| s.name == script.name) {
            scripts.push(script.clone());
        }
        scripts.sort_by_key(|s| (s.group, s.order));
        let mut app = App {
            server: script.setup.postgres.clone(),
            script,
            scripts,
            strategy,
            seed,
            forks: Vec::new(),
            timeline,
            pos: 0,
            overlay: Overlay::None,
            compare: None,
            playing: false,
            speed: DEFAULT_SPEED,
            play_ms: 0,
            transition: None,
            animation: options.animation,
            focus: Panel::Narration,
            zoom: false,
            presenter: false,
            why_from: None,
            help_scroll: 0,
            viewport: Rect::new(0, 0, 120, 40),
            theme: Theme::new(options.color, options.ascii),
            status,
            status_forms: Vec::new(),
            exploration: Exploration::Idle,
            found_by_check: Vec::new(),
            from_explorer: None,
            pending: None,
            levels: LevelPlay::default(),
            quit: false,
            predict: None,
            progress: crate::learner::Progress::new(),
            keeper: Default::default(),
            stand_in: None,
            design_file: None,
            own_design: None,
            design_trail: Default::default(),
            design_runs: Default::default(),
            run_forms: Default::default(),
        };
        // The forms over them are `update`'s to keep (`sync_run_forms`;
        // the terminal's first is a resize): a draw before any chooses
        // its own, slower, never different (`RunForms`).
        app.sync_design_runs();
        Ok(app)
    }

    /// Builds the runs of the other designs `m` reaches that are not kept
    /// yet (`DesignRuns`): `update` calls it after every action.
    pub fn sync_design_runs(&mut self) {
        let shown = super::design_runs::Shown {
            design: &self.strategy,
            timeline: &self.timeline,
            forks: &self.forks,
        };
        self.design_runs
            .sync(&self.script, &shown, self.own_design.as_ref(), self.seed);
    }

    /// The state the kept forms hang on (`RunForms`), borrowed from this
    /// app's parts: the cache knows no app.
    pub fn forms_now(&self) -> super::run_forms::Now<'_> {
        super::run_forms::Now {
            script: &self.script,
            strategy: &self.strategy,
            seed: self.seed,
            forks: &self.forks,
            others: self.other_runs(),
            own_design: &self.own_design,
            design_file: &self.design_file,
            counterexample: self.is_counterexample(),
            theme: self.theme,
            presenter: self.presenter,
            playing: self.playing,
            speed: self.speed,
            compare: self.compare.is_some(),
        }
    }

    /// The kept run of each other design `m` reaches from this one.
    pub fn other_runs(&self) -> Vec<super::design_runs::Run> {
        let shown = super::design_runs::Shown {
            design: &self.strategy,
            timeline: &self.timeline,
            forks: &self.forks,
        };
        self.design_runs
            .others(&self.script, &shown, self.own_design.as_ref(), self.seed)
    }

    /// Opens at a step, as the header counts them (`idem play --step N`).
    pub fn open_at_step(&mut self, step: usize) -> Result<(), String> {
        let last = self.timeline.frames.len() - 1;
        if step > last {
            return Err(format!(
                "{} has steps 0 to {last} under {}",
                self.script.name, self.strategy.name
            ));
        }
        self.pos = step;
        Ok(())
    }

    /// Opens at the first step of a chapter, 1 being the first
    /// (`idem play --chapter N`).
    pub fn open_at_chapter(&mut self, chapter: usize) -> Result<(), String> {
        let of = self.script.steps.len();
        let start = (1..=of)
            .contains(&chapter)
            .then(|| {
                self.timeline
                    .frames
                    .iter()
                    .position(|f| f.chapter == chapter)
            })
            .flatten();
        match start {
            Some(i) => {
                self.pos = i;
                Ok(())
            }
            None if (1..=of).contains(&chapter) => Err(format!(
                "chapter {chapter} of {} makes no step under {}",
                self.script.name, self.strategy.name
            )),
            None => Err(format!("{} has chapters 1 to {of}", self.script.name)),
        }
    }

    /// The frame on screen.
    pub fn frame(&self) -> &Frame {
        &self.timeline.frames[self.frame_at()]
    }

    /// Where the frame on screen is in the timeline.
    pub fn frame_at(&self) -> usize {
        self.pos.min(self.timeline.frames.len() - 1)
    }

    /// The last position the stepping keys can reach.
    pub fn last_pos(&self) -> usize {
        match &self.compare {
            Some(c) => c.pairs.len() - 1,
            None => self.timeline.frames.len() - 1,
        }
    }

    /// The frame that starts a chapter, as positions in the current view.
    pub fn chapter_starts(&self) -> Vec<usize> {
        match &self.compare {
            Some(c) => c.chapter_starts(),
            None => self.timeline.chapters.clone(),
        }
    }

    /// Where the script's story is, for the header: (chapter, of chapters).
    pub fn chapter(&self) -> (usize, usize) {
        (self.frame().chapter, self.script.steps.len())
    }

    /// "Tour 2/4" and the like: the scenario's place in its group.
    /// Where the scenario on screen stands among its group's built-in
    /// scenarios (1-based), and how many there are; `None` for one of your
    /// own (a file, a soak's story), which has no place in that list.
    pub fn place_in_group(&self) -> Option<(usize, usize)> {
        let builtin = crate::scenario::builtin::names();
        let same: Vec<&Script> = self
            .scripts
            .iter()
            .filter(|s| s.group == self.script.group && builtin.contains(&s.name.as_str()))
            .collect();
        let at = same.iter().position(|s| s.name == self.script.name)?;
        Some((at + 1, same.len()))
    }

    /// The step the user's first move was made at (the step after the
    /// one on screen when it was chosen), if the run on screen is not the
    /// scenario as written: the one step every word about it names.
    pub fn forked_at(&self) -> Option<usize> {
        self.forks.first().map(|f| f.at + 1)
    }

    /// The picker's lines: a heading for each group, then its scenarios.
    pub fn picker_rows(&self) -> Vec<PickerRow> {
        let mut rows = Vec::new();
        let mut group = None;
        for (i, s) in self.scripts.iter().enumerate() {
            if group != Some(s.group) {
                group = Some(s.group);
                rows.push(PickerRow::Group(s.group));
            }
            rows.push(PickerRow::Script(i));
        }
        rows
    }

    pub fn is_animating(&self) -> bool {
        self.transition.is_some()
    }

    /// Whether the event loop must keep ticking.
    pub fn busy(&self) -> bool {
        self.is_animating()
            || self.playing
            || self.exploration.running()
            || matches!(self.levels.proving, super::levels::Proving::Running { .. })
    }

    /// The level screen on its own (`idem levels`, `idem play --level N`),
    /// at level `index`, over the main screen the app was built with.
    pub fn open_level_screen(&mut self, index: usize) {
        self.levels.go_to(index);
        self.overlay = Overlay::Levels;
        self.stand_in = Some(self.place());
    }

    /// Where the learner is: the scenario, design and step on screen.
    pub fn place(&self) -> crate::learner::Place {
        crate::learner::Place {
            scenario: self.script.name.clone(),
            design: self.strategy.name.to_string(),
            step: self.pos.min(self.last_pos()),
        }
    }

    /// The engine the session's runs are on: a server's where `--db
    /// postgres://…` gave one (the scenarios moved to keep it), else SQLite.
    pub fn engine(&self) -> crate::sim::db::Engine {
        match self.server {
            Some(_) => crate::sim::db::Engine::Postgres,
            None => crate::sim::db::Engine::Sqlite,
        }
    }

    /// Whether the script on screen is a counterexample from the checker.
    pub fn is_counterexample(&self) -> bool {
        self.found_by_check.contains(&self.script.name)
    }

    /// The explorer's selection this replay came from, while the scenario
    /// on screen is still that replay.
    pub fn explorer_to_return_to(&self) -> Option<crate::tui::explorer::Selection> {
        self.from_explorer
            .as_ref()
            .filter(|(name, _)| *name == self.script.name)
            .map(|(_, sel)| *sel)
    }

    /// The tour scenario after this one, if this one belongs to the tour.
    pub fn next_in_tour(&self) -> Option<&Script> {
        self.tour_neighbour(1)
    }

    /// The tour scenario before this one, if this one belongs to the tour.
    pub fn prev_in_tour(&self) -> Option<&Script> {
        self.tour_neighbour(-1)
    }

    fn tour_neighbour(&self, offset: isize) -> Option<&Script> {
        if self.script.group != Group::Tour || self.is_counterexample() {
            return None;
        }
        let tour: Vec<&Script> = self
            .scripts
            .iter()
            .filter(|s| s.group == Group::Tour)
            .collect();
        let at = tour.iter().position(|s| s.name == self.script.name)?;
        tour.get(at.checked_add_signed(offset)?).copied()
    }

    /// At the last step: that this is the end, and where to go from here.
    pub fn end_hint(&self) -> Option<String> {
        if self.pos < self.last_pos() {
            return None;
        }
        if !self.theme.terminal_keys() {
            // The page has no menus and no tour keys: it names the one
            // key of its own that still shows something here.
            let end = if self.script.group == Group::Tour && self.next_in_tour().is_none() {
                "end of the tour"
            } else {
                "end of scenario"
            };
            let switch = self
                .theme
                .medium
                .key(crate::scenario::key_word::KeyWord::SwitchDesign);
            return Some(if designs(&self.script).len() > 1 {
                format!("{end}: {switch} next design")
            } else {
                end.to_string()
            });
        }
        Some(if self.next_in_tour().is_some() {
            "end of scenario: ] next tour / s scenarios".to_string()
        } else if self.script.group == Group::Tour && !self.is_counterexample() {
            "end of the tour: s scenarios / x explore".to_string()
        } else if designs(&self.script).len() > 1 {
            "end of scenario: m next design / s scenarios".to_string()
        } else {
            "end of scenario: s scenarios".to_string()
        })
    }
}

pub use super::design_runs::designs;

/// The design a scenario opens in: the one it is written for.
pub fn opening_design(script: &Script) -> Option<Strategy> {
    Strategy::by_name(&script.design())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::scenario;

    pub fn app(name: &str, mode: &str) -> App {
        let script = scenario::find(name).expect("built-in");
        let strategy = Strategy::by_name(mode).expect("strategy");
        App::new(
            script,
            strategy,
            0,
            Options {
                animation: false,
                color: false,
                ascii: false,
            },
        )
        .expect("builds")
    }

    #[test]
    fn a_design_of_the_learners_own_runs_as_asked_without_the_story() {
        let mut own = Strategy::idempotent();
        own.name = "my-handler".into();
        let options = Options {
            animation: false,
            color: false,
            ascii: false,
        };
        let a = App::new(scenario::find("tour-1").unwrap(), own, 0, options).unwrap();
        assert_eq!(a.strategy.name, "my-handler");
        let status = a.status.clone().unwrap_or_default();
        assert!(status.contains("its story is left out"), "{status}");
        // tour-1's naive story, which this run (correct) does not have.
        for f in &a.timeline.frames {
            // Step 0's title is the scenario's own, not a chapter's.
            let told = f.said.is_some() || (f.index > 0 && !f.chapter_title.is_empty());
            assert!(
                !told && !f.narration.contains("has paid $80"),
                "step {}: {:?} {:?} {}",
                f.index,
                f.said,
                f.chapter_title,
                f.narration
            );
        }
    }

    #[test]
    fn opens_at_a_step_or_a_chapter() {
        let mut a = app("tour-1", "naive");
        a.open_at_step(5).unwrap();
        assert_eq!(a.frame().index, 5);
        assert!(a.open_at_step(500).unwrap_err().contains("steps 0 to"));
        a.open_at_chapter(2).unwrap();
        assert_eq!(a.frame().chapter, 2);
        assert_eq!(a.pos, a.timeline.chapters[2]);
        assert!(a.open_at_chapter(0).is_err());
        assert!(a.open_at_chapter(99).unwrap_err().contains("chapters 1 to"));
    }

    #[test]
    fn starts_on_frame_zero_with_every_builtin_listed() {
        let a = app("tour-1", "naive");
        assert_eq!(a.pos, 0);
        assert_eq!(a.frame().index, 0);
        assert_eq!(a.scripts.len(), builtins().len());
        assert_eq!(a.place_in_group().map(|p| p.0), Some(1));
        let groups: Vec<_> = a.scripts.iter().map(|s| s.group).collect();
        let mut sorted = groups.clone();
        sorted.sort();
        assert_eq!(groups, sorted, "picker order follows the groups");
    }
}
