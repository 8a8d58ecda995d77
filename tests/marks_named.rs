//! A mark never stands bare. Where a row has no room for a mark's word it
//! keeps only the mark's symbol (` *`, ` ◀`, `marks::fit_marked`); a class
//! at a small projector then sees `▶ m-7f3 → A leased *` and no word for
//! `*` anywhere. The panel that draws a symbol alone names it on its
//! border (`└─ * changed ─┘`), in the marks' own style.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::tui::app::Panel;

/// Each symbol a mark shortens to, and the words it may stand for.
pub(crate) const SHORT: [(&str, &[&str]); 4] = [
    ("*", &["changed", "committed"]),
    ("+", &["new"]),
    ("-", &["removed", "rolled back"]),
    ("◀", &["this step"]),
];

/// The panels whose rows carry marks.
const MARKED: [Panel; 4] = [
    Panel::Broker,
    Panel::Service,
    Panel::Database,
    Panel::Provider,
];

/// The panel's border rows (top and bottom), as drawn.
fn borders(step: &Step, panel: Panel) -> String {
    let r = step.main.rect(panel);
    [r.y, r.bottom().saturating_sub(1)]
        .iter()
        .map(|&y| {
            (r.x..r.right())
                .map(|x| step.buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each bare symbol at a row's end in `panel` whose word is neither on
/// that row nor on the panel's border.
fn bare(step: &Step, panel: Panel) -> Vec<String> {
    bare_in(panel, &step.rows_in(panel), &borders(step, panel))
}

/// As `bare`, for a panel's rows inside its border and its border rows as
/// drawn (a reveal's screen, read off its text).
pub(crate) fn bare_in(panel: Panel, rows: &[String], border: &str) -> Vec<String> {
    let named = |text: &str, sym: &str, words: &[&str]| {
        words.iter().any(|w| text.contains(&format!("{sym} {w}")))
    };
    let mut out = Vec::new();
    for row in rows {
        let row = row.trim_end();
        for (sym, words) in SHORT {
            if row.ends_with(&format!(" {sym}"))
                && !named(row, sym, words)
                && !named(border, sym, words)
            {
                out.push(format!("{panel:?}: {row:?}"));
            }
        }
    }
    out
}

fn sweep(size: (u16, u16)) {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step(size, |step| {
        let found: Vec<String> = MARKED
            .iter()
            .filter(|p| !step.main.rect(**p).is_empty())
            .flat_map(|p| bare(step, *p))
            .collect();
        seen += 1;
        if !found.is_empty() {
            wrong.push(format!(
                "{}: {}\n{}",
                step.at(),
                found.join("; "),
                step.screen()
            ));
        }
    });
    none_wrong("screens with a bare mark", seen, 100, &wrong, size);
}

#[test]
fn a_short_mark_is_named_on_its_panel_at_80x24() {
    sweep(SIZES[0]);
}

#[test]
fn a_short_mark_is_named_on_its_panel_at_100x30() {
    sweep(SIZES[1]);
}
