//! The file behind `--db`: idem may only ever replace a regular file that it
//! created itself, and only while no other idem run uses it.
//!
//! The checks run on the very file SQLite will open. Three things make that
//! true: the path handed to SQLite is absolute (the bundled SQLite is built
//! with `SQLITE_USE_URI`, so a name such as `file:victim.db` would otherwise
//! be read as a URI and open `victim.db`); the file is opened once here, then
//! locked, and its identity (device, inode) is compared with what the path
//! names, so a symbolic link or a swap in between is caught; and idem never
//! unlinks a file it did not create a moment before: its own earlier
//! database is emptied in place, through SQLite, under SQLite's own lock.
//!
//! Two locks guard the file. idem's: an exclusive `flock` on the database
//! file itself, held as long as the [`DbFile`] lives (the database and
//! every session share it), which keeps a second idem run out and lets its
//! refusal name this one. SQLite's: POSIX record locks, which Linux keeps
//! apart from `flock`, so the first lock does not see a program such as
//! `sqlite3` reading the file. That is why nothing here changes the file:
//! the database layer (`sim/db/take_over.rs`) takes SQLite's exclusive
//! lock without waiting and empties the file through SQLite, and leaves a
//! file that another program holds exactly as it was. Closing any
//! descriptor of the file drops the process's POSIX locks, so the
//! `flock`'s descriptor closes last.

use super::db::sql::APPLICATION_ID;
use holder::Kind;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

mod holder;

/// What `--db` was given and why idem will not use it.
#[derive(Debug, thiserror::Error)]
pub enum DbFileError {
    #[error("--db needs a file name")]
    NoName,
    #[error(
        "--db {path} names SQLite's private in-memory database, which each consumer would get on its own; leave out --db to run in memory"
    )]
    Memory { path: String },
    #[error("--db {path}: refusing to use it: it is {kind}, and idem only writes regular files")]
    NotRegular { path: String, kind: &'static str },
    #[error(
        "--db {path}: refusing to use it: it is a symbolic link (to {target}); idem never replaces a link, so give the path of a new file or of an earlier idem database"
    )]
    Symlink { path: String, target: String },
    #[error(
        "--db {path}: refusing to overwrite it: it is an empty file that idem did not create (idem only replaces databases it wrote itself); remove it or choose another name"
    )]
    EmptyForeign { path: String },
    #[error(
        "--db {path}: refusing to overwrite it: it is not a database that idem created ({why}); choose another name"
    )]
    NotOurs { path: String, why: &'static str },
    #[error(
        "--db {path}: refusing to use it: {journal} exists beside it, {what} that idem did not leave (another program has the database open, or one stopped without closing it), and SQLite would apply it to the new database or delete it; move it away first"
    )]
    StrayJournal {
        path: String,
        journal: String,
        what: &'static str,
    },
    #[error(
        "--db {path}: another idem run is using this database right now{by}; wait for it to finish or choose another name"
    )]
    InUse { path: String, by: String },
    #[error(
        "--db {path}: another program{by} has this database open in a transaction (SQLite reports it locked); idem left the file as it was: end that transaction or choose another name"
    )]
    Locked { path: String, by: String },
    #[error(
        "--db {path}: the path is not UTF-8 text, and SQLite reports the file it opened as text, so idem could not check it is the same file; choose another name"
    )]
    NotText { path: String },
    #[error("--db {path}: the file changed while idem was checking it ({what}); try again")]
    Changed { path: String, what: &'static str },
    #[error("--db {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// What was at the path before idem claimed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Nothing: idem creates the file.
    Nothing,
    /// A database from an earlier idem run: idem empties it and starts again.
    Earlier,
}

/// A claimed database file: checked and locked against other idem runs,
/// ready for SQLite, which must still take its own lock before emptying an
/// earlier database. Dropping it releases the lock.
#[derive(Debug)]
pub struct DbFile {
    /// The absolute path SQLite must open (never read as a URI).
    pub path: PathBuf,
    pub found: Found,
    /// Holds the exclusive lock.
    lock: File,
}

