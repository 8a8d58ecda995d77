//! `--db` never destroys what is not its own. Each test puts something at
//! the path, runs the real binary, and checks that idem refused with a clear
//! message (exit 2) and that the thing is byte for byte what it was.

use idem::sim::db::Database;
use std::path::Path;
use std::process::{Command, Output};

/// `idem run tour-1 --db DB` in `dir`; shared with `db_held`.
pub(crate) fn idem_db(dir: &Path, db: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir)
        .args(["run", "tour-1", "--db", db])
        .output()
        .unwrap()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_refused(out: &Output, words: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains(words), "expected {words:?} in: {err}");
    assert!(
        out.stdout.is_empty(),
        "no run is printed when --db is refused"
    );
}

fn sqlite_db(path: &Path) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("CREATE TABLE precious (x TEXT); INSERT INTO precious VALUES ('keep me');")
        .unwrap();
}

#[test]
fn a_uri_name_is_a_plain_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.db");
    sqlite_db(&victim);
    let before = std::fs::read(&victim).unwrap();
    let out = idem_db(dir.path(), "file:victim.db");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&victim).unwrap(), before);
    let literal = dir.path().join("file:victim.db");
    let payments: i64 = rusqlite::Connection::open(&literal)
        .unwrap()
        .query_row("SELECT count(*) FROM payments", [], |r| r.get(0))
        .unwrap();
    assert!(
        payments > 0,
        "the run went into the file named file:victim.db"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let out = idem_db(dir.path(), "pipe");
    assert_refused(&out, "named pipe (FIFO)");
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

#[cfg(unix)]
#[test]
fn dev_null_is_refused() {
    let out = idem_db(Path::new("/"), "/dev/null");
    assert_refused(&out, "character device");
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

#[test]
fn a_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    assert_refused(&idem_db(dir.path(), "folder"), "it is a folder");
    assert!(dir.path().join("folder").is_dir());
}

#[cfg(unix)]
#[test]
fn a_symlink_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    // Even a link to an earlier idem database: replacing the link by a
    // file, or writing through it, would surprise whoever made it.
    assert_eq!(idem_db(dir.path(), "ours.db").status.code(), Some(0));
    let before = std::fs::read(dir.path().join("ours.db")).unwrap();
    std::os::unix::fs::symlink("ours.db", dir.path().join("link.db")).unwrap();
    assert_refused(
        &idem_db(dir.path(), "link.db"),
        "symbolic link (to ours.db)",
    );
    let link = std::fs::symlink_metadata(dir.path().join("link.db")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(std::fs::read(dir.path().join("ours.db")).unwrap(), before);
}

#[test]
fn an_empty_file_idem_did_not_create_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    assert_refused(
        &idem_db(dir.path(), "empty.db"),
        "empty file that idem did not create",
    );
    assert_eq!(std::fs::read(&empty).unwrap(), b"");
}

#[test]
fn a_foreign_file_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, b"my notes").unwrap();
    assert_refused(&idem_db(dir.path(), "notes.txt"), "not an SQLite database");
    assert_eq!(std::fs::read(&notes).unwrap(), b"my notes");
}

#[test]
fn a_foreign_sqlite_database_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let theirs = dir.path().join("theirs.db");
    sqlite_db(&theirs);
    let before = std::fs::read(&theirs).unwrap();
    assert_refused(
        &idem_db(dir.path(), "theirs.db"),
        "without idem's application_id",
    );
    assert_eq!(std::fs::read(&theirs).unwrap(), before);
}

#[test]
fn a_stray_journal_is_kept_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("new.db-journal");
    std::fs::write(&journal, b"someone's journal").unwrap();
    assert_refused(
        &idem_db(dir.path(), "new.db"),
        "new.db-journal exists beside it",
    );
    assert_eq!(std::fs::read(&journal).unwrap(), b"someone's journal");
    assert!(
        !dir.path().join("new.db").exists(),
        "nothing was left behind"
    );
    // Beside an earlier idem database, the journal does not make idem call
    // that database foreign: the message names the journal.
    assert_eq!(idem_db(dir.path(), "ours.db").status.code(), Some(0));
    let journal = dir.path().join("ours.db-journal");
    std::fs::write(&journal, b"another journal").unwrap();
    let out = idem_db(dir.path(), "ours.db");
    assert_refused(&out, "ours.db-journal exists beside it");
    assert!(!stderr(&out).contains("not a database that idem created"));
    assert_eq!(std::fs::read(&journal).unwrap(), b"another journal");
}

#[test]
fn an_earlier_idem_database_is_replaced_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let first = idem_db(dir.path(), "ours.db");
    assert_eq!(first.status.code(), Some(0));
    assert!(!stderr(&first).contains("replaced"));
    let second = idem_db(dir.path(), "ours.db");
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert!(stderr(&second).contains("replaced ours.db"));
    assert_eq!(first.stdout, second.stdout, "the same run, byte for byte");
}

#[test]
fn memory_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(&idem_db(dir.path(), ":memory:"), "leave out --db");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn a_database_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("busy.db");
    // This process plays the first run: it holds the database open.
    let db = Database::open(Some(&path)).unwrap();
    let conn = db.connect().unwrap();
    conn.begin().unwrap();
    conn.insert_payment(1042, 40, "m-7f3").unwrap();
    conn.commit().unwrap();
    let before = std::fs::read(&path).unwrap();
    assert_refused(&idem_db(dir.path(), "busy.db"), "another idem run is using");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(db.committed().unwrap().payments.len(), 1);
    // In the same process too: a second world on the same file is refused.
    assert!(Database::open(Some(&path)).is_err());
    drop(conn);
    drop(db);
    assert_eq!(idem_db(dir.path(), "busy.db").status.code(), Some(0));
}
