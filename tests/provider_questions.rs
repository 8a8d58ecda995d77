//! Predict mode asks at the moment the lesson is about: every action in
//! which the provider charges the card or replays a stored result asks a
//! question about the provider, under every design of every built-in
//! scenario (a teacher trial found tour-1's first charge passing unasked).
//! The question's answer comes from the run, like every other one.

use idem::scenario::load::builtins;
use idem::scenario::question::Subject;
use idem::sim::Strategy;
use idem::timeline::Timeline;

fn about_the_provider(s: &Subject) -> bool {
    matches!(
        s,
        Subject::ChargesAgain | Subject::ProviderAnswer | Subject::ProviderCharges
    )
}

#[test]
fn every_action_that_charges_or_replays_asks_about_the_provider() {
    let mut charging = 0;
    let mut tours = std::collections::BTreeSet::new();
    for script in builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let asked = t.asked(&script);
            for f in &t.frames {
                let Some(a) = &f.provider.answered_now else {
                    continue;
                };
                if a.status != 201 {
                    continue;
                }
                let at = format!(
                    "{} {design} chapter {} action {} ({})",
                    script.name, f.chapter, f.action_index, f.action
                );
                assert!(
                    asked
                        .iter()
                        .any(|q| (q.chapter, q.action) == (f.chapter, f.action_index)
                            && about_the_provider(&q.question.subject)),
                    "{at}: the provider {} and nothing asks about it",
                    if a.replayed { "replays" } else { "charges" }
                );
                charging += 1;
                if script.name.starts_with("tour-") {
                    tours.insert((script.name.clone(), design.clone()));
                }
            }
        }
    }
    assert!(charging > 40, "only {charging} charging steps seen");
    // tour-1..4, naive and idempotent each.
    assert_eq!(tours.len(), 8, "{tours:?}");
}

/// The case from the trial: tour-1's first charge, in chapter 1.
#[test]
fn tour_1_asks_what_the_provider_answers_its_first_charge() {
    let script = idem::scenario::find("tour-1").unwrap();
    for (design, key) in [("naive", "no Idempotency-Key"), ("idempotent", "key m-7f3")] {
        let t = Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap();
        let asked = t.asked(&script);
        let q = asked
            .iter()
            .find(|q| q.chapter == 1 && q.question.subject == Subject::ProviderAnswer)
            .unwrap_or_else(|| panic!("{design}: chapter 1 asks nothing about the provider"));
        assert_eq!(q.show(q.answer), "201, a new charge", "{design}");
        let why = q.question.why(design);
        assert!(why.contains(key), "{design}: {why}");
        assert!(why.contains("ch_"), "{design}: names the charge: {why}");
        // Asked before the call, answered once it has run.
        let before = &t.frames[q.ask_at];
        let after = &t.frames[q.answer_at];
        assert_eq!(
            before.provider.charges.len() + 1,
            after.provider.charges.len()
        );
    }
}
