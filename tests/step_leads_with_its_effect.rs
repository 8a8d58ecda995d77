//! A step is told leading with what it did for the handler shown. Teacher
//! trial: tour-4 idempotent step 7 at 80x24 led the story with the
//! provider's answer (`The provider answers A's request (201 Created
//! ch_81) and keeps it …`), while what the step did for A, no response,
//! was only in the events panel. A handler's step tells its consumer's
//! own outcome first, the other parties' parts after it; except where the
//! answer was lost on its way back: the loss follows the answer it lost
//! (trial 39; tests/own_line_in_order.rs).

use crate::common::sweep::each_timeline;

#[test]
fn a_handler_step_tells_its_consumers_outcome_before_the_providers_part() {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_timeline(|tl| {
        for f in &tl.frames {
            let Some((at, own)) = crate::common::sweep::provider_answer(f) else {
                continue;
            };
            if f.events
                .iter()
                .any(|e| e.text.starts_with("gets no response"))
            {
                continue;
            }
            seen += 1;
            if f.events[at + 1..].iter().any(|e| e.actor == own) {
                wrong.push(format!("{} {} step {}", tl.scenario, tl.strategy, f.index));
            }
        }
    });
    assert!(seen > 5, "only {seen} steps the provider answers at");
    assert!(
        wrong.is_empty(),
        "{} of {seen} steps tell the provider's answer first:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
