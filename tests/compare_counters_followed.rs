//! A compare side shows the counters its step moved, or its fold names
//! the section they are in. Trial 41 at 80x24: at tour-1's lost ack each
//! side's `◇ acks lost 1 (+1)` was under `… ↓ 20 more rows below · Tab`,
//! counted and not named, while the sides showed rows the step had not
//! changed.

use crate::common;
use idem::tui::{Action, update};

#[test]
fn a_moved_counter_is_on_screen_or_its_section_named() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        let mut a = common::app(name, "naive");
        common::resize(&mut a, 80, 24);
        update(&mut a, Action::Compare);
        let c = a.compare.clone().expect("compare opens");
        for pos in 1..c.pairs.len() {
            a.pos = pos;
            let screen = common::render(&a);
            let sides = crate::compare_in_view::side_rows(&screen);
            let (now, before) = (c.pairs[pos], c.pairs[pos - 1]);
            let (lf, rf) = c.frames(pos);
            for (i, f, moved) in [(0, lf, now.0 != before.0), (1, rf, now.1 != before.1)] {
                if !moved {
                    continue;
                }
                // Trial 42: a fold named the queue where nothing of it
                // had changed: no message row or counter moved.
                let fold_names_queue = sides[i].iter().any(|r| r.contains(": queue"));
                let queue_moved = !f.changes.counters.is_empty()
                    || f.changes
                        .items
                        .iter()
                        .any(|c| c.place == idem::sim::change::Place::Queue);
                if fold_names_queue && !queue_moved {
                    wrong.push(format!(
                        "{name} position {pos} side {i}: queue named\n{screen}"
                    ));
                }
                // Trial 42: a handler step that changed no table (`begin
                // transaction`) had its `◀` row folded, unnamed.
                if !f.changes.steps.is_empty() {
                    seen += 1;
                    let shown = sides[i].iter().any(|r| r.contains('◀'));
                    let named = sides[i]
                        .iter()
                        .any(|r| r.contains("below: ") && r.contains("service"));
                    if !shown && !named {
                        wrong.push(format!(
                            "{name} position {pos} side {i}: step unshown\n{screen}"
                        ));
                    }
                }
                // The counters the broker panel draws (a count the
                // simulator keeps for itself moves no row).
                let drawn = [
                    "delivered",
                    "redeliveries",
                    "acked",
                    "dead_lettered",
                    "acks_lost",
                ];
                if !f.changes.counters.iter().any(|(n, _)| drawn.contains(n)) {
                    continue;
                }
                seen += 1;
                let shown = sides[i].iter().any(|r| r.contains("(+"));
                let named = sides[i].iter().any(|r| r.contains("below: queue"));
                if !shown && !named {
                    wrong.push(format!("{name} position {pos} side {i}:\n{screen}"));
                }
            }
        }
    }
    assert!(seen > 10, "only {seen}");
    assert!(
        wrong.is_empty(),
        "{} of {seen} sides hide what their step changed, unnamed; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
