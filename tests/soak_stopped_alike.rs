//! A soak stopped early with `q` compares the designs over the same part of
//! the schedule, and its report says how far it got. Teacher trial: stopped
//! at ~95k of 300,000, naive had published 53,850 and idempotent 40,696,
//! set side by side as "owed $4,019,386" against "owed $3,047,427" under a
//! header still saying "300,000 payments".

use idem::sim::Strategy;
use idem::soak::{self, Config, FaultRates};
use std::sync::atomic::{AtomicU64, Ordering};

fn config(messages: u64) -> Config {
    Config {
        designs: vec![Strategy::naive(), Strategy::idempotent()],
        messages,
        seed: 7,
        faults: FaultRates::parse(soak::faults::DEFAULT).unwrap(),
        ..Config::default()
    }
}

/// Stops the soak once the first design has published `at`: the point the
/// others had reached then is whatever the threads made of it, which is
/// why the designs must keep pace for the report to compare them.
fn stopped_at(config: &Config, at: u64) -> soak::SoakReport {
    let live = soak::Live::new(config.messages, &["naive", "idempotent"]);
    std::thread::scope(|s| {
        let engine = s.spawn(|| soak::run_live(config, &AtomicU64::new(0), Some(&live)));
        loop {
            let now = live.snapshot();
            if now.designs[0].published >= at || now.designs.iter().all(|d| d.finished) {
                break;
            }
            std::thread::yield_now();
        }
        live.control.stop.store(true, Ordering::Relaxed);
        engine.join().unwrap().unwrap()
    })
}

#[test]
fn a_soak_stopped_midway_ends_every_design_on_the_same_payments() {
    let config = config(6_000);
    // Several stops, as a teacher presses `q` at any moment.
    let mut apart = Vec::new();
    for at in [1_000, 2_500, 4_000] {
        let report = stopped_at(&config, at);
        let published: Vec<u64> = report.designs.iter().map(|d| d.published).collect();
        assert!(report.designs.iter().all(|d| d.stopped_early), "{at}");
        if published.iter().any(|&p| p != published[0]) {
            apart.push((at, published));
            continue;
        }
        let books = report.books();
        let head = books.lines().next().unwrap();
        let want = format!(
            "{} of 6,000 payments (stopped early)",
            idem::check::num(published[0])
        );
        assert!(head.contains(&want), "{head}");
        assert!(
            books.contains("every design stopped after the same first"),
            "{books}"
        );
    }
    assert!(apart.is_empty(), "stopped apart: {apart:?}");
}

/// Where the designs did stop apart (a report built so), the header and
/// each design's stop line say the figures are not comparable.
#[test]
fn designs_stopped_apart_are_said_not_comparable() {
    let config = config(1_000);
    let live = soak::Live::new(config.messages, &["naive", "idempotent"]);
    live.control.stop.store(true, Ordering::Relaxed);
    let mut report = soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    report.designs[1].published -= 10;
    let books = report.books();
    let head = books.lines().next().unwrap();
    assert!(head.contains("(stopped early)"), "{head}");
    assert!(!head.contains("· 1,000 payments ·"), "{head}");
    assert!(books.contains("not comparable side by side"), "{books}");
    assert_eq!(
        books.matches("not comparable with them").count(),
        2,
        "{books}"
    );
}
