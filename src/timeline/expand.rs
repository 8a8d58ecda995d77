//! Turns a script's actions into moves, one frame per move. `run` expands
//! as it goes, since where it stops depends on what the world does.

use super::Fork;
use super::play_out::{self, PLAY_OUT_LIMIT};
use super::to_come::{fork_publishes, last_publish, publishes, publishes_of};

mod play_on;
use crate::scenario::{Action, Script, ScriptStep};
use crate::sim::consumer::{Consumer, Status};
use crate::sim::frame::{Borrowed, WrittenFor};
use crate::sim::{Actor, Frame, Move, Op, SimError, Strategy, World};

/// Where a frame is made: the moment of the story around it.
pub(super) struct At<'a> {
    pub chapter: usize,
    pub action_index: usize,
    pub title: &'a str,
    pub narration: &'a str,
    /// The chapter's words written for another run, kept apart.
    pub borrowed: Option<&'a Borrowed>,
    pub action: String,
    /// More messages are still to be published after this frame: nothing
    /// that looks settled is declared yet.
    pub open: bool,
    /// The frame is the user's own move.
    pub yours: bool,
}

/// Where the frames of a run go: kept, for a timeline to step through,
/// or handed on one by one, for a stream whose memory stays flat.
pub(super) trait Sink {
    /// The world has just made frame `index`.
    fn push(&mut self, world: &mut World, index: usize, at: At<'_>) -> Result<(), SimError>;
    /// An action's words: the narration reads `narration` on frames
    /// `from` to `to`, and `said` is what frame `from` says happened.
    fn tell(&mut self, from: usize, to: usize, narration: &str, said: &str);
    /// Borrowed words (written for another design or engine): frames
    /// `from` to `to` carry `borrowed`, and `said` is what frame `from`
    /// added to them.
    fn tell_borrowed(&mut self, from: usize, to: usize, borrowed: &Borrowed, said: &str);
    /// No action's words will land on a frame before `frame` any more.
    fn settle(&mut self, _frame: usize) {}
}

/// The timeline's sink: every frame, whole.
#[derive(Default)]
pub(super) struct Keep {
    pub frames: Vec<Frame>,
}

impl Sink for Keep {
    fn push(&mut self, world: &mut World, _index: usize, at: At<'_>) -> Result<(), SimError> {
        let mut frame = world.frame()?;
        frame.chapter = at.chapter;
        frame.action_index = at.action_index;
        frame.chapter_title = at.title.to_string();
        frame.narration = at.narration.to_string();
        frame.borrowed = at.borrowed.cloned();
        frame.action = at.action;
        frame.verdict.open = at.open;
        frame.yours = at.yours;
        self.frames.push(frame);
        Ok(())
    }

    fn tell(&mut self, from: usize, to: usize, narration: &str, said: &str) {
        for (i, frame) in self.frames.iter_mut().enumerate().take(to + 1).skip(from) {
            frame.narration = narration.to_string();
            if i == from {
                // A step told already (step-by-step words) keeps its words
                // first: the narration reads them in the same order, and
                // ends with all of them (`tell` put them there).
                let said = match frame.said.take() {
                    Some(before) => format!("{before} {said}"),
                    None => said.to_string(),
                };
                frame.said_from = narration.len().saturating_sub(said.len());
                frame.said = Some(said);
            }
        }
    }

