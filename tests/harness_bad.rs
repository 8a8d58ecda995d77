//! `idem test` against programs that do not keep the protocol: each kind
//! gets its own diagnosis, with the last lines of the program's stderr,
//! within the stated limit (never a hang, never a panic), and no process
//! of the program is left behind, even when idem itself is killed.

#![cfg(target_os = "linux")]

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const HELLO: &str = r#"echo '{"type":"hello","protocol":1}'"#;

/// A word no other process on the machine has in its command line: each
/// bad program carries it, so a leftover is found by it.
fn marker(name: &str) -> String {
    format!("idem-harness-bad-{name}-{}", std::process::id())
}

/// The processes whose command line holds `marker`.
fn alive(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        // A zombie has an empty command line: reaped or not, it runs nothing.
        if cmdline.contains(marker) {
            found.push(format!("{pid}: {cmdline}"));
        }
    }
    found
}

fn assert_none_left(marker: &str) {
    let start = Instant::now();
    loop {
        let left = alive(marker);
        if left.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "processes left behind: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `idem test` on `sh -c SCRIPT MARKER` with a short answer limit.
fn idem_test(name: &str, script: &str, extra: &[&str]) -> (Output, String) {
    let marker = marker(name);
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir.path())
        .args(["test", "--no-save", "--wait", "2", "--faults", "0"])
        .args(extra)
        .args(["--", "sh", "-c", script, &marker])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{name}: idem took {:?}",
        start.elapsed()
    );
    assert_none_left(&marker);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stderr)
}

fn diagnosed(name: &str, script: &str, words: &[&str]) {
    let (out, stderr) = idem_test(name, script, &[]);
    assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    for w in words {
        assert!(stderr.contains(w), "{name}: wanted {w:?} in:\n{stderr}");
    }
}

