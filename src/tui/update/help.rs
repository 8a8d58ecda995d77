//! Keys while the help is open: the arrows scroll it (on a short screen),
//! any of the closing keys closes it.

use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};

pub(super) fn help_key(app: &mut App, action: Action) {
    // The view clamps the scroll to what there is to see.
    match action {
        Action::Up | Action::ScrollUp | Action::Prev => {
            app.help_scroll = app.help_scroll.saturating_sub(1);
            return;
        }
        Action::Down | Action::ScrollDown | Action::Next => {
            // More than the help has lines: the view stops at its end.
            app.help_scroll = (app.help_scroll + 1).min(64);
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
