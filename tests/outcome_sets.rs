//! Issue 18 §4: a run can end with more than one outcome, and everything
//! that reads an outcome reads all of them: the verdict at the step that
//! makes it true, the per-order line, expectations, `run --check`, the
//! `check` table and the counterexamples `check --save` writes.

use idem::scenario::find;
use idem::sim::{Outcome, Strategy};
use idem::timeline::Timeline;

fn run(scenario: &str, design: &str) -> Timeline {
    let script = find(scenario).unwrap();
    Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap()
}

/// The first step whose committed rows and provider charges (no
/// transaction open) are one row and two charges: the books disagree there.
fn first_closed_disagreement(t: &Timeline) -> usize {
    t.frames
        .iter()
        .find(|f| {
            let committed = f
                .db
                .payments
                .iter()
                .filter(|p| p.uncommitted_by.is_none())
                .count();
            let open = f.db.payments.iter().any(|p| p.uncommitted_by.is_some());
            committed == 1 && f.provider.charges.len() == 2 && !open
        })
        .expect("a step with one row and two charges")
        .index
}

#[test]
fn a_disagreement_is_declared_at_the_step_that_closes_the_books() {
    for scenario in ["tour-4", "crash-after-provider"] {
        let t = run(scenario, "naive");
        let at = first_closed_disagreement(&t);
        let v = &t.frames[at].verdict;
        assert!(
            v.failures.contains(&Outcome::Disagree),
            "{scenario} naive step {at}: one row and two charges, yet the verdict says {}",
            v.headline()
        );
    }
    // tour-4: step 9 commits the one row beside two charges.
    assert_eq!(first_closed_disagreement(&run("tour-4", "naive")), 9);
}

#[test]
fn the_per_order_line_names_every_outcome_of_the_order() {
    for scenario in ["tour-4", "crash-after-provider"] {
        let t = run(scenario, "naive");
        let text = idem::report::transcript(&t, None);
        let line = text
            .lines()
            .find(|l| l.starts_with("  order 1042 ($40): owes it once"))
            .expect("the per-order line");
        assert!(
            line.ends_with("charged twice, provider and database disagree"),
            "{scenario}: {line}"
        );
    }
}
