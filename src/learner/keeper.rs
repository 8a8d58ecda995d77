//! Keeping the progress file in step with a window's progress: a save
//! only when something changed, the old file backed up before a fresh
//! start, and a failed write told once (`store.rs` is the file itself).

use super::progress::Progress;
use super::store::Store;
use std::path::{Path, PathBuf};

/// What a save would change: the place alone changes on every step, and
/// is worth a write (a synced one: about 7 ms here) only now and then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Nothing,
    PlaceOnly,
    More,
}

/// Keeps the file in step with the progress in memory, saving only what
/// changed; a failure is reported once, then saving stops.
#[derive(Debug)]
pub struct Keeper {
    store: Store,
    /// What this window last saved of its own progress (not the merge).
    saved: Progress,
    /// The learner starts over: the first save backs up the file and
    /// writes this window's progress alone.
    afresh: bool,
    writable: bool,
    /// Why the save that failed failed (the file and the system's reason),
    /// to tell again once the session ends: a note on the status line
    /// alone may go by unseen, or come as the screen closes.
    failure: Option<String>,
}

impl Keeper {
    /// Opens the store: the progress to start from, and a problem to tell
    /// the learner once. `fresh` starts over (the old file is backed up).
    pub fn open(store: Store, fresh: bool) -> (Keeper, Progress, Option<String>) {
        let mut loaded = store.load();
        let afresh = fresh && loaded.writable && store.path().is_file();
        if afresh {
            loaded.progress = Progress::new();
        }
        let keeper = Keeper {
            store,
            saved: if afresh || loaded.backup_first {
                // Unlike anything in memory: the first keep writes.
                Progress::default()
            } else {
                loaded.progress.clone()
            },
            afresh,
            writable: loaded.writable,
            failure: None,
        };
        (keeper, loaded.progress, loaded.problem)
    }

    pub fn path(&self) -> PathBuf {
        self.store.path()
    }

    /// What saving `progress` would change in the file.
    pub fn change(&self, progress: &Progress) -> Change {
        let same_but_place = Progress {
            last: self.saved.last.clone(),
            ..progress.clone()
        };
        if !self.writable || *progress == self.saved {
            Change::Nothing
        } else if same_but_place == self.saved {
            Change::PlaceOnly
        } else {
            Change::More
        }
    }

    /// Saves `progress` if it changed. An error comes back once, in words
    /// for the status line; after it the keeper stops trying.
    pub fn keep(&mut self, progress: &Progress) -> Option<String> {
        if !self.writable || *progress == self.saved {
            return None;
        }
        match self.store.save(progress, &self.saved, self.afresh) {
            Ok(()) => {
                self.afresh = false;
                self.saved = progress.clone();
                None
            }
            Err(e) => {
                self.writable = false;
                let why = format!("{}: {e}", shown(&self.store.path()));
                let said = format!("progress not saved ({why}): not kept this session");
                self.failure = Some(why);
                Some(said)
            }
        }
    }

