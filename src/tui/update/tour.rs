//! `]` and `[` across the tour's scenarios: the end of one leads to the
//! next, and the start of one back to the end of the one before.

use super::{on_this_engine, open};
use crate::scenario::Script;
use crate::tui::app::{App, opening_design};

/// `]` at the end of a tour scenario: the next one, in the design it opens
/// with on its own (naive first), so a class meets each tour's problem
/// before its fix whatever design the tour before ended in.
pub(super) fn next_tour_scenario(app: &mut App) {
    let Some(next) = app.next_in_tour().cloned() else {
        app.status = app.end_hint();
        return;
    };
    tour_step(app, next, false);
}

/// `[` at the first step of a tour scenario: the one before, at its end,
/// as if the tour were one long run.
pub(super) fn prev_tour_scenario(app: &mut App) {
    match app.prev_in_tour().cloned() {
        Some(prev) => tour_step(app, prev, true),
        None if app.script.group == crate::scenario::Group::Tour => {
            app.status = Some("the first step of the tour".into());
        }
        None => {}
    }
}

fn tour_step(app: &mut App, next: Script, at_end: bool) {
    let next = on_this_engine(app, next);
    // Going back, the tour reads as one long run in the design shown;
    // going on, the next tour opens as it does on its own.
    let opening = opening_design(&next).filter(|_| !at_end);
    let strategy = if let Some(opening) = opening {
        opening
    } else if next.strategies().iter().any(|n| *n == app.strategy.name) {
        app.strategy.clone()
    } else {
        opening_design(&next).unwrap_or_else(|| app.strategy.clone())
    };
    // Its title for the design it is shown under, as its header says it.
    let title = next.title_for(&strategy.name).to_string();
    if open(app, next, strategy) {
        if at_end {
            app.pos = app.last_pos();
        }
        if let Some((at, of)) = app.place_in_group() {
            app.status = Some(format!("Tour {at}/{of}: {title}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::action::Action;
    use crate::tui::app::tests::app;
    use crate::tui::update::goto;
    use crate::tui::update::update;

    #[test]
    fn the_end_of_a_tour_step_leads_to_the_next() {
        let mut a = app("tour-1", "naive");
        assert_eq!(a.end_hint(), None);
        update(&mut a, Action::Last);
        assert!(a.end_hint().unwrap().contains("] next tour"));
        // ] from the last chapter goes to its end first, then on.
        let mut a = app("tour-1", "naive");
        let last_chapter = *a.timeline.chapters.last().unwrap();
        goto(&mut a, last_chapter);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.pos, a.last_pos());
        assert_eq!(a.script.name, "tour-1");
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "tour-2");
        assert_eq!(a.strategy.name, "naive", "the same design");
        assert_eq!(a.pos, 0);
        // The last tour step says the tour is over and goes nowhere.
        let mut a = app("tour-4", "idempotent");
        update(&mut a, Action::Last);
        assert!(a.end_hint().unwrap().contains("end of the tour"));
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "tour-4");
        // Outside the tour, ] at the end stays put.
        let mut a = app("charge-first", "charge-first");
        update(&mut a, Action::Last);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "charge-first");
        assert!(a.status.as_deref().unwrap().starts_with("end of scenario"));
    }

    /// Teacher trial 6: `]` at the end of tour 1 in the idempotent design
    /// opened tour 2 in it too, so the class saw the fix before the problem.
    #[test]
    fn the_next_tour_opens_in_its_own_opening_design() {
        let mut a = app("tour-1", "idempotent");
        update(&mut a, Action::Last);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "tour-2");
        let opening = crate::tui::app::opening_design(&a.script).unwrap();
        assert_eq!(opening.name, "naive");
        assert_eq!(a.strategy.name, opening.name);
        assert_eq!(a.pos, 0);
    }

    #[test]
    fn open_bracket_at_the_start_goes_back_a_tour_step() {
        let mut a = app("tour-2", "idempotent");
        update(&mut a, Action::PrevChapter);
        assert_eq!(a.script.name, "tour-1");
        assert_eq!(a.pos, a.last_pos(), "at the end of the step before");
        update(&mut a, Action::First);
        update(&mut a, Action::PrevChapter);
        assert_eq!(a.script.name, "tour-1", "the tour starts here");
        assert!(a.status.is_some());
    }
}
