//! How far PgDn pages the explorer's whole detail (`z`): to where its last
//! row comes into view, and no further. The rows are the view's own, so
//! this asks the view, as the help's paging does (`update/help.rs`); the
//! rest of the explorer's keys and clicks never do (its clicks find rows
//! from the table's own answer).

use crate::tui::app::App;
use crate::tui::explorer::Selection;
use crate::tui::layout;

/// The furthest offset of the selected design's whole detail in `l`; 0
/// before the check has answered.
pub(super) fn last(app: &App, sel: Selection, l: &layout::Explorer) -> usize {
    app.exploration
        .report()
        .and_then(|r| {
            r.strategies
                .get(sel.row)
                .map(|s| crate::tui::view::last_scroll(&app.theme, s, &r.bounds, sel, l))
        })
        .unwrap_or(0)
}
