//! `idem run` on a generated scenario of 10,000 payments (lost acks and
//! crashes along the way), streamed and written as text, as the command
//! does. Goal: under 1 s and 100 MB in a release build; measured by hand
//! with `/usr/bin/time -v ./target/release/idem run big.toml > /dev/null`
//! after `idem generate --messages 10000 > big.toml`.

use criterion::{Criterion, criterion_group, criterion_main};
use idem::report::stream as text;
use idem::scenario::generate::many_payments;
use idem::sim::Strategy;
use idem::timeline::stream::stream;
use std::hint::black_box;
use std::time::Duration;

fn long_run(c: &mut Criterion) {
    let strategy = Strategy::by_name("idempotent").unwrap();
    let mut group = c.benchmark_group("scale");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for messages in [1_000, 10_000] {
        let script = idem::scenario::parse("big.toml", &many_payments(messages)).unwrap();
        group.bench_function(format!("run/{messages}-messages"), |b| {
            b.iter(|| {
                let mut bytes = 0;
                let end = stream(black_box(&script), &strategy, 0, |step| {
                    bytes += text::step(&step).len();
                })
                .unwrap();
                assert!(end.verdict.outcome == idem::sim::Outcome::Correct);
                bytes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, long_run);
criterion_main!(benches);
