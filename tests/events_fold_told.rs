//! The events panel's fold says where the events it hides are. Teacher
//! trial, tour-3 naive step 5 at 100x30: the story's own line told the
//! first four events whole, and the events panel showed `↑ 4 more events
//! above` over the observer's note; a class looking there for the proof
//! (the provider's charge, the broker making m-7f3 visible again) read
//! the four as lost. A fold that hides events the story tells whole names
//! the story; one that hides events nobody tells counts them as more.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::sim::event::step_told;
use idem::tui::app::Panel;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What is wrong with the events panel's fold at `step`, if anything;
/// None too where the panel folds nothing.
fn wrong(step: &Step, folds: &mut usize) -> Option<String> {
    if step.main.rect(Panel::Events).is_empty() {
        return None;
    }
    let t = &step.app.theme;
    let shown = step.words_in(Panel::Events);
    let story = step.words_in(Panel::Narration);
    let events = &step.frame.events;
    // The older events the panel does not show whole (the newest is
    // never folded: where it does not fit, it is cut in its own sign),
    // and of those the ones the story's words tell whole.
    let hidden: Vec<usize> = (0..events.len().saturating_sub(1))
        .filter(|&i| !shown.contains(&squeeze(&t.text(&events[i].text))))
        .collect();
    if hidden.is_empty() || !shown.contains('↑') {
        return None;
    }
    *folds += 1;
    let told = hidden
        .iter()
        .filter(|&&i| story.contains(&squeeze(&t.text(&step_told(&events[i..=i])))))
        .count();
    let names_story = shown.contains("in the story") || shown.contains("in story");
    let counts_rest = shown.contains(" more");
    let why = match (told, told < hidden.len()) {
        (1.., _) if !names_story => "hides events the story tells whole and does not say so",
        (_, true) if !counts_rest => "hides events nobody tells and does not count them",
        (0, _) if names_story => "names the story, which tells none of what it hides",
        _ => return None,
    };
    Some(format!(
        "{}: the events fold {why} ({} hidden, {told} told in the story)\n{}",
        step.at(),
        hidden.len(),
        step.screen()
    ))
}

fn sweep(size: (u16, u16)) {
    let (mut folds, mut bad) = (0, Vec::new());
    each_step(size, |step| bad.extend(wrong(step, &mut folds)));
    none_wrong("events folds", folds, 0, &bad, size);
}

#[test]
fn events_fold_names_the_story_at_80x24() {
    sweep(SIZES[0]);
}

#[test]
fn events_fold_names_the_story_at_100x30() {
    sweep(SIZES[1]);
}

#[test]
fn events_fold_names_the_story_at_120x40() {
    sweep(SIZES[2]);
}

/// The newest event cut at its panel's end, where the story's own line
/// tells it whole: the sign says where the rest is read (trial 33,
/// tour-1 idempotent step 13 at 80x24: `…1 more line`, and no key).
#[test]
fn a_cut_event_the_story_tells_says_so() {
    let mut app = crate::common::app("tour-1", "idempotent");
    app.pos = 13;
    let screen = crate::common::draw(&mut app, 80, 24);
    let row = screen
        .lines()
        .find(|l| l.contains("already") && !l.contains("┘") && l.contains("││"))
        .unwrap_or_else(|| panic!("no events row:\n{screen}"));
    assert!(row.contains("in the story"), "{row}\n{screen}");
}
