//! The costliest files a reader can write inside the budget (issue 22),
//! each at its limit, run as `idem run --format json` runs them: every
//! frame kept, then written as JSON, and as the text transcript. Goal:
//! under 1 s and 200 MB each in a release build. Memory is measured by
//! hand: `/usr/bin/time -v ./target/release/idem run FILE --format json`
//! on the same files (the README's "Limits" gives the figures).

use criterion::{Criterion, criterion_group, criterion_main};
use idem::report;
use idem::scenario::shapes::{Shape, write};
use idem::sim::Strategy;
use idem::timeline::Timeline;
use std::hint::black_box;
use std::time::Duration;

fn at_the_limit(c: &mut Criterion) {
    let mut group = c.benchmark_group("budget");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for shape in Shape::ALL {
        let text = write(shape, shape.most_actions()).text;
        let script = idem::scenario::parse("shape.toml", &text).unwrap();
        for design in ["naive", "idempotent"] {
            let strategy = Strategy::by_name(design).unwrap();
            group.bench_function(format!("json/{}/{design}", shape.name()), |b| {
                b.iter(|| {
                    let t = Timeline::build(black_box(&script), &strategy, 0, &[]).unwrap();
                    report::json(&t, None).len()
                })
            });
            group.bench_function(format!("text/{}/{design}", shape.name()), |b| {
                b.iter(|| {
                    let t = Timeline::build(black_box(&script), &strategy, 0, &[]).unwrap();
                    report::transcript(&t, None).len()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, at_the_limit);
criterion_main!(benches);
