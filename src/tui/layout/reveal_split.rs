//! The row under the story at a reveal: the answer's box takes its top
//! rows, and the event the question asked about can be folded in the few
//! left beside SQL with columns to spare (100x30, the provider's answer
//! in 36 columns beside `A> COMMIT` in 60). There the reveal takes the
//! split of a step without SQL (`share::beside_no_sql`), the second of the
//! run's two positions, where that reads the event asked about whole and
//! loses no statement the run's split reads whole.

use super::Main;
use super::share::beside_no_sql;
use crate::tui::app::{App, Panel};
use crate::tui::view::under_box::reads;

/// `m` with the SQL's spare columns given to the events, where the reveal
/// on screen reads its event whole only so.
pub(super) fn widened(app: &App, mut m: Main, last_step: usize) -> Main {
    let Some(answer) = crate::tui::view::answer_box::reveal_box(app, m.around_box()) else {
        return m;
    };
    let row = [m.rect(Panel::Sql), m.rect(Panel::Events)];
    let narrow = beside_no_sql(row, last_step);
    if narrow == row || row[0].is_empty() {
        return m;
    }
    let f = app.shown_frame();
    let below = answer.bottom();
    let run = reads(app, &f, row, below);
    if run.asked {
        return m;
    }
    let wide = reads(app, &f, narrow, below);
    if wide.asked && wide.statements >= run.statements {
        for (p, r) in &mut m.panels {
            match p {
                Panel::Sql => *r = narrow[0],
                Panel::Events => *r = narrow[1],
                _ => {}
            }
        }
    }
    m
}
