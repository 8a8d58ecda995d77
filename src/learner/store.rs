//! The progress file: `progress.toml` in the platform's state directory
//! (`$XDG_STATE_HOME/idem` on Linux, the app-data folder elsewhere), or in
//! `$IDEM_STATE_DIR` when set, which tests use to stay out of the home.
//!
//! A file that cannot be read or is not ours to read (corrupt, from a
//! newer idem, too large) is reported once and ignored; before idem writes
//! in its place, it renames it to `progress.toml.bak` (or `.bak.2`, ...),
//! so nothing a learner had is lost. Anything but a regular file there (a
//! link, a folder) is never written over. What is read is checked: a value
//! idem never writes (a score with more right answers than questions) is
//! dropped and told.
//!
//! Several idem windows may share the file. Each save takes the lock
//! beside it (`lock.rs`), reads the file again and merges what other
//! windows saved into this window's progress, then writes a temporary file
//! in the same folder and renames it over the old one: a crash mid-write
//! leaves the old file whole, and no window's progress is lost. A save that
//! would make the file larger than idem reads back is refused.

use super::lock::Lock;
use super::progress::{Progress, VERSION};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub const FILE: &str = "progress.toml";
/// The environment variable that moves the folder.
pub const ENV: &str = "IDEM_STATE_DIR";
/// Far more than a learner's progress can need; a larger file is not ours.
pub const MAX_BYTES: u64 = 256 * 1024;
/// Backups tried before giving up on keeping another.
const MAX_BACKUPS: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub dir: PathBuf,
}

/// What reading the file found.
enum Reading {
    Missing,
    /// The progress, and what was dropped from it as impossible.
    Found(Progress, Vec<String>),
    /// A regular file idem cannot use (corrupt, newer, too large): backed
    /// up before idem writes in its place.
    Unusable(String),
    /// Not a regular file, or not even looked at: never written over.
    Untouchable(String),
}

/// What loading found.
#[derive(Debug)]
pub struct Loaded {
    pub progress: Progress,
    /// Why the file was ignored, to tell the learner once.
    pub problem: Option<String>,
    /// The file is there and must be backed up before the first write.
    backup_first: bool,
    /// Something other than a regular file is there: never write.
    writable: bool,
}

