//! `idem test --replay` at 80x24, 100x30 and 120x40 cuts no figure and no
//! mark: every step of the replays of the examples' failing runs (the
//! README's `naive-charged-twice.json`, and the schedules `idem test`
//! saved for the three subtly wrong samples, kept in `tests/replays/`).
//! Teacher trial at 80x24: `ch_1 1042 $40 no key…` lost its `+`, `m-1 b-1
//! order 1042 $4…` its amount, `r-1, lease ends at …` its time,
//! `Idempotency-Key store…` whether it was empty, and the verdict ended
//! `← …3 more` with no key on the bar to read the rest.

use crate::common::Screen;
use crate::common::replays;
use idem::sim::broker::MessageState;
use idem::sim::format_duration;
use idem::tui::replay::{self, Replay};
use idem::tui::theme::Theme;
use ratatui::crossterm::event::KeyCode;

const FILES: [&str; 4] = [
    "examples/python/naive-charged-twice.json",
    "tests/replays/check_then_insert-disagree.json",
    "tests/replays/ack_before_commit-disagree.json",
    "tests/replays/new_key_per_attempt-charged-twice.json",
];

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn replayed(file: &str) -> Replay {
    let file = replays::read(file);
    let report = replays::replay(&file);
    Replay::of(&file, report, Theme::new(false, false))
}

fn screen(r: &Replay, w: u16, h: u16) -> Vec<String> {
    let mut s = Screen::new(w, h);
    s.show(r);
    // One quoted row a line: the quotes are the backend's, not the screen's.
    s.text()
        .lines()
        .map(|l| l.trim().trim_matches('"').to_string())
        .collect()
}

/// The text of the `n`th panel (0 the leftmost) on each row of the box
/// whose top border holds `title`, between that border and its bottom.
fn panel(rows: &[String], title: &str, n: usize) -> Vec<String> {
    let Some(top) = rows
        .iter()
        .position(|r| r.starts_with('┌') && r.contains(title))
    else {
        return Vec::new();
    };
    rows[top + 1..]
        .iter()
        .take_while(|r| !r.starts_with('└'))
        .map(|r| {
            r.split('│')
                .nth(1 + 2 * n)
                .unwrap_or("")
                .trim_end()
                .to_string()
        })
        .collect()
}

/// A row's `…` right after a digit, a `$` or a mark: a figure or a mark
/// cut by characters.
fn char_cut(row: &str) -> bool {
    let chars: Vec<char> = row.chars().collect();
    chars.windows(2).any(|p| {
        p[1] == '…' && (p[0].is_ascii_digit() || matches!(p[0], '$' | '+' | '*' | '↺' | '×'))
    })
}

/// A row that ends in a change mark, whole: its sign, or its sign and
/// word (`+ new`, `* changed`).
fn marked(row: &str) -> bool {
    let row = row.trim_end();
    ["+", "*", "+ new", "* changed"]
        .iter()
        .any(|m| row.ends_with(&format!(" {m}")))
}

/// What is cut or folded without a key on one screen of step `at`.
fn wrong(r: &Replay, rows: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let step = &r.steps[r.at];
    let before = r.at.checked_sub(1).map(|i| &r.steps[i]);
    let broker = panel(rows, "roker", 0);
    let provider = panel(rows, "roker", 1);
    for row in rows {
        if char_cut(row) {
            out.push(format!("cut by characters: {row:?}"));
        }
    }
    for m in &step.queue {
        let id = &m.message.id;
        let amount = format!("${}", m.message.payment.amount);
        let Some(first) = broker.iter().find(|l| l.starts_with(id.as_str())) else {
            out.push(format!("{id} is not in the broker panel"));
            continue;
        };
        if !first.split_whitespace().any(|w| w == amount) {
            out.push(format!("{id}'s amount is not whole: {first:?}"));
        }
        let was = before.and_then(|b| b.queue.iter().find(|w| w.seq == m.seq));
        let changed = was.is_none_or(|w| w.state != m.state || w.receives != m.receives);
        if changed && r.at > 0 && !marked(first) {
            out.push(format!("{id}'s change mark is cut: {first:?}"));
        }
        let broker_text = broker.join("\n");
        match &m.state {
            MessageState::InFlight {
                consumer, until, ..
            } => {
                if !broker_text.contains(consumer.as_str()) {
                    out.push(format!("{id}'s holder {consumer} is not whole"));
                }
                let time = format_duration(*until);
                if !broker_text
                    .lines()
                    .any(|l| l.contains("lease") && l.split_whitespace().any(|w| w == time))
                {
                    out.push(format!("{id}'s lease loses its time {time}"));
                }
            }
            MessageState::Acked { .. } if !broker_text.contains("acked") => {
                out.push(format!("{id} does not say it was acked"));
            }
            _ => {}
        }
    }
    for c in &step.charges {
        let Some(row) = provider
            .iter()
            .find(|l| l.split_whitespace().next() == Some(c.id.as_str()))
        else {
            out.push(format!("{} is not in the provider panel", c.id));
            continue;
        };
        let words: Vec<&str> = row.split_whitespace().collect();
        if !words.contains(&format!("${}", c.amount).as_str()) {
            out.push(format!("{}'s amount is not whole: {row:?}", c.id));
        }
        let keyed = match c.key {
            Some(_) => row.contains(" key") && !row.contains("no key"),
            None => row.contains("no key"),
        };
        if !keyed {
            out.push(format!(
                "{}'s row does not say whether it had a key: {row:?}",
                c.id
            ));
        }
        let new = before.is_some_and(|b| !b.charges.iter().any(|x| x.id == c.id));
        if new && !marked(row) {
            out.push(format!("{}'s new mark is cut: {row:?}", c.id));
        }
    }
    let provider_text = provider.join("\n");
    if step.keys.is_empty() && !provider_text.contains("store: empty") {
        out.push(format!("the empty key store does not say so: {provider:?}"));
    }
    for k in &step.keys {
        let Some(row) = provider.iter().find(|l| l.contains(k.key.as_str())) else {
            out.push(format!("key {} is not in the provider panel", k.key));
            continue;
        };
        if row.ends_with('…') {
            out.push(format!("key {}'s row is cut: {row:?}", k.key));
        }
        let new = before.is_some_and(|b| !b.keys.iter().any(|x| x.key == k.key));
        if new && !marked(row) {
            out.push(format!("key {}'s new mark is cut: {row:?}", k.key));
        }
    }
    out.extend(unexplained(rows));
    // A fold says how many more and names the key that reads them, and
    // that key is on the bar.
    let bar = rows.last().cloned().unwrap_or_default();
    for row in rows {
        let folds = row.contains(" more") || row.contains(" hidden") || row.contains("not shown");
        if !folds {
            continue;
        }
        let named = row
            .rsplit_once(" · ")
            .map(|(_, key)| key.trim_end_matches('│').trim())
            .filter(|key| !key.is_empty() && !key.contains(' '));
        match named {
            Some(key) if bar.contains(&format!(" {key} ")) => {}
            Some(key) => out.push(format!("a fold names {key:?}, not on the bar {bar:?}")),
            None => out.push(format!("a fold names no key: {row:?}")),
        }
    }
    out
}

