//! The two engines, held to the same outcomes. Every built-in scenario runs
//! under every design it has expectations for, on SQLite and on the
//! PostgreSQL server (`IDEM_TEST_PG`, else the local one): the end of the
//! run must be the same on both, and meet the file's expectations on both.
//! The steps between differ where the engines' lock points differ (SQLite
//! refuses the second writer at BEGIN IMMEDIATE, PostgreSQL holds its
//! INSERT): that is the point of the second engine, and the test names it.
//! Where no server answers, each test prints one line and passes.

use crate::common::pg_runs::pg_runs;
use crate::common::server::server;
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::sim::db::Database;
use idem::timeline::Timeline;
use std::process::Command;

/// What a run ends with, whatever the engine.
#[derive(Debug, PartialEq, Eq)]
struct End {
    outcomes: Vec<String>,
    /// The verdict's cause chain: what made each extra effect, whichever
    /// engine committed its rows first (teacher trial 27: on PostgreSQL
    /// tour-3's second delivery committed first, and the chain lost
    /// "another row").
    chain: String,
    total: u64,
    processed: Vec<String>,
    charges: Vec<(u32, u32)>,
    payments: Vec<(u32, u32, String)>,
}

fn end_of(timeline: &Timeline) -> End {
    let f = timeline.last();
    let mut processed: Vec<String> =
        f.db.processed
            .iter()
            .map(|p| p.message_id.clone())
            .collect();
    processed.sort();
    End {
        outcomes: f
            .verdict
            .outcomes()
            .iter()
            .map(|o| format!("{o:?}"))
            .collect(),
        chain: without_step_numbers(&f.verdict.chain_of_one_run_with(idem::sim::Arrow::Ascii)),
        total: f.db.payments_total,
        processed,
        charges: f
            .provider
            .charges
            .iter()
            .map(|c| (c.order, c.amount))
            .collect(),
        payments: f
            .db
            .payments
            .iter()
            .map(|p| (p.order, p.amount, p.message_id.clone()))
            .collect(),
    }
}

/// `text` with each `step N` as `step _`: where the lock point differs, the
/// same event comes at another step on each engine.
fn without_step_numbers(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("step ") {
        out.push_str(&rest[..at + 5]);
        let after = &rest[at + 5..];
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
        if rest.len() < after.len() {
            out.push('_');
        }
    }
    out.push_str(rest);
    out
}

/// Where the lock point shows on screen: the runs whose steps differ
/// between the engines, because a second writer met the first one's
/// transaction. Their ends are still the same.
const LOCK_POINT_DIFFERS: &[(&str, &str)] = &[
    ("tour-3", "idempotent"),
    ("tour-3", "naive"),
    ("race-rollback", "idempotent"),
    ("race-rollback", "naive"),
    // The contrast design: B waits for A's lock (at BEGIN on SQLite, at its
    // INSERT of the same ID on PostgreSQL), then skips.
    ("in-progress", "idempotent"),
];

#[test]
fn every_scenario_ends_the_same_on_sqlite_and_postgresql() {
    // The PostgreSQL runs are the ones every test of the built-ins on the
    // server reads, run once.
    let Some(pg_runs) = pg_runs() else { return };
    let mut runs = 0;
    let mut differed = Vec::new();
    for script in builtins() {
        for (name, expect) in &script.expect {
            let strategy = Strategy::by_name(name).unwrap();
            let sqlite = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let pg = &pg_runs
                .iter()
                .find(|r| r.script.name == script.name && &r.design == name)
                .expect("every built-in runs on PostgreSQL")
                .timeline;
            let what = format!("{} under {name}", script.name);
            assert_eq!(end_of(pg), end_of(&sqlite), "{what}");
            assert!(sqlite.misses(expect).is_empty(), "{what} on SQLite");
            assert!(
                pg.misses(expect).is_empty(),
                "{what} on PostgreSQL: {:?}\n{}",
                pg.misses(expect),
                idem::report::transcript(pg, Some(expect))
            );
            let steps = |t: &Timeline| {
                t.frames
                    .iter()
                    .map(|f| (f.events.clone(), f.made_by.clone()))
                    .map(|(e, m)| (e.len(), m))
                    .collect::<Vec<_>>()
            };
            if steps(&sqlite) != steps(pg) {
                differed.push((script.name.clone(), name.clone()));
            }
            runs += 1;
        }
    }
    assert!(runs >= 40, "only {runs} runs: scenarios went missing");
    let named: Vec<(String, String)> = LOCK_POINT_DIFFERS
        .iter()
        .map(|(s, d)| (s.to_string(), d.to_string()))
        .collect();
    assert_eq!(
        differed, named,
        "the runs whose steps differ between the engines are not the ones named as the lock point's"
    );
}

