//! Keys while the help is open: the arrows scroll it a row (on a short
//! screen), PgDn and PgUp a boxful, Home and End to its first and last
//! rows; any of the closing keys closes it.

use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};

pub(super) fn help_key(app: &mut App, action: Action) {
    // No further than its last row coming into view, so that the first
    // key back up scrolls at once; the view clamps again for a screen
    // that grew since.
    let most = || crate::tui::view::help_most_scroll(&app.theme, app.viewport);
    let page = || crate::tui::view::help_page(&app.theme, app.viewport);
    // PgDn and PgUp, Home and End are bound to chapters and steps on the
    // main screen; here, as in any long text, they move the page.
    let to = match action {
        Action::Up | Action::ScrollUp | Action::Prev => Some(app.help_scroll.saturating_sub(1)),
        Action::Down | Action::ScrollDown | Action::Next => Some(app.help_scroll + 1),
        Action::PrevChapter => Some(app.help_scroll.saturating_sub(page())),
        Action::NextChapter => Some(app.help_scroll + page()),
        Action::First => Some(0),
        Action::Last => Some(most()),
        _ => None,
    };
    if let Some(to) = to {
        app.help_scroll = to.min(most());
        return;
    }
    if matches!(
        action,
        Action::Back | Action::Help | Action::Enter | Action::Click { .. }
    ) {
        app.overlay = Overlay::None;
    }
}
