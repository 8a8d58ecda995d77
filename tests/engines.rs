//! The two engines, held to the same outcomes. Every built-in scenario runs
//! under every design it has expectations for, on SQLite and on the
//! PostgreSQL server (`IDEM_TEST_PG`, else the local one): the end of the
//! run must be the same on both, and meet the file's expectations on both.
//! The steps between differ where the engines' lock points differ (SQLite
//! refuses the second writer at BEGIN IMMEDIATE, PostgreSQL holds its
//! INSERT): that is the point of the second engine, and the test names it.
//! Where no server answers, each test prints one line and passes.

use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::sim::db::{Database, PgUrl};
use idem::timeline::Timeline;
use std::process::Command;

fn server() -> Option<PgUrl> {
    let url: PgUrl = std::env::var("IDEM_TEST_PG")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
        .parse()
        .expect("IDEM_TEST_PG is a postgres:// address");
    match Database::postgres(&url) {
        Ok(_) => Some(url),
        Err(e) => {
            eprintln!("skipped: no PostgreSQL server to test against ({e})");
            None
        }
    }
}

/// What a run ends with, whatever the engine.
#[derive(Debug, PartialEq, Eq)]
struct End {
    outcomes: Vec<String>,
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
        total: f.db.total_charged,
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
    let Some(url) = server() else { return };
    let mut runs = 0;
    let mut differed = Vec::new();
    for script in builtins() {
        let mut on_server = script.clone();
        on_server.setup.postgres = Some(url.clone());
        for (name, expect) in &script.expect {
            let strategy = Strategy::by_name(name).unwrap();
            let sqlite = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let pg = Timeline::build(&on_server, &strategy, 0, &[])
                .unwrap_or_else(|e| panic!("{} under {name} on PostgreSQL: {e}", script.name));
            let what = format!("{} under {name}", script.name);
            assert_eq!(end_of(&pg), end_of(&sqlite), "{what}");
            assert!(sqlite.misses(expect).is_empty(), "{what} on SQLite");
            assert!(
                pg.misses(expect).is_empty(),
                "{what} on PostgreSQL: {:?}\n{}",
                pg.misses(expect),
                idem::report::transcript(&pg, Some(expect))
            );
            let steps = |t: &Timeline| {
                t.frames
                    .iter()
                    .map(|f| (f.events.clone(), f.made_by.clone()))
                    .map(|(e, m)| (e.len(), m))
                    .collect::<Vec<_>>()
            };
            if steps(&sqlite) != steps(&pg) {
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
