//! A step is told leading with what it did for the handler shown. Teacher
//! trial: tour-4 idempotent step 7 at 80x24 led the story with the
//! provider's answer (`The provider answers A's request (201 Created
//! ch_81) and keeps it …`), while what the step did for A, no response,
//! was only in the events panel. A handler's step tells its consumer's
//! own outcome first, the other parties' parts after it.

use crate::common::sweep::{each_step, each_timeline};
use idem::sim::Actor;
use idem::tui::app::Panel;

#[test]
fn a_handler_step_tells_its_consumers_outcome_before_the_providers_part() {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_timeline(|tl| {
        for f in &tl.frames {
            let answered = f
                .events
                .iter()
                .position(|e| e.actor == Actor::Provider && e.text.starts_with("answers "));
            let Some(at) = answered else { continue };
            seen += 1;
            let whom = f.events[at].text["answers ".len()..]
                .split("'s request")
                .next()
                .unwrap_or_default()
                .to_string();
            let own = Actor::Consumer(whom);
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

#[test]
fn tour_4_step_7_leads_with_the_lost_response_at_80x24() {
    let mut first = None;
    each_step((80, 24), |step| {
        if step.run() == ("tour-4".into(), "idempotent".into()) && step.app.pos == 7 {
            first = step.rows_in(Panel::Narration).first().cloned();
        }
    });
    let first = first.expect("tour-4 idempotent has a step 7");
    assert!(first.starts_with("A gets no response"), "{first:?}");
}
