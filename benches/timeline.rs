//! Building the timeline of each tour scenario under both strategies: what a
//! mode toggle or a fork costs in the TUI. Goal: under 5 ms per timeline.

use criterion::{Criterion, criterion_group, criterion_main};
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use std::hint::black_box;

fn timelines(c: &mut Criterion) {
    for script in builtins() {
        for name in ["naive", "idempotent"] {
            let Some(strategy) = Strategy::by_name(name) else {
                continue;
            };
            if !script.expect.contains_key(name) {
                continue;
            }
            c.bench_function(&format!("timeline/{}/{name}", script.name), |b| {
                b.iter(|| Timeline::build(black_box(&script), &strategy, 0, &[]).unwrap())
            });
        }
    }
}

criterion_group!(benches, timelines);
criterion_main!(benches);