    fn tell_borrowed(&mut self, from: usize, to: usize, borrowed: &Borrowed, said: &str) {
        for (i, frame) in self.frames.iter_mut().enumerate().take(to + 1).skip(from) {
            let before = frame.borrowed.take().and_then(|b| b.said);
            let said = (i == from).then(|| match before {
                Some(before) => format!("{before} {said}"),
                None => said.to_string(),
            });
            frame.borrowed = Some(Borrowed {
                said,
                ..borrowed.clone()
            });
        }
    }
}

/// A `run` that has not stopped after this many steps is cut off: a handler
/// that keeps being refused would otherwise loop for ever. The file's
/// budget counts a `run` as this many frames.
const RUN_LIMIT: usize = crate::scenario::limits::RUN_FRAMES;

pub(super) struct Run<'a, S: Sink> {
    script: &'a Script,
    strategy: &'a Strategy,
    world: World,
    pub sink: S,
    /// Frames made so far.
    made: usize,
    chapters: Vec<usize>,
    forks: &'a [Fork],
    /// Forks before this index have been applied.
    next_fork: usize,
    chapter: usize,
    /// The action of the chapter being expanded, for `Frame::action_index`.
    action_index: usize,
    title: String,
    /// The chapter's opening words and what its actions have said so far,
    /// where they are this run's own.
    narration: String,
    /// The chapter's words written for another design or engine so far.
    borrowed: Option<Borrowed>,
    /// Whom the current action's step-by-step words were written for.
    steps_for: Option<WrittenFor>,
    /// The last frame an action of the script made (not a fork's).
    last_own: usize,
    /// A fork cut the current action short: its words no longer come true.
    interrupted: bool,
    /// The consumer that moved last, whose handler the play-out continues.
    last_stepped: Option<String>,
    /// Once forked: the script's story so far (its own words and the
    /// borrowed ones) and its chapter's first frame.
    scripted: Option<(String, Option<Borrowed>, usize)>,
    /// The chapter and action of the script's last publish, if any.
    last_publish: Option<(usize, usize)>,
    /// The last frame of the current action that did something a party
    /// other than its consumer can see: where the action's words land.
    said_at: Option<usize>,
    /// The current action's words told step by step, by the keyword of
    /// the handler step each is about; each is told at the frame where
    /// that step runs, and what no step met is told at the action's end.
    steps_left: std::collections::BTreeMap<String, String>,
    /// How many steps of each keyword the current action has run.
    met: std::collections::BTreeMap<&'static str, usize>,
    /// The script's publishes, each with its place (chapter, action), in
    /// order: those after the current action are still to come.
    publishes_left: Vec<((usize, usize), String)>,
}

impl<'a, S: Sink> Run<'a, S> {
    pub fn new(
        script: &'a Script,
        strategy: &'a Strategy,
        mut world: World,
        mut sink: S,
        forks: &'a [Fork],
    ) -> Result<Self, SimError> {
        let publishes_left = publishes_of(script);
        world.expect_no_pruning(!super::retention::prunes(script, forks));
        world.expect_publishes(
            publishes_left
                .iter()
                .map(|(_, id)| id.as_str())
                .chain(fork_publishes(forks)),
        );
        sink.push(
            &mut world,
            0,
            At {
                chapter: 0,
                action_index: 0,
                title: script.title_for(&strategy.name),
                narration: script.intro_for(&strategy.name),
                borrowed: None,
                action: "setup".into(),
                open: last_publish(script).is_some() || publishes(forks),
                yours: false,
            },
        )?;
        let mut run = Run {
            script,
            strategy,
            world,
            sink,
            made: 1,
            chapters: vec![0],
            forks,
            next_fork: 0,
            chapter: 0,
            action_index: 0,
            title: script.title_for(&strategy.name).to_string(),
            narration: script.intro_for(&strategy.name).to_string(),
            borrowed: None,
            steps_for: None,
            last_own: 0,
            interrupted: false,
            last_stepped: None,
            scripted: None,
            last_publish: last_publish(script),
            publishes_left,
            said_at: None,
            steps_left: Default::default(),
            met: Default::default(),
        };
        run.apply_forks()?;
        Ok(run)
    }

