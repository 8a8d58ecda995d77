//! `--db` never changes a database that another program, or another idem
//! run, has open. Each test holds the file the way a real program would,
//! runs the real binary on it, and checks the refusal (exit 2, one line
//! that says who holds it), that the file is byte for byte and time for time
//! what it was, and that the holder can go on using it.

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, SystemTime};

use super::db_file::{idem_db, stderr};

/// Exit 2, nothing printed, one line on stderr holding `words`.
fn assert_refused(out: &Output, words: &str) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains(words), "expected {words:?} in: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(out.stdout.is_empty(), "no run is printed when refused");
    err
}

/// The file's bytes and modification time.
fn snapshot(path: &Path) -> (Vec<u8>, SystemTime) {
    let bytes = std::fs::read(path).unwrap();
    let mtime = std::fs::metadata(path).unwrap().modified().unwrap();
    (bytes, mtime)
}

/// An earlier idem database at `dir/name`, as a user would have it.
fn earlier_run(dir: &Path, name: &str) -> PathBuf {
    let out = idem_db(dir, name);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    dir.join(name)
}

fn payments(conn: &Connection) -> i64 {
    conn.query_row("SELECT count(*) FROM payments", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_database_another_program_reads_or_writes_is_left_as_it_was() {
    for begin in ["BEGIN", "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"] {
        let dir = tempfile::tempdir().unwrap();
        let path = earlier_run(dir.path(), "held.db");
        // Read before the other program locks it: closing any descriptor
        // of the file would drop this process's SQLite locks on it.
        let was = snapshot(&path);
        std::thread::sleep(Duration::from_millis(20));
        // Another program (this test, a process apart from idem's) is in
        // the middle of a transaction on it.
        let other = Connection::open(&path).unwrap();
        other.execute_batch(begin).unwrap();
        let before = payments(&other);
        assert!(before > 0);
        let out = idem_db(dir.path(), "held.db");
        let err = assert_refused(&out, "has this database open in a transaction");
        assert!(err.contains("idem left the file as it was"), "{err}");
        assert!(
            err.contains(&format!("process {}", std::process::id())),
            "{begin}: the holder is named: {err}"
        );
        // The other program reads on, and ends its transaction as usual.
        assert_eq!(payments(&other), before, "{begin}");
        other.execute_batch("COMMIT").unwrap();
        assert_eq!(
            other
                .query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
                .unwrap(),
            "ok"
        );
        drop(other);
        assert!(snapshot(&path) == was, "{begin}: the file was changed");
        // Once it lets go, idem replaces its own earlier database.
        let out = idem_db(dir.path(), "held.db");
        assert_eq!(out.status.code(), Some(0), "{begin}: {}", stderr(&out));
    }
}

/// The same with the `sqlite3` program itself, where it is installed.
#[test]
fn a_database_the_sqlite3_shell_holds_is_left_as_it_was() {
    if Command::new("sqlite3").arg("-version").output().is_err() {
        eprintln!("sqlite3 is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = earlier_run(dir.path(), "held.db");
    let was = snapshot(&path);
    let mut shell = Command::new("sqlite3")
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::{BufRead, Write};
    let mut input = shell.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(shell.stdout.take().unwrap());
    writeln!(input, "BEGIN; SELECT count(*) FROM payments;").unwrap();
    let mut first = String::new();
    output.read_line(&mut first).unwrap();
    let out = idem_db(dir.path(), "held.db");
    let err = assert_refused(&out, "has this database open in a transaction");
    assert!(err.contains("sqlite3"), "the holder is named: {err}");
    assert!(snapshot(&path) == was, "the file was changed");
    writeln!(input, "SELECT count(*) FROM payments; COMMIT;").unwrap();
    drop(input);
    let mut second = String::new();
    output.read_line(&mut second).unwrap();
    assert_eq!(first, second, "the shell still reads what it read");
    assert!(shell.wait().unwrap().success());
}

#[test]
fn a_write_ahead_log_or_its_index_beside_the_file_is_kept_and_named() {
    for suffix in ["-wal", "-shm"] {
        let dir = tempfile::tempdir().unwrap();
        // Beside a name that is free, and beside an earlier idem database.
        for name in ["new.db", "ours.db"] {
            let path = dir.path().join(name);
            if name == "ours.db" {
                earlier_run(dir.path(), name);
            }
            let beside = dir.path().join(format!("{name}{suffix}"));
            std::fs::write(&beside, b"someone's log").unwrap();
            let was = path.exists().then(|| snapshot(&path));
            let out = idem_db(dir.path(), name);
            assert_refused(&out, &format!("{name}{suffix} exists beside it"));
            assert_eq!(std::fs::read(&beside).unwrap(), b"someone's log");
            match was {
                Some(was) => assert!(snapshot(&path) == was, "{name} was changed"),
                None => assert!(!path.exists(), "nothing was left behind"),
            }
        }
    }
}

/// A run that keeps its database open: a long scenario streams its steps
/// into a pipe nobody reads, so it waits, in the middle, for ever.
fn a_run_that_holds(dir: &Path, db: &str) -> Child {
    let scenario = dir.join("long.toml");
    std::fs::write(&scenario, idem::scenario::generate::many_payments(3000)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir)
        .args(["run", "long.toml", "--db", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Its first output comes once a buffer's worth of steps has run, so
    // the database is open by then; the pipe then fills and it waits.
    use std::io::Read;
    let mut child = child;
    let mut first = [0u8; 1];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    child
}

#[test]
fn a_second_run_on_one_database_names_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = a_run_that_holds(dir.path(), "shared.db");
    let out = idem_db(dir.path(), "shared.db");
    let err = assert_refused(&out, "another idem run");
    assert!(
        err.contains(&format!(
            "process {}: idem run long.toml --db shared.db",
            first.id()
        )),
        "the first run is named: {err}"
    );
    assert!(!err.contains("journal"), "{err}");
    // The first run still has its database: it goes on where it was.
    let mut more = [0u8; 4096];
    use std::io::Read;
    first
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut more)
        .unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
}

#[test]
fn a_program_with_it_open_between_transactions_then_reads_the_new_database_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = earlier_run(dir.path(), "open.db");
    let other = Connection::open(&path).unwrap();
    let before = payments(&other);
    // No transaction open: SQLite holds no lock, and idem may replace
    // its own database; the other connection notices, through SQLite.
    let out = idem_db(dir.path(), "open.db");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(payments(&other), before, "the same run wrote the same rows");
    let check: String = other
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_text_is_refused_before_anything_is_made() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir.path())
        .args(["run", "tour-1", "--db"])
        .arg(std::ffi::OsStr::from_bytes(b"caf\xe9.db"))
        .output()
        .unwrap();
    assert_refused(&out, "is not UTF-8 text");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn an_earlier_database_someone_put_in_wal_mode_is_replaced_only_when_nobody_has_it_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = earlier_run(dir.path(), "wal.db");
    let other = Connection::open(&path).unwrap();
    let mode: String = other
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let before = payments(&other);
    // Open in WAL mode: its log and index lie beside the file.
    let out = idem_db(dir.path(), "wal.db");
    assert_refused(&out, "wal.db-wal exists beside it");
    assert_eq!(payments(&other), before);
    drop(other);
    // Closed: SQLite removed the log; idem takes the file back, under
    // SQLite's lock, and leaves it in rollback-journal mode as it writes.
    let out = idem_db(dir.path(), "wal.db");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let conn = Connection::open(&path).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    assert_eq!(payments(&conn), before);
    drop(conn);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["wal.db"]);
}
