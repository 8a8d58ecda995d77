//! A panel's marks for one fact read alike at one step where the room
//! allows. Teacher trial, tour-2 idempotent step 14 at 80x24: the database
//! panel said `1042 $40 m-7f3 *` over `m-7f3  * committed`, the same
//! commit in two forms; the payment row had room for ` * committed` (one
//! space before it, not two). A bare sign beside the same sign with its
//! word is kept only where the word does not fit.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::tui::app::Panel;
use ratatui::layout::Margin;

/// The database panel's rows at `step`, trailing spaces gone.
fn panel_rows(step: &Step, panel: Panel) -> (Vec<String>, usize) {
    let inner = step.main.rect(panel).inner(Margin::new(1, 1));
    let rows = (inner.y..inner.bottom())
        .map(|y| {
            (inner.x..inner.right())
                .map(|x| step.buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    (rows, usize::from(inner.width))
}

fn wrong(step: &Step, seen: &mut usize) -> Option<String> {
    let (rows, width) = panel_rows(step, Panel::Database);
    let words = ["committed", "new", "changed", "rolled back", "removed"];
    let mut bad = Vec::new();
    for word in words {
        for sign in ["*", "+", "-", "x", "~"] {
            let whole = format!("{sign} {word}");
            if !rows.iter().any(|r| r.ends_with(&whole)) {
                continue;
            }
            *seen += 1;
            for r in rows.iter().filter(|r| r.ends_with(&format!(" {sign}"))) {
                let bare = r.chars().count();
                if bare + 1 + word.chars().count() <= width {
                    bad.push(format!("{r:?} beside {whole:?} with room for the word"));
                }
            }
        }
    }
    (!bad.is_empty()).then(|| format!("{}: {}\n{}", step.at(), bad.join("; "), step.screen()))
}

fn sweep(size: (u16, u16)) {
    let (mut seen, mut bad) = (0, Vec::new());
    each_step(size, |step| bad.extend(wrong(step, &mut seen)));
    none_wrong("database marks with their word", seen, 0, &bad, size);
}

#[test]
fn database_marks_read_alike_at_80x24() {
    sweep(SIZES[0]);
}

#[test]
fn database_marks_read_alike_at_100x30() {
    sweep(SIZES[1]);
}

#[test]
fn database_marks_read_alike_at_120x40() {
    sweep(SIZES[2]);
}