fn idem(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn bad_addresses_get_one_line_exit_2_and_never_the_password() {
    let Some(_) = server() else { return };
    for (url, says) in [
        (
            "postgres://root:hunter2@127.0.0.1:1/test",
            "cannot reach the PostgreSQL server",
        ),
        (
            "postgres://root:hunter2@127.0.0.1:5432",
            "names no database",
        ),
        (
            "postgres://nobody_idem:hunter2@127.0.0.1:5432/test",
            "refused user nobody_idem",
        ),
        (
            "postgres://root:hunter2@127.0.0.1:notaport/test",
            "cannot read it",
        ),
    ] {
        for command in [
            vec!["run", "tour-3", "--db", url],
            vec![
                "shot",
                "tour-3",
                "--db",
                url,
                "-o",
                "/tmp/idem-engines-never.txt",
            ],
        ] {
            let out = idem(&command);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command:?}: {err}");
            assert!(err.contains(says), "{command:?}: {err}");
            assert!(!err.contains("hunter2"), "{command:?}: {err}");
            assert_eq!(err.trim().lines().count(), 1, "{command:?}: {err}");
            assert!(out.stdout.is_empty());
        }
    }
}

/// A server that goes away in the middle of a run (its backends ended from
/// the server's side, as a stop does): the next move is a clear error.
#[test]
fn a_server_gone_mid_run_is_a_clear_error() {
    let Some(url) = server() else { return };
    let mut script = idem::scenario::find("tour-3").unwrap();
    script.setup.postgres = Some(url.clone());
    let mut world = idem::sim::World::new(script.setup.clone(), Strategy::idempotent(), 0).unwrap();
    let step = |c: &str| idem::sim::Move::Step { consumer: c.into() };
    world.apply(&step("A")).unwrap();
    world.apply(&step("A")).unwrap();
    let Database::Postgres(_) = Database::postgres(&url).unwrap() else {
        unreachable!()
    };
    // Every backend of this world's schema, found by its application name.
    let schema = world.database_name().unwrap();
    let mut admin = postgres::Config::new()
        .user("postgres")
        .host("127.0.0.1")
        .dbname("test")
        .connect(postgres::NoTls)
        .unwrap();
    let ended = admin
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            &[&schema],
        )
        .unwrap();
    assert!(ended.len() >= 2, "{} backends ended", ended.len());
    let err = (0..4)
        .find_map(|_| world.apply(&step("A")).err())
        .expect("a move on a server that went away fails")
        .to_string();
    assert!(err.contains("went away") || err.contains("closed"), "{err}");
    assert!(!err.contains('\n'), "{err}");
}

