//! The documented bounds of a scenario. They are well beyond any lesson
//! (the built-ins use at most 2 messages, 2 consumers, 4 steps and 13
//! actions) and keep a hostile or mistaken file from making a run grow
//! without bound. A step costs the same however long the run (the verdict
//! and the tables are kept incrementally, the broker is indexed), and
//! `idem run` streams its frames, so the bounds are set by what a run at
//! all of them costs: 10,000 messages and one `run` action each run in
//! well under a second and 100 MB in a release build (see the README's
//! figures and `benches/scale.rs`). The simulator keeps every frame to step
//! back through, so it opens only scenarios up to `MAX_PLAY_MESSAGES`,
//! and what those keep is bounded too (`budget`).

use super::error::ScenarioError;
use super::format::RawScenario;
use std::ops::Range;

/// Bytes in a scenario file (1 MiB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Messages in `[setup] messages`.
pub const MAX_MESSAGES: usize = 10_000;
/// Messages in a scenario the interactive simulator (and the pictures,
/// the JSON transcript) will open: every one of its frames holds the
/// whole queue.
pub const MAX_PLAY_MESSAGES: usize = 100;
/// Consumers in `[setup] consumers`.
pub const MAX_CONSUMERS: usize = 8;
/// `[[steps]]` (chapters) in a file.
pub const MAX_STEPS: usize = 1_000;
/// Actions in the whole file, over all steps: two per message at the most
/// messages, a `run` and a fault.
pub const MAX_ACTIONS: usize = 20_000;

/// The most frames one `run` action makes: a handler still going after
/// this many steps is cut off (a message whose response keeps being lost
/// would otherwise go round for ever).
pub const RUN_FRAMES: usize = 64;
/// Frames a scenario of up to `MAX_PLAY_MESSAGES` messages can make, each
/// action counted as one and a `run` as `RUN_FRAMES`: every one is kept.
pub const MAX_FRAMES: usize = 1_000;
/// Frames times queue entries (the messages, and a copy for each
/// `publish`) in such a scenario: each frame shows every entry.
pub const MAX_COPY_FRAMES: usize = 50_000;
/// Characters of a name a frame shows: a message ID, a status, a consumer,
/// the queue.
pub const MAX_NAME_CHARS: usize = 64;
/// Characters of a step's title, narration and what its actions say,
/// together, under any one design: every frame of the step repeats them.
pub const MAX_STEP_WORDS: usize = 4_000;

/// Refuses the first thing over a bound, pointing at it.
pub(super) fn check(
    raw: &RawScenario,
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
) -> Result<(), ScenarioError> {
    if let Some(m) = raw.setup.messages.get_ref().get(MAX_MESSAGES) {
        return Err(err(
            Some(m.id.span()),
            format!("too many messages: a scenario may publish at most {MAX_MESSAGES}"),
        ));
    }
    if let Some(c) = raw
        .setup
        .consumers
        .as_ref()
        .and_then(|c| c.get_ref().get(MAX_CONSUMERS))
    {
        return Err(err(
            Some(c.span()),
            format!("too many consumers: a scenario may have at most {MAX_CONSUMERS}"),
        ));
    }
    if let Some(step) = raw.steps.get(MAX_STEPS) {
        return Err(err(
            Some(step.actions.span()),
            format!("too many steps: a scenario may have at most {MAX_STEPS} [[steps]]"),
        ));
    }
    if let Some(action) = raw
        .steps
        .iter()
        .flat_map(|s| s.actions.get_ref())
        .nth(MAX_ACTIONS)
    {
        return Err(err(
            Some(action.span()),
            format!("too many actions: a scenario may have at most {MAX_ACTIONS} in all its steps"),
        ));
    }
    Ok(())
}
