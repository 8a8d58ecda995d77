//! A predict reveal never changes a row's words (teacher trial 21: at the
//! reveal `payments · total recorded $0→$40` became `payments · total
//! $0→$40  ✓right`, `charges made 1 ($40)` became `charges 1 ($40)`, `+
//! new` became `+`, and went back after `Enter`; a label keeps one form at
//! one size, whatever the step). The mark, `✓right` or `✕wrong`, goes
//! only where nothing was drawn: the row's spare columns, a blank
//! neighbour row, or the panel's border.

use crate::common::reveals::each_reveal;
use idem::tui::app::Panel;
use ratatui::layout::Rect;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The panels a reveal marks a row of.
const MARKED: [Panel; 3] = [Panel::Broker, Panel::Database, Panel::Provider];

/// The screen's rows as cells, without the backend's quotes.
fn cells(screen: &str) -> Vec<Vec<char>> {
    screen
        .lines()
        .map(|l| l.strip_prefix('"').unwrap_or(l))
        .map(|l| l.strip_suffix('"').unwrap_or(l).chars().collect())
        .collect()
}

/// Where, in the panel `r` with its borders, the revealed screen differs
/// from the unrevealed one in a cell that held something other than a
/// blank (inside) or the border's stroke (on the border): a word the
/// reveal changed.
fn changed_words(with: &[Vec<char>], without: &[Vec<char>], r: Rect) -> Vec<String> {
    let mut changed = Vec::new();
    for y in r.top()..r.bottom() {
        let (y, on_border) = (usize::from(y), y == r.top() || y + 1 == r.bottom());
        let row = |s: &[Vec<char>]| -> String {
            s[y].iter()
                .skip(usize::from(r.x))
                .take(usize::from(r.width))
                .collect()
        };
        let differs = (usize::from(r.left())..usize::from(r.right())).any(|x| {
            let (now, was) = (with[y][x], without[y][x]);
            now != was && !(was == ' ' || (on_border && matches!(was, '─' | '-')))
        });
        let bottom = y + 1 == usize::from(r.bottom());
        if differs && !(bottom && legend_gave_way(&row(without), &row(with))) {
            changed.push(format!("  was {:?}\n  now {:?}", row(without), row(with)));
        }
    }
    changed
}

/// Whether the bottom border `was` carried only the legend of the marks
/// drawn short (`└─ * changed ───┘`, `view::mark_legend`) and `now` each
/// of its meanings whole beside the reveal's mark (`└─* changed─✓right
/// ↑─┘`), or none of it: where a panel has no room for both as drawn,
/// the legend moves aside for the mark, or gives way whole, never cut. It
/// is no row's words (`bare_at_reveal` judges whether a sign lost its
/// word).
fn legend_gave_way(was: &str, now: &str) -> bool {
    let means = |item: &str| {
        crate::marks_named::SHORT.iter().any(|(sym, words)| {
            item.strip_prefix(sym)
                .and_then(|rest| rest.strip_prefix(' '))
                .is_some_and(|word| words.contains(&word))
        })
    };
    let text = was.trim_matches(|c| matches!(c, '└' | '┘' | '─' | ' '));
    let items: Vec<&str> = text.split(", ").collect();
    let word = |i: &&str| i.split_once(' ').map_or(*i, |(_, w)| w).to_string();
    !text.is_empty()
        && items.iter().all(|i| means(i))
        && (items.iter().all(|i| !now.contains(&word(i))) || items.iter().all(|i| now.contains(i)))
}

/// The short marks (` *`) that stand bare on the revealed screen in the
/// panel `r`: their word on neither their row nor the panel's border. A
/// row's own answer mark (`✓right` after ` *`) is read past, so that the
/// `*` before it still counts as the row's end.
fn bare_at_reveal(with: &[Vec<char>], panel: Panel, r: Rect) -> Vec<String> {
    let row = |y: u16, from: u16, to: u16| -> String {
        with[usize::from(y)]
            .iter()
            .skip(usize::from(from))
            .take(usize::from(to - from))
            .collect()
    };
    let rows: Vec<String> = (r.top() + 1..r.bottom() - 1)
        .map(|y| {
            let text = row(y, r.left() + 1, r.right() - 1);
            let text = text.trim_end();
            let text = ["✓right", "✕wrong"]
                .iter()
                .find_map(|m| text.strip_suffix(m))
                .unwrap_or(text);
            text.to_string()
        })
        .collect();
    let border = format!(
        "{}\n{}",
        row(r.top(), r.left(), r.right()),
        row(r.bottom() - 1, r.left(), r.right())
    );
    crate::marks_named::bare_in(panel, &rows, &border)
}

#[test]
fn a_reveal_changes_no_word_of_any_row() {
    let mut checked = 0;
    let mut failures = Vec::new();
    // Reveals whose screen leaves a short mark with no word for it (the
    // answer's `✓right ↑` took the broker's border from `* changed`).
    let mut bare = Vec::new();
    each_reveal(&SIZES, |r| {
        let (with, without) = (cells(r.with), cells(r.without));
        let (w, h) = r.size;
        checked += 1;
        for panel in MARKED {
            let Some(&(_, rect)) = r.main.panels.iter().find(|(p, _)| *p == panel) else {
                continue;
            };
            for b in bare_at_reveal(&with, panel, rect) {
                bare.push(format!(
                    "{} {} {w}x{h} question {}: {b}\n{}",
                    r.scenario,
                    r.design,
                    r.from + 1,
                    r.with
                ));
            }
            for change in changed_words(&with, &without, rect) {
                failures.push(format!(
                    "{} {} {w}x{h} question {} {panel:?}:\n{change}",
                    r.scenario,
                    r.design,
                    r.from + 1
                ));
            }
        }
    });
    assert!(checked >= 200, "only {checked} reveals checked");
    assert!(
        failures.is_empty(),
        "{} rows changed at {checked} reveals:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        bare.is_empty(),
        "{} short marks bare at {checked} reveals:\n{}",
        bare.len(),
        bare.join("\n")
    );
}