/// A killed `idem run --db` (SIGTERM, SIGINT, SIGHUP in the middle of a
/// long run): its schema is gone from the server, and it exits 128 + n.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_idem_leaves_no_schema_behind() {
    let Some(url) = server() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.toml");
    let n = 2000;
    let messages: Vec<String> = (1..=n)
        .map(|i| format!("{{ id = \"m-{i}\", order = {i}, amount = 1 }}"))
        .collect();
    let actions = vec!["\"run A\""; n].join(", ");
    std::fs::write(
        &file,
        format!(
            "title = \"long\"\nsummary = \"long\"\n[setup]\nconsumers = [\"A\"]\nmessages = [{}]\n[[steps]]\ntitle = \"all\"\nactions = [{actions}]\n[expect.idempotent]\ntotal = {n}\n",
            messages.join(", ")
        ),
    )
    .unwrap();
    let mut admin = postgres::Config::new()
        .user("postgres")
        .host("127.0.0.1")
        .dbname("test")
        .connect(postgres::NoTls)
        .unwrap();
    for (signal, code) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_idem"))
            .args([
                "run",
                file.to_str().unwrap(),
                "--mode",
                "idempotent",
                "--db",
            ])
            .arg(url.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pattern = format!("idem\\_{}\\_%", child.id());
        let count = |admin: &mut postgres::Client| -> i64 {
            admin
                .query_one(
                    "SELECT count(*) FROM pg_namespace WHERE nspname LIKE $1",
                    &[&pattern],
                )
                .unwrap()
                .get(0)
        };
        let start = std::time::Instant::now();
        while count(&mut admin) == 0 {
            assert!(start.elapsed().as_secs() < 30, "idem run made no schema");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Only the process this test started, by its PID.
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        assert_eq!(
            count(&mut admin),
            0,
            "SIG{signal}: its schema is left on the server"
        );
    }
}

/// The README's pictures of PostgreSQL's lock point, redrawn on the
/// server: each must match the committed file.
#[test]
fn the_postgresql_screenshots_are_current() {
    let Some(url) = server() else { return };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    use idem::export::shot::View;
    for (name, scenario, view) in [
        ("postgres-tour-3-insert-waits", "tour-3", View::Main),
        (
            "postgres-race-rollback-insert-goes-ahead",
            "race-rollback",
            View::Main,
        ),
        // The same moment, SQLite beside PostgreSQL (`E`).
        ("compare-engines-tour-3", "tour-3", View::Engines),
    ] {
        let mut script = idem::scenario::find(scenario).unwrap();
        script.setup.postgres = Some(url.clone());
        let shot = idem::export::shot::Shot {
            script,
            strategy: Strategy::idempotent(),
            seed: 0,
            moment: idem::export::shot::Moment::Step(9),
            view,
            width: 120,
            height: 40,
            ascii: false,
            color: true,
        };
        let png = idem::export::render(
            &shot.buffer().unwrap(),
            idem::export::Kind::Png,
            &shot.title(),
        )
        .unwrap();
        let committed = std::fs::read(dir.join(format!("{name}.png"))).unwrap();
        assert!(
            png == committed,
            "screenshots/{name}.png is stale: `idem shot {scenario} --mode idempotent --db URL --step 9{} -o screenshots/{name}.png --force`",
            if view == View::Engines {
                " --view engines"
            } else {
                ""
            }
        );
    }
}

/// What the checker's table says of a design, whatever the engine: its
/// verdict, which outcomes some schedule reached, which invariants held,
/// which witnesses were seen, and (`further`) what one bound further gave.
/// (The counts of states and schedules differ: on PostgreSQL both
/// consumers can be inside a transaction at once, so there are more
/// interleavings.)
fn verdict(s: &idem::check::StrategyReport, further: bool) -> String {
    let reached: Vec<String> = s
        .outcomes
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(o, _)| format!("{o:?}"))
        .collect();
    let held: Vec<bool> = s.invariants.iter().map(|i| i.holds).collect();
    let seen: Vec<bool> = s.witnesses.iter().map(|w| w.seen).collect();
    use idem::check::further::FurtherResult;
    let tries: Vec<(String, &str)> = s
        .further
        .iter()
        .filter(|_| further)
        .map(|f| {
            let result = match f.result {
                FurtherResult::Holds { .. } => "holds",
                FurtherResult::Breaks { .. } => "breaks",
                FurtherResult::TooLarge { .. } => "too large",
            };
            (f.bound(), result)
        })
        .collect();
    format!(
        "{}: claims safe {}, broken {}, vacuous {}, outside {}, reached {reached:?}, invariants {held:?}, witnesses {seen:?}, further {tries:?}",
        s.strategy,
        s.claims_safe,
        s.broken(),
        s.vacuous(),
        s.outside.is_some(),
    )
}

