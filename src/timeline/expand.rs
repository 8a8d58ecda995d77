//! Turns a script's actions into moves, one frame per move. `run` expands
//! as it goes, since where it stops depends on what the world does.

use super::{Fork, Timeline};
use crate::scenario::action::move_text;
use crate::scenario::{Action, Script, ScriptStep};
use crate::sim::consumer::{Consumer, Status};
use crate::sim::{Frame, Move, SimError, Strategy, World};

/// A `run` that has not stopped after this many steps is cut off: a handler
/// that keeps being refused would otherwise loop for ever.
const RUN_LIMIT: usize = 64;

pub(super) struct Run<'a> {
    script: &'a Script,
    strategy: &'a Strategy,
    seed: u64,
    world: World,
    frames: Vec<Frame>,
    chapters: Vec<usize>,
    forks: &'a [Fork],
    /// Forks before this index have been applied.
    next_fork: usize,
    chapter: usize,
    /// The action of the chapter being expanded, for `Frame::action_index`.
    action_index: usize,
    title: String,
    narration: String,
}

impl<'a> Run<'a> {
    pub fn new(
        script: &'a Script,
        strategy: &'a Strategy,
        seed: u64,
        forks: &'a [Fork],
    ) -> Result<Self, SimError> {
        let world = super::world_for(script, strategy, seed)?;
        let mut frame = world.frame()?;
        frame.chapter_title = script.title.clone();
        frame.narration = script.intro.clone();
        frame.action = "setup".into();
        let mut run = Run {
            script,
            strategy,
            seed,
            world,
            frames: vec![frame],
            chapters: vec![0],
            forks,
            next_fork: 0,
            chapter: 0,
            action_index: 0,
            title: script.title.clone(),
            narration: script.intro.clone(),
        };
        run.apply_forks()?;
        Ok(run)
    }

    pub fn chapter(&mut self, chapter: usize, step: &ScriptStep) -> Result<(), SimError> {
        self.chapter = chapter;
        self.title = step.title.clone();
        self.narration = step.narration(self.strategy.name, self.script.narrated_for.as_deref());
        self.chapters.push(self.frames.len());
        for (i, action) in step.actions.iter().enumerate() {
            self.action_index = i;
            self.action(action)?;
        }
        Ok(())
    }

    pub fn finish(self) -> Result<Timeline, SimError> {
        let mut chapters = self.chapters;
        // A chapter whose actions made no frame starts where the next one
        // does; keep the list strictly about frames that exist.
        chapters.retain(|&start| start < self.frames.len());
        chapters.dedup();
        Ok(Timeline {
            scenario: self.script.name.clone(),
            title: self.script.title.clone(),
            strategy: self.strategy.name.to_string(),
            seed: self.seed,
            frames: self.frames,
            chapters,
            forks: self.forks.to_vec(),
        })
    }

    fn action(&mut self, action: &Action) -> Result<(), SimError> {
        let text = action.text();
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
            c.status == Status::Handling
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
            let restarting = c.status == Status::Crashed;
            self.world.apply(&step)?;
            self.push(text.to_string())?;
            let c = self
                .world
                .consumers()
                .iter()
                .find(|c| c.name == consumer)
                .expect("found above");
            let stop = match c.status {
                Status::Idle => !restarting,
                Status::Blocked { .. } | Status::Crashed => true,
                Status::Handling => at_target(c),
            };
            self.apply_forks()?;
            if stop {
                return Ok(());
            }
        }
        Ok(())
    }

    fn apply(&mut self, mv: &Move, text: &str) -> Result<(), SimError> {
        self.world.apply(mv)?;
        self.push(text.to_string())?;
        self.apply_forks()
    }

    fn push(&mut self, action: String) -> Result<(), SimError> {
        let mut frame = self.world.frame()?;
        frame.chapter = self.chapter;
        frame.action_index = self.action_index;
        frame.chapter_title = self.title.clone();
        frame.narration = self.narration.clone();
        frame.action = action;
        self.frames.push(frame);
        Ok(())
    }

    /// The user's moves due right after the current last frame. Forks come
    /// in the order they were made, each at or after the one before.
    fn apply_forks(&mut self) -> Result<(), SimError> {
        while let Some(fork) = self.forks.get(self.next_fork)
            && fork.at < self.frames.len()
        {
            self.next_fork += 1;
            self.world.apply(&fork.mv)?;
            self.push(format!("you: {}", move_text(&fork.mv)))?;
        }
        Ok(())
    }
}
