//! Why the provider gets no request in an action where a handler runs: the
//! provider question is asked there too (`asked_provider`), so that its
//! presence never tells the class a call is coming, and its reason is read
//! from the frames like the reason for a call: the steps the handlers ran,
//! or the step at which one found its message handled before.

use crate::sim::Frame;
use crate::sim::consumer::Mark;
use crate::sim::frame::ConsumerView;
use crate::sim::step_name::KEY_MARK;

/// The provider step's keyword in a handler's step list.
const CALL: &str = "provider";

/// Why no request reached the provider in the action whose own frames are
/// `own`, started from `before`.
pub(super) fn no_call_why(before: &Frame, own: &[&Frame]) -> String {
    let mut ran: Vec<(String, Vec<String>)> = Vec::new();
    for (i, frame) in own.iter().enumerate() {
        let Some(name) = &frame.stepped else {
            continue;
        };
        let earlier = if i == 0 { before } else { own[i - 1] };
        let (Some(was), Some(now)) = (consumer(earlier, name), consumer(frame, name)) else {
            continue;
        };
        // An idle handler that runs a step runs its first: it receives.
        let at = was.next.unwrap_or(0);
        let label = step_label(was, at);
        if let Some(why) = skipped_the_call(name, was, now, at, &label) {
            return why;
        }
        // A status change charges nothing: its handler passes the call by.
        let passed = was.steps.get(at).is_some_and(|s| s.keyword == CALL)
            && now.steps.get(at).is_some_and(|s| s.mark == Mark::Skipped);
        if passed {
            let message = was.message.as_deref().unwrap_or("its message");
            return format!(
                "{message} is a status change, with nothing to charge: {name} passes the call to the provider by, so no request reaches it."
            );
        }
        match ran.iter_mut().find(|(c, _)| c == name) {
            Some((_, labels)) if labels.last() == Some(&label) => {}
            Some((_, labels)) => labels.push(label),
            None => ran.push((name.clone(), vec![label])),
        }
    }
    if ran.is_empty() {
        return "No handler gets as far as the call to the provider in this action, so no request reaches it.".into();
    }
    let runs: Vec<String> = ran
        .iter()
        .map(|(c, labels)| format!("{c} runs {}", in_a_list(labels)))
        .collect();
    let steps: usize = ran.iter().map(|(_, labels)| labels.len()).sum();
    let none = if steps == 1 {
        "That step is not"
    } else {
        "None of these steps is"
    };
    format!(
        "In this action {}. {none} the call to the provider, so no request reaches it.",
        runs.join("; ")
    )
}

/// The reason, when `name` found its message handled before at step `at`
/// and so dropped the provider call still ahead of it.
fn skipped_the_call(
    name: &str,
    was: &ConsumerView,
    now: &ConsumerView,
    at: usize,
    label: &str,
) -> Option<String> {
    // The finding marks the step it was made at; a status change's
    // provider step passes by as skipped too, with no finding.
    let found = matches!(
        now.steps.get(at).map(|s| s.mark),
        Some(Mark::Conflict | Mark::Superseded)
    );
    let dropped = found
        && was
            .steps
            .iter()
            .zip(&now.steps)
            .any(|(w, n)| w.keyword == CALL && w.mark == Mark::Todo && n.mark == Mark::Skipped);
    if !dropped {
        return None;
    }
    let message = was.message.as_deref().unwrap_or("its message");
    Some(match now.steps.get(at).map(|s| s.mark) {
        Some(Mark::Superseded) => format!(
            "At {label}, {name} finds another delivery of {message} holding the work, so it gives its own up before the call to the provider: no request reaches it."
        ),
        _ => format!(
            "At {label}, {name} finds {message} handled before and skips the rest of the work, the call to the provider included: no request reaches it."
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

/// `a`, `a and b`, `a, b and c`.
fn in_a_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::in_a_list;

    #[test]
    fn a_list_reads_as_a_sentence() {
        let s = |v: &[&str]| in_a_list(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["receive"]), "receive");
        assert_eq!(s(&["receive", "commit"]), "receive and commit");
        assert_eq!(s(&["a", "b", "c"]), "a, b and c");
    }
}
