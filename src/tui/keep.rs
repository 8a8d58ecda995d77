//! Keeping the learner's progress file in step with the app: what to save
//! and when, and what to tell when a save fails. The terminal layer calls
//! it once a loop with the time since its last save (its clock); the rest
//! is here, so that tests can drive it without a terminal.

use super::app::App;
use crate::learner::Change;
use std::time::Duration;

/// How often a moved place alone is written while the learner steps: a
/// synced write takes about 7 ms, too much for every key.
pub const PLACE_EVERY: Duration = Duration::from_secs(2);

/// Saves the learner's progress when it changed: at once for a finished
/// scenario, a score or a level; a moved place alone at most every
/// PLACE_EVERY after the last save (`since_save`), and on the way out.
/// The session's first save is never put off: a file that cannot be
/// written is then told while the learner is there to read it, not as
/// the screen closes (teacher trial). A failure shows once on the status
/// line. Says whether it tried to write.
pub fn keep_progress(app: &mut App, since_save: Option<Duration>) -> bool {
    let place_due = since_save.is_none_or(|d| d >= PLACE_EVERY);
    let Some(keeper) = &mut app.keeper.0 else {
        return false;
    };
    match keeper.change(&app.progress) {
        Change::Nothing => return false,
        Change::PlaceOnly if !app.quit && !place_due => return false,
        _ => {}
    }
    if let Some(problem) = keeper.keep(&app.progress) {
        app.status = Some(problem);
    }
    true
}

/// What to tell on standard error once the terminal is back, when a save
/// failed this session: the status line said it once, but it may have
/// gone by, or come with the last save, as the screen closed.
pub fn unsaved(app: &App) -> Option<String> {
    let why = app.keeper.0.as_ref()?.failure()?;
    Some(format!(
        "idem: your progress was not saved ({why}); what you did after that is not kept"
    ))
}
