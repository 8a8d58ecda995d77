//! Where the story's own line is cut and the events panel shows every
//! event it left out whole, the cut says where the rest is read (`… rest
//! in Events`), and says so only where it is true. Teacher trial 34 read
//! `A acks m-7f3. …` and `A calls POST /charges with no Idempotency-Key.
//! …` at 80x24 as words trailing off: the charge the step made was in the
//! Events panel below, and nothing said so.

use crate::common::sweep::{SIZES, each_step, none_wrong};
use idem::tui::app::Panel;

/// The own line: the story's first row (the chapter's words come after).
fn own_row(step: &crate::common::sweep::Step) -> String {
    step.rows_in(Panel::Narration)
        .first()
        .map(|r| r.trim_end().to_string())
        .unwrap_or_default()
}

/// A bare ellipsis after a whole sentence on the own line, where the
/// events panel below shows every event whole: the rest is there, unsaid.
#[test]
fn a_cut_own_line_says_the_rest_is_in_events() {
    let (mut wrong, mut seen) = (Vec::new(), 0);
    for size in SIZES {
        each_step(size, |step| {
            let own = own_row(step);
            if !own.ends_with(". …") || step.frame.events.is_empty() || !step.events_whole() {
                if own.contains("rest in Events") {
                    seen += 1;
                    let events = step.words_in(Panel::Events);
                    if events.contains('…') || events.contains('↓') {
                        wrong.push(format!(
                            "{}: says so, the events panel cuts or folds\n{}",
                            step.at(),
                            step.screen()
                        ));
                    }
                }
                return;
            }
            seen += 1;
            wrong.push(format!("{}: {own}\n{}", step.at(), step.screen()));
        });
    }
    // Most cuts are at 80x24: the sizes are named in each failure.
    none_wrong("own lines cut before events", seen, 0, &wrong, SIZES[0]);
}
