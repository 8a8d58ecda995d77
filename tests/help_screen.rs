//! The help explains the keys and the signs the screens draw, in rows
//! that wrap under their own words, and it scrolls, saying so, where the
//! screen is too short for it.

use crate::common::{Screen, app_with, ascii, plain, resize};
use idem::tui::{Action, App, Options, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The cells inside the help's box, row by row, and its two border rows.
struct Shown {
    inner: Vec<Vec<String>>,
    top: String,
    bottom: String,
}

fn shown(a: &mut App, width: u16, height: u16) -> Shown {
    resize(a, width, height);
    let mut screen = Screen::new(width, height);
    let buf = screen.show(&*a);
    let cells: Vec<Vec<String>> = (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect();
    let top = cells
        .iter()
        .position(|row| {
            let row = row.concat();
            row.contains("┌ Keys") || row.contains("+ Keys")
        })
        .expect("the help is open");
    let corner = &cells[top];
    let left = corner.iter().position(|c| c == "┌" || c == "+").unwrap();
    let right = left
        + 1
        + corner[left + 1..]
            .iter()
            .position(|c| c == "┐" || c == "+")
            .unwrap();
    let bottom = top
        + 1
        + cells[top + 1..]
            .iter()
            .position(|row| row[left] == "└" || row[left] == "+")
            .unwrap();
    Shown {
        inner: cells[top + 1..bottom]
            .iter()
            .map(|row| row[left + 1..right].to_vec())
            .collect(),
        top: cells[top].concat(),
        bottom: cells[bottom].concat(),
    }
}

/// Every row of the help, in order, read by scrolling it one row at a
/// time from the top to where it stops: the first row at each place,
/// then the whole box at the end.
fn every_row(options: Options, width: u16, height: u16) -> Vec<Vec<String>> {
    let mut a = app_with("tour-1", "naive", options);
    resize(&mut a, width, height);
    update(&mut a, Action::Help);
    let mut rows = Vec::new();
    let mut before = shown(&mut a, width, height);
    for _ in 0..200 {
        update(&mut a, Action::Down);
        let now = shown(&mut a, width, height);
        if now.inner == before.inner {
            rows.extend(now.inner);
            return rows;
        }
        rows.push(before.inner[0].clone());
        before = now;
    }
    panic!("the help never stops scrolling at {width}x{height}");
}

fn text(rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|r| r.concat())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The signs a teacher asked about, as the screens draw them: each is in
/// the help, at every size, in Unicode and in ASCII.
#[test]
fn every_sign_the_screens_draw_is_in_the_help() {
    let unicode = [
        "↺ ×1",
        "[txn]",
        "(key)",
        "#1042",
        "✓✓✓▷··",
        "◀ this step",
        "* changed",
        "◇",
        "…2 more",
        "…2 hidden",
        "↑ 2 more events above",
        "○ waiting",
        "▶ in flight",
        "▓▓░ 27s",
        "✓ acked by A, removed",
        "✕ again",
        "in txn A",
        "↓ 3 steps below",
        "why: 4 more · w",
    ];
    let ascii_signs = [
        "@ x1",
        "[txn]",
        "(key)",
        "#1042",
        "///>__",
        "< this step",
        "* changed",
        "^",
        "...2 more",
        "...2 hidden",
        "(2 more events above)",
        "waiting",
        "in flight",
        "27s",
        "acked by A, removed",
        "! again",
        "in txn A",
        "3 steps below",
        "why: 4 more",
    ];
    for (options, signs) in [(plain(), unicode), (ascii(), ascii_signs)] {
        for (w, h) in SIZES {
            let all = text(&every_row(options, w, h));
            for sign in signs {
                // Each with its meaning after it on the row.
                let row = all
                    .lines()
                    .find(|l| l.contains(sign))
                    .unwrap_or_else(|| panic!("{w}x{h}: no `{sign}` in the help:\n{all}"));
                let after = &row[row.find(sign).unwrap() + sign.len()..];
                assert!(
                    after.trim().chars().filter(|c| c.is_alphabetic()).count() >= 2,
                    "{w}x{h}: `{sign}` without its meaning: {row}"
                );
            }
        }
    }
}

/// A row too long for the box goes on under its own words: under a key's
/// description (not under the key), under a sign's (not under the
/// section's heading). No row starts at the box's edge.
#[test]
fn help_rows_wrap_under_their_words_not_at_the_edge() {
    for (options, (w, h)) in [
        (plain(), (80, 24)),
        (ascii(), (80, 24)),
        (plain(), (100, 30)),
    ] {
        let rows = every_row(options, w, h);
        let all = text(&rows);
        for row in &rows {
            assert_eq!(row[0], " ", "{w}x{h}: a row at the edge: {}", row.concat());
        }
        // The key table: a row is a key's (its keys from the second
        // cell) or continues one, from its words' column.
        let keys_end = rows
            .iter()
            .position(|r| r.iter().all(|c| c == " "))
            .expect("a blank row after the keys");
        let words_at = rows[0][1..].iter().position(|c| c == " ").unwrap();
        assert!(words_at < 26);
        for row in &rows[..keys_end] {
            let text = row.concat();
            if row[1] == " " {
                let start = row.iter().position(|c| c != " ").unwrap();
                assert_eq!(start, 26, "{w}x{h}: a key's words go on at {start}: {text}");
            }
        }
        // A legend row after the first of its section starts under the
        // signs, never under the heading.
        for row in &rows[keys_end + 1..] {
            if let Some(start) = row.iter().position(|c| c != " ") {
                assert!(
                    start == 1 || start >= 10,
                    "{w}x{h}: a legend row starts at {start}: {}",
                    row.concat()
                );
            }
        }
        assert!(all.contains("save this moment"), "{all}");
    }
}

/// At 80x24 the help is taller than the box: the box says how many rows
/// are below and how to reach them; scrolled, how many are above; at the
/// end the last row is in view, and the first key back scrolls at once.
#[test]
fn help_scrolls_at_80x24_and_says_so() {
    let mut a = app_with("tour-1", "naive", plain());
    resize(&mut a, 80, 24);
    update(&mut a, Action::Help);
    let top = shown(&mut a, 80, 24);
    let last = top.inner.last().unwrap().concat();
    assert!(last.contains("more"), "no count of the rows below: {last}");
    assert!(top.bottom.contains("scroll"), "{}", top.bottom);
    assert!(!top.top.contains("above"), "{}", top.top);
    for _ in 0..200 {
        update(&mut a, Action::Down);
    }
    let end = shown(&mut a, 80, 24);
    assert!(end.top.contains("above"), "{}", end.top);
    let tail = text(&end.inner);
    assert!(
        tail.contains("dead-lettered"),
        "the last row in view: {tail}"
    );
    update(&mut a, Action::Up);
    let back = shown(&mut a, 80, 24);
    assert_ne!(back.inner, end.inner, "the first key back did nothing");
}

/// PgDn and PgUp scroll the help a boxful, Home and End go to its first
/// and last rows, through the key table as the terminal reports them (a
/// teacher found only the arrows moved it).
#[test]
fn help_pages_with_page_keys_and_home_and_end() {
    use idem::tui::keys::from_key;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
    let press = |a: &mut App, code: KeyCode| {
        let key = KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        };
        update(a, from_key(&key).expect("bound"));
    };
    let mut a = app_with("tour-1", "naive", plain());
    resize(&mut a, 80, 24);
    update(&mut a, Action::Help);
    let top = shown(&mut a, 80, 24);
    press(&mut a, KeyCode::PageDown);
    let page = shown(&mut a, 80, 24);
    let room = top.inner.len();
    // A boxful on, less the one row kept in view.
    assert_eq!(
        page.inner[0],
        top.inner[room - 2],
        "PgDn did not scroll a page:\n{}",
        text(&page.inner)
    );
    press(&mut a, KeyCode::PageUp);
    assert_eq!(
        shown(&mut a, 80, 24).inner,
        top.inner,
        "PgUp did not go back"
    );
    press(&mut a, KeyCode::End);
    let end = shown(&mut a, 80, 24);
    assert!(
        text(&end.inner).contains("dead-lettered"),
        "End: {}",
        text(&end.inner)
    );
    assert!(end.top.contains("above"), "{}", end.top);
    press(&mut a, KeyCode::Home);
    assert_eq!(
        shown(&mut a, 80, 24).inner,
        top.inner,
        "Home did not go to the top"
    );
    assert!(matches!(a.overlay, idem::tui::app::Overlay::Help));
}

/// `redelivered` and `duplicate deliveries` always agreed, and the help
/// explained only the second (teacher trial): it explains both, and says
/// how they differ (a redelivery after a crash before any work is no
/// duplicate).
#[test]
fn the_help_tells_redelivered_from_duplicate_deliveries() {
    let all = text(&every_row(plain(), 120, 40));
    let flat = all.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("redelivered 1"), "{all}");
    assert!(flat.contains("the broker's own count"), "{all}");
    assert!(flat.contains("before any work"), "{all}");
    assert!(
        flat.contains("work another delivery had already done"),
        "{all}"
    );
}
