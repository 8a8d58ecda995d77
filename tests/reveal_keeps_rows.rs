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
/// drawn short (`└─ * changed ───┘`, `view::mark_legend`) and `now` none of
/// it: where a panel has no room for both, the reveal's mark takes that
/// border and the legend gives way whole, never cut. It is no row's words.
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
    !text.is_empty()
        && items.iter().all(|i| means(i))
        && items
            .iter()
            .all(|i| !now.contains(i.split_once(' ').map_or(*i, |(_, w)| w)))
}

#[test]
fn a_reveal_changes_no_word_of_any_row() {
    let mut checked = 0;
    let mut failures = Vec::new();
    each_reveal(&SIZES, |r| {
        let (with, without) = (cells(r.with), cells(r.without));
        let (w, h) = r.size;
        checked += 1;
        for panel in MARKED {
            let Some(&(_, rect)) = r.main.panels.iter().find(|(p, _)| *p == panel) else {
                continue;
            };
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
}
