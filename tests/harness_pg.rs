//! `idem test --db postgres://…`: a learner's program on a PostgreSQL
//! schema of its own. idem clears the correct Rust sample and catches the
//! naive one; a schedule in which one instance's INSERT waits for the
//! other's transaction is told from the server's lock view, the same three
//! times; a killed instance's backend is gone before the run goes on; every
//! schema is dropped at the end, on SIGTERM, and (a killed idem's) at the
//! next start, and nothing else on the server is touched. Where no server
//! answers (`IDEM_TEST_PG`, else the local one), each test prints one line
//! and passes. The tests that create schemas take turns (`SERVER`), so that
//! "no schema of idem test is left" means this test's.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static SERVER: Mutex<()> = Mutex::new(());

fn address() -> String {
    std::env::var("IDEM_TEST_PG").unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
}

/// A connection to the test server, or None (said in one line).
fn server() -> Option<postgres::Client> {
    let mut config: postgres::Config = address().parse().expect("a postgres:// address");
    config.connect_timeout(Duration::from_secs(5));
    match config.connect(postgres::NoTls) {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("skipped: no PostgreSQL server to test against ({e})");
            None
        }
    }
}

fn example(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent()?.parent()?.join("examples").join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: the Rust samples are not built (cargo build --examples)");
        None
    }
}

fn idem(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `command`; kills it and fails when it takes longer than `limit`.
fn within(limit: Duration, command: &mut Command) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("still running after {limit:?}: {}", text(&out));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The schemas named like idem test's on the server.
/// `idem test` on the server with one instance of `sh -c script`, no
/// faults and a long wait, as the tests that hold a transaction open run it.
fn one_instance(dir: &Path, script: &str, out: fn() -> Stdio) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir)
        .args([
            "test",
            "--db",
            &address(),
            "--wait",
            "60",
            "--instances",
            "1",
            "--faults",
            "0",
            "--",
        ])
        .args(["sh", "-c", script])
        .stdout(out())
        .stderr(out())
        .spawn()
        .unwrap()
}

