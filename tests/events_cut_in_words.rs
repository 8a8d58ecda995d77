//! A cut in the events (or SQL) panel says what it hides, in words.
//! Teacher trial 17 (issue 18), 80x24, tour-3 idempotent step 8: the one
//! event of the step was cut at the panel's last row and signed `…1
//! more`, read as part of the sentence (`waits for A to …1 more`); step
//! 13 hid "so it skips the work" behind `already recorded, …1 more`. The
//! help calls that count rows, but a panel whose top sign counts events
//! leaves a bare count at its bottom to be read as anything. A count
//! there names its unit (`… ↓ 1 more line`).

use crate::common::sweep;
use idem::tui::app::Panel;
use ratatui::layout::Margin;

/// Words that say what a count in these panels counts.
const UNITS: [&str; 8] = [
    "row",
    "rows",
    "line",
    "lines",
    "event",
    "events",
    "statement",
    "statements",
];

/// The counts on `row` that are not followed by a unit: `…1 more`
/// at the row's end, or `2 more` before any other word.
fn bare(row: &str) -> bool {
    let words: Vec<&str> = row.split_whitespace().collect();
    words.windows(2).enumerate().any(|(i, w)| {
        let digits = w[0].trim_start_matches(['…', '↓', '↑', '(']);
        !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
            && w[1] == "more"
            && !words.get(i + 2).is_some_and(|u| UNITS.contains(u))
    })
}

#[test]
fn events_and_sql_cuts_name_what_they_count() {
    let mut report = Vec::new();
    let mut first = None;
    for size in &sweep::SIZES[..2] {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(*size, |step| {
            for panel in [Panel::Events, Panel::Sql] {
                let r = step.main.rect(panel);
                if r.is_empty() {
                    continue;
                }
                let inner = r.inner(Margin::new(1, 1));
                for y in inner.y..inner.bottom() {
                    let row: String = (inner.x..inner.right())
                        .map(|x| step.buf[(x, y)].symbol())
                        .collect();
                    if !row.contains(" more") {
                        continue;
                    }
                    seen += 1;
                    if bare(&row) {
                        wrong.push(format!(
                            "{} {panel:?}: {:?}\n{}",
                            step.at(),
                            row.trim_end(),
                            step.screen()
                        ));
                    }
                }
            }
        });
        report.push(format!(
            "{}x{}: {seen} signed rows, {} with a bare count",
            size.0,
            size.1,
            wrong.len()
        ));
        if std::env::var_os("IDEM_ALL_CUTS").is_some() {
            for w in &wrong {
                eprintln!("{}", w.lines().next().unwrap_or_default());
            }
        }
        if first.is_none() {
            first = wrong.into_iter().next();
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        first.is_none(),
        "{}\nthe first:\n{}",
        report.join("\n"),
        first.unwrap_or_default()
    );
}
