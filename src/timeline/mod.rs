//! Runs a script under a strategy and keeps every frame, so that stepping
//! back is an index change. A fork replays the prefix on a fresh database and
//! inserts the user's move: cheap, and SQLite stays the source of truth.

mod asked;
mod asked_no_call;
mod asked_provider;
mod expand;
mod moment;
pub mod play_out;
mod retention;
pub mod stream;
mod to_come;

pub use asked::{Answer, Asked};
pub use moment::Moment;

use crate::scenario::{Expectation, Script};
use crate::sim::change::Changes;
use crate::sim::{Frame, Move, SimError, Strategy, World};
use serde::Serialize;

/// A move the user made at a point of the run: it happens right after frame `at`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fork {
    pub at: usize,
    pub mv: Move,
}

#[derive(Clone, Debug, Serialize)]
pub struct Timeline {
    pub scenario: String,
    pub title: String,
    pub strategy: String,
    pub seed: u64,
    pub frames: Vec<Frame>,
    /// The first frame of each chapter (scenario step); chapter 0 is frame 0.
    pub chapters: Vec<usize>,
    pub forks: Vec<Fork>,
    /// Set when the scenario is not written for this design: the note that
    /// says its story is left out (see `Script::story_left_out`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub story_left_out: Option<String>,
    /// Who made the script: a found schedule's steps are moves, not
    /// chapters, wherever the run is told.
    #[serde(skip)]
    pub origin: crate::scenario::Origin,
}

impl Timeline {
    pub fn build(
        script: &Script,
        strategy: &Strategy,
        seed: u64,
        forks: &[Fork],
    ) -> Result<Timeline, SimError> {
        Timeline::build_as(script, strategy, seed, forks, false)
    }

    /// The run as `build` makes it, then on past the script's last action
    /// until every message is settled, the way a run goes on after the
    /// user's move (`play_out`): a schedule written for one design leaves
    /// another design mid-way, and a comparison needs both to end on a
    /// verdict.
    pub fn build_to_end(
        script: &Script,
        strategy: &Strategy,
        seed: u64,
        forks: &[Fork],
    ) -> Result<Timeline, SimError> {
        Timeline::build_as(script, strategy, seed, forks, true)
    }

    fn build_as(
        script: &Script,
        strategy: &Strategy,
        seed: u64,
        forks: &[Fork],
        to_end: bool,
    ) -> Result<Timeline, SimError> {
        // A design the scenario's words are not written for runs with
        // none of them: they would tell another design's story.
        let story_left_out = script.story_left_out(&strategy.name);
        let script = &*script.told_for(&strategy.name);
        let world = world_for(script, strategy, seed)?;
        let mut run = expand::Run::new(script, strategy, world, expand::Keep::default(), forks)?;
        for (chapter, step) in script.steps.iter().enumerate() {
            run.chapter(chapter + 1, step)?;
        }
        run.play_out()?;
        if to_end {
            run.play_on()?;
        }
        let (keep, chapters, _) = run.finish();
        let mut timeline = Timeline {
            scenario: script.name.clone(),
            title: script.title_for(&strategy.name).to_string(),
            strategy: strategy.name.to_string(),
            seed,
            frames: keep.frames,
            chapters,
            forks: forks.to_vec(),
            story_left_out,
            origin: script.origin,
        };
        mark_changes(&mut timeline.frames);
        // A found schedule counts moves: the observer's notes name them so
        // (`A crashed at move 2`), as its verdict and its saved words do;
        // they said `step 2` beside `move 4/17` (teacher trial 44), and the
        // saved words, no longer the same as the step's own line, were
        // told a second time in the story.
        if script.origin.step() != "step" {
            let unit = script.origin.step();
            let words = |n: usize| format!("{unit} {n}");
            for e in timeline.frames.iter_mut().flat_map(|f| f.events.iter_mut()) {
                e.reword_steps(&words);
            }
        }
        // The last frame's verdict is the end verdict: if nothing is
        // declared, it says what is left open.
        let end = timeline.frames.last_mut().expect("frame 0 at least");
        end.verdict.unsettled = end.unsettled();
        Ok(timeline)
    }

    pub fn last(&self) -> &Frame {
        self.frames.last().expect("a timeline has frame 0 at least")
    }

    /// The chapter a frame belongs to.
    pub fn chapter_of(&self, frame: usize) -> usize {
        self.chapters
            .iter()
            .rposition(|&start| start <= frame)
            .unwrap_or(0)
    }

    /// The first frame whose verdict declares a failure.
    pub fn first_violation(&self) -> Option<usize> {
        self.frames
            .iter()
            .position(|f| f.verdict.outcome.is_failure())
    }

    /// Where the run first went wrong: the step that did the harm (a second
    /// charge, say) when the verdict can point at one, which can come before
    /// the verdict could declare it; else the declaring frame.
    pub fn went_wrong_at(&self) -> Option<usize> {
        let declared = self.first_violation()?;
        let harm = self.frames[declared].verdict.harm_step();
        Some(harm.map_or(declared, |h| h.min(declared)))
    }

    /// How the end of the run differs from what the scenario expects.
    pub fn misses(&self, expect: &Expectation) -> Vec<String> {
        let end = self.last();
        misses(
            end.db.payments_total,
            end.provider.charges.len(),
            &end.verdict.outcomes(),
            expect,
        )
    }
}

/// How a run that ended with these figures differs from an expectation.
fn misses(
    payments_total: u64,
    charges_made: usize,
    outcomes_got: &[crate::sim::Outcome],
    expect: &Expectation,
) -> Vec<String> {
    let mut misses = Vec::new();
    if let Some(total) = expect.total
        && payments_total != u64::from(total)
    {
        misses.push(format!(
            "payments total (committed rows): expected ${total}, got ${payments_total}"
        ));
    }
    if let Some(charges) = expect.charges
        && charges_made as u64 != u64::from(charges)
    {
        misses.push(format!(
            "provider charges: expected {charges}, got {charges_made}"
        ));
    }
    if let Some(outcomes) = &expect.outcomes
        && outcomes_got != outcomes.as_slice()
    {
        misses.push(format!(
            "outcome: expected {}, got {}",
            crate::sim::verdict::outcome_set(outcomes),
            crate::sim::verdict::outcome_set(outcomes_got)
        ));
    }
    misses
}

/// Each frame learns what its step changed, from the frame before it.
fn mark_changes(frames: &mut [Frame]) {
    for i in 1..frames.len() {
        let changes = Changes::between(&frames[i - 1], &frames[i]);
        frames[i].changes = changes;
    }
}

/// Builds the world a script starts from.
pub fn world_for(script: &Script, strategy: &Strategy, seed: u64) -> Result<World, SimError> {
    World::new(script.setup.clone(), strategy.clone(), seed)
}
