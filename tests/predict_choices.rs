//! A predict question's choices are read as whole options: `5 no call is
//! made` on one row, never `5 no call` with `is made` under it (teacher
//! trial 11). Every question of every built-in scenario, under each design
//! it is written for, at every size: each option stands whole on a row,
//! or, where it is longer than a row, goes on under its own text, indented;
//! and an option not shown at all is counted.

use crate::common::{self, draw};
use idem::scenario::load::builtins;
use idem::scenario::question::Kind;
use idem::tui::predict::Stage;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The rows inside the question's box, its borders taken off.
fn box_rows(screen: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.lines().map(|l| l.trim_matches('"')).collect();
    let Some(top) = rows.iter().position(|r| r.contains("Predict")) else {
        return Vec::new();
    };
    rows[top + 1..]
        .iter()
        .take_while(|r| r.starts_with('│'))
        .map(|r| {
            let chars: Vec<char> = r.chars().collect();
            chars[1..chars.len() - 1].iter().collect()
        })
        .collect()
}

/// Whether `option`, numbered `n`, is on screen whole: on one row, or
/// where it is wider than a row, on consecutive rows, each after the
/// first starting under the option's text.
fn whole(rows: &[String], n: usize, option: &str, width: usize) -> bool {
    let head = format!("{n} {option}");
    if rows.iter().any(|r| r.contains(&head)) {
        return true;
    }
    if head.chars().count() + 2 <= width {
        return false;
    }
    let indent = " ".repeat(2 + n.to_string().len() + 1);
    rows.iter().enumerate().any(|(i, r)| {
        let Some(start) = r.find(&format!("{n} ")) else {
            return false;
        };
        let mut text = r[start..].trim_end().to_string();
        for next in &rows[i + 1..] {
            if text == head || !next.starts_with(&indent) || next.trim().is_empty() {
                break;
            }
            text = format!("{text} {}", next.trim());
        }
        text == head
    })
}

#[test]
fn every_choice_is_shown_whole_or_counted() {
    let mut seen = 0;
    let mut wrong = Vec::new();
    for script in builtins() {
        for design in script.strategies() {
            let mut a = common::app(&script.name, &design);
            update(&mut a, Action::Predict);
            for _ in 0..2000 {
                let p = a.predict.as_ref().unwrap();
                let Stage::Asking { at, .. } = p.stage else {
                    if a.pos >= a.last_pos() {
                        break;
                    }
                    update(&mut a, Action::Next);
                    continue;
                };
                let asked = p.asked[at].clone();
                if let Kind::Choice(options) = &asked.kind {
                    for (w, h) in SIZES {
                        let screen = draw(&mut a, w, h);
                        let rows = box_rows(&screen);
                        let counted = rows.last().is_some_and(|r| r.contains(" more"));
                        for (i, option) in options.iter().enumerate() {
                            seen += 1;
                            if !whole(&rows, i + 1, option, usize::from(w - 2)) && !counted {
                                wrong.push(format!(
                                    "{} {design} ch {} at {w}x{h}: option {} {option:?}\n{}",
                                    script.name,
                                    asked.chapter,
                                    i + 1,
                                    rows.join("\n")
                                ));
                            }
                        }
                    }
                }
                crate::tui_predict::answer(&mut a, asked.answer);
            }
        }
    }
    assert!(seen > 300, "only {seen} options seen");
    assert!(
        wrong.is_empty(),
        "{} options cut, e.g.:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
