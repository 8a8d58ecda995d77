//! What a run of a scenario can cost, bounded when the file is read. The
//! simulator and the JSON transcript keep every frame whole, and a frame
//! repeats the whole queue, the step's words and every name it shows, so
//! a file's cost is its frames times what each frame holds. These rules
//! bound both factors from the file alone, before anything runs, so that
//! every file `idem validate` accepts runs in well under a second and
//! 200 MB (`benches/budget.rs` measures the worst shapes at the limits).

use super::action::Action;
use super::error::ScenarioError;
use super::format::{RawAction, RawScenario, RawStep};
use super::limits::{
    MAX_COPY_FRAMES, MAX_FRAMES, MAX_NAME_CHARS, MAX_PLAY_MESSAGES, MAX_STEP_WORDS, RUN_FRAMES,
};
use crate::sim::Move;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use toml::Spanned;

type Err<'a> = &'a dyn Fn(Option<Range<usize>>, String) -> ScenarioError;

/// Refuses the first thing that takes a file over its budget, pointing at it.
pub(super) fn check(raw: &RawScenario, err: Err<'_>) -> Result<(), ScenarioError> {
    names(raw, err)?;
    for (i, step) in raw.steps.iter().enumerate() {
        words(i + 1, step, err)?;
    }
    // A longer scenario is only ever streamed, step by step, keeping
    // nothing: its cost is bounded by the counts in `limits` alone.
    if raw.setup.messages.get_ref().len() <= MAX_PLAY_MESSAGES {
        frames(raw, err)?;
    }
    Ok(())
}

/// The most frames an action can make: one, or a whole `run`.
fn frames_of(action: &RawAction) -> usize {
    match Action::parse(&action.text) {
        Ok(Action::Run { .. }) => RUN_FRAMES,
        _ => 1,
    }
}

fn is_publish(action: &RawAction) -> bool {
    matches!(
        Action::parse(&action.text),
        Ok(Action::Move(Move::Publish { .. }))
    )
}

/// Every frame is kept: at most `MAX_FRAMES` of them, and at most
/// `MAX_COPY_FRAMES` frames times queue entries (each message, and each
/// copy a `publish` adds, is shown on every frame from then on).
fn frames(raw: &RawScenario, err: Err<'_>) -> Result<(), ScenarioError> {
    let messages = raw.setup.messages.get_ref().len();
    // Frame 0, the setup, before any action.
    let mut frames = 1;
    let mut copies = messages;
    for action in raw.steps.iter().flat_map(|s| s.actions.get_ref()) {
        frames += frames_of(action.get_ref());
        copies += usize::from(is_publish(action.get_ref()));
        if frames > MAX_FRAMES {
            return Err(err(
                Some(action.span()),
                format!(
                    "too long to keep: by this action the run can make {frames} frames (each action makes one, a `run` up to {RUN_FRAMES}); a scenario of up to {MAX_PLAY_MESSAGES} messages keeps every frame and may make at most {MAX_FRAMES}"
                ),
            ));
        }
        if frames * copies > MAX_COPY_FRAMES {
            return Err(err(
                Some(action.span()),
                format!(
                    "too long to keep: by this action the run can make {frames} frames, each showing up to {copies} queue entries (the messages and a copy per `publish`); frames times entries may be at most {MAX_COPY_FRAMES}"
                ),
            ));
        }
    }
    Ok(())
}

/// Names every frame shows: the queue's, the consumers', the messages'
/// IDs and status changes.
fn names(raw: &RawScenario, err: Err<'_>) -> Result<(), ScenarioError> {
    let setup = &raw.setup;
    let mut named: Vec<(&Spanned<String>, &str)> = Vec::new();
    named.extend(setup.queue.iter().map(|q| (q, "a queue name")));
    if let Some(consumers) = &setup.consumers {
        named.extend(consumers.get_ref().iter().map(|c| (c, "a consumer name")));
    }
    for m in setup.messages.get_ref() {
        named.push((&m.id, "a message ID"));
        named.extend(m.status.iter().map(|s| (s, "a status")));
    }
    for (name, what) in named {
        let n = name.get_ref().chars().count();
        if n > MAX_NAME_CHARS {
            return Err(err(
                Some(name.span()),
                format!(
                    "{what} of {n} characters is too long: at most {MAX_NAME_CHARS}, since every frame shows it"
                ),
            ));
        }
    }
    Ok(())
}

/// The words of a step, under each design it has its own words for: its
/// title, its narration and what its actions say come to at most
/// `MAX_STEP_WORDS` characters, since every frame of the step repeats them.
fn words(number: usize, step: &RawStep, err: Err<'_>) -> Result<(), ScenarioError> {
    let actions = step.actions.get_ref();
    let mut designs: BTreeSet<Option<&str>> = BTreeSet::from([None]);
    designs.extend(step.title_for.keys().map(|k| Some(k.get_ref().as_str())));
    designs.extend(
        step.narration_for
            .keys()
            .map(|k| Some(k.get_ref().as_str())),
    );
    for a in actions {
        designs.extend(
            a.get_ref()
                .say_for
                .keys()
                .map(|k| Some(k.get_ref().as_str())),
        );
        designs.extend(
            a.get_ref()
                .say_at
                .keys()
                .map(|k| Some(k.get_ref().as_str())),
        );
    }
    for design in designs {
        let mut pieces: Vec<(Range<usize>, usize)> = Vec::new();
        pieces.push(match own(design, &step.title_for) {
            Some((k, v)) => (k.span(), v.chars().count()),
            None => (step.title.span(), step.title.get_ref().chars().count()),
        });
        // Counted as told: a key the words name is one key on screen.
        let told = |text: &str| {
            super::key_word::told(text, super::key_word::Medium::Terminal)
                .chars()
                .count()
        };
        pieces.push(match own(design, &step.narration_for) {
            Some((k, v)) => (k.span(), told(v)),
            None => (step.narration.span(), told(step.narration.get_ref())),
        });
        for a in actions {
            let raw = a.get_ref();
            let steps = design.and_then(|d| raw.say_at.get(d));
            let said = match steps {
                Some(steps) => steps.values().map(|s| s.chars().count()).sum(),
                None => design
                    .and_then(|d| raw.say_for.get(d))
                    .or(raw.say.as_ref())
                    .map_or(0, |s| s.chars().count()),
            };
            pieces.push((a.span(), said));
        }
        let mut total = 0;
        for (span, n) in pieces {
            total += n;
            if total > MAX_STEP_WORDS {
                let under = design.map_or(String::new(), |d| format!(" under {d}"));
                return Err(err(
                    Some(span),
                    format!(
                        "step {number} has too many words{under}: its title, narration and what its actions say come to more than {MAX_STEP_WORDS} characters, and every frame of the step repeats them"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A design's own version of a text, with its key.
fn own<'a>(
    design: Option<&str>,
    map: &'a BTreeMap<Spanned<String>, String>,
) -> Option<(&'a Spanned<String>, &'a String)> {
    design.and_then(|d| map.iter().find(|(k, _)| k.get_ref() == d))
}
