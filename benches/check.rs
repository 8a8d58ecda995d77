//! The full default check of every strategy: what `idem check` costs.
//! Goal: under 0.5 s on a 2-core machine (3.9 s and about 3,000 states a
//! second before the search reused its worlds). Prints states per second per
//! strategy once, then lets criterion time the whole run.

use criterion::{Criterion, criterion_group, criterion_main};
use idem::check::{self, Bounds};
use std::hint::black_box;
use std::time::Duration;

fn full_check(c: &mut Criterion) {
    let bounds = Bounds::default();
    let report = check::run(&bounds).expect("the check runs");
    let states: u64 = report.strategies.iter().map(|s| s.states).sum();
    let replays: u64 = report.strategies.iter().map(|s| s.replays).sum();
    println!("{}", check::table(&report));
    println!(
        "all strategies: {states} states, {replays} replays, {:.2}s wall, {:.0} states/s",
        report.seconds,
        states as f64 / report.seconds
    );
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("default bounds, every strategy", |b| {
        b.iter(|| check::run(black_box(&bounds)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, full_check);
criterion_main!(benches);
