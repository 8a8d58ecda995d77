//! A skipped step says why only beside the step that refused the
//! delivery: the `≠ insert message ID  key taken` (or `⊘ not owner`, `↶
//! backed off`) that sent the handler down its skip path. Teacher trial,
//! tour-3 at 80x24: B's window showed `↷ charge (key)  skipped` and `↷
//! response  skipped` while the refused insert that made them skip lay
//! under `↑ 4 steps above`. Every frame of every built-in scenario, under
//! every design it lists, at the sizes a class uses: where a consumer's
//! rows show a skipped step, they show the refusal it followed too.

use crate::common::sweep;
use idem::sim::consumer::Mark;
use idem::tui::app::Panel;
use idem::tui::theme::Theme;

/// A step's mark that turns a delivery away and sends the handler past
/// the steps after it (`skips_marked_at_refusal`'s refusals).
fn refusal(m: Mark) -> bool {
    matches!(m, Mark::Conflict | Mark::Superseded | Mark::BackedOff)
}

/// A step's row (` ↷ charge (key)  skipped`), not a strip's (` ✓✓≠↷↷`):
/// its glyph in the second cell, a space after it.
fn row_marked(row: &str, glyph: char) -> bool {
    let mut cells = row.chars();
    cells.next() == Some(' ') && cells.next() == Some(glyph) && cells.next() == Some(' ')
}

#[test]
fn a_skip_shown_keeps_the_refusal_it_followed_in_sight() {
    let mut found = Vec::new();
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let f = &step.frame;
            let rows = step.rows_in(Panel::Service);
            let head = |r: &String, name: &str| {
                r.starts_with(&format!("consumer {name} ")) || r.starts_with(&format!("{name}: "))
            };
            for c in &f.consumers {
                let Some(refused) = c.steps.iter().find(|s| refusal(s.mark)) else {
                    continue;
                };
                let Some(at) = rows.iter().position(|r| head(r, &c.name)) else {
                    continue;
                };
                let own: Vec<&String> = rows[at + 1..]
                    .iter()
                    .take_while(|r| !f.consumers.iter().any(|o| head(r, &o.name)))
                    .collect();
                if !own.iter().any(|r| row_marked(r, '↷')) {
                    continue;
                }
                seen += 1;
                let g = &Theme::new(false, false).g;
                let glyph = match refused.mark {
                    Mark::Conflict => g.conflict,
                    Mark::Superseded => g.superseded,
                    _ => g.backed_off,
                };
                let glyph = glyph.chars().next().unwrap();
                if !own.iter().any(|r| row_marked(r, glyph)) {
                    wrong.push(format!(
                        "{}: {} shows a skip, not `{}` ({})\n{}",
                        step.at(),
                        c.name,
                        refused.label,
                        glyph,
                        rows.join("\n")
                    ));
                }
            }
        });
        found.push((size, seen, wrong));
    }
    // Every size counted before the first failure is told.
    for (size, seen, wrong) in &found {
        eprintln!("{size:?}: {} of {seen} wrong", wrong.len());
    }
    for (size, seen, wrong) in found {
        sweep::none_wrong("consumers showing a skip", seen, 10, &wrong, size);
    }
}
