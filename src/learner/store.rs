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
use std::path::PathBuf;

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
    pub(super) backup_first: bool,
    /// Something other than a regular file is there: never write.
    pub(super) writable: bool,
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
                // An older file reads as this version (what it lacks has
                // defaults that say "not known"), and is written back as it.
                p.version = VERSION;
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
    pub(super) fn save(
        &self,
        mine: &Progress,
        before: &Progress,
        afresh: bool,
    ) -> std::io::Result<()> {
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
        let prefix = format!(".{FILE}.");
        let mut temp = tempfile::Builder::new();
        temp.prefix(&prefix).suffix(".tmp");
        // As any file idem makes (0666 less the umask), not tempfile's 0600.
        #[cfg(unix)]
        temp.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let mut temp = temp.tempfile_in(&self.dir)?;
        temp.write_all(text.as_bytes())?;
        temp.as_file().sync_all()?;
        // A failure before this line removes the temporary file.
        temp.persist(self.path()).map_err(|e| e.error)?;
        Ok(())
    }
}
