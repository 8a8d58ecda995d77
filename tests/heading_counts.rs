//! The provider panel's heading says what it folds. A teacher read
//! `charges 2 ($80) * …1 hidden` as a third charge kept out of sight,
//! where the row folded away was `key store: empty`; and the mark of the
//! count that moved had lost its old value (`*` alone). At every step of
//! every built-in run, at 80x24, 100x30 and 120x40:
//! - a count of hidden rows after the charges counts charges off screen,
//!   exactly (never a key-store row);
//! - the key store is on screen, or the heading says what became of it;
//! - where the count moved, the heading says the count it moved from.
//!
//! The database panel's heading ends in the payments total: a bare count
//! of hidden rows beside it (`…2 hidden`) counts payment rows only, never
//! lines of processed_messages or another table, which say whose they are.

use crate::common::sweep;
use idem::tui::app::Panel;
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};

fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// The number the heading gives as hidden (`…2 hidden`, `… 2 charges
/// not shown`), or 0 where it says none is.
fn hidden_said(heading: &str) -> usize {
    let words: Vec<&str> = heading.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let after = words.get(i + 2).copied().unwrap_or("");
        let n = w.trim_start_matches('…').parse::<usize>();
        let counted = next == "hidden" || (next.starts_with("charge") && after == "not");
        if let (Ok(n), true) = (n, counted) {
            return n;
        }
    }
    0
}

/// What is wrong with the provider panel's heading as drawn, if anything.
fn wrong(step: &sweep::Step, rows: &[String]) -> Option<String> {
    let f = &step.frame;
    let heading = rows.first()?;
    let off = f
        .provider
        .charges
        .iter()
        .filter(|c| {
            !rows
                .iter()
                .any(|r| r.split_whitespace().next() == Some(&c.id))
        })
        .count();
    // A count of rows (`…2 rows`) claims no charge; the charges it may
    // hold are counted by the check below that every charge is shown or
    // counted.
    let rows_said = heading.contains(" row");
    let said = hidden_said(heading);
    if off > said && !rows_said {
        return Some(format!(
            "{off} charges are off screen; the heading counts {said}"
        ));
    }
    if said > off {
        return Some(format!(
            "the heading counts {said} hidden; {off} charges are off screen"
        ));
    }
    // Each key's row names the key; an empty store says so on its row,
    // or in the heading.
    let store_shown = if f.provider.keys.is_empty() {
        rows.iter().any(|r| r.contains("store: empty"))
            || heading.contains("keys 0")
            || heading.contains("key store empty")
            || heading.contains("no keys")
    } else {
        f.provider
            .keys
            .iter()
            .all(|k| rows.iter().any(|r| r.contains(&k.key)))
            || heading.contains("key")
    };
    // Where no charge carried a key, every charge row says `no key`: an
    // empty store is what they say, and at 80x24 the charges' own count
    // keeps the room (`charges 3 $120 …1 hidden`; its old `…2 rows`
    // counted the store's line as a row, over one charge hidden).
    let no_key_sent =
        f.provider.keys.is_empty() && f.provider.charges.iter().all(|c| c.key.is_none());
    if !store_shown && !rows_said && !no_key_sent {
        return Some("the key store is neither shown nor named in the heading".into());
    }
    // The count moved: the heading says from what (`* was 1`, `*was 1`,
    // or `1→2`), never its sign alone.
    if let Some(was) = f.changes.charges_was {
        let n = f.provider.charges.len();
        let said =
            heading.contains(&format!("was {was}")) || heading.contains(&format!("{was}→{n}"));
        if !said {
            return Some(format!("the heading does not say the count was {was}"));
        }
    }
    None
}

/// What is wrong with the database panel's heading as drawn, if anything:
/// a bare hidden count more than the payment rows off screen.
fn database_wrong(step: &sweep::Step, rows: &[String]) -> Option<String> {
    let f = &step.frame;
    let heading = rows.first()?;
    let words: Vec<&str> = heading.split_whitespace().collect();
    let bare = words.windows(2).find_map(|w| {
        (w[1] == "hidden")
            .then(|| w[0].trim_start_matches('…').parse::<usize>().ok())
            .flatten()
    });
    let said = bare.or_else(|| {
        words.windows(3).find_map(|w| {
            (w[1].starts_with("row") && w[2] == "not")
                .then(|| w[0].parse::<usize>().ok())
                .flatten()
        })
    })?;
    // Payment rows are the lines that start with an order number.
    let payment_rows =
        f.db.payments.len() + f.changes.gone(idem::sim::change::Place::Payments).count();
    let shown = rows[1..]
        .iter()
        .take_while(|r| !r.starts_with(|c: char| c.is_alphabetic()))
        .filter(|r| {
            r.split_whitespace()
                .any(|w| w.parse::<u32>().is_ok_and(|n| n >= 1000))
        })
        .count();
    let off = payment_rows.saturating_sub(shown);
    (said > off)
        .then(|| format!("the heading counts {said} hidden; {off} payment rows are off screen"))
}

fn at(size: (u16, u16)) {
    let mut wrongs = Vec::new();
    let mut seen = 0;
    sweep::each_step(size, |step| {
        let buf = step.buf;
        seen += 1;
        for (panel, check) in [
            (
                Panel::Provider,
                wrong as fn(&sweep::Step, &[String]) -> Option<String>,
            ),
            (Panel::Database, database_wrong),
        ] {
            let r = step.main.rect(panel).inner(Margin::new(1, 1));
            let rows = rows(buf, r);
            if let Some(e) = check(step, &rows) {
                wrongs.push(format!("{} {panel:?}: {e}\n{}", step.at(), rows.join("\n")));
            }
        }
    });
    sweep::none_wrong("provider and database panels", seen, 250, &wrongs, size);
}

#[test]
fn headings_say_what_they_fold_at_80x24() {
    at(sweep::SIZES[0]);
}

#[test]
fn headings_say_what_they_fold_at_100x30() {
    at(sweep::SIZES[1]);
}

#[test]
fn headings_say_what_they_fold_at_120x40() {
    at(sweep::SIZES[2]);
}

#[test]
fn a_hidden_count_is_read_from_either_sign() {
    assert_eq!(hidden_said("charges 2 $80 …1 hidden"), 1);
    assert_eq!(hidden_said("charges 3 ($120) … 2 charges not shown"), 2);
    assert_eq!(hidden_said("charges 2 $80 * was 1 keys 0"), 0);
}