    pub fn chapter(&mut self, chapter: usize, step: &ScriptStep) -> Result<(), SimError> {
        // Once the user has changed the run, the script's later actions
        // (its faults above all) were written for a run that no longer
        // happens: the play-out tells the rest.
        if self.forked() {
            return Ok(());
        }
        let design = self.strategy.name.clone();
        let design = design.as_ref();
        self.chapter = chapter;
        let on_postgres = self.script.setup.postgres.is_some();
        self.title = step.title_on(design, on_postgres).to_string();
        // The chapter's words are this run's own, or kept apart with whom
        // they were written for.
        let words = self.script.chapter_words(step, design, on_postgres);
        (self.narration, self.borrowed) = match words.written_for {
            None => (words.text, None),
            Some(_) if words.text.is_empty() => (String::new(), None),
            Some(written_for) => (
                String::new(),
                Some(Borrowed {
                    written_for,
                    text: words.text,
                    said: None,
                }),
            ),
        };
        self.chapters.push(self.made);
        for (i, (action, saying)) in step.actions.iter().zip(&step.sayings).enumerate() {
            self.sink.settle(self.last_own);
            self.action_index = i;
            let by_step = saying
                .as_ref()
                .and_then(|s| self.script.saying_steps(s, design, on_postgres));
            let told_by_step = by_step.is_some();
            (self.steps_left, self.steps_for) = by_step.unwrap_or_default();
            self.met.clear();
            self.action(action)?;
            if told_by_step {
                // What no step of the run met is still said, at the end.
                let left: Vec<String> =
                    std::mem::take(&mut self.steps_left).into_values().collect();
                if !left.is_empty() && !self.interrupted {
                    let written_for = self.steps_for.clone();
                    self.tell(&left.join(" "), written_for);
                }
            } else if let Some(saying) = saying.as_ref()
                && let Some(told) = self.script.saying_words(saying, design, on_postgres)
                && !self.interrupted
            {
                self.tell(&told.text, told.written_for);
            }
            if self.forked() {
                break;
            }
        }
        Ok(())
    }

    pub(super) fn forked(&self) -> bool {
        self.next_fork > 0
    }

    /// After the user's first move, the world goes on by itself, with no
    /// more faults than the user adds, until every message is settled.
    pub fn play_out(&mut self) -> Result<(), SimError> {
        self.apply_forks()?;
        if !self.forked() {
            return Ok(());
        }
        for _ in 0..PLAY_OUT_LIMIT {
            let Some(mv) = play_out::next_move(&self.world, self.last_stepped.as_deref()) else {
                break;
            };
            if let Move::Step { consumer } = &mv {
                self.last_stepped = Some(consumer.clone());
            }
            self.world.apply(&mv)?;
            self.push(mv.written())?;
            self.apply_forks()?;
        }
        Ok(())
    }

    /// An action's words become part of the narration at the frame where
    /// the action ended, never before: each frame tells only what has
    /// happened by then.
    fn tell(&mut self, said: &str, written_for: Option<WrittenFor>) {
        let from = self.said_at.unwrap_or(self.last_own);
        self.tell_from(from, said, written_for);
    }

    /// An action's words, told from frame `from` (never before its chapter);
    /// `written_for` another run: kept apart from this run's own words.
    fn tell_from(&mut self, from: usize, said: &str, written_for: Option<WrittenFor>) {
        // An action the user's first move followed at once still ended as
        // written: its words go to its own frames, in the script's story,
        // not into the play-out's.
        let (story, borrowed, start) = match &mut self.scripted {
            Some((story, borrowed, start)) => (story, borrowed, *start),
            None => (
                &mut self.narration,
                &mut self.borrowed,
                self.chapters.last().copied().unwrap_or(0),
            ),
        };
        if let Some(written_for) = written_for {
            let b = borrowed.get_or_insert_with(|| Borrowed {
                written_for: written_for.clone(),
                text: String::new(),
                said: None,
            });
            b.written_for = b.written_for.and(&written_for);
            if !b.text.is_empty() {
                b.text.push(' ');
            }
            b.text.push_str(said);
            self.sink
                .tell_borrowed(from.max(start), self.last_own, b, said);
            return;
        }
        if !story.is_empty() {
            story.push(' ');
        }
        story.push_str(said);
        // The words land where the action's last visible effect happened:
        // a handler that then only takes in the provider's answer has not
        // done what they tell yet at its charge, and no longer does it after.
        let from = from.max(start);
        self.sink.tell(from, self.last_own, story, said);
    }

