//! The dashboard's progress line: a space between the bar and its words,
//! and one wording for the whole run at a size. Teacher trial (100x30):
//! `████████81,797/600,000 published`, and `6,693 of 600,000 payments
//! published … of virtual time` became `27,409/600,000 published …
//! virtual` as the digits grew.

use crate::common::Screen;
use idem::sim::Strategy;
use idem::soak::{self, Config, Live};
use idem::tui::soak::{DashAction, Dashboard, settings, update};
use idem::tui::theme::Theme;
use std::collections::BTreeSet;
use std::sync::atomic::AtomicU64;

/// The words of the progress row, without its figures.
fn wording(row: &str) -> BTreeSet<String> {
    row.split(|c: char| !c.is_alphabetic())
        .filter(|w| w.len() > 2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_progress_line_keeps_its_words_apart_from_the_bar_and_steady() {
    let config = Config {
        designs: vec![Strategy::naive(), Strategy::idempotent()],
        messages: 6_000,
        seed: 7,
        ..Config::default()
    };
    let live = Live::new(config.messages, &["naive", "idempotent"]);
    soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    // The trial's size: the small soak's end, scaled to 300,000 payments a
    // design (its clock and its estimate fifty times as long), so the
    // digits grow as they did.
    let mut end = live.snapshot();
    end.total *= 50;
    end.planned_ms *= 50;
    for d in &mut end.designs {
        d.published *= 50;
        d.settled *= 50;
        d.virtual_ms *= 50;
    }
    let total = idem::check::num(end.total * 2);
    let mut run_into = Vec::new();
    let mut changed = Vec::new();
    let mut checked = 0;
    for ascii in [false, true] {
        for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
            let mut seen: Option<(u64, BTreeSet<String>)> = None;
            // The run as it goes: from its first payments to its end.
            for per_mille in [1u64, 12, 45, 150, 480, 1000] {
                let mut state = end.clone();
                for d in &mut state.designs {
                    d.published = d.published * per_mille / 1000;
                    d.settled = d.settled * per_mille / 1000;
                    d.virtual_ms = d.virtual_ms * per_mille / 1000;
                    d.finished = per_mille == 1000;
                }
                let mut dash =
                    Dashboard::new(settings(&config), end.clone(), Theme::new(false, ascii));
                update(&mut dash, DashAction::Live(state));
                let mut screen = Screen::new(w, h);
                screen.show(&dash);
                let text = screen.text();
                let row = text
                    .lines()
                    .find(|l| {
                        l.contains(&format!("/{total}")) || l.contains(&format!("of {total}"))
                    })
                    .unwrap_or_else(|| panic!("no progress row at {w}x{h}:\n{text}"))
                    .to_string();
                checked += 1;
                // A digit right after a bar cell: the bar runs into the words.
                let bar = |c: char| matches!(c, '█' | '▉'..='▏' | '#' | '=');
                let chars: Vec<char> = row.chars().collect();
                if chars.windows(2).any(|p| {
                    (bar(p[0]) && p[1].is_ascii_digit()) || (p[0].is_ascii_digit() && bar(p[1]))
                }) {
                    run_into.push(format!("{w}x{h} {per_mille}‰: {row}"));
                }
                let words = wording(&row);
                match &seen {
                    Some((at, before)) if *before != words => changed.push(format!(
                        "{w}x{h} ascii={ascii}: {before:?} at {at}‰, {words:?} at {per_mille}‰"
                    )),
                    _ => seen = Some((per_mille, words)),
                }
            }
        }
    }
    assert_eq!(checked, 36);
    assert!(
        run_into.is_empty() && changed.is_empty(),
        "{} of {checked} rows run the bar into the words:\n{}\n{} wordings changed mid-run:\n{}",
        run_into.len(),
        run_into.join("\n"),
        changed.len(),
        changed.join("\n")
    );
}
