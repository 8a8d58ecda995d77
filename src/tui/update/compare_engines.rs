//! `E`: the design on screen on both engines side by side, or back. The
//! run on screen is PostgreSQL's, so entering and leaving keep its frame.

use super::compare::toggle_compare;
use crate::tui::app::App;
use crate::tui::compare::{Compare, Sides};

pub(super) fn toggle_engines(app: &mut App) {
    app.transition = None;
    app.zoom = false;
    app.presenter = false;
    if let Some(c) = app.compare.take() {
        app.pos = c.own_frame(app.pos, &app.strategy.name).min(app.last_pos());
        // From two designs, E goes on to the two engines.
        if c.sides == Sides::Engines {
            return;
        }
    }
    open_engines(app);
}

/// Compare opened again after the run changed (another design, another
/// scenario), the same way it was open.
pub(super) fn reopen_compare(app: &mut App, sides: Sides) {
    match sides {
        Sides::Designs => toggle_compare(app),
        Sides::Engines => open_engines(app),
    }
}

fn open_engines(app: &mut App) {
    match Compare::engines(&app.script, &app.strategy, app.seed, &app.timeline) {
        Ok(c) => {
            let mine = app.pos;
            app.pos = c
                .pairs
                .iter()
                .position(|&(_, r)| r >= mine)
                .unwrap_or(c.pairs.len() - 1);
            app.compare = Some(c);
        }
        Err(e) => app.status = Some(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::action::Action;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    #[test]
    fn on_sqlite_e_says_in_one_line_what_it_needs_and_changes_nothing() {
        let mut a = app("tour-3", "idempotent");
        update(&mut a, Action::Next);
        update(&mut a, Action::CompareEngines);
        assert!(a.compare.is_none());
        assert_eq!(a.pos, 1);
        let note = a.status.as_deref().unwrap();
        assert!(
            note.contains("--db postgres://") && !note.contains('\n'),
            "{note}"
        );
    }
}
