//! The events panel's sign counts hidden events, not the rows they wrap
//! to. Teacher trial at 80x24, tour-1 naive step 13: `↑ 3 more above`
//! when one event (wrapped on three rows) was hidden.

use crate::common::{self, draw};

#[test]
fn events_fold_sign_counts_events() {
    let mut app = common::app("tour-1", "naive");
    app.pos = 13;
    let screen = draw(&mut app, 80, 24);
    // This step has two events; the older one, wrapped on three rows,
    // gives way.
    assert_eq!(app.frame().events.len(), 2, "{screen}");
    assert!(screen.contains("↑ 1 more event above"), "{screen}");
}
