//! The verdict's figures name what they count on every screen: a one-row
//! verdict at 80x24 read `order 1042: 0 committed, 2 charges` (teacher
//! trial, tour-4 naive), where larger screens say `0 committed payment
//! rows, 2 provider charges`: `0 committed` counted nothing a class could
//! name; nor did `1 committed row, 1 charge` beside a database holding
//! payments and processed_messages rows (tour-4 idempotent). And the words the figures take keep their form for the whole run
//! at one size, as every label does (`run_form`).

use crate::common::sweep;
use idem::tui::app::Panel;
use std::collections::BTreeMap;

/// The words after each count of a verdict row's figures (`committed
/// payment rows`, `charges`), plurals as singular.
fn figure_words(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The count of causes after the arrow is no figure, nor the count of
    // what is left out (`… ↓ 1 more · w`). A verdict with no room for
    // every order's figures keeps each it shows whole: `order 1042: 0 …`
    // counted nothing (`verdict_cut`).
    let row = row.split('←').next().unwrap_or(row);
    let row = row.split('…').next().unwrap_or(row);
    for part in row.split(": ").skip(1).chain(row.split("  ").skip(1)) {
        for count in part.split(", ") {
            let mut words = count.split_whitespace();
            let Some(n) = words.next() else { continue };
            if n.parse::<usize>().is_err() {
                continue;
            }
            let noun: Vec<&str> = words
                .take_while(|w| w.chars().all(|c| c.is_alphabetic()))
                .map(|w| w.trim_end_matches('s'))
                .collect();
            // A count of notes (`! 1 at risk`, `1 in flight`) is no
            // figure: it says what `w` has to read.
            let noun = noun.join(" ");
            if noun == "at risk" || noun == "in flight" {
                continue;
            }
            out.push(noun);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// At 80x24, where the verdict is one row and its figures' words give way
/// (from 100 columns they are the whole verdict's, `FIGURE_WORDS[0]`,
/// every form of which names the table: `verdict::tests`).
#[test]
fn verdict_figures_name_what_they_count() {
    let size = sweep::SIZES[0];
    let (mut seen, mut wrong) = (0, Vec::new());
    let mut finals = (0, 0);
    let mut forms: BTreeMap<(String, String), Vec<Vec<String>>> = BTreeMap::new();
    // Every run's rows in one wording (teacher trial: `1 committed
    // payment row` in one tour, `1 payment committed` in another).
    let mut row_words: BTreeMap<String, String> = BTreeMap::new();
    sweep::each_step(size, |step| {
        let rect = step.main.rect(Panel::Verdict);
        let row: String = (rect.x..rect.right())
            .map(|x| step.buf[(x, rect.bottom() - 1)].symbol())
            .collect();
        let words = figure_words(&row);
        if words.is_empty() {
            return;
        }
        seen += 1;
        let last = step.app.pos + 1 == step.app.timeline.frames.len();
        finals.0 += usize::from(last);
        let run = (
            step.app.script.name.clone(),
            step.app.strategy.name.to_string(),
        );
        // A row the panel cut (`…1 more`) may end in a figure's half.
        if !row.contains('…') {
            for w in words.iter().filter(|w| w.contains("payment")) {
                row_words.entry(w.clone()).or_insert_with(|| step.at());
            }
            let run_forms = forms.entry(run).or_default();
            if !run_forms.contains(&words) {
                run_forms.push(words.clone());
            }
        }
        // A count with no noun after it: `0 committed`; or rows of no
        // table named (`1 committed row, 1 charge` beside a database
        // of payments and processed_messages rows: tour-4 idempotent).
        let unnamed = |w: &String| {
            w == "committed" || w.is_empty() || (w.contains("row") && !w.contains("payment"))
        };
        if words.iter().any(unnamed) {
            finals.1 += usize::from(last);
            wrong.push(format!(
                "{}: a count names nothing: {}",
                step.at(),
                row.trim_end()
            ));
        }
    });
    eprintln!(
        "final verdicts at {}x{}: {} of {} count unnamed",
        size.0, size.1, finals.1, finals.0
    );
    for ((name, design), f) in &forms {
        if f.len() > 1 {
            wrong.push(format!(
                "{name} {design} {}x{}: the figures change their words: {f:?}",
                size.0, size.1
            ));
        }
    }
    if row_words.len() > 1 {
        wrong.push(format!(
            "{}x{}: the payment rows are worded {} ways: {row_words:?}",
            size.0,
            size.1,
            row_words.len()
        ));
    }
    sweep::none_wrong("verdict rows with figures", seen, 100, &wrong, size);
}
