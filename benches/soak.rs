//! `idem soak` throughput beside the yardstick of issue 12: a bare SQLite
//! handler transaction (BEGIN IMMEDIATE; insert the ID; insert the payment;
//! COMMIT) on a memdb connection, with cached statements. Goals: the
//! idempotent soak at least half the bare rate, and at least 0.7 of the
//! naive soak on the same schedule. Each design runs alone here (the CLI
//! runs designs on threads of their own, side by side).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use idem::sim::Strategy;
use idem::soak::{self, Config};
use rusqlite::{Connection, OpenFlags, params};
use std::hint::black_box;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

const MESSAGES: u64 = 5_000;

fn bare_connection() -> Connection {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags("file:/idem-bench-bare?vfs=memdb", flags).unwrap();
    conn.execute_batch(
        "CREATE TABLE processed_messages (message_id TEXT PRIMARY KEY, processed_at INTEGER NOT NULL);
         CREATE TABLE payments (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL,
                                amount INTEGER NOT NULL, message_id TEXT NOT NULL);",
    )
    .unwrap();
    conn
}

/// One handler transaction, as bare as SQLite allows.
fn bare_transaction(conn: &Connection, n: u64) {
    let id = format!("m-{n:x}");
    conn.execute_batch("BEGIN IMMEDIATE").unwrap();
    conn.prepare_cached(
        "INSERT INTO processed_messages (message_id, processed_at) VALUES (?1, ?2)",
    )
    .unwrap()
    .execute(params![id, n as i64])
    .unwrap();
    conn.prepare_cached("INSERT INTO payments (order_id, amount, message_id) VALUES (?1, ?2, ?3)")
        .unwrap()
        .execute(params![n as i64, 40, id])
        .unwrap();
    conn.execute_batch("COMMIT").unwrap();
}

fn soak_one(design: Strategy) -> u64 {
    let config = Config {
        designs: vec![design],
        messages: MESSAGES,
        ..Config::default()
    };
    let report = soak::run(&config, &AtomicU64::new(0)).unwrap();
    report.designs[0].tally.facts
}

fn rate(mut f: impl FnMut(), units: u64, rounds: u32) -> f64 {
    f();
    let started = Instant::now();
    for _ in 0..rounds {
        f();
    }
    (units * u64::from(rounds)) as f64 / started.elapsed().as_secs_f64()
}

fn soak_against_bare(c: &mut Criterion) {
    // The side-by-side figures, once, in the same run.
    let conn = bare_connection();
    let mut n = 0u64;
    let bare = rate(
        || {
            for _ in 0..10_000 {
                n += 1;
                bare_transaction(&conn, n);
            }
        },
        10_000,
        5,
    );
    let naive = rate(
        || {
            black_box(soak_one(Strategy::naive()));
        },
        MESSAGES,
        3,
    );
    let idempotent = rate(
        || {
            black_box(soak_one(Strategy::idempotent()));
        },
        MESSAGES,
        3,
    );
    println!(
        "bare transaction {bare:.0}/s · naive soak {naive:.0} payments/s · idempotent soak {idempotent:.0} payments/s"
    );
    println!(
        "idempotent / bare = {:.3} (goal >= 0.5) · idempotent / naive = {:.2} (goal >= 0.7)",
        idempotent / bare,
        idempotent / naive
    );

    let mut group = c.benchmark_group("soak");
    group.throughput(Throughput::Elements(1));
    group.bench_function("bare SQLite handler transaction", |b| {
        b.iter(|| {
            n += 1;
            bare_transaction(black_box(&conn), n)
        })
    });
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::Elements(MESSAGES));
    for design in [Strategy::naive(), Strategy::idempotent()] {
        group.bench_function(format!("{} soak, {MESSAGES} payments", design.name), |b| {
            b.iter(|| soak_one(black_box(design.clone())))
        });
    }
    group.finish();
}

criterion_group!(benches, soak_against_bare);
criterion_main!(benches);
