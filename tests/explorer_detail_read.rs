//! Nothing in the explorer's detail is hidden without a key that reads
//! it. Teacher trial at 100x30: the detail of idempotent, offset and
//! versioned ended `↓ 4 more lines`, and no key showed those lines (a
//! broken design's note offers Enter, which replays the run in full).
//!
//! At 80x24, 100x30 and 120x40, for every design: a detail cut short
//! names a key in its note; for a design with no run to replay that key
//! is `z`, and after `z` nothing of the detail is cut without `PgDn`.

use crate::common::check::fold;
use crate::common::check::{explorer_showing, report};
use crate::common::draw;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

#[test]
fn every_cut_detail_names_a_key_that_reads_the_rest() {
    let report = report();
    let designs = report.strategies.len();
    let (mut cut, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        for row in 0..designs {
            let mut a = explorer_showing(report.clone());
            update(&mut a, Action::First);
            for _ in 0..row {
                update(&mut a, Action::Down);
            }
            let name = &report.strategies[row].strategy;
            let screen = draw(&mut a, w, h);
            let Some(note) = fold(&screen) else {
                continue;
            };
            cut += 1;
            if note.contains("Enter replays") {
                continue;
            }
            if !note.contains(" z ") {
                wrong.push(format!("{name} at {w}x{h}: `{note}` names no key"));
                continue;
            }
            update(&mut a, Action::Zoom);
            let whole = draw(&mut a, w, h);
            // Whole, a design's summary has rows of its own, which may
            // take the detail past the screen: then PgDn reads on.
            if let Some(still) = fold(&whole).filter(|n| !n.contains("PgDn reads on")) {
                wrong.push(format!(
                    "{name} at {w}x{h}: after z still `{still}`\n{whole}"
                ));
            }
        }
    }
    assert!(
        cut > 3,
        "only {cut} details are cut: the test reads nothing"
    );
    assert!(
        wrong.is_empty(),
        "{} of {cut} cut details hide lines with no key:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A screen's rows but the key bar, each trimmed at its right edge.
fn rows(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().map(|l| l.trim_matches('"')).collect();
    lines[..lines.len().saturating_sub(1)]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Teacher trial at 80x24 with `z`: a held design's property rows were cut
/// (`each fact charged exactly once (dead-lettered only if the provi…`)
/// with empty rows below them, and in-progress's detail ended `↓ 55 more
/// lines` with its last sentence cut at `The`, and no key read on while
/// whole. With `z`, no row ends in `…`, and every row the detail has (as a
/// screen tall enough draws it) is read by paging with the key the fold
/// note names.
#[test]
fn the_whole_detail_wraps_and_pages_to_its_end() {
    let report = report();
    let designs = report.strategies.len();
    let (mut checked, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        for row in 0..designs {
            let name = &report.strategies[row].strategy;
            let open = || {
                let mut a = explorer_showing(report.clone());
                update(&mut a, Action::First);
                for _ in 0..row {
                    update(&mut a, Action::Down);
                }
                update(&mut a, Action::Zoom);
                a
            };
            // Every row the detail has, drawn where nothing folds.
            let mut tall = open();
            let all = draw(&mut tall, w, 400);
            let all: Vec<String> = rows(&all)
                .into_iter()
                .skip_while(|l| !l.starts_with(&format!(" {name} ")))
                .filter(|l| !l.trim().is_empty())
                .collect();
            let mut a = open();
            let mut seen: Vec<String> = Vec::new();
            let mut pages = 0;
            loop {
                let screen = draw(&mut a, w, h);
                checked += 1;
                for l in rows(&screen) {
                    if l.ends_with('…') {
                        wrong.push(format!("{name} at {w}x{h}: `{l}` is cut"));
                    }
                    seen.push(l);
                }
                let Some(note) = fold(&screen) else {
                    // At the end, PgUp pages back at once.
                    if pages > 0 {
                        update(&mut a, Action::PrevChapter);
                        if draw(&mut a, w, h) == screen {
                            wrong.push(format!("{name} at {w}x{h}: PgUp at the end stays"));
                        }
                    }
                    break;
                };
                if !note.contains("PgDn") {
                    wrong.push(format!(
                        "{name} at {w}x{h}: `{note}` names no key to read on"
                    ));
                    break;
                }
                pages += 1;
                if pages > 40 {
                    wrong.push(format!("{name} at {w}x{h}: PgDn never reaches the end"));
                    break;
                }
                update(&mut a, Action::NextChapter);
            }
            for l in &all {
                if !seen.contains(l) {
                    wrong.push(format!("{name} at {w}x{h}: `{}` is never shown", l.trim()));
                    break;
                }
            }
        }
    }
    assert!(checked >= designs * 3, "only {checked} screens read");
    assert!(
        wrong.is_empty(),
        "{} wrong in {checked} screens:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Teacher trial: with the detail whole, PgDn past the end moved nothing,
/// but each extra press was stored, and cost a PgUp that moved nothing
/// later. At the end, after three more PgDn, one PgUp pages back at once.
#[test]
fn pgdn_past_the_end_costs_no_pgup() {
    let report = report();
    let designs = report.strategies.len();
    let (mut paged, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        for row in 0..designs {
            let name = &report.strategies[row].strategy;
            let mut a = explorer_showing(report.clone());
            update(&mut a, Action::First);
            for _ in 0..row {
                update(&mut a, Action::Down);
            }
            update(&mut a, Action::Zoom);
            let first = draw(&mut a, w, h);
            if fold(&first).is_none() {
                continue;
            }
            paged += 1;
            let mut end = first;
            for _ in 0..40 {
                update(&mut a, Action::NextChapter);
                let screen = draw(&mut a, w, h);
                if screen == end {
                    break;
                }
                end = screen;
            }
            for _ in 0..3 {
                update(&mut a, Action::NextChapter);
            }
            update(&mut a, Action::PrevChapter);
            if draw(&mut a, w, h) == end {
                wrong.push(format!("{name} at {w}x{h}"));
            }
        }
    }
    assert!(
        paged > 3,
        "only {paged} details page: the test reads nothing"
    );
    assert!(
        wrong.is_empty(),
        "{} of {paged} paged details: PgUp after PgDn past the end stays:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
