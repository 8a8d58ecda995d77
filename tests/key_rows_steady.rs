//! A key-store row keeps one form through a run at one size (teacher
//! trial, tour-4 idempotent at 80x24): step 7 read `key m-7f3 → ch_81 *`
//! and step 8 `m-7f3 → ch_81 ↺ replayed`, the word "key" gone; at wider
//! sizes `↺ replayed now` became `↺ replayed ×1` one step later, the same
//! replay said two ways. At every step of every built-in run, at 80x24,
//! 100x30 and 120x40, a key's row leads the same way wherever the store's
//! heading is (or is not) on screen, and its replay mark, less its count
//! and the ` now` of the step it happens in, reads the same.

use crate::common::sweep;
use idem::tui::app::Panel;
use std::collections::BTreeMap;

/// What a run showed of one key's row: its lead, by whether the store's
/// heading was on screen; and its replay mark's words.
#[derive(Default)]
struct Seen {
    leads: BTreeMap<bool, BTreeMap<String, String>>,
    replays: BTreeMap<String, String>,
}

/// The replay mark's words, the figure of its count (`×1`, `×2`: the
/// count is there or not) and a ` now` left out.
fn replay_words(mark: &str) -> String {
    mark.trim_end()
        .trim_end_matches(" now")
        .split_whitespace()
        .map(|w| if w.starts_with('×') { "×" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

fn at(size: (u16, u16)) {
    let mut wrong = Vec::new();
    let mut seen = 0;
    let mut run: BTreeMap<String, Seen> = BTreeMap::new();
    sweep::each_step(size, |step| {
        if step.app.pos == 0 {
            run.clear();
        }
        let rows = step.rows_in(Panel::Provider);
        let headed = rows.iter().any(|r| r.starts_with("Idempotency-Key store"));
        for k in &step.frame.provider.keys {
            let Some(row) = rows.iter().find(|r| r.contains(&format!("{} → ", k.key))) else {
                continue;
            };
            seen += 1;
            let at = step.at();
            let s = run.entry(k.key.clone()).or_default();
            let lead = row[..row.find(&k.key).unwrap()].to_string();
            let leads = s.leads.entry(headed).or_default();
            if let Some((other, first)) = leads.iter().find(|(l, _)| **l != lead) {
                wrong.push(format!(
                    "{at}: {row:?} leads {lead:?}; {first} led {other:?}"
                ));
            }
            leads.entry(lead).or_insert(at.clone());
            if let Some(i) = row.find('↺') {
                let words = replay_words(&row[i..]);
                if let Some((other, first)) = s.replays.iter().find(|(w, _)| **w != words) {
                    wrong.push(format!(
                        "{at}: {row:?} says {words:?}; {first} said {other:?}"
                    ));
                }
                s.replays.entry(words).or_insert(at);
            }
        }
    });
    sweep::none_wrong("key rows", seen, 100, &wrong, size);
}

#[test]
fn a_key_row_keeps_one_form_at_80x24() {
    at(sweep::SIZES[0]);
}

#[test]
fn a_key_row_keeps_one_form_at_100x30() {
    at(sweep::SIZES[1]);
}

#[test]
fn a_key_row_keeps_one_form_at_120x40() {
    at(sweep::SIZES[2]);
}

/// Every key-store row says it is a key (teacher trial, tour-4
/// idempotent at 80x24, steps 6 to 8): where the store's heading line is
/// gone, `m-7f3 → ch_81 ↺ replayed ×1` named nothing, in the one tour
/// about the Idempotency-Key. A key's row either leads with `key ` or
/// stands below a line of its own that names the store (`Idempotency-Key
/// store`, `key store`, `keys`).
fn labelled_at(size: (u16, u16)) {
    let mut wrong = Vec::new();
    let mut seen = 0;
    sweep::each_step(size, |step| {
        let rows = step.rows_in(Panel::Provider);
        // Below the panel's own heading (line 0), a line naming the store.
        let named = |r: &String| {
            let s = r.trim_start();
            ["Idempotency-Key store", "key store", "keys"]
                .iter()
                .any(|h| s.starts_with(h))
        };
        let heading_at = rows.iter().skip(1).position(named).map(|i| i + 1);
        for k in &step.frame.provider.keys {
            let Some(i) = rows
                .iter()
                .position(|r| r.contains(&format!("{} → ", k.key)))
            else {
                continue;
            };
            seen += 1;
            let row = &rows[i];
            let led = row.trim_start().starts_with(&format!("key {}", k.key));
            if !led && heading_at.is_none_or(|h| h > i) {
                wrong.push(format!("{}: {row:?} says nothing of a key", step.at()));
            }
        }
    });
    sweep::none_wrong("key rows labelled", seen, 100, &wrong, size);
}

#[test]
fn every_key_row_is_labelled_at_80x24() {
    labelled_at(sweep::SIZES[0]);
}

#[test]
fn every_key_row_is_labelled_at_100x30() {
    labelled_at(sweep::SIZES[1]);
}

#[test]
fn every_key_row_is_labelled_at_120x40() {
    labelled_at(sweep::SIZES[2]);
}

/// `w` gives the provider panel another height (teacher trial, tour-1
/// idempotent at 80x24, last step): the row `key m-7f3 → ch_81` became a
/// line `Idempotency-Key store` over ` m-7f3 → ch_81` at the key press,
/// the store relabelled with nothing changed. At each step of every
/// built-in run, at each size, each key's row under `w` reads as it does
/// on the main screen, and so does whether the store's own line (its
/// heading, or `store: empty`) is drawn.
fn under_w_at(size: (u16, u16)) {
    use crate::common::under_w;
    let (mut seen, mut wrong) = (0, Vec::new());
    under_w::each_step(size, Panel::Provider, |pair| {
        let (Some(main), Some(why)) = (pair.main, pair.why) else {
            return;
        };
        let store_line = |rows: &[String]| {
            rows.iter().skip(1).find_map(|r| {
                let s = r.trim();
                (s.starts_with("Idempotency-Key store") || s.starts_with("key store"))
                    .then(|| s.to_string())
            })
        };
        seen += 1;
        let mut here = Vec::new();
        let (a, b) = (store_line(&main), store_line(&why));
        if a != b {
            here.push(format!("the store's line {a:?} under w reads {b:?}"));
        }
        for k in &pair.frame.provider.keys {
            let find = |rows: &[String]| {
                rows.iter()
                    .find(|r| r.contains(&format!("{} ", k.key)) && r.contains('→'))
                    .map(|r| r.trim_end().to_string())
            };
            let (Some(a), Some(b)) = (find(&main), find(&why)) else {
                continue;
            };
            if a != b {
                here.push(format!("{a:?} under w reads {b:?}"));
            }
        }
        if !here.is_empty() {
            wrong.push(format!("{}: {}", pair.at, here.join("; ")));
        }
    });
    sweep::none_wrong(
        "provider panels' key stores under w",
        seen,
        100,
        &wrong,
        size,
    );
}

#[test]
fn a_key_row_keeps_its_form_under_w_at_80x24() {
    under_w_at(sweep::SIZES[0]);
}

#[test]
fn a_key_row_keeps_its_form_under_w_at_100x30() {
    under_w_at(sweep::SIZES[1]);
}

#[test]
fn a_key_row_keeps_its_form_under_w_at_120x40() {
    under_w_at(sweep::SIZES[2]);
}
