//! Compare tells a side that stands still from one that steps, and ticks
//! nothing it cannot yet vouch for. A teacher trial found two things:
//! - where one design has a step the other does not, or has finished, the
//!   other side showed its last frame again with nothing to say it was
//!   waiting;
//! - at the step where the designs part, the side about to charge twice
//!   showed `✓ m-7f3 1 payment row committed` in green, a tick for a run
//!   whose verdict was still open.
//!
//! At every position of the tours' compare, at 80x24, 100x30 and 120x40.

use crate::common;
use crate::compare_in_view::Seen;
use idem::sim::{Frame, Outcome};
use idem::tui::{Action, update};

fn columns(screen: &str) -> (String, String) {
    common::sides(screen, 1, 1)
}

/// Does the side say it is holding (or has finished and holds)?
fn says_holding(side: &str) -> bool {
    side.contains("holding at") || side.contains("finished at")
}

/// A tick on a message's payment rows: `✓ m-7f3 1 payment row`.
fn ticks_a_row(side: &str) -> bool {
    side.match_indices("✓ ").any(|(i, _)| {
        let rest = &side[i + "✓ ".len()..];
        let mut words = rest.split(' ');
        words.next().is_some_and(|id| id.starts_with("m-"))
            && words.next() == Some("1")
            && words.next() == Some("payment")
    })
}

fn settled_correct(f: &Frame) -> bool {
    f.verdict.outcome == Outcome::Correct && !f.verdict.undecided()
}

#[test]
fn a_side_that_stands_still_says_it_holds_and_ticks_only_a_settled_run() {
    let mut wrong = Vec::new();
    let (mut holds, mut open_rows) = (0, 0);
    // The same screens, for what compare points at (`compare_in_view`).
    let mut in_view = crate::compare_in_view::Seen::default();
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let mut a = common::app(name, "naive");
            common::resize(&mut a, w, h);
            update(&mut a, Action::Compare);
            let pairs = a.compare.as_ref().expect("compare opens").pairs.clone();
            for pos in 0..pairs.len() {
                a.pos = pos;
                let screen = common::render(&a);
                let (l, r) = columns(&screen);
                let c = a.compare.as_ref().unwrap();
                let (lf, rf) = c.frames(pos);
                let place = format!("{name} {w}x{h} position {pos}");
                crate::compare_in_view::check(&a, pos, &screen, &place, &mut in_view);
                let still = |side: fn(&(usize, usize)) -> usize| {
                    pos > 0 && side(&pairs[pos]) == side(&pairs[pos - 1])
                };
                let (l_still, r_still) = (still(|p| p.0), still(|p| p.1));
                for (holds_here, text, who) in [
                    (l_still && !r_still, &l, "left"),
                    (r_still && !l_still, &r, "right"),
                ] {
                    holds += usize::from(holds_here);
                    if holds_here != says_holding(text) {
                        wrong.push(format!(
                            "{place}: the {who} side holds: {holds_here}, says so: {}\n{screen}",
                            says_holding(text)
                        ));
                    }
                }
                for (f, text, who) in [(lf, &l, "left"), (rf, &r, "right")] {
                    open_rows += usize::from(!settled_correct(f));
                    if ticks_a_row(text) && !settled_correct(f) {
                        wrong.push(format!(
                            "{place}: the {who} side ticks a row of a run not settled correct\n{screen}"
                        ));
                    }
                }
            }
        }
    }
    assert!(holds > 10, "only {holds} holding sides seen");
    assert!(open_rows > 100, "only {open_rows} open sides seen");
    assert!(
        wrong.is_empty(),
        "{} wrong; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
    let Seen {
        rows,
        headers,
        headers_wrong,
        evidence,
        evidence_wrong,
        legends,
        legends_wrong,
        wrong,
    } = in_view;
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for w in &wrong {
            eprintln!("{}", w.lines().next().unwrap_or_default());
        }
    }
    assert!(
        rows > 100 && headers > 50 && evidence > 30 && legends >= 2,
        "only {rows} rows, {headers} headers, {evidence} screens with evidence, \
         {legends} signs on borders"
    );
    assert!(
        wrong.is_empty(),
        "{} of {rows} rows, {headers_wrong} of {headers} headers, {evidence_wrong} of \
         {evidence} screens' evidence and {legends_wrong} of {legends} signs on borders \
         wrong; the first:\n{}",
        wrong.len() - headers_wrong - evidence_wrong - legends_wrong,
        wrong[0]
    );
}