impl DbFile {
    /// The refusal for a file that SQLite found locked by another program,
    /// naming that program where the system says who it is.
    pub fn locked(&self) -> DbFileError {
        DbFileError::Locked {
            path: self.path.display().to_string(),
            by: holder::describe(&self.lock, Kind::Posix),
        }
    }
}

/// The bytes every SQLite database starts with.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";
/// Where the header keeps `PRAGMA application_id` (big-endian).
const APPLICATION_ID_OFFSET: usize = 68;

/// Checks `path` without changing anything: what idem would find there, or
/// why it would refuse. The real check is repeated under the lock by [`claim`].
pub fn inspect(path: &Path) -> Result<Found, DbFileError> {
    let path = absolute(path)?;
    let shown = path.display().to_string();
    match check_kind(&path)? {
        None => {
            refuse_journal(&path)?;
            Ok(Found::Nothing)
        }
        Some(_) => {
            let mut file = open_existing(&path, false).map_err(|source| io(&shown, source))?;
            same_file(&path, &file)?;
            // Another idem run's journal is its own: name the run, not
            // the journal. A look only: the lock goes at once.
            lock(&shown, &file)?;
            let _ = file.unlock();
            check_ours(&path, &mut file)?;
            refuse_journal(&path)?;
            Ok(Found::Earlier)
        }
    }
}

/// Checks only that `path` names a place a database file could be: not a
/// folder, link, device, pipe or SQLite name. For a name idem derives others
/// from (`soak --db soak.db` gives `soak-naive.db`) and never writes itself.
pub fn check_name(path: &Path) -> Result<(), DbFileError> {
    check_kind(&absolute(path)?).map(|_| ())
}

/// Claims `path` for a new run: creates it, or takes an earlier idem
/// database (which the database layer empties under SQLite's lock);
/// refuses anything else. Changes nothing that was there.
pub fn claim(path: &Path) -> Result<DbFile, DbFileError> {
    let path = absolute(path)?;
    let shown = path.display().to_string();
    let (mut file, found) = match check_kind(&path)? {
        None => match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => (file, Found::Nothing),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(DbFileError::Changed {
                    path: shown,
                    what: "it appeared",
                });
            }
            Err(source) => return Err(io(&shown, source)),
        },
        Some(_) => (
            open_existing(&path, true).map_err(|source| io(&shown, source))?,
            Found::Earlier,
        ),
    };
    lock(&shown, &file)?;
    same_file(&path, &file)?;
    if found == Found::Nothing {
        // A journal without its database would be taken for this new
        // database's: SQLite deletes it. It is not ours to delete.
        if let Err(e) = refuse_journal(&path) {
            drop(file);
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    } else {
        check_ours(&path, &mut file)?;
        refuse_journal(&path)?;
    }
    Ok(DbFile {
        path,
        found,
        lock: file,
    })
}

