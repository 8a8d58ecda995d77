//! Every design that tells a duplicate by its message ID says what that
//! rests on: one message ID is one payment. Teacher trial: idempotent's
//! claim (`holds within 2 faults…`) named no assumption, where offset's
//! says `on one ordered partition`; a producer that gives a new payment an
//! ID it used before (the scenario `reused-id`) loses that payment, and
//! the design is not at fault.
//!
//! For each of the built-in designs: its assumptions name the message ID
//! exactly when its program looks one up, and every claim that holds says
//! so in `idem check`'s text and in the explorer's detail.

use crate::common::check::{explorer_showing, report};
use crate::common::draw;
use idem::check::render;
use idem::sim::Strategy;
use idem::tui::{Action, update};

/// The words a claim says the assumption in.
const WORDS: &str = "one payment per message ID";

/// Whether the design's program looks up the message ID (not an offset,
/// not a version).
fn by_id(s: &Strategy) -> bool {
    let names: Vec<&str> = s.program.iter().map(|op| op.keyword()).collect();
    s.checks_duplicates()
        && !names
            .iter()
            .any(|k| ["check-offset", "apply-if-newer"].contains(k))
}

fn flat(text: &str) -> String {
    text.replace('"', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_design_that_trusts_the_id_says_so() {
    let mut wrong = Vec::new();
    let designs = Strategy::all();
    for s in &designs {
        let says = s.assumptions().iter().any(|a| a.short() == WORDS);
        if says != by_id(s) {
            wrong.push(format!("{}: assumes {:?}", s.name, s.assumptions()));
        }
    }
    // The claims that hold, in `idem check`'s words and the explorer's.
    let report = report();
    let text = flat(&render(report));
    for (row, s) in report.strategies.iter().enumerate() {
        let design = Strategy::by_name(&s.strategy).expect("a built-in");
        if !by_id(&design) || s.broken() {
            continue;
        }
        let claim = format!("{} holds within", s.strategy);
        // The claim up to its figures: the assumption is said with the
        // bounds, not in a line of another design's.
        let line = text[text.find(&claim).expect("a claim")..]
            .split(" (")
            .next()
            .unwrap_or_default()
            .to_string();
        if !line.contains(WORDS) {
            wrong.push(format!("idem check: `{line}` names no assumption"));
        }
        let mut a = explorer_showing(report.clone());
        update(&mut a, Action::First);
        for _ in 0..row {
            update(&mut a, Action::Down);
        }
        let screen = flat(&draw(&mut a, 120, 60));
        if !screen.contains("it holds within") || !screen.contains(WORDS) {
            wrong.push(format!(
                "explorer, {}: names no assumption\n{screen}",
                s.strategy
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        designs.len() + 2,
        wrong.join("\n")
    );
}
