//! Keys while the help is open: any of the closing keys closes it.

use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};

pub(super) fn help_key(app: &mut App, action: Action) {
    if matches!(
        action,
        Action::Back | Action::Help | Action::Enter | Action::Click { .. }
    ) {
        app.overlay = Overlay::None;
    }
}
