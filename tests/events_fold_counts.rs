//! The events panel's sign counts hidden events, not the rows they wrap
//! to. Teacher trial at 80x24, tour-1 naive step 13: `↑ 3 more above`
//! when one event (wrapped on three rows) was hidden. That step has no
//! SQL, and its events now take the SQL panel's columns and read whole
//! (`events_beside_no_sql`); tour-4's step 7 still folds one.

use crate::common::{self, draw};

#[test]
fn events_fold_sign_counts_events() {
    let mut app = common::app("tour-4", "idempotent");
    app.pos = 7;
    let screen = draw(&mut app, 80, 24);
    // This step has two events; the older one, wrapped on two rows or
    // more, gives way.
    assert_eq!(app.frame().events.len(), 2, "{screen}");
    // A's own outcome leads the step (`step_leads_with_its_effect`):
    // `! consumer A gets no response …` is wider than the panel's 55
    // columns.
    let older = &app.frame().events[0].text;
    assert!(older.len() > 60, "the hidden event wraps: {older}");
    // The story's own line tells it whole: the sign says so, and counts
    // one (`events_fold_told`).
    assert!(
        screen.contains("↑ 1 event, told in the story above"),
        "{screen}"
    );
}
