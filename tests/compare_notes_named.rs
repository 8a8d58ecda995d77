//! A compare side's verdict names its notes as the main screen does.
//! Teacher trial at 80x24: naive's `at risk` note and the idempotent
//! design's `in flight` one both read `○ in progress  ← why: 1 more · w`,
//! where the main screen says `! 1 at risk · w` and `1 in flight · w`: a
//! note is no cause, and `why` counts only causes.
//!
//! At every position of the tours' compare at 80x24: no side counts more
//! under `why` than its verdict has causes, and a side whose verdict
//! holds only notes, none of them shown, counts them by what they are.

use crate::common;
use idem::tui::{Action, update};

/// The number a fold counts (`← why: 2 more`, `← 2 more`), if any.
fn more_count(text: &str) -> Option<usize> {
    let words: Vec<&str> = text.split(' ').collect();
    words.windows(2).find_map(|w| {
        (w[1] == "more" && (text.contains("why:") || text.contains('←')))
            .then(|| w[0].parse().ok())
            .flatten()
    })
}

#[test]
fn compare_verdicts_count_their_notes_as_notes() {
    let (mut notes, mut wrong) = (0, Vec::new());
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        let mut a = common::app(name, "naive");
        common::resize(&mut a, 80, 24);
        update(&mut a, Action::Compare);
        let last = a.compare.as_ref().expect("compare opens").pairs.len();
        for pos in 0..last {
            a.pos = pos;
            let screen = common::render(&a);
            let sides = crate::compare_in_view::side_rows(&screen);
            let c = a.compare.as_ref().unwrap();
            let (lf, rf) = c.frames(pos);
            for (i, f) in [lf, rf].into_iter().enumerate() {
                let v = &f.verdict;
                let held: usize = if v.outcome.is_failure() {
                    0
                } else {
                    v.held.iter().map(Vec::len).sum()
                };
                let causes = v.causes.iter().map(Vec::len).sum::<usize>() + held;
                let (risk, flight) = (v.at_risk.len(), v.in_flight.len());
                if risk + flight == 0 {
                    continue;
                }
                notes += 1;
                // The verdict: one row at 80x24.
                let text = sides[i].first().cloned().unwrap_or_default();
                let place = format!("{name} 80x24 position {pos}, {} side", ["left", "right"][i]);
                if more_count(&text).is_some_and(|n| n > causes) {
                    wrong.push(format!(
                        "{place}: {text:?} counts more than its {causes} causes under why"
                    ));
                    continue;
                }
                let shown = text.contains("at risk:") || text.contains("in flight:");
                let counted = (risk == 0 || text.contains(&format!("{risk} at risk")))
                    && (flight == 0 || text.contains(&format!("{flight} in flight")));
                if causes == 0 && !shown && !counted {
                    wrong.push(format!(
                        "{place}: {text:?} does not name its {risk} at risk, {flight} in flight"
                    ));
                }
            }
        }
    }
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for w in &wrong {
            eprintln!("{w}");
        }
    }
    assert!(notes > 20, "only {notes} sides with notes");
    assert!(
        wrong.is_empty(),
        "{} of {notes} sides with notes miscount them; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
