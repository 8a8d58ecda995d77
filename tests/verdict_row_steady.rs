//! A one-row verdict keeps one form through a run at one size: at 80x24
//! it named its order (`order 1042: 1 committed row, …`) at one step and
//! not at the next, and said `✕ charged twice, provider and database
//! disagree` at one step and `✕ charged twice + disagree` at the next, as
//! the causes counted beside it grew. Whether the order is named, and the
//! headline's words where it has fewer, are the same at every step of the
//! run; the key that reads the rest stays.

use crate::common::sweep;
use idem::tui::app::Panel;

#[test]
fn a_one_row_verdict_keeps_one_form_at_80x24() {
    let size = sweep::SIZES[0];
    let (mut seen, mut wrong) = (0, Vec::new());
    // The run's first form of each kind, with the step it was seen at.
    let mut first: [Option<(String, String)>; 2] = [None, None];
    sweep::each_step(size, |step| {
        if step.app.pos == 0 {
            first = [None, None];
        }
        let r = step.main.rect(Panel::Verdict);
        // Its title's row, then its one row.
        if r.height != 2 {
            return;
        }
        let row: String = (r.x..r.right())
            .map(|x| step.buf[(x, r.y + 1)].symbol())
            .collect();
        let row = row.trim_end().to_string();
        let v = &step.frame.verdict;
        seen += 1;
        // One order's figures, whole: two are named whatever the form,
        // and a row its panel cut (`… ↓ 1 more`) took no form.
        let one = row.matches("committed").count() == 1 && !row.contains('↓');
        let named = one.then(|| format!("order named: {}", row.contains("order ")));
        let short = v.headline_short();
        let head = (!v.undecided() && v.headline_more() > 0).then(|| {
            let glyph = row.split(' ').next().unwrap_or_default();
            let said = if row.starts_with(&format!("{glyph} {}", v.headline())) {
                "whole"
            } else if row.starts_with(&format!("{glyph} {short}")) {
                "short"
            } else {
                "other"
            };
            format!("headline {said}")
        });
        for (kept, now) in first.iter_mut().zip([named, head]) {
            let Some(now) = now else { continue };
            match kept {
                None => *kept = Some((now, step.at())),
                Some((was, at)) if *was != now => {
                    wrong.push(format!("{}: {row:?} ({now}); {at}: {was}", step.at()))
                }
                Some(_) => {}
            }
        }
        // The causes counted (`← why: 2 more · w`), not the panel's own
        // count of what it cut (`↓ 1 more`).
        let counted = row.contains('←') && row.contains(" more");
        if counted && !row.ends_with(" · w") {
            wrong.push(format!("{}: {row:?} names no key", step.at()));
        }
    });
    sweep::none_wrong("one-row verdicts", seen, 250, &wrong, size);
}
