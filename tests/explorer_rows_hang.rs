//! A property row of the explorer's detail that wraps goes on under its
//! own words, never at the pane's edge. Teacher trial at 120x40: the
//! in-progress detail's `further ✕ at 3 faults it breaks: …` went on with
//! `row (provider and database disagree); 74 schedules…` at column 1,
//! which read as a new row of the table.

use crate::common::check::{explorer_showing, in_progress, report};
use crate::common::draw;
use idem::check::CheckReport;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The kinds a property row starts with, after its three spaces.
const KINDS: [&str; 4] = ["always", "eventually", "sometimes", "further"];

/// The column a property row's words start at (after its kind, padded to
/// 11, and its mark), if `row` is one.
fn text_column(row: &str) -> Option<usize> {
    let rest = row.strip_prefix("   ")?;
    let kind = KINDS.iter().find(|k| rest.starts_with(*k))?;
    let after: String = rest.chars().skip(kind.chars().count()).collect();
    // The padding to 11 columns, then the mark and one space.
    let pad = after.chars().take_while(|c| *c == ' ').count();
    let mark = after.chars().nth(pad)?;
    if mark == ' ' || kind.chars().count() + pad != 11 {
        return None;
    }
    Some(3 + 11 + 1 + 1)
}

/// The screen's rows, the key bar left out.
fn rows(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().map(|l| l.trim_matches('"')).collect();
    lines[..lines.len().saturating_sub(1)]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Every row that continues a wrapped property row and does not start
/// under its words, on `screen`; `wrapped` counts the continued ones.
fn misplaced(screen: &str, wrapped: &mut usize) -> Vec<String> {
    let rows = rows(screen);
    let mut wrong = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let Some(col) = text_column(row) else {
            continue;
        };
        // The rows after it up to the next property row, blank row or
        // row of another part: a continuation ends where a row starts with
        // a known part's first words.
        for next in rows.iter().skip(i + 1) {
            if next.trim().is_empty()
                || text_column(next).is_some()
                || next.trim_start().starts_with("why:")
                || next.trim_start().starts_with("found breadth-first")
                || next.trim_start().starts_with('↓')
                || next.trim_start().starts_with('(')
                || next.trim_start().starts_with(|c: char| c.is_ascii_digit())
            {
                break;
            }
            *wrapped += 1;
            let lead = next.chars().take_while(|c| *c == ' ').count();
            if lead != col {
                wrong.push(format!("`{row}`\n  goes on at column {lead}: `{next}`"));
            }
        }
    }
    wrong
}

fn check(reports: &[&CheckReport]) -> (usize, Vec<String>) {
    let (mut wrapped, mut wrong) = (0, Vec::new());
    for report in reports {
        for row in 0..report.strategies.len() {
            let name = &report.strategies[row].strategy;
            for (w, h) in SIZES {
                for whole in [false, true] {
                    let mut a = explorer_showing((*report).clone());
                    update(&mut a, Action::First);
                    for _ in 0..row {
                        update(&mut a, Action::Down);
                    }
                    if whole {
                        update(&mut a, Action::Zoom);
                    }
                    let screen = draw(&mut a, w, h);
                    for m in misplaced(&screen, &mut wrapped) {
                        wrong.push(format!("{name} at {w}x{h} (whole: {whole}): {m}"));
                    }
                }
            }
        }
    }
    (wrapped, wrong)
}

#[test]
fn every_wrapped_property_row_goes_on_under_its_words() {
    let (wrapped, wrong) = check(&[report(), in_progress()]);
    assert!(
        wrapped > 3,
        "only {wrapped} rows wrap: the test reads nothing"
    );
    assert!(
        wrong.is_empty(),
        "{} of {wrapped} continued property rows start elsewhere:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
