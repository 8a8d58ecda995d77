//! Which copy of a window's state keeps its progress file. The app's
//! state is plain data a test may copy (one copy per screen it draws),
//! but a file has one writer per window: a copy keeps no file, so no
//! second writer is made by copying.

use super::Keeper;

/// The keeper of the progress file, in the state that opened it; none in
/// a copy, and none in tests.
#[derive(Debug, Default)]
pub struct Keeping(pub Option<Keeper>);

impl Clone for Keeping {
    fn clone(&self) -> Self {
        Keeping(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner::Store;

    #[test]
    fn a_copy_keeps_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store {
            dir: dir.path().join("state"),
        };
        let (keeper, _, _) = Keeper::open(store, false);
        let kept = Keeping(Some(keeper));
        assert!(kept.0.is_some());
        assert!(kept.clone().0.is_none());
    }
}
