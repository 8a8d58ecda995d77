//! Where two designs part, in words: what one side shows that the other
//! does not, the left side's value first, as the sides stand on screen.

use super::verdict;
use crate::sim::frame::MessagePhase;
use crate::tui::parting::{Apart, AtBroker, Rows};
use crate::tui::theme::Theme;

/// `m-7f3 payment rows 1 + 1 uncommitted vs 1`.
pub fn words(t: &Theme, apart: &Apart) -> String {
    let both = |what: String, l: String, r: String| format!("{what} {l} vs {r}");
    match apart {
        Apart::Charges { order, left, right } => both(
            format!("order {order} charges"),
            left.to_string(),
            right.to_string(),
        ),
        Apart::Payments {
            message,
            left,
            right,
        } => both(format!("{message} payment rows"), rows(*left), rows(*right)),
        Apart::Broker {
            message,
            left,
            right,
        } if left.phase == right.phase && left.holder == right.holder => both(
            format!("{message} delivered"),
            times(left.receives),
            times(right.receives),
        ),
        Apart::Broker {
            message,
            left,
            right,
        } => both(format!("{message} at the broker"), at(left), at(right)),
        Apart::Outcome { left, right } => both(
            "outcome".into(),
            verdict::headline(t, *left).0,
            verdict::headline(t, *right).0,
        ),
    }
}

fn rows(r: Rows) -> String {
    match (r.committed, r.uncommitted) {
        (0, 0) => "none".into(),
        (c, 0) => c.to_string(),
        (0, u) => format!("{u} uncommitted"),
        (c, u) => format!("{c} + {u} uncommitted"),
    }
}

fn times(n: u32) -> String {
    match n {
        1 => "once".into(),
        n => format!("{n} times"),
    }
}

fn at(b: &AtBroker) -> String {
    match (b.phase, &b.holder) {
        (MessagePhase::Waiting, _) => "waiting".into(),
        (MessagePhase::InFlight, Some(h)) => format!("in flight to {h}"),
        (MessagePhase::InFlight, None) => "in flight".into(),
        (MessagePhase::Acked, _) => "acked".into(),
        (MessagePhase::DeadLettered, _) => "dead-lettered".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_left_sides_value_comes_first() {
        let t = Theme::new(false, false);
        let a = Apart::Payments {
            message: "m-7f3".into(),
            left: Rows {
                committed: 1,
                uncommitted: 1,
            },
            right: Rows {
                committed: 1,
                uncommitted: 0,
            },
        };
        assert_eq!(words(&t, &a), "m-7f3 payment rows 1 + 1 uncommitted vs 1");
    }
}
