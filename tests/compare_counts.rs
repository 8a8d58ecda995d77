//! Compare's scroll counts add up: at one step, a side's rows counted
//! above, the rows shown and the rows counted below make the same total
//! whichever section Tab has picked (teacher trial 11: picking a section
//! with no title of its own added its `▶ name` row, and `↓ 14 more rows
//! below` turned into 15 with nothing else moved).

use crate::common::{self, draw};
use idem::tui::{Action, update};

/// One side's rows: what the signs count above and below, and the rows
/// with something in them between.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
struct Counts {
    above: usize,
    shown: usize,
    below: usize,
}

impl Counts {
    fn total(self) -> usize {
        self.above + self.shown + self.below
    }
}

/// The number in a sign row (`… ↑ 2 more rows above`).
fn number(row: &str) -> usize {
    row.split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("a sign without a count: {row}"))
}

/// Each side's counts on a `w`-wide compare screen.
fn counts(screen: &str, w: usize) -> [Counts; 2] {
    let rows: Vec<Vec<char>> = screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect::<Vec<char>>())
        // A side's rows, the picked section's with its mark in the border.
        .filter(|r| matches!(r.first(), Some('│' | '▶')))
        .collect();
    let half = w / 2;
    let side = |from: usize, to: usize| {
        let mut c = Counts {
            above: 0,
            shown: 0,
            below: 0,
        };
        for r in &rows {
            let text: String = r[from..to].iter().collect();
            let text = text.trim();
            if text.contains("more rows above") {
                c.above = number(text);
            } else if text.contains("more rows below") {
                c.below = number(text);
            } else if !text.is_empty() {
                c.shown += 1;
            }
        }
        c
    };
    [side(1, half - 1), side(half + 1, w - 1)]
}

#[test]
fn a_sides_counts_make_one_total_at_every_tab_position() {
    let sections = idem::tui::compare_section::Section::ALL.len();
    let mut walked = 0;
    let mut wrong = Vec::new();
    for (w, h) in [(100u16, 30u16), (80, 24)] {
        let fresh = || {
            let mut a = common::app("tour-1", "naive");
            update(&mut a, Action::Compare);
            a
        };
        let last = fresh().compare.as_ref().unwrap().pairs.len() - 1;
        for pos in [0, 4, 9, 12, last] {
            // No section picked yet, then each in turn.
            let mut a = fresh();
            a.pos = pos;
            let mut seen: Vec<(String, [Counts; 2])> = Vec::new();
            for tab in 0..=sections {
                let screen = draw(&mut a, w, h);
                let picked = a.compare.as_ref().unwrap().section;
                seen.push((
                    format!("{picked:?} (tab {tab})"),
                    counts(&screen, usize::from(w)),
                ));
                update(&mut a, Action::FocusNext);
            }
            walked += 1;
            for side in 0..2 {
                let first = seen[0].1[side].total();
                for (at, c) in &seen {
                    if c[side].total() != first {
                        wrong.push(format!(
                            "{w}x{h} step {pos} side {side}: {at} {:?} = {}, not {first}",
                            c[side],
                            c[side].total()
                        ));
                    }
                }
            }
        }
    }
    assert!(walked >= 10);
    assert!(
        wrong.is_empty(),
        "{} Tab positions add up to another total:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
