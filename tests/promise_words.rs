//! "Claim" is the pattern's word for inserting the message ID (tour-2's
//! `A claims the ID`). What a design promises is said with another word,
//! so that "claims nothing" is never read as "inserts no ID" (teacher
//! trial 26): in `idem check`'s text and the explorer's words alike.

use crate::common::check::{explorer_showing, report};
use crate::common::draw;
use idem::check::{CheckReport, render};
use idem::tui::explorer::Standing;

/// `report` with naive said to promise exactly-once: every wording of a
/// promise shows (one kept, one broken, one never made).
fn every_promise() -> CheckReport {
    let mut r = report().clone();
    r.strategies
        .iter_mut()
        .find(|s| s.strategy == "naive")
        .expect("naive")
        .claims_safe = true;
    r
}

/// The words that use "claim" in the pattern's sense: a step, a
/// cache's answer, a summary (cut or wrapped where it is long).
const PATTERN_SENSE: [&str; 4] = [
    "claim ID in cache",
    "the ID is claimed",
    "claimed it",
    "claims the ID",
];

/// `text` without the designs' own names and summaries and the steps
/// that claim an ID, which use "claim" in the pattern's sense
/// (`cache-claim-first`, `claims the ID in a cache`).
fn without_designs(report: &CheckReport, text: &str) -> String {
    let mut out = text.to_string();
    for s in &report.strategies {
        out = out.replace(&s.summary, "").replace(&s.strategy, "");
    }
    for words in PATTERN_SENSE {
        out = out.replace(words, "");
    }
    out
}

/// Every line of `text` that still says "claim", for the message.
fn claiming(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.to_lowercase().contains("claim"))
        .map(str::to_string)
        .collect()
}

#[test]
fn idem_checks_text_says_a_designs_promise_without_claim() {
    let mut wrong = Vec::new();
    for r in [report().clone(), every_promise()] {
        wrong.extend(claiming(&without_designs(&r, &render(&r))));
    }
    assert!(wrong.is_empty(), "{} lines: {wrong:#?}", wrong.len());
}

#[test]
fn the_explorers_standings_say_a_promise_without_claim() {
    let wrong: Vec<&str> = [
        Standing::Holds,
        Standing::BrokenAsExpected,
        Standing::Contradiction,
        Standing::Vacuous,
        Standing::NoFailureFound,
    ]
    .into_iter()
    .flat_map(|s| [s.long(), s.short()])
    .filter(|w| w.to_lowercase().contains("claim"))
    .collect();
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The words the explorer draws around the rows (its title, its legend,
/// the picked design's heading), each design picked in turn.
#[test]
fn the_explorers_words_say_a_promise_without_claim() {
    let r = every_promise();
    let mut wrong = Vec::new();
    let mut a = explorer_showing(r.clone());
    for _ in 0..r.strategies.len() {
        let screen = draw(&mut a, 120, 40);
        wrong.extend(claiming(&without_designs(&r, &screen)));
        idem::tui::update(&mut a, idem::tui::Action::Down);
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "{} lines: {wrong:#?}", wrong.len());
}
