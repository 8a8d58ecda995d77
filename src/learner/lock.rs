//! The lock that lets several idem windows share one progress file. Each
//! save reads the file again, merges and renames a new one over it; the
//! lock makes those three one step, so no window's save can fall between
//! another's read and rename and be lost. It is a `flock` on a file of its
//! own beside the progress file (the progress file itself is replaced on
//! every save, so a lock on it would guard a file no longer there).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

pub const FILE: &str = "progress.toml.lock";

/// How long a save waits for another window's save, which takes a few
/// milliseconds; past that something is wrong, and the save says so.
const PATIENCE: Duration = Duration::from_secs(3);
const PAUSE: Duration = Duration::from_millis(5);

/// Held while it lives; dropping it (closing the file) lets go.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

impl Lock {
    /// Takes the lock in `dir`, waiting a moment for another window's save.
    pub fn take(dir: &Path) -> std::io::Result<Lock> {
        let path = dir.join(FILE);
        let mut options = OpenOptions::new();
        // Never truncated or written: only locked. Not through a link.
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let file = options.open(&path)?;
        if !file.metadata()?.is_file() {
            return Err(std::io::Error::other(format!(
                "{} is not a regular file",
                path.display()
            )));
        }
        let started = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Lock { _file: file }),
                Err(TryLockError::Error(e)) => return Err(e),
                Err(TryLockError::WouldBlock) if started.elapsed() < PATIENCE => {
                    std::thread::sleep(PAUSE);
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(std::io::Error::other(format!(
                        "another idem held {} for over {} s",
                        path.display(),
                        PATIENCE.as_secs()
                    )));
                }
            }
        }
    }
}
