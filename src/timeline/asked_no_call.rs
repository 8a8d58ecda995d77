//! Why the provider gets no request in an action where a handler drops its
//! call because it found its message handled before, or held by another
//! delivery: the provider question is asked there as at every call
//! (`asked_provider`), so that the question's presence never tells a call
//! from a skip, and its reason is read from the step the finding was made
//! at, as the reason for a call is read from the call.

use crate::sim::Frame;
use crate::sim::consumer::Mark;
use crate::sim::frame::ConsumerView;
use crate::sim::step_name::KEY_MARK;

/// The provider step's keyword in a handler's step list.
const CALL: &str = "provider";

/// Why no request reached the provider in the action whose own frames are
/// `own`, started from `before`, where a handler dropped the call still
/// ahead of it on finding its message handled or held; None where none
/// did. `nothing_to_charge` tells a status change's message ID: such a
/// message has no call to drop.
pub(super) fn skipped_call_why(
    before: &Frame,
    own: &[&Frame],
    nothing_to_charge: impl Fn(&str) -> bool,
) -> Option<String> {
    own.iter().enumerate().find_map(|(i, frame)| {
        let name = frame.stepped.as_deref()?;
        let earlier = if i == 0 { before } else { own[i - 1] };
        let (was, now) = (consumer(earlier, name)?, consumer(frame, name)?);
        // A handler that receives in this step holds its message only now.
        let message = now.message.as_deref().or(was.message.as_deref())?;
        if nothing_to_charge(message) {
            return None;
        }
        // An idle handler that runs a step runs its first: it receives.
        let at = was.next.unwrap_or(0);
        skipped_the_call(name, message, was, now, at)
    })
}

/// The reason, when `name` found `message` handled before (or held) at
/// step `at` and so dropped the provider call still ahead of it.
fn skipped_the_call(
    name: &str,
    message: &str,
    was: &ConsumerView,
    now: &ConsumerView,
    at: usize,
) -> Option<String> {
    // The finding marks the step it was made at.
    let found = now.steps.get(at).map(|s| s.mark);
    if !matches!(found, Some(Mark::Conflict | Mark::Superseded)) {
        return None;
    }
    let dropped = was
        .steps
        .iter()
        .zip(&now.steps)
        .any(|(w, n)| w.keyword == CALL && w.mark == Mark::Todo && n.mark == Mark::Skipped);
    if !dropped {
        return None;
    }
    let label = step_label(was, at);
    Some(match found {
        Some(Mark::Superseded) => format!(
            "At {label}, {name} finds another delivery of {message} holding the work, so it gives its own up before the call to the provider: no request reaches it."
        ),
        _ => format!(
            // The key it records may not be the message ID (a content
            // hash): what it finds is that key, not the message, handled.
            "At {label}, {name} finds the key it records for {message} already recorded and skips the rest of the work, the call to the provider included: no request reaches it."
        ),
    })
}

fn consumer<'a>(frame: &'a Frame, name: &str) -> Option<&'a ConsumerView> {
    frame.consumers.iter().find(|c| c.name == name)
}

/// The step's name as the step list shows it, without a keyed call's mark.
fn step_label(c: &ConsumerView, at: usize) -> String {
    c.steps.get(at).map_or_else(
        || "its next step".to_string(),
        |s| s.label.trim_end_matches(KEY_MARK).to_string(),
    )
}