/// Waits (20 s at most) until `count` (a `SELECT count(*)`) is above zero:
/// the program's backend has reached the state the test needs.
fn until_the_server_shows(c: &mut postgres::Client, count: &str) {
    let start = Instant::now();
    while c.query_one(count, &[]).unwrap().get::<_, i64>(0) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the program never connected"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn schemas(c: &mut postgres::Client) -> Vec<String> {
    c.query(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'idem\\_test\\_%' ORDER BY 1",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect()
}

#[test]
fn idem_clears_the_correct_pg_sample_and_catches_the_naive_one() {
    let Some(mut c) = server() else { return };
    let (Some(good), Some(naive)) = (
        example("consumer_idempotent_pg"),
        example("consumer_naive_pg"),
    ) else {
        return;
    };
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let url = address();
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = idem(
        dir.path(),
        &[
            "test",
            "--db",
            &url,
            "--faults",
            "1",
            "--no-save",
            "--",
            good.to_str().unwrap(),
        ],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains("the money was right in every schedule"),
        "{all}"
    );
    assert!(all.contains("explored 10 schedules"), "{all}");
    let out = idem(
        dir.path(),
        &[
            "test",
            "--db",
            &url,
            "--faults",
            "1",
            "--save",
            "saved",
            "--",
            naive.to_str().unwrap(),
        ],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(
        all.contains("CHARGED TWICE: shortest schedule (no. 3): lose-response at point 1"),
        "{all}"
    );
    let saved = std::fs::read_to_string(
        dir.path()
            .join("saved/consumer_naive_pg-charged-twice.json"),
    )
    .unwrap();
    assert!(
        saved.contains("\"database\""),
        "the file names the server: {saved}"
    );
    eprintln!(
        "both samples explored on PostgreSQL in {:?}",
        started.elapsed()
    );
    assert_eq!(schemas(&mut c), Vec::<String>::new(), "a schema was left");
}

fn schedule(dir: &Path, program: &Path, fault: &str, point: usize) -> PathBuf {
    let file = dir.join(format!("{fault}.json"));
    std::fs::write(
        &file,
        serde_json::json!({
            "idem_test_schedule": 1,
            "program": [program],
            "messages": 1,
            "instances": 2,
            "recorded_query": "SELECT order_id, amount FROM payments",
            "faults": [{"point": point, "fault": fault}],
            "database": address(),
            "outcome": "correct",
            "verdict": "",
        })
        .to_string(),
    )
    .unwrap();
    file
}

/// The lease runs out while A holds its transaction open (waiting for its
/// charge); B receives the message and its INSERT waits for A's row. idem
/// asks the server, sees B wait for A, answers A; A commits, B's INSERT
/// finds the row (0 rows: skipped). Three replays, one transcript.
#[test]
fn a_pg_replay_with_a_blocked_instance_is_the_same_every_time() {
    let Some(_c) = server() else { return };
    let Some(good) = example("consumer_idempotent_pg") else {
        return;
    };
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let file = schedule(dir.path(), &good, "expire-lease", 1);
    let replay = || {
        let out = idem(
            dir.path(),
            &["test", "--replay", file.to_str().unwrap(), "--text"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let first = replay();
    assert!(
        first.contains(
            "B (start 1) waits for the database lock: the server shows its statement waiting for A (start 1)'s open transaction"
        ),
        "{first}"
    );
    assert!(
        first.contains("B: m-1 already processed: skipped"),
        "{first}"
    );
    assert!(first.contains("verdict: correct"), "{first}");
    super::harness_samples::tables_shown_at_every_step(&first);
    for _ in 0..2 {
        assert_eq!(replay(), first, "a replay differs");
    }
}

/// A is killed after the charge with its transaction open: the server
/// rolls it back once A's backend is gone, which idem waits for; the
/// redelivery does the work again with the same key (replayed, no new
/// charge).
#[test]
fn a_killed_instance_s_transaction_is_rolled_back_by_the_server() {
    let Some(_c) = server() else { return };
    let Some(good) = example("consumer_idempotent_pg") else {
        return;
    };
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let file = schedule(dir.path(), &good, "kill-after-charge", 1);
    let out = idem(
        dir.path(),
        &["test", "--replay", file.to_str().unwrap(), "--text"],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    let kill = all
        .find("✕ fault: A (start 1) killed after the charge")
        .expect(&all);
    let gone = all
        .find("the server shows no backend of A (start 1) left: what it had not committed is rolled back")
        .expect(&all);
    assert!(kill < gone, "{all}");
    // After the kill the table is empty again: A's row was never committed.
    let after = &all[gone..];
    let step_end = after.find("── step").unwrap_or(after.len());
    assert!(
        after[..step_end].contains("table processed_messages (message_id): no rows"),
        "{all}"
    );
    assert!(all.contains("replayed from the key store"), "{all}");
    assert!(all.contains("verdict: correct"), "{all}");
}

/// On SIGTERM idem ends the program, ends the backend it left waiting in
/// an open transaction, and drops the schema before it exits.
#[test]
fn sigterm_drops_the_schema_even_with_a_backend_in_a_transaction() {
    let Some(mut c) = server() else { return };
    if Command::new("psql").arg("--version").output().is_err() {
        eprintln!("skipped: no psql to hold a transaction open");
        return;
    }
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let script = r#"psql -q "$IDEM_DB_URL" -c 'CREATE TABLE held (x int)' -c 'BEGIN' -c 'INSERT INTO held VALUES (1)' -c 'SELECT pg_sleep(60)' >/dev/null 2>&1 &
echo '{"type":"hello","protocol":1}'; read a; sleep 60"#;
    let dir = tempfile::tempdir().unwrap();
    let mut child = one_instance(dir.path(), script, Stdio::piped);
    // Until the program's backend sits in its transaction.
    until_the_server_shows(
        &mut c,
        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'idem\\_test\\_%.A' AND query LIKE '%pg_sleep%'",
    );
    assert_eq!(schemas(&mut c).len(), 1);
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "idem did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{}", text(&out));
    assert!(
        text(&out).contains("idem was asked to stop"),
        "{}",
        text(&out)
    );
    assert_eq!(schemas(&mut c), Vec::<String>::new(), "the schema was left");
}

/// idem killed with SIGKILL can clean nothing up: its supervisor ends the
/// program (and the program's open transaction with its connection), and
/// the next start of idem test drops the schema it left.
#[test]
fn a_schema_left_by_a_sigkilled_idem_is_dropped_at_the_next_start() {
    let Some(mut c) = server() else { return };
    if Command::new("psql").arg("--version").output().is_err() {
        eprintln!("skipped: no psql to hold a transaction open");
        return;
    }
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    // psql keeps its transaction open while it waits for more input: its
    // backend is idle in the transaction, and goes when psql goes.
    let script = r#"(echo 'CREATE TABLE held (x int); BEGIN; INSERT INTO held VALUES (1);'; sleep 60) | psql -q "$IDEM_DB_URL" >/dev/null 2>&1 &
echo '{"type":"hello","protocol":1}'; read a; sleep 60"#;
    let dir = tempfile::tempdir().unwrap();
    let mut child = one_instance(dir.path(), script, Stdio::null);
    let in_transaction = "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'idem\\_test\\_%.A' AND state = 'idle in transaction'";
    until_the_server_shows(&mut c, in_transaction);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(schemas(&mut c).len(), 1, "a killed idem drops nothing");
    let out = within(
        Duration::from_secs(30),
        Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(dir.path())
            .args([
                "test",
                "--db",
                &address(),
                "--instances",
                "1",
                "--faults",
                "0",
                "--",
                "true",
            ]),
    );
    // `true` exits before its hello: a bad program, after the sweep.
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // The supervisor ends the program 2 s after idem's end; until then
    // the schema is in use and stays: the sweep is tried until it is not.
    let start = Instant::now();
    while !schemas(&mut c).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the schema was never dropped"
        );
        std::thread::sleep(Duration::from_millis(200));
        let _ = within(
            Duration::from_secs(30),
            Command::new(env!("CARGO_BIN_EXE_idem"))
                .current_dir(dir.path())
                .args(["test", "--db", &address(), "--", "true"]),
        );
    }
}

/// A program whose statement waits for a lock held outside the run is not
/// "blocked" (nothing idem does will free it): its silence runs to the
/// answer limit, and the diagnosis says what the server shows.
#[test]
fn a_wait_for_a_lock_held_outside_the_run_is_named_in_the_diagnosis() {
    let Some(mut c) = server() else { return };
    if Command::new("psql").arg("--version").output().is_err() {
        eprintln!("skipped: no psql to wait for a lock");
        return;
    }
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let key = 0x1de4_7e57_i64;
    c.query("SELECT pg_advisory_lock($1)", &[&key]).unwrap();
    let script = format!(
        r#"echo '{{"type":"hello","protocol":1}}'; read a
echo '{{"type":"receive"}}'; read a
psql -q "$IDEM_DB_URL" -c 'SELECT pg_advisory_lock({key})' >/dev/null 2>&1
sleep 60"#
    );
    let dir = tempfile::tempdir().unwrap();
    let out = within(
        Duration::from_secs(30),
        Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(dir.path())
            .args([
                "test",
                "--db",
                &address(),
                "--wait",
                "2",
                "--faults",
                "0",
                "--",
            ])
            .args(["sh", "-c", &script]),
    );
    c.query("SELECT pg_advisory_unlock($1)", &[&key]).unwrap();
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(
        all.contains("the program never answers: A (start 1): no request within 2s"),
        "{all}"
    );
    assert!(
        all.contains(
            "the server shows its backend waiting for a lock held by a connection outside this run"
        ),
        "{all}"
    );
    assert_eq!(schemas(&mut c), Vec::<String>::new(), "the schema was left");
}

/// A killed idem leaves its schema; the next start drops it, once no
/// backend uses it. A schema of the same look that is not idem's (no
/// comment), or that a backend still uses, is left alone.
#[test]
fn a_killed_run_s_schema_is_dropped_at_the_next_start_and_nothing_else() {
    let Some(mut c) = server() else { return };
    let Some(good) = example("consumer_idempotent_pg") else {
        return;
    };
    let _turn = SERVER.lock().unwrap_or_else(|e| e.into_inner());
    c.batch_execute(
        "CREATE SCHEMA idem_test_901; COMMENT ON SCHEMA idem_test_901 IS 'idem test';
         CREATE TABLE idem_test_901.payments (order_id BIGINT, amount BIGINT);
         CREATE SCHEMA idem_test_902;
         CREATE SCHEMA idem_test_903; COMMENT ON SCHEMA idem_test_903 IS 'idem test';",
    )
    .unwrap();
    // A program's backend of the run that owns 903 is still alive.
    let mut config: postgres::Config = address().parse().unwrap();
    config.application_name("idem_test_903.A");
    let user = config.connect(postgres::NoTls).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = idem(
        dir.path(),
        &[
            "test",
            "--db",
            &address(),
            "--faults",
            "0",
            "--",
            good.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(schemas(&mut c), ["idem_test_902", "idem_test_903"]);
    drop(user);
    let out = idem(
        dir.path(),
        &[
            "test",
            "--db",
            &address(),
            "--faults",
            "0",
            "--",
            good.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(schemas(&mut c), ["idem_test_902"]);
    c.batch_execute("DROP SCHEMA idem_test_902").unwrap();
}

/// A server that does not answer, a password, a file: one line each, what
/// to do, never the password, no hang.
#[test]
fn a_bad_server_address_is_one_line_without_its_password() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    for (db, says) in [
        (
            "postgres://root:sekrit@127.0.0.1:1/test",
            "cannot reach the PostgreSQL server",
        ),
        ("postgres://127.0.0.1/test", "it names no user"),
        ("payments.db", "--db here names a PostgreSQL server"),
    ] {
        let out = idem(dir.path(), &["test", "--db", db, "--", "true"]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{db}: {err}");
        assert!(err.contains(says), "{db}: {err}");
        assert!(!err.contains("sekrit"), "{db}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{db}: {err}");
    }
    // A "server" that takes the connection and never says a word: the
    // connect limit (5 s) ends the wait.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept() {
            held.push(socket);
        }
    });
    let out = within(
        Duration::from_secs(15),
        Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(dir.path())
            .args([
                "test",
                "--db",
                &format!("postgres://root@127.0.0.1:{port}/test"),
            ])
            .args(["--", "true"]),
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("did not answer within 5s"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // The simulator's own connections are bounded the same way.
    let out = within(
        Duration::from_secs(15),
        Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(dir.path())
            .args(["check", "--strategy", "naive", "--db"])
            .arg(format!("postgres://root@127.0.0.1:{port}/test")),
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("did not answer within 5s"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// A user who may not create a schema is told so before any program runs.
#[test]
fn a_user_without_the_right_to_create_a_schema_is_told_so() {
    let Some(mut c) = server() else { return };
    let role = "idem_test_no_create";
    c.batch_execute(&format!(
        "DO $$ BEGIN CREATE ROLE {role} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
    ))
    .unwrap();
    let mut config: postgres::Config = address().parse().unwrap();
    config.user(role);
    let url = format!(
        "postgres://{role}@{}/{}",
        match &config.get_hosts()[0] {
            postgres::config::Host::Tcp(h) =>
                format!("{h}:{}", config.get_ports().first().unwrap_or(&5432)),
            #[allow(unreachable_patterns)]
            _ => "127.0.0.1:5432".into(),
        },
        config.get_dbname().unwrap_or("test")
    );
    let dir = tempfile::tempdir().unwrap();
    let out = idem(dir.path(), &["test", "--db", &url, "--", "true"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = c.batch_execute(&format!("DROP ROLE IF EXISTS {role}"));
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("may not create a schema"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
