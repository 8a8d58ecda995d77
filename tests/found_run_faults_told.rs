//! A found run says which of its lease ends the fault budget counts.
//! Trial 38: in-progress's shortest run at 3 faults showed four lease ends
//! and crashes, and nothing on screen said which three were the faults
//! (a lease whose holder crashed runs out freely: only `idem check`'s
//! bounds said so).

use crate::common::check::in_progress;
use idem::check::further::FurtherResult;

#[test]
fn each_lease_end_in_a_found_run_says_whether_it_is_a_fault() {
    let report = in_progress();
    let s = &report.strategies[0];
    let runs = s.further.iter().flat_map(|f| match &f.result {
        FurtherResult::Breaks { runs, .. } => runs.clone(),
        _ => Vec::new(),
    });
    let (mut seen, mut counted, mut wrong) = ([0; 2], 0, Vec::new());
    for run in runs.chain(s.counterexamples.iter().cloned()) {
        for (n, step) in run.steps.iter().enumerate() {
            if !step.action.starts_with("expire-lease") {
                continue;
            }
            counted += 1;
            match (
                step.title.starts_with("early lease expiry: "),
                step.title.ends_with("'s lease ends: no fault"),
            ) {
                (true, false) => seen[0] += 1,
                (false, true) => seen[1] += 1,
                _ => wrong.push(format!("{} move {}: {}", run.strategy, n + 1, step.title)),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {counted} lease ends do not say: {wrong:#?}",
        wrong.len()
    );
    assert!(seen.iter().all(|n| *n > 0), "fault, free: {seen:?}");
}
