//! What a level's counterexample says on the main screen (`v` on the level
//! screen) is true of the run it shows: each payment named where an order
//! has two, the search it came from said once and truly, and the won
//! message's run the one `v` opens.

use crate::common::draw;
use crate::level_bounds::proved;
use idem::tui::{Action, update};

/// Level 8's start (two payments of order 1042, $40 and $25), its
/// counterexample watched to the end. Teacher trial 26: the verdict read
/// `order 1042: 1 committed payment row, 1 provider charge   order 1042:
/// 2 committed payment rows, 1 provider charge`, a contradiction to read.
#[test]
fn two_payments_of_one_order_are_named_apart_in_the_verdict() {
    let mut a = proved(7, idem::levels::all()[7].start.clone());
    update(&mut a, Action::FirstViolation);
    update(&mut a, Action::Last);
    let mut wrong = Vec::new();
    for (w, h) in [(100, 30), (120, 40)] {
        let screen = draw(&mut a, w, h);
        let verdict: String = screen
            .lines()
            .skip_while(|l| !l.contains("Verdict at the end"))
            .collect::<Vec<_>>()
            .join(" ");
        if verdict.contains("order 1042:") || !verdict.contains("order 1042 ($40)") {
            wrong.push(format!("{w}x{h}: {verdict}"));
        }
    }
    update(&mut a, Action::Why);
    let screen = draw(&mut a, 120, 40);
    if screen.contains("order 1042:") || !screen.contains("order 1042 ($25)") {
        wrong.push(format!("w:\n{screen}"));
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