/// The design whose tries one bound further are left to SQLite: its try at
/// 2 faults is the largest search of the whole check (9,899 states of about
/// 21,000 at these bounds), and on the server it was half this test's time.
/// Its own search still runs on the server, as every design's does.
const FURTHER_ON_SQLITE_ONLY: &str = "versioned";

#[test]
fn the_checker_gives_the_same_verdicts_on_both_engines() {
    let Some(url) = server() else { return };
    // One fault per schedule keeps the test quick; `idem check --db` at the
    // default bounds is measured in the README.
    // On SQLite, the report the explorer tests share (those bounds).
    let sqlite = crate::common::check::report();
    assert_eq!(sqlite.bounds.max_faults, 1);
    let on_server = idem::check::Bounds {
        postgres: Some(url),
        ..sqlite.bounds.clone()
    };
    // On the server: every design's own search, and every try one bound
    // further but FURTHER_ON_SQLITE_ONLY's, whose own search alone runs
    // there. The engines differ in where a second writer waits, which the
    // searches at one fault already meet (two consumers in one message).
    let (wide, narrow): (Vec<Strategy>, Vec<Strategy>) = Strategy::all()
        .into_iter()
        .partition(|s| s.name != FURTHER_ON_SQLITE_ONLY);
    assert_eq!(narrow.len(), 1, "no design named {FURTHER_ON_SQLITE_ONLY}");
    let pg = idem::check::run_designs(&wide, &on_server, &idem::check::Watch::default()).unwrap();
    let mut on_pg: Vec<String> = pg.strategies.iter().map(|s| verdict(s, true)).collect();
    let alone = idem::check::search(&narrow[0], &on_server).unwrap();
    assert!(alone.further.is_empty());
    on_pg.push(verdict(&alone, false));
    let on_sqlite: Vec<String> = wide
        .iter()
        .chain(&narrow)
        .map(|d| {
            let s = sqlite
                .strategies
                .iter()
                .find(|s| s.strategy == d.name)
                .expect("every design in the shared report");
            verdict(s, d.name != FURTHER_ON_SQLITE_ONLY)
        })
        .collect();
    assert_eq!(on_pg, on_sqlite);
    assert_eq!(on_pg.len(), Strategy::all().len());
    // The try left out exists on SQLite: a design that holds is widened.
    assert!(
        sqlite
            .strategies
            .iter()
            .any(|s| s.strategy == FURTHER_ON_SQLITE_ONLY && !s.further.is_empty())
    );
}