/// Opens what was seen as a regular file without waiting: should a FIFO
/// have taken its place, the open returns at once and [`same_file`]
/// refuses it. On a regular file the flag changes nothing.
fn open_existing(path: &Path, write: bool) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The absolute path of the file, with its folder resolved (a linked folder
/// is fine: only the last component is ever created or emptied).
fn absolute(path: &Path) -> Result<PathBuf, DbFileError> {
    let shown = path.display().to_string();
    if path.as_os_str().is_empty() {
        return Err(DbFileError::NoName);
    }
    if path.as_os_str() == ":memory:" {
        return Err(DbFileError::Memory { path: shown });
    }
    let Some(name) = path.file_name() else {
        return Err(DbFileError::NotRegular {
            path: shown,
            kind: "a folder",
        });
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let folder = parent.canonicalize().map_err(|source| DbFileError::Io {
        path: format!("{shown} (its folder {})", parent.display()),
        source,
    })?;
    let path = folder.join(name);
    if path.to_str().is_none() {
        return Err(DbFileError::NotText { path: shown });
    }
    Ok(path)
}

/// `None` when nothing is there; the metadata of a regular file; an error
/// for anything else. Never follows a link.
fn check_kind(path: &Path) -> Result<Option<std::fs::Metadata>, DbFileError> {
    let shown = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(io(&shown, source)),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        let target = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_else(|_| "somewhere unreadable".into());
        return Err(DbFileError::Symlink {
            path: shown,
            target,
        });
    }
    if kind.is_file() {
        return Ok(Some(meta));
    }
    Err(DbFileError::NotRegular {
        path: shown,
        kind: kind_name(&kind),
    })
}

/// What a path is when it is no regular file, in words for an error: the
/// same words wherever idem refuses to write one (`--db`, `-o`).
#[cfg(unix)]
pub fn kind_name(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a named pipe (FIFO)"
    } else if kind.is_char_device() {
        "a character device (such as /dev/null)"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
pub fn kind_name(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

fn lock(shown: &str, file: &File) -> Result<(), DbFileError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(DbFileError::InUse {
            path: shown.to_string(),
            by: holder::describe(file, Kind::Flock),
        }),
        Err(std::fs::TryLockError::Error(source)) => Err(io(shown, source)),
    }
}

/// The open file must be the regular file the path names right now: not a
/// link, a pipe or another file swapped in after the first look.
fn same_file(path: &Path, file: &File) -> Result<(), DbFileError> {
    let shown = path.display().to_string();
    let opened = file.metadata().map_err(|source| io(&shown, source))?;
    if !opened.file_type().is_file() {
        return Err(DbFileError::NotRegular {
            path: shown,
            kind: kind_name(&opened.file_type()),
        });
    }
    let now = check_kind(path)?.ok_or(DbFileError::Changed {
        path: shown.clone(),
        what: "it disappeared",
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if (now.dev(), now.ino()) != (opened.dev(), opened.ino()) {
            return Err(DbFileError::Changed {
                path: shown,
                what: "another file took its place",
            });
        }
    }
    #[cfg(not(unix))]
    let _ = now;
    Ok(())
}

/// An earlier idem database starts with SQLite's header and carries idem's
/// application ID. Read from the bytes, not through SQLite, so that a
/// journal beside it cannot change the answer or be applied.
fn check_ours(path: &Path, file: &mut File) -> Result<(), DbFileError> {
    let shown = path.display().to_string();
    let mut header = Vec::with_capacity(100);
    file.by_ref()
        .take(100)
        .read_to_end(&mut header)
        .map_err(|source| io(&shown, source))?;
    if header.is_empty() {
        return Err(DbFileError::EmptyForeign { path: shown });
    }
    if header.len() < 100 || &header[..16] != SQLITE_MAGIC {
        return Err(DbFileError::NotOurs {
            path: shown,
            why: "it is not an SQLite database",
        });
    }
    let at = APPLICATION_ID_OFFSET;
    let id = i32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]]);
    if id != APPLICATION_ID {
        return Err(DbFileError::NotOurs {
            path: shown,
            why: "an SQLite database without idem's application_id",
        });
    }
    Ok(())
}

/// The files SQLite keeps beside a database, and what each is.
const BESIDE: [(&str, &str); 3] = [
    ("-journal", "a rollback journal"),
    ("-wal", "a write-ahead log"),
    ("-shm", "a write-ahead log's shared index"),
];

/// Refuses when anything is at `<path>-journal`, `<path>-wal` or
/// `<path>-shm`: SQLite would roll a journal or log into the database or
/// delete it, and idem cannot tell whose it is. A log beside the file also
/// means another program may have it open in WAL mode, where its locks
/// live in the `-shm` file rather than on the database.
fn refuse_journal(path: &Path) -> Result<(), DbFileError> {
    for (suffix, what) in BESIDE {
        let mut journal = path.as_os_str().to_owned();
        journal.push(suffix);
        let journal = PathBuf::from(journal);
        match std::fs::symlink_metadata(&journal) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(io(&journal.display().to_string(), source)),
            Ok(_) => {
                return Err(DbFileError::StrayJournal {
                    path: path.display().to_string(),
                    journal: journal.display().to_string(),
                    what,
                });
            }
        }
    }
    Ok(())
}

fn io(path: &str, source: std::io::Error) -> DbFileError {
    DbFileError::Io {
        path: path.to_string(),
        source,
    }
}
