//! May idem write this path? One answer for every file a command writes
//! (`shot`, `record`, `lesson` `-o`, `screenshots DIR`, the `e` key):
//!
//! - a new name: yes;
//! - a regular file: only with `--force`;
//! - a symbolic link (dangling or not): only with `--force`, and then the
//!   link itself is replaced, never the file it points to;
//! - anything else (a folder, a FIFO, a device, a socket): never, since
//!   writing there would block for ever or reach something that is not a
//!   file.
//!
//! The bytes go to a temporary file beside the target and take its name in
//! one step: a rename over it with `--force`, else a rename that fails
//! instead of replacing a name that appeared meanwhile (`tempfile`'s
//! `persist_noclobber`). A reader never sees
//! half a file, and nothing is ever opened through the target's name.

use std::io::Write;
use std::path::Path;

/// Why idem will not write a path, or what failed while writing it.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path} already exists; pass --force to replace it")]
    Exists { path: String },
    #[error(
        "{path} is a symbolic link (to {target}); idem does not write through links: pass --force to replace the link itself (the file it points to is left alone)"
    )]
    Symlink { path: String, target: String },
    #[error("{path} is {kind}; idem only writes regular files")]
    NotRegular { path: String, kind: &'static str },
    #[error("{path} needs a file name")]
    NoName { path: String },
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// What is at a path now, seen without following a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Nothing,
    File,
    Link,
}

/// The path as the message shows it (escaped where it is printed).
fn shown(path: &Path) -> String {
    path.display().to_string()
}

fn io(path: &Path, source: std::io::Error) -> OutputError {
    OutputError::Io {
        path: shown(path),
        source,
    }
}

fn found(path: &Path) -> Result<Found, OutputError> {
    if path.file_name().is_none() {
        return Err(OutputError::NoName { path: shown(path) });
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(io(path, e)),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        Ok(Found::Link)
    } else if kind.is_file() {
        Ok(Found::File)
    } else {
        Err(OutputError::NotRegular {
            path: shown(path),
            kind: crate::sim::db_file::kind_name(&kind),
        })
    }
}

/// The error of making the part file, without the part file's name, which
/// `tempfile` adds (`… at path "dir/.a.html.SmbYks.part"`, teacher trial
/// 25): a name the user never gave, of a file that does not exist. The
/// folder's own error where it has one (missing, not a folder); else the
/// system's words before the name. `tempfile` keeps the error it wraps
/// private, so its words are all there is to read.
fn without_temp_name(folder: &Path, e: std::io::Error) -> std::io::Error {
    if let Err(folder_error) = std::fs::read_dir(folder) {
        return folder_error;
    }
    let told = e.to_string();
    match told.rsplit_once(" at path ") {
        Some((words, _)) => std::io::Error::new(e.kind(), words.to_string()),
        None => e,
    }
}

/// Checks that idem may write `path` (see the module's rules), without
/// changing anything. Commands that write several files check them all
/// first, so that a refusal leaves nothing half done.
pub fn check(path: &Path, force: bool) -> Result<(), OutputError> {
    match found(path)? {
        Found::Nothing => Ok(()),
        _ if force => Ok(()),
        Found::File => Err(OutputError::Exists { path: shown(path) }),
        Found::Link => Err(OutputError::Symlink {
            path: shown(path),
            target: std::fs::read_link(path)
                .map(|t| shown(&t))
                .unwrap_or_else(|_| "somewhere unreadable".into()),
        }),
    }
}

/// Writes `bytes` as `path`, by the module's rules, atomically.
pub fn write(path: &Path, bytes: &[u8], force: bool) -> Result<(), OutputError> {
    check(path, force)?;
    // In the target's own folder, so that naming it stays on one file
    // system; a failure or a refusal removes it.
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut temp = tempfile::Builder::new();
    temp.prefix(&prefix).suffix(".part");
    // As any file idem makes (0666 less the umask), not tempfile's 0600.
    #[cfg(unix)]
    temp.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = temp
        .tempfile_in(folder)
        .map_err(|e| io(path, without_temp_name(folder, e)))?;
    // Told by the name asked for: the part file is idem's, and is gone.
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|e| io(path, e))?;
    // Checked again just before: a FIFO or device put there meanwhile must
    // not be renamed away.
    check(path, force)?;
    if force {
        temp.persist(path).map_err(|e| io(path, e.error))?;
        return Ok(());
    }
    // Fails instead of replacing a name that appeared meanwhile.
    match temp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(OutputError::Exists { path: shown(path) })
        }
        Err(e) => Err(io(path, e.error)),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_name_is_written_and_an_existing_file_needs_force() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write(&path, b"one", false).unwrap();
        assert!(matches!(
            write(&path, b"two", false),
            Err(OutputError::Exists { .. })
        ));
        write(&path, b"two", true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// The file is as open to others as any file made on this machine
    /// (0666 less the umask), not kept to its owner as a temporary file is.
    #[cfg(unix)]
    #[test]
    fn a_written_file_has_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let usual = dir.path().join("usual.txt");
        std::fs::write(&usual, b"x").unwrap();
        let ours = dir.path().join("ours.txt");
        write(&ours, b"x", false).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&ours), mode(&usual));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_replaced_itself_and_only_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        std::fs::write(&target, b"keep").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            write(&link, b"new", false),
            Err(OutputError::Symlink { .. })
        ));
        write(&link, b"new", true).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_file());
        assert_eq!(std::fs::read(&link).unwrap(), b"new");
        // A dangling link is a link too: not written through.
        let dangling = dir.path().join("dangling.txt");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(write(&dangling, b"x", false).is_err());
        assert!(!dir.path().join("nowhere").exists());
    }

    #[test]
    fn a_folder_or_a_device_is_never_written() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            write(dir.path(), b"x", true),
            Err(OutputError::NotRegular { .. })
        ));
        #[cfg(unix)]
        assert!(matches!(
            check(Path::new("/dev/null"), true),
            Err(OutputError::NotRegular { .. })
        ));
    }

    #[test]
    fn a_missing_folder_is_told_by_the_name_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nodir").join("a.html");
        let told = write(&path, b"x", false).unwrap_err().to_string();
        assert!(told.contains("nodir/a.html"), "{told}");
        assert!(told.contains("No such file or directory"), "{told}");
        assert!(!told.contains(".part"), "{told}");
    }
}
