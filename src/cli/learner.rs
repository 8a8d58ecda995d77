//! The learner's progress file, opened for the simulator and the level
//! screen.

use super::output::note;

/// The learner's progress and the keeper of its file. A problem with the
/// file is told once, here, before the screen changes.
pub fn open_progress(fresh: bool) -> (Option<idem::learner::Keeper>, idem::learner::Progress) {
    use idem::learner::{Keeper, Progress, Store};
    let Some(store) = Store::locate() else {
        note("idem: no home folder to keep your progress in (set IDEM_STATE_DIR to choose one)");
        return (None, Progress::new());
    };
    let (keeper, progress, problem) = Keeper::open(store, fresh);
    if let Some(problem) = problem {
        note(&format!("idem: {problem}"));
    }
    (Some(keeper), progress)
}