/// What a screen leaves unexplained or cut with room to spare (teacher
/// trial 25 at 100x30): the step strip's symbols (`··✕·····`) with no
/// word on their row, a key bar without `?`, and a stderr line cut
/// (`leaving the message for re…`) in a panel with blank rows below it.
fn unexplained(rows: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(strip) = rows.iter().find(|r| r.trim_start().starts_with("steps")) {
        let chars: Vec<char> = strip.chars().collect();
        for glyph in ['✕', '·'] {
            let named = chars
                .windows(3)
                .any(|w| w[0] == glyph && w[1] == ' ' && w[2].is_alphabetic());
            if chars.contains(&glyph) && !named {
                out.push(format!(
                    "the strip's {glyph} has no word on its row: {strip:?}"
                ));
            }
        }
    }
    let bar = rows.last().cloned().unwrap_or_default();
    if !bar.trim_start().starts_with('!') && !bar.split("  ").any(|i| i.trim().starts_with('?')) {
        out.push(format!("the bar has no `?`: {bar:?}"));
    }
    let stderr = panel(rows, "stderr", 0);
    let blank = stderr.iter().any(|r| r.trim().is_empty());
    if blank && let Some(cut) = stderr.iter().find(|r| r.ends_with('…')) {
        out.push(format!("a stderr line cut beside blank rows: {cut:?}"));
    }
    out
}

/// Every step of every replay at every size: nothing cut by characters,
/// each figure and mark whole, every fold with a key on the bar; and `w`
/// shows the verdict whole, and `w` again goes back.
#[test]
fn a_replay_cuts_no_figure_and_no_mark_at_any_size() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let (mut screens, mut problems) = (0, Vec::new());
    for file in FILES {
        let mut r = replayed(file);
        let whole = r.verdict.chain_with(r.theme.arrow());
        for at in 0..r.steps.len() {
            r.at = at;
            for (w, h) in SIZES {
                screens += 1;
                let rows = screen(&r, w, h);
                for e in wrong(&r, &rows) {
                    problems.push(format!("{file} step {} at {w}x{h}: {e}", at + 1));
                }
                replay::update(&mut r, KeyCode::Char('w'));
                let why = screen(&r, w, h).join(" ");
                // Compared without spaces: `w` gives each link a row.
                let told = |s: &str| s.split_whitespace().collect::<String>();
                let on_screen = told(&why.split('│').map(str::trim).collect::<Vec<_>>().join(" "));
                if !on_screen.contains(&told(&whole)) {
                    problems.push(format!(
                        "{file} step {} at {w}x{h}: w does not show the verdict whole",
                        at + 1
                    ));
                }
                replay::update(&mut r, KeyCode::Char('w'));
                if screen(&r, w, h) != rows {
                    problems.push(format!(
                        "{file} step {} at {w}x{h}: w again does not go back",
                        at + 1
                    ));
                }
            }
        }
    }
    assert!(screens > 80, "only {screens} screens");
    assert!(
        problems.is_empty(),
        "{} problems on {screens} screens:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