#[test]
fn a_program_that_fails_to_start() {
    let marker = marker("missing");
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args([
            "test",
            "--no-save",
            "--wait",
            "2",
            "--",
            "/nonexistent/idem-consumer",
            &marker,
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the program fails to start"), "{stderr}");
    assert!(
        stderr.contains("cannot start /nonexistent/idem-consumer"),
        "{stderr}"
    );
    assert_none_left(&marker);
}

#[test]
fn a_program_that_exits_at_once() {
    diagnosed(
        "exits",
        "echo 'no config here' >&2; exit 3",
        &[
            "the program exits at once",
            "exit status 3",
            "| no config here",
        ],
    );
}

/// It says hello and then dies each time: restarted, until the limit.
#[test]
fn a_program_that_keeps_ending() {
    diagnosed(
        "ending",
        &format!("{HELLO}; read x; echo 'segfault, pretend' >&2; exit 1"),
        &[
            "exits at once",
            "it keeps ending: 8 restarts",
            "| segfault, pretend",
        ],
    );
}

#[test]
fn a_program_that_prints_garbage() {
    diagnosed(
        "garbage",
        "echo 'starting up' >&2; echo 'Hello, world'; sleep 30",
        &[
            "does not speak the protocol",
            "not JSON",
            "Hello, world",
            "| starting up",
        ],
    );
}

#[test]
fn a_program_that_ends_in_half_a_line() {
    diagnosed(
        "half",
        r#"printf '{"type":"hel'"#,
        &["ends in the middle of a line", r#"{"type":"hel"#],
    );
}

#[test]
fn a_program_that_floods_stdout() {
    diagnosed(
        "flood",
        "head -c 300000 /dev/zero | tr '\\0' x; sleep 30",
        &["floods its output", "longer than 64 KiB"],
    );
}

#[test]
fn a_program_that_never_answers() {
    diagnosed(
        "silent",
        &format!("{HELLO}; echo 'thinking hard' >&2; sleep 60"),
        &["never answers", "no request within 2s", "| thinking hard"],
    );
}

/// Two requests in one write: idem sees both at once, so the second is out
/// of turn however fast idem answers the first.
#[test]
fn a_program_that_asks_out_of_order() {
    diagnosed(
        "order",
        &format!(
            r#"{HELLO}; read x; printf '{{"type":"receive"}}\n{{"type":"receive"}}\n'; sleep 30"#
        ),
        &[
            "asks out of order",
            "while its receive was still unanswered",
        ],
    );
}

#[test]
fn a_program_that_prints_bytes_that_are_not_text() {
    diagnosed(
        "bytes",
        r"printf '\377\376\001garbage\n'; sleep 30",
        &["does not speak the protocol", "not UTF-8"],
    );
}

/// Half a line, and then it stays alive and says nothing more: the
/// diagnosis shows what it began to write, not only its silence.
#[test]
fn a_program_that_stops_in_half_a_line() {
    diagnosed(
        "half-alive",
        r#"printf '{"type":"hel'; sleep 30"#,
        &[
            "ends in the middle of a line",
            "half a line on its stdout and nothing more within 2s",
            r#"{"type":"hel"#,
        ],
    );
}

/// Requests as fast as it can write them: idem holds a bounded number of
/// lines, and the second request in a row is out of turn.
#[test]
fn a_program_that_floods_stdout_with_requests() {
    diagnosed(
        "flood-lines",
        &format!(r#"{HELLO}; read x; yes '{{"type":"receive"}}'"#),
        &[
            "asks out of order",
            "while its receive was still unanswered",
        ],
    );
}

/// A megabyte of log between two requests is more than a pipe holds: idem
/// reads it as the program works, so the program never stops on the
/// write and is never taken for silent. (It keeps no database, so the run
/// ends in that diagnosis, with the end of the log.)
#[test]
fn a_program_that_floods_its_stderr_is_not_taken_for_silent() {
    diagnosed(
        "flood-stderr",
        &format!(
            r#"{HELLO}; read x; head -c 1000000 /dev/zero | tr '\0' e | fold -w 100 >&2; echo '{{"type":"receive"}}'; read x; echo '{{"type":"ack","receipt":"r-1"}}'; read x; echo '{{"type":"receive"}}'; read x"#
        ),
        &["keeps its tables in an unexpected shape", "| eeeeeeeeee"],
    );
}

/// A charge must carry a new, larger `req` each time: a repeated number
/// would make two answers indistinguishable.
#[test]
fn a_program_that_answers_with_a_used_charge_number() {
    diagnosed(
        "req",
        &format!(
            r#"{HELLO}; read x; echo '{{"type":"receive"}}'; read x; echo '{{"type":"charge","req":1,"order":1042,"amount":40}}'; read x; echo '{{"type":"charge","req":1,"order":1042,"amount":40}}'; sleep 30"#
        ),
        &[
            "asks out of order",
            "charge #1 after charge #1",
            "a new, larger req",
        ],
    );
}

#[test]
fn a_program_of_another_protocol_version() {
    diagnosed(
        "version",
        r#"echo '{"type":"hello","protocol":2}'; sleep 30"#,
        &["breaks the handshake", "protocol 2; idem speaks protocol 1"],
    );
}

#[test]
fn a_program_whose_tables_are_not_where_the_query_looks() {
    // It keeps the protocol (receipt r-1 is the first idem hands out) but
    // creates no database at all.
    diagnosed(
        "tables",
        &format!(
            r#"{HELLO}; read x; echo '{{"type":"receive"}}'; read x; echo 'acking' >&2; echo '{{"type":"ack","receipt":"r-1"}}'; read x; echo '{{"type":"receive"}}'; read x"#
        ),
        &[
            "keeps its tables in an unexpected shape",
            "never created it",
            "--recorded-query",
            "| acking",
        ],
    );
}

#[test]
fn a_recorded_query_of_the_wrong_shape() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sample =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/python/idempotent.py");
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir.path())
        .args([
            "test",
            "--no-save",
            "--faults",
            "0",
            "--recorded-query",
            "SELECT message_id FROM processed_messages",
            "--",
        ])
        .arg(python)
        .arg(sample)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("keeps its tables in an unexpected shape"),
        "{stderr}"
    );
    assert!(stderr.contains("1 column"), "{stderr}");
}

pub fn python3() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("-c")
        .arg("import sqlite3")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 with sqlite3 is not installed");
    }
    ok.then_some("python3")
}

/// idem killed with SIGKILL runs no code at all: the supervisor sees its
/// stdin close and ends the program's process group. SIGTERM and SIGINT
/// stop idem at its next wait, with a word, and it kills the group itself
/// and exits 128 + the signal's number.
#[test]
fn no_child_outlives_idem_killed_or_stopped() {
    for signal in ["KILL", "TERM", "INT"] {
        let marker = marker(&format!("killed-{signal}"));
        let idem = Command::new(env!("CARGO_BIN_EXE_idem"))
            .args(["test", "--no-save", "--wait", "100", "--", "sh", "-c"])
            .arg(format!("{HELLO}; read x; sleep 300; echo never"))
            .arg(&marker)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while alive(&marker).len() < 2 {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the program never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &idem.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = idem.wait_with_output().unwrap();
        if signal != "KILL" {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("idem test was stopped"),
                "{signal}: {stderr}"
            );
            // 128 + the signal's number, as the simulator ends: not 2,
            // which says the program or its arguments are wrong.
            let code = if signal == "INT" { 130 } else { 143 };
            assert_eq!(out.status.code(), Some(code), "{signal}: {stderr}");
        }
        assert_none_left(&marker);
    }
}