    /// The sink, the first frame of each chapter and the world at the end.
    pub fn finish(self) -> (S, Vec<usize>, World) {
        let mut chapters = self.chapters;
        // A chapter whose actions made no frame starts where the next one
        // does; keep the list strictly about frames that exist.
        chapters.retain(|&start| start < self.made);
        chapters.dedup();
        (self.sink, chapters, self.world)
    }

    fn action(&mut self, action: &Action) -> Result<(), SimError> {
        self.said_at = None;
        let text = action.words();
        match action {
            Action::Run { consumer, to } => self.run(consumer, to.as_deref(), &text),
            Action::Move(mv) => self.apply(mv, &text),
        }
    }

    fn run(&mut self, consumer: &str, to: Option<&str>, text: &str) -> Result<(), SimError> {
        let step = Move::Step {
            consumer: consumer.to_string(),
        };
        // `to` names the next step with that keyword, wherever the handler is:
        // a program may commit twice.
        let program = &self.strategy.program;
        let at_target = |c: &Consumer| {
            c.is_running()
                && to.is_some_and(|k| program.get(c.pc).is_some_and(|op| op.keyword() == k))
        };
        for _ in 0..RUN_LIMIT {
            let Some(c) = self.world.consumers().iter().find(|c| c.name == consumer) else {
                return Err(SimError::UnknownConsumer(consumer.to_string()));
            };
            if at_target(c) {
                return Ok(());
            }
            // A crashed consumer's first step is its restart: keep going.
            let restarting = c.is_crashed();
            let answer = c.is_running() && program.get(c.pc) == Some(&Op::AwaitResponse);
            // The handler step this frame runs (an idle consumer's next
            // step is its receive; a crashed one restarts), for words told
            // step by step.
            let runs = if restarting {
                Some(crate::scenario::script::RESTART_KEY)
            } else {
                program.get(c.pc).map(|op| op.keyword())
            };
            self.world.apply(&step)?;
            // Taking in the provider's answer changes only the consumer and
            // the provider's key store (the answer given out), unless the
            // answer makes it roll back (SQL the database sees).
            let quiet = answer
                && self.world.sql().is_empty()
                && self.world.events().iter().all(|e| match &e.actor {
                    Actor::Consumer(name) => name == consumer,
                    Actor::Provider => true,
                    _ => false,
                });
            self.push_own(text.to_string(), quiet)?;
            // The n-th step with a keyword in this action has words of its
            // own under `keyword#n`.
            let key = runs.map(|k| {
                let n = self.met.entry(k).or_default();
                *n += 1;
                crate::scenario::step_key::step_key(k, *n)
            });
            if let Some(words) = key.and_then(|k| self.steps_left.remove(&k)) {
                let written_for = self.steps_for.clone();
                self.tell_from(self.last_own, &words, written_for);
            }
            let c = self
                .world
                .consumers()
                .iter()
                .find(|c| c.name == consumer)
                .expect("found above");
            let stop = match c.status() {
                Status::Idle => !restarting,
                Status::Blocked { .. } | Status::AwaitingKey { .. } | Status::Crashed => true,
                Status::Handling => at_target(c),
            };
            // Judged before the user's move, which may crash this very
            // consumer: the frames made so far stay as they were shown.
            let told_already = self.rest_is_quiet(consumer, to);
            self.apply_forks()?;
            if stop {
                return Ok(());
            }
            if self.forked() {
                self.interrupted = !told_already;
                return Ok(());
            }
        }
        Ok(())
    }

    /// All that is left of `run consumer to …` is to take in the
    /// provider's answer: the action's words have come true already, and
    /// a move of the user's that cuts it short here does not take them back.
    fn rest_is_quiet(&self, consumer: &str, to: Option<&str>) -> bool {
        let Some(c) = self.world.consumers().iter().find(|c| c.name == consumer) else {
            return false;
        };
        // A `run` with no target goes on to commit and ack: never quiet.
        let Some(to) = to else {
            return false;
        };
        if !c.is_running() || c.lose_next_response {
            return false;
        }
        self.strategy
            .program
            .iter()
            .skip(c.pc)
            .take_while(|op| op.keyword() != to)
            .all(|op| *op == Op::AwaitResponse)
    }