/// On PostgreSQL both consumers can hold a transaction open at once: the
/// database panel shows each one's uncommitted rows, under its name, not
/// only the first holder's.
#[test]
fn each_open_transaction_shows_its_own_uncommitted_rows() {
    use idem::sim::world::{Move, Setup, World};
    let Some(url) = server() else { return };
    let setup = Setup {
        consumers: vec!["A".into(), "B".into()],
        messages: vec![
            idem::sim::Message::payment("m-1", 1041, 40),
            idem::sim::Message::payment("m-2", 1042, 12),
        ],
        step_ms: 0,
        postgres: Some(url),
        ..Setup::default()
    };
    let design = Strategy::by_name("row-version").unwrap();
    let mut world = World::new(setup, design, 0).unwrap();
    let holders = |world: &World| -> Vec<String> {
        let f = world.frame().unwrap();
        f.db.uncommitted.iter().map(|u| u.by.clone()).collect()
    };
    // Each consumer steps until its transaction has written its order row
    // (bounded: the handler has a handful of steps).
    for (name, want) in [
        ("A", vec!["A".to_string()]),
        ("B", vec!["A".into(), "B".into()]),
    ] {
        for _ in 0..10 {
            if holders(&world) == want {
                break;
            }
            world
                .apply(&Move::Step {
                    consumer: name.into(),
                })
                .unwrap();
        }
        assert_eq!(holders(&world), want, "after {name}'s steps");
    }
    let f = world.frame().unwrap();
    let orders: Vec<Vec<u32>> =
        f.db.uncommitted
            .iter()
            .map(|u| u.orders.iter().map(|o| o.order).collect())
            .collect();
    assert_eq!(orders, vec![vec![1041], vec![1042]]);
}

/// `idem soak --db postgres://…`: every design on a schema of its own on
/// the server, the report naming the engine, the same books as on SQLite
/// (the same seed gives the same schedule), and no schema left behind.
#[test]
fn a_soak_runs_on_the_server_with_the_same_books() {
    let Some(url) = server() else { return };
    let url = url.to_string();
    let args = ["soak", "--messages", "40", "--headless", "--seed", "3"];
    let on_server = idem(&[&args[..], &["--db", &url]].concat());
    let err = String::from_utf8_lossy(&on_server.stderr);
    assert_eq!(on_server.status.code(), Some(0), "{err}");
    let pg = String::from_utf8_lossy(&on_server.stdout).to_string();
    let sqlite = String::from_utf8_lossy(&idem(&args).stdout).to_string();
    assert!(
        pg.lines().next().unwrap().ends_with(" · on PostgreSQL"),
        "{pg}"
    );
    // The books (every figure before the measured part) match line for
    // line below the heading, which names the engine.
    let books = |t: &str| {
        t.split("\n== measured")
            .next()
            .unwrap()
            .lines()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(books(&pg), books(&sqlite));
    assert!(pg.contains("the tables on the PostgreSQL server"), "{pg}");
    // The address without its slashes is a slip, not a file name.
    let slip = idem(&[
        "soak",
        "--messages",
        "5",
        "--headless",
        "--db",
        "postgres:/test",
    ]);
    let err = String::from_utf8_lossy(&slip.stderr);
    assert_eq!(slip.status.code(), Some(2), "{err}");
    assert!(err.contains("postgres://"), "{err}");
}

/// On PostgreSQL B's waiting INSERT finds A's key in the chapter where A
/// commits, not in the chapter after it: each chapter's title names what
/// happens in it on the engine shown (a title written for SQLite's lock
/// point would be one chapter late).
#[test]
fn a_chapter_title_on_postgresql_names_what_happens_in_it() {
    let Some(url) = server() else { return };
    for (scenario, design) in [("tour-3", "idempotent"), ("race-rollback", "idempotent")] {
        let mut script = idem::scenario::find(scenario).unwrap();
        script.setup.postgres = Some(url.clone());
        let t = Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap();
        let text = idem::report::transcript(&t, None);
        let mut chapter = String::new();
        for line in text.lines() {
            if let Some(title) = line.strip_prefix("== ") {
                chapter = title.to_string();
            }
            let waits = line.contains("SQL B") && line.contains("INSERT INTO processed_messages");
            if waits && scenario == "race-rollback" {
                assert!(!chapter.contains("holds the lock"), "{scenario}: {chapter}");
            }
            if line.contains("-> 0 rows: conflict") {
                assert!(
                    chapter.contains("key"),
                    "{scenario}: B finds the key in «{chapter}»"
                );
            }
        }
        assert!(
            !text.contains("B meets the unique key =="),
            "{scenario}: a chapter titled for SQLite\n{text}"
        );
    }
}
