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
    let (mut seen, mut run) = (0, sweep::Across::each_run());
    sweep::each_step(size, |step| {
        let Some((row, [named, head, _])) = row_form(step) else {
            return;
        };
        seen += 1;
        for (kind, now) in [named, head].into_iter().enumerate() {
            run.note(step, kind, now, &row);
        }
        // The causes counted (`← why: 2 more · w`), not the panel's own
        // count of what it cut (`↓ 1 more`).
        let counted = row.contains('←') && row.contains(" more");
        if counted && !row.ends_with(" · w") {
            run.wrong
                .push(format!("{}: {row:?} names no key", step.at()));
        }
    });
    sweep::none_wrong("one-row verdicts", seen, 250, &run.wrong, size);
}

/// The one-row verdict at `step` and its form: whether its order is
/// named, its headline's words where it has fewer, and the words its
/// figures count in (`None` where the
/// step takes no form of that kind). `None` where the verdict is not on
/// one row.
fn row_form(step: &sweep::Step) -> Option<(String, [Option<String>; 3])> {
    let r = step.main.rect(Panel::Verdict);
    // Its title's row, then its one row.
    if r.height != 2 {
        return None;
    }
    let row: String = (r.x..r.right())
        .map(|x| step.buf[(x, r.y + 1)].symbol())
        .collect();
    let row = row.trim_end().to_string();
    let v = &step.frame.verdict;
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
    // The words its figures count in (`committed payment rows, provider
    // charges` or fewer), where they are drawn whole.
    let words = (row.contains("committed") && !row.contains('↓')).then(|| {
        format!(
            "payment rows: {}, provider charges: {}",
            row.contains("payment row"),
            row.contains("provider charge")
        )
    });
    Some((row, [named, head, words]))
}

/// `m` switches design at the same moment: teacher trial, tour-4 at
/// 80x24, naive read `○ in progress   0 committed rows, 0 charges` and
/// idempotent `order 1042: 0 committed rows, 0 charges` at the same step,
/// the order named under one design and not the other. A scenario's
/// one-row verdict takes one form under every design it lists.
fn across_designs(size: (u16, u16)) {
    let (mut seen, mut across) = (0, sweep::Across::default());
    sweep::each_step(size, |step| {
        let Some((row, forms)) = row_form(step) else {
            return;
        };
        seen += 1;
        for (kind, now) in forms.into_iter().enumerate() {
            across.note(step, kind, now, &row);
        }
    });
    sweep::none_wrong(
        "one-row verdicts across designs",
        seen,
        100,
        &across.wrong,
        size,
    );
}

#[test]
fn a_one_row_verdict_keeps_its_form_across_designs_at_80x24() {
    across_designs(sweep::SIZES[0]);
}

// At 100x30 and 120x40 the verdict has more than one row at every step
// of every built-in run: no one-row form to keep there.