impl Store {
    /// The folder from `IDEM_STATE_DIR`, else the platform's; `None` where
    /// the platform has no home to put it in.
    pub fn locate() -> Option<Store> {
        if let Some(dir) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
            return Some(Store { dir: dir.into() });
        }
        let dirs = directories::ProjectDirs::from("", "", "idem")?;
        let dir = dirs.state_dir().unwrap_or(dirs.data_local_dir());
        Some(Store {
            dir: dir.to_path_buf(),
        })
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE)
    }

    pub fn load(&self) -> Loaded {
        let shown = self.path().display().to_string();
        let ignored = |why: String, writable: bool| Loaded {
            progress: Progress::new(),
            problem: Some(if writable {
                format!(
                    "{shown}: {why}; starting with no progress (the file is kept as {FILE}.bak)"
                )
            } else {
                format!("{shown}: {why}; progress is not kept this session")
            }),
            backup_first: writable,
            writable,
        };
        match self.read() {
            Reading::Missing => Loaded {
                progress: Progress::new(),
                problem: None,
                backup_first: false,
                writable: true,
            },
            Reading::Found(progress, dropped) => Loaded {
                progress,
                problem: (!dropped.is_empty())
                    .then(|| format!("{shown}: left out {}", dropped.join("; "))),
                backup_first: false,
                writable: true,
            },
            Reading::Unusable(why) => ignored(why, true),
            Reading::Untouchable(why) => ignored(why, false),
        }
    }

    /// Reads the file, at most [`MAX_BYTES`] of it, and checks what it says.
    fn read(&self) -> Reading {
        let path = self.path();
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Reading::Missing,
            Err(e) => return Reading::Untouchable(format!("cannot read it: {e}")),
        };
        if !meta.is_file() {
            return Reading::Untouchable("not a regular file".into());
        }
        if meta.len() > MAX_BYTES {
            return Reading::Unusable(format!(
                "too large for a progress file ({} bytes)",
                meta.len()
            ));
        }
        let mut text = String::new();
        let read = std::fs::File::open(&path)
            .and_then(|f| f.take(MAX_BYTES + 1).read_to_string(&mut text));
        if let Err(e) = read {
            return Reading::Unusable(format!("cannot read it: {e}"));
        }
        if text.len() as u64 > MAX_BYTES {
            return Reading::Unusable("too large for a progress file".into());
        }
        match toml::from_str::<Progress>(&text) {
            Ok(p) if p.version > VERSION => Reading::Unusable(format!(
                "written by a newer idem (version {}, this one reads {VERSION})",
                p.version
            )),
            Ok(mut p) => {
                let dropped = p.drop_impossible();
                Reading::Found(p, dropped)
            }
            Err(e) => Reading::Unusable(format!("not a progress file: {}", e.message().trim())),
        }
    }

    /// Saves `mine`, this window's progress, into the file, under the lock,
    /// together with what other windows saved there since: finished
    /// scenarios and levels won of both, the better score of each, and the
    /// place this window moved to if it moved since `before` (what it last
    /// saved), else the file's. `afresh` backs up the file and writes
    /// `mine` alone, for a learner starting over.
    fn save(&self, mine: &Progress, before: &Progress, afresh: bool) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let _lock = Lock::take(&self.dir)?;
        let merged = match self.read() {
            Reading::Missing => mine.clone(),
            Reading::Found(_, _) if afresh => {
                self.back_up()?;
                mine.clone()
            }
            Reading::Found(theirs, _) => {
                let mut merged = mine.clone();
                merged.merge(&theirs);
                if mine.last == before.last && theirs.last.is_some() {
                    merged.last = theirs.last;
                }
                merged
            }
            // Unusable whether or not the learner starts afresh: kept.
            Reading::Unusable(_) => {
                self.back_up()?;
                mine.clone()
            }
            Reading::Untouchable(why) => return Err(std::io::Error::other(why)),
        };
        self.write(&merged)
    }

    /// Renames the file to the first free `progress.toml.bak[.N]`.
    fn back_up(&self) -> std::io::Result<PathBuf> {
        for n in 1..=MAX_BACKUPS {
            let name = if n == 1 {
                format!("{FILE}.bak")
            } else {
                format!("{FILE}.bak.{n}")
            };
            let backup = self.dir.join(name);
            if std::fs::symlink_metadata(&backup).is_err() {
                std::fs::rename(self.path(), &backup)?;
                return Ok(backup);
            }
        }
        Err(std::io::Error::other(format!(
            "{MAX_BACKUPS} backups of {FILE} already there; remove some"
        )))
    }

    /// Writes atomically: a temporary file in the same folder, synced,
    /// then renamed over the old one. Never more than idem reads back.
    fn write(&self, progress: &Progress) -> std::io::Result<()> {
        let text = format!(
            "# What idem remembers of your progress. Safe to delete: idem starts afresh.\n{}",
            toml::to_string(progress).map_err(std::io::Error::other)?
        );
        if text.len() as u64 > MAX_BYTES {
            return Err(std::io::Error::other(format!(
                "it would take {} bytes, more than the {MAX_BYTES} idem reads back",
                text.len()
            )));
        }
        let (tmp, mut file) = self.temporary()?;
        let written = file
            .write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::rename(&tmp, self.path()));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// A new file of our own beside the progress file.
    fn temporary(&self) -> std::io::Result<(PathBuf, std::fs::File)> {
        let pid = std::process::id();
        let mut last = None;
        for n in 0..MAX_BACKUPS {
            let tmp = self.dir.join(format!(".{FILE}.{pid}.{n}.tmp"));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(file) => return Ok((tmp, file)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no temporary file")))
    }
}

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
                Some(format!(
                    "progress not saved ({}: {e}); it is kept no more this session",
                    shown(&self.store.path())
                ))
            }
        }
    }
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner::Score;

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
        p.mark_level_won("ack-first");
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
