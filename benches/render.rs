//! Drawing one frame of the busiest scenario (tour 3 at its busiest frame:
//! two consumers, open transaction, SQL and events) into a 160x48 screen.
//! The goal is well under a millisecond, so stepping and animation never lag.

use criterion::{Criterion, criterion_group, criterion_main};
use idem::scenario;
use idem::sim::Strategy;
use idem::tui::{Action, App, Options, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::hint::black_box;

fn busiest() -> App {
    let script = scenario::find("tour-3").expect("built-in");
    let mut app = App::new(
        script,
        Strategy::idempotent(),
        0,
        Options {
            animation: false,
            color: true,
            ascii: false,
        },
    )
    .expect("builds");
    let weight = |f: &idem::sim::Frame| {
        f.events.len()
            + f.sql.len()
            + f.db.payments.len()
            + f.db.processed.len()
            + f.provider.keys.len()
            + f.consumers.iter().filter(|c| c.next.is_some()).count()
    };
    let at = (0..app.timeline.frames.len())
        .max_by_key(|&i| (weight(&app.timeline.frames[i]), std::cmp::Reverse(i)))
        .unwrap_or(0);
    update(
        &mut app,
        Action::Resize {
            width: 160,
            height: 48,
        },
    );
    for _ in 0..at {
        update(&mut app, Action::Next);
    }
    app
}

fn render(c: &mut Criterion) {
    let app = busiest();
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
    c.bench_function("render tour-3 busiest frame 160x48", |b| {
        b.iter(|| {
            terminal
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .expect("draws");
        })
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
