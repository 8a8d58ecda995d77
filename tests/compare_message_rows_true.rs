//! Compare's row for each message says what its side's payments table
//! holds, and never "in progress" once the run is over (teacher trial:
//! in broker-id both sides read "○ m-7f3 no payment row committed" above
//! a table with two rows for order 1042, b-1 and b-2, and "✕ charged
//! twice": the rows were counted by m-7f3, which the broker-ID design
//! never writes, and `○` stayed on at the end).

use crate::common::{self, draw};
use idem::tui::{Action, update};

/// Every built-in scenario's compare at its last pair, at the two sizes
/// the trial used and the smallest one: each side's message rows.
#[test]
fn at_the_end_a_message_row_is_never_pending_nor_blind_to_its_rows() {
    let mut walked = 0;
    let mut wrong = Vec::new();
    for name in idem::scenario::builtin::names() {
        for (w, h) in [(100u16, 30u16), (80, 24)] {
            let mut a = common::app(name, "idempotent");
            update(&mut a, Action::Compare);
            if a.compare.is_none() {
                continue;
            }
            update(&mut a, Action::Last);
            let screen = draw(&mut a, w, h);
            let (left, right) = common::sides(&screen, 2, 1);
            for (side, text) in [("left", left), ("right", right)] {
                walked += 1;
                // A side whose table shows rows, yet no message's row
                // counts one: the rows were looked for under another name.
                let has_rows = text.contains("payments · total recorded $")
                    && !text.contains("payments · total recorded $0");
                let counted = ["1 payment row committed", "payment rows committed"]
                    .iter()
                    .chain(&["1 row committed", " rows committed"])
                    .any(|w| text.contains(w));
                let blind = has_rows && !counted;
                // `○` on a message's row (`○ m-7f3 no payment row ...`).
                let pending = text.split("○ ").skip(1).any(|after| {
                    let row: String = after.chars().take(40).collect();
                    row.contains("row committed") || row.contains("rows committed")
                });
                if blind || pending {
                    wrong.push(format!("{name} {w}x{h} {side}: {text}"));
                }
            }
        }
    }
    assert!(walked > 0);
    assert!(
        wrong.is_empty(),
        "{} of {walked} sides wrong at the end:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
