//! One thing, one name (teacher trial: the same counter was `redelivered`
//! on the screen and `redeliveries` in the transcript). A counter reads the
//! same in the simulator, `idem run`'s closing lines and `idem soak`'s
//! report; the database's total keeps one label from step to step; `idem
//! check` and the explorer head their tables with the same words.

use crate::common::{app, draw};
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use idem::tui::{Action, update};
use std::sync::atomic::AtomicU64;

/// The broker's counters as the simulator's screen names them, with the
/// figure each one shows at the end of tour 1 under `mode`.
fn screen_counters(mode: &str) -> Vec<(&'static str, u32)> {
    let mut a = app("tour-1", mode);
    update(&mut a, Action::Last);
    let c = a.frame().counters.clone();
    let screen = draw(&mut a, 120, 40);
    let named = [
        ("delivered", c.delivered),
        ("redelivered", c.redeliveries),
        ("acked", c.acked),
        ("acks lost", c.acks_lost),
        ("duplicate deliveries", c.duplicates_delivered),
    ];
    for (name, n) in named {
        assert!(
            screen.contains(&format!("{name} {n}")),
            "the screen names {name} {n}: {screen}"
        );
    }
    named.to_vec()
}

#[test]
fn the_run_transcript_names_each_counter_as_the_screen_does() {
    for mode in ["naive", "idempotent"] {
        let script = builtins().into_iter().find(|s| s.name == "tour-1").unwrap();
        let strategy = Strategy::by_name(mode).unwrap();
        let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
        let text = idem::report::transcript(&timeline, script.expect.get(mode));
        let closing = text
            .lines()
            .find(|l| l.starts_with("  delivered "))
            .expect("a counters line");
        for (name, n) in screen_counters(mode) {
            assert!(
                closing.contains(&format!("{name} {n}")),
                "{mode}: the transcript's counters say {name} {n} as the screen does: {closing}"
            );
        }
    }
}

#[test]
fn the_soak_report_names_each_counter_as_the_screen_does() {
    let config = idem::soak::Config {
        designs: vec![Strategy::by_name("naive").unwrap()],
        messages: 300,
        seed: 3,
        faults: idem::soak::FaultRates::parse(idem::soak::faults::DEFAULT).unwrap(),
        ..idem::soak::Config::default()
    };
    let report = idem::soak::run(&config, &AtomicU64::new(0)).expect("the soak runs");
    let text = report.text();
    let counters = text
        .lines()
        .find(|l| l.starts_with("delivered "))
        .unwrap_or_else(|| panic!("a counters line that leads with `delivered`: {text}"));
    for (name, _) in screen_counters("naive") {
        assert!(
            counters.contains(&format!(" {name} ")) || counters.starts_with(&format!("{name} ")),
            "the soak report names {name} as the screen does: {counters}"
        );
    }
}