    /// Why a save failed this session, if one did: the file and the reason.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner::Score;
    use crate::learner::store::FILE;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store {
            dir: dir.path().join("state"),
        };
        (dir, store)
    }

    fn some_progress() -> Progress {
        let mut p = Progress::new();
        p.set_last("tour-2", "naive", 7);
        p.mark_finished("tour-1");
        p.mark_level_won("ack-first", crate::learner::progress::Further::Breaks);
        p.record_score(
            "tour-1",
            Score {
                design: "naive".into(),
                right: 3,
                asked: 4,
            },
        );
        p
    }

    #[test]
    fn progress_reads_back_as_it_was_written() {
        let (_tmp, store) = store();
        let (mut keeper, start, problem) = Keeper::open(store.clone(), false);
        assert_eq!((start, problem), (Progress::new(), None), "no file yet");
        let p = some_progress();
        assert_eq!(keeper.keep(&p), None);
        let (_, again, problem) = Keeper::open(store.clone(), false);
        assert_eq!(problem, None);
        assert_eq!(again, p);
        // No temporary file is left behind; the lock file stays, empty.
        let mut names: Vec<String> = std::fs::read_dir(&store.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            vec![FILE.to_string(), super::super::lock::FILE.into()]
        );
    }

    #[test]
    fn a_moved_place_is_told_apart_from_other_progress() {
        let (_tmp, store) = store();
        let (mut keeper, mut p, _) = Keeper::open(store, false);
        assert_eq!(keeper.change(&p), Change::Nothing);
        p.set_last("tour-1", "naive", 3);
        assert_eq!(keeper.change(&p), Change::PlaceOnly);
        p.mark_finished("tour-1");
        assert_eq!(keeper.change(&p), Change::More);
        keeper.keep(&p);
        assert_eq!(keeper.change(&p), Change::Nothing);
    }

    #[test]
    fn a_corrupt_file_is_reported_ignored_and_backed_up_before_a_write() {
        let (_tmp, store) = store();
        std::fs::create_dir_all(&store.dir).unwrap();
        std::fs::write(store.path(), "version = 1\nlast = [oops\n").unwrap();
        let (mut keeper, start, problem) = Keeper::open(store.clone(), false);
        let problem = problem.expect("reported");
        assert!(problem.contains("not a progress file"), "{problem}");
        assert!(problem.contains("progress.toml.bak"), "{problem}");
        assert_eq!(start, Progress::new());
        // Untouched until idem writes.
        assert_eq!(
            std::fs::read_to_string(store.path()).unwrap(),
            "version = 1\nlast = [oops\n"
        );
        assert_eq!(keeper.keep(&some_progress()), None);
        assert_eq!(
            std::fs::read_to_string(store.dir.join("progress.toml.bak")).unwrap(),
            "version = 1\nlast = [oops\n",
            "the backup keeps what was there"
        );
        let (_, again, problem) = Keeper::open(store.clone(), false);
        assert_eq!((again, problem), (some_progress(), None));
    }

    #[test]
    fn an_older_backup_is_never_overwritten() {
        let (_tmp, store) = store();
        std::fs::create_dir_all(&store.dir).unwrap();
        std::fs::write(store.dir.join("progress.toml.bak"), "first").unwrap();
        std::fs::write(store.path(), "garbage").unwrap();
        let (mut keeper, _, problem) = Keeper::open(store.clone(), false);
        assert!(problem.is_some());
        assert_eq!(keeper.keep(&some_progress()), None);
        let read = |n: &str| std::fs::read_to_string(store.dir.join(n)).unwrap();
        assert_eq!(read("progress.toml.bak"), "first");
        assert_eq!(read("progress.toml.bak.2"), "garbage");
    }

    #[test]
    fn a_file_from_a_newer_idem_is_kept_not_read() {
        let (_tmp, store) = store();
        std::fs::create_dir_all(&store.dir).unwrap();
        std::fs::write(store.path(), "version = 9\n").unwrap();
        let (_, start, problem) = Keeper::open(store, false);
        assert!(problem.unwrap().contains("newer idem"));
        assert_eq!(start, Progress::new());
    }

    #[test]
    fn fresh_starts_over_and_keeps_the_old_file() {
        let (_tmp, store) = store();
        let (mut keeper, _, _) = Keeper::open(store.clone(), false);
        keeper.keep(&some_progress());
        let (mut keeper, start, problem) = Keeper::open(store.clone(), true);
        assert_eq!((start.clone(), problem), (Progress::new(), None));
        assert_eq!(keeper.keep(&start), None);
        let (_, again, _) = Keeper::open(store.clone(), false);
        assert_eq!(again, Progress::new());
        let kept = std::fs::read_to_string(store.dir.join("progress.toml.bak")).unwrap();
        assert!(kept.contains("tour-2"), "{kept}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_its_place_is_never_written_through() {
        let (tmp, store) = store();
        std::fs::create_dir_all(&store.dir).unwrap();
        let target = tmp.path().join("elsewhere");
        std::fs::write(&target, "theirs").unwrap();
        std::os::unix::fs::symlink(&target, store.path()).unwrap();
        let (mut keeper, _, problem) = Keeper::open(store.clone(), false);
        assert!(problem.unwrap().contains("not a regular file"));
        assert_eq!(keeper.keep(&some_progress()), None);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "theirs");
    }

    #[test]
    fn a_write_that_fails_is_reported_once_then_saving_stops() {
        let (_tmp, store) = store();
        let (mut keeper, _, problem) = Keeper::open(store.clone(), false);
        assert_eq!(problem, None);
        // The folder cannot be made: a file is where it would go.
        std::fs::write(&store.dir, "").unwrap();
        let said = keeper.keep(&some_progress()).expect("reported");
        assert!(said.contains("progress not saved"), "{said}");
        let mut more = some_progress();
        more.mark_finished("tour-2");
        assert_eq!(keeper.keep(&more), None, "reported once");
    }

    #[test]
    fn an_unreachable_folder_is_reported_at_the_start() {
        let (_tmp, store) = store();
        std::fs::write(&store.dir, "").unwrap();
        let (mut keeper, start, problem) = Keeper::open(store.clone(), false);
        assert!(problem.unwrap().contains("cannot read it"));
        assert_eq!(start, Progress::new());
        assert_eq!(keeper.keep(&some_progress()), None);
        assert_eq!(std::fs::read_to_string(&store.dir).unwrap(), "");
    }
}