    fn apply(&mut self, mv: &Move, text: &str) -> Result<(), SimError> {
        self.world.apply(mv)?;
        self.push_own(text.to_string(), false)?;
        self.apply_forks()
    }

    /// A frame of the script's own action; `quiet`: it changed nothing
    /// that anyone but its consumer can see.
    fn push_own(&mut self, action: String, quiet: bool) -> Result<(), SimError> {
        self.push(action)?;
        self.last_own = self.made - 1;
        if !quiet {
            self.said_at = Some(self.last_own);
        }
        Ok(())
    }

    /// Whether a message is still to be published after the frame being
    /// made: by the script while it runs as written, by the user's moves
    /// not yet applied once it forked.
    fn open(&self) -> bool {
        let scripted = !self.forked()
            && self
                .last_publish
                .is_some_and(|last| (self.chapter, self.action_index) < last);
        scripted || publishes(&self.forks[self.next_fork..])
    }

    fn push(&mut self, action: String) -> Result<(), SimError> {
        self.push_as(action, false)
    }

    fn push_as(&mut self, action: String, yours: bool) -> Result<(), SimError> {
        let open = self.open();
        // The copies still to come, for the verdict: a wrong effect one of
        // them could undo is not declared before it has come.
        let here = (self.chapter, self.action_index);
        let forked = self.forked();
        let to_come: Vec<&str> = self
            .publishes_left
            .iter()
            .filter(|(at, _)| !forked && *at > here)
            .map(|(_, id)| id.as_str())
            .chain(fork_publishes(&self.forks[self.next_fork..]))
            .collect();
        self.world.expect_publishes(to_come);
        self.sink.push(
            &mut self.world,
            self.made,
            At {
                chapter: self.chapter,
                action_index: self.action_index,
                title: &self.title,
                narration: &self.narration,
                borrowed: self.borrowed.as_ref(),
                action,
                open,
                yours,
            },
        )?;
        self.made += 1;
        Ok(())
    }

    /// The user's first move opens a chapter of its own, numbered after the
    /// script's last so that it never pairs with a scripted one: from here
    /// the frames tell the user's run, and the words say so.
    fn begin_play_out(&mut self, fork: &Fork) {
        let start = self.chapters.last().copied().unwrap_or(0);
        self.scripted = Some((
            std::mem::take(&mut self.narration),
            self.borrowed.take(),
            start,
        ));
        self.chapter = self.script.steps.len() + 1;
        self.chapters.push(self.made);
        self.action_index = 0;
        self.title = "Your run".into();
        self.narration = format!(
            "At step {} you changed the run: {}. The scenario's later actions \
             were written for the run as scripted, so they stop here. From now on \
             nothing goes wrong unless you make it: each handler finishes what it \
             started, a crashed consumer restarts, an idle one takes whatever the \
             queue shows it, and when only a lease can bring a message back, the \
             clock runs on to its deadline. It goes on until every message is \
             settled; the events tell each step.",
            fork.at + 1,
            // In words, not the file's form (`crash A`).
            fork.mv.told(),
        );
    }

    /// The user's moves due right after the current last frame. Forks come
    /// in the order they were made, each at or after the one before.
    fn apply_forks(&mut self) -> Result<(), SimError> {
        while let Some(fork) = self.forks.get(self.next_fork)
            && fork.at < self.made
        {
            let first = !self.forked();
            if first {
                self.begin_play_out(fork);
            }
            self.next_fork += 1;
            if let Move::Step { consumer } = &fork.mv {
                self.last_stepped = Some(consumer.clone());
            }
            self.world.apply(&fork.mv)?;
            self.push_as(format!("you: {}", fork.mv.written()), true)?;
            if first {
                // The whole paragraph is said once, at the user's move;
                // after it each step is told by its own line, with only a
                // reminder of whose run this is.
                self.narration = format!(
                    "Since your change at step {} ({}), nothing else goes wrong unless \
                     you make it.",
                    fork.at + 1,
                    fork.mv.written()
                );
            }
        }
        Ok(())
    }
}
