//! Keys while the help is open: the arrows scroll it (on a short screen),
//! any of the closing keys closes it.

use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};

pub(super) fn help_key(app: &mut App, action: Action) {
    // Down stops where the last row is in view; the view clamps again
    // for a screen that grew since.
    match action {
        Action::Up | Action::ScrollUp | Action::Prev => {
            app.help_scroll = app.help_scroll.saturating_sub(1);
            return;
        }
        Action::Down | Action::ScrollDown | Action::Next => {
            // No further than its last row coming into view, so that the
            // first key back up scrolls at once.
            let most = crate::tui::view::help_most_scroll(&app.theme, app.viewport);
            app.help_scroll = (app.help_scroll + 1).min(most);
            return;
        }
        _ => {}
    }
    if matches!(
        action,
        Action::Back | Action::Help | Action::Enter | Action::Click { .. }
    ) {
        app.overlay = Overlay::None;
    }
}
