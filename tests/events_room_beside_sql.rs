//! The events take the columns a step's SQL leaves empty. Teacher trial,
//! tour-2 idempotent step 14 at 80x24: the events cut `✓ consumer A
//! commits: everything in the transaction is …1 more row` beside a SQL
//! panel that showed `A> COMMIT → committed` in half of its 48 columns.
//! A step whose statements read whole in the narrow SQL panel of a step
//! without SQL takes that split (`layout::share::short_sql_spares`).

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::tui::app::Panel;
use ratatui::layout::Margin;

/// The widest row the panel draws inside its border, and its width.
fn used(step: &Step, panel: Panel) -> (usize, usize) {
    let inner = step.main.rect(panel).inner(Margin::new(1, 1));
    let widest = (inner.y..inner.bottom())
        .map(|y| {
            (inner.x..inner.right())
                .map(|x| step.buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .chars()
                .count()
        })
        .max()
        .unwrap_or(0);
    (widest, usize::from(inner.width))
}

fn wrong(step: &Step, seen: &mut usize) -> Option<String> {
    if step.frame.sql.is_empty() || step.main.rect(Panel::Events).is_empty() {
        return None;
    }
    if !step.words_in(Panel::Events).contains("more line") {
        return None;
    }
    *seen += 1;
    let (widest, width) = used(step, Panel::Sql);
    // Columns the SQL leaves empty on every row, more than a title's gap.
    (widest + 4 <= width).then(|| {
        format!(
            "{}: events cut beside {} empty SQL columns\n{}",
            step.at(),
            width - widest,
            step.screen()
        )
    })
}

/// At most `left` steps may still cut their events beside empty SQL
/// columns: those whose SQL folds a statement or wraps one (its rows end
/// short of the border, and a narrower panel would cut it). Before the
/// step's own split, 41 of 54 at 80x24 and 4 of 6 at 100x30.
fn sweep(size: (u16, u16), left: usize) {
    let (mut seen, mut bad) = (0, Vec::new());
    each_step(size, |step| bad.extend(wrong(step, &mut seen)));
    if bad.len() > left {
        none_wrong("steps with SQL whose events are cut", seen, 0, &bad, size);
    }
}

#[test]
fn events_take_the_sql_spare_columns_at_80x24() {
    // tour-3 idempotent 8, content-hash idempotent 4, in-progress
    // idempotent 8 and 10, in-progress 21: a statement wrapped or folded.
    sweep(SIZES[0], 5);
}

#[test]
fn events_take_the_sql_spare_columns_at_100x30() {
    sweep(SIZES[1], 0);
}
