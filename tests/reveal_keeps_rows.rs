//! A predict reveal never changes a row's words (teacher trial 21: at the
//! reveal `payments · total recorded $0→$40` became `payments · total
//! $0→$40  ✓right`, `charges made 1 ($40)` became `charges 1 ($40)`, `+
//! new` became `+`, and went back after `Enter`; a label keeps one form at
//! one size, whatever the step). The mark, `✓right` or `✕wrong`, goes
//! only where nothing was drawn: the row's spare columns, a blank
//! neighbour row, or the panel's border.

use crate::common::{self, draw};
use crate::tui_predict::{answer, wrong};
use idem::tui::app::Panel;
use idem::tui::layout;
use idem::tui::predict::Stage;
use idem::tui::{Action, update};
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
        if differs {
            changed.push(format!("  was {:?}\n  now {:?}", row(without), row(with)));
        }
    }
    changed
}

#[test]
fn a_reveal_changes_no_word_of_any_row() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
            for (w, h) in SIZES {
                let mut a = common::app(&script.name, &design);
                update(&mut a, Action::Predict);
                common::resize(&mut a, w, h);
                let mut asked = 0;
                for _ in 0..600 {
                    let stage = a.predict.as_ref().unwrap().stage.clone();
                    match stage {
                        Stage::Asking { at, .. } => {
                            let q = a.predict.as_ref().unwrap().asked[at].clone();
                            // Right and wrong in turn: both marks drawn.
                            let said = if asked % 2 == 0 { q.answer } else { wrong(&q) };
                            asked += 1;
                            answer(&mut a, said);
                        }
                        Stage::Revealed { from, .. } => {
                            let with = draw(&mut a, w, h);
                            // The same frame with the same change marks
                            // (the whole action's), predict mode away.
                            let at = a.frame_at();
                            let mut shown = a.timeline.frames[at].clone();
                            shown.changes = a.shown_frame().changes.clone();
                            let own = std::mem::replace(&mut a.timeline.frames[at], shown);
                            let kept = a.predict.take();
                            let without = common::render(&a);
                            a.predict = kept;
                            a.timeline.frames[at] = own;
                            let m = layout::on_screen(&a, Rect::new(0, 0, w, h));
                            let (with, without) = (cells(&with), cells(&without));
                            checked += 1;
                            for panel in MARKED {
                                let Some(&(_, r)) = m.panels.iter().find(|(p, _)| *p == panel)
                                else {
                                    continue;
                                };
                                for change in changed_words(&with, &without, r) {
                                    failures.push(format!(
                                        "{} {design} {w}x{h} question {} {panel:?}:\n{change}",
                                        script.name,
                                        from + 1
                                    ));
                                }
                            }
                            update(&mut a, Action::Next);
                        }
                        Stage::Watching => {
                            if a.pos >= a.last_pos() {
                                break;
                            }
                            update(&mut a, Action::Next);
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 200, "only {checked} reveals checked");
    assert!(
        failures.is_empty(),
        "{} rows changed at {checked} reveals:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
