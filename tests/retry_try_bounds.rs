//! A try with a producer retry says its bounds in its own words, as the
//! try one fault further does. Teacher trial: `also holds with a producer
//! retry (1,266 states)`, in `idem check` and in the explorer's detail,
//! never said within how many consumers, messages and faults, nor how
//! many retries, while `also holds at 3 faults (still at most 1 crash per
//! consumer, …)` beside it did.

use crate::common::check::{at_default, explorer_showing};
use crate::common::draw;
use idem::check::render;
use idem::tui::{Action, update};

/// Each place in `text` (its line breaks undone) where a try with a
/// producer retry is named without its bounds right after it.
fn unbounded(text: &str) -> Vec<String> {
    let flat = text
        .lines()
        .map(|l| l.trim_matches('"').trim_matches('│'))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    for name in ["with a producer retry", "further: a producer retry"] {
        for (at, _) in flat.match_indices(name) {
            let after = &flat[at + name.len()..];
            // Its consumers, messages, faults and retries, in its line.
            let told = after.starts_with(" (within 2 consumers, ")
                && after
                    .split(')')
                    .next()
                    .is_some_and(|b| b.contains(" fault"))
                && after.contains("producer retry");
            if !told {
                let end = (at + name.len() + 60).min(flat.len());
                let end = (end..=flat.len())
                    .find(|&e| flat.is_char_boundary(e))
                    .unwrap_or(flat.len());
                out.push(flat[at..end].to_string());
            }
        }
    }
    out
}

#[test]
fn a_producer_retry_try_says_its_bounds_in_idem_check_and_the_explorer() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for name in ["idempotent", "versioned", "in-progress"] {
        let report = at_default(name);
        let text = render(report);
        seen += text.matches("producer retry").count();
        for w in unbounded(&text) {
            wrong.push(format!("{name} check: {w}"));
        }
        // The explorer's detail, whole, where every line of it is read.
        let mut a = explorer_showing(report.clone());
        update(&mut a, Action::First);
        update(&mut a, Action::Zoom);
        let screen = draw(&mut a, 120, 80);
        seen += screen.matches("producer retry").count();
        for w in unbounded(&screen) {
            wrong.push(format!("{name} explorer: {w}"));
        }
    }
    assert!(seen >= 6, "a try with a producer retry in each: {seen}");
    assert!(
        wrong.is_empty(),
        "{} tries said without bounds:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
