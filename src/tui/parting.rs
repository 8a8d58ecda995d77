//! Where two runs part: the first figure an outcome rests on that one
//! side shows and the other does not. A payment row counts as soon as it
//! is inserted, committed or not (the inserting transaction sees it); so
//! does a charge at the provider, and the broker's state of a message
//! (where it is, who holds its lease, how often it was delivered). An
//! outcome that differs counts too.
//!
//! Structure is left out: processed_messages rows, lease clocks and
//! Idempotency-Keys are how a design works, not what it did. Two designs
//! that keep the same table at different steps (charge-first records the
//! ID after the work, idempotent before it) differ there from their third
//! move on, while the customer, the provider and the broker see the same
//! until the second charge; a parting called at the table would point a
//! class at bookkeeping, five moves before the double charge it is there
//! to show.

use crate::sim::frame::MessagePhase;
use crate::sim::{Frame, Outcome};

/// How many rows of one kind a message has: committed, and inserted by a
/// transaction still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    pub committed: usize,
    pub uncommitted: usize,
}

/// Where the broker has a message, as the broker itself knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtBroker {
    pub phase: MessagePhase,
    pub holder: Option<String>,
    pub receives: u32,
}

/// The first difference between the two sides, left value then right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Apart {
    /// Charges made at the provider for an order.
    Charges {
        order: u32,
        left: usize,
        right: usize,
    },
    /// Payment rows for a message.
    Payments {
        message: String,
        left: Rows,
        right: Rows,
    },
    /// A message's state at the broker (named as the queue shows it).
    Broker {
        message: String,
        left: AtBroker,
        right: AtBroker,
    },
    /// One side has gone wrong, or wrong in another way.
    Outcome { left: Outcome, right: Outcome },
}

/// What differs between two frames shown side by side, the money first.
pub fn apart(a: &Frame, b: &Frame) -> Option<Apart> {
    charges(a, b)
        .or_else(|| payments(a, b))
        .or_else(|| broker(a, b))
        .or_else(|| outcome(a, b))
}

/// The outcomes part where one side has gone wrong and the other has not,
/// or both have, in different ways.
pub fn outcome(a: &Frame, b: &Frame) -> Option<Apart> {
    let (l, r) = (a.verdict.outcome, b.verdict.outcome);
    let differ = l.is_failure() != r.is_failure() || (l.is_failure() && l != r);
    differ.then_some(Apart::Outcome { left: l, right: r })
}

fn charges(a: &Frame, b: &Frame) -> Option<Apart> {
    let mut orders: Vec<u32> = a
        .provider
        .charges
        .iter()
        .chain(&b.provider.charges)
        .map(|c| c.order)
        .collect();
    orders.sort_unstable();
    orders.dedup();
    let count = |f: &Frame, o: u32| f.provider.charges.iter().filter(|c| c.order == o).count();
    orders.into_iter().find_map(|order| {
        let (left, right) = (count(a, order), count(b, order));
        (left != right).then_some(Apart::Charges { order, left, right })
    })
}

/// Every message ID either side has rows for, in order.
fn ids<'a>(a: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = a.map(str::to_string).collect();
    out.sort();
    out.dedup();
    out
}

fn payments(a: &Frame, b: &Frame) -> Option<Apart> {
    let rows = |f: &Frame, m: &str| {
        let of = f.db.payments.iter().filter(|p| p.message_id == m);
        Rows {
            committed: of.clone().filter(|p| p.uncommitted_by.is_none()).count(),
            uncommitted: of.filter(|p| p.uncommitted_by.is_some()).count(),
        }
    };
    let all = a.db.payments.iter().chain(&b.db.payments);
    ids(all.map(|p| p.message_id.as_str()))
        .into_iter()
        .find_map(|message| {
            let (left, right) = (rows(a, &message), rows(b, &message));
            (left != right).then_some(Apart::Payments {
                message,
                left,
                right,
            })
        })
}

fn broker(a: &Frame, b: &Frame) -> Option<Apart> {
    let at = |m: &crate::sim::frame::MessageView| AtBroker {
        phase: m.phase,
        holder: (m.phase == MessagePhase::InFlight)
            .then(|| m.holder.clone())
            .flatten(),
        receives: m.receives,
    };
    // The same script publishes the same messages on both sides, in the
    // same order: the n-th entry of one queue is the n-th of the other.
    a.queue
        .messages
        .iter()
        .zip(&b.queue.messages)
        .find_map(|(l, r)| {
            let (left, right) = (at(l), at(r));
            (left != right).then(|| Apart::Broker {
                message: l.label(a.queue.broker_ids_lead),
                left,
                right,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    fn run(name: &str, design: &str) -> Timeline {
        let script = scenario::find(name).unwrap();
        Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap()
    }

    #[test]
    fn a_frame_is_not_apart_from_itself() {
        let t = run("tour-1", "naive");
        assert!(t.frames.iter().all(|f| apart(f, f).is_none()));
    }

    #[test]
    fn a_processed_messages_row_alone_is_no_parting() {
        let t = run("tour-1", "idempotent");
        let f = t.frames.last().unwrap();
        assert!(f.db.uses_processed);
        let mut other = f.clone();
        other.db.processed.clear();
        assert_eq!(apart(f, &other), None);
    }

    #[test]
    fn an_uncommitted_second_payment_row_is_a_difference() {
        let (n, i) = (run("tour-1", "naive"), run("tour-1", "idempotent"));
        let second = n
            .frames
            .iter()
            .find(|f| f.db.payments.len() == 2)
            .expect("naive inserts a second row");
        assert!(second.db.payments[1].uncommitted_by.is_some());
        let last = i.frames.last().unwrap();
        assert_eq!(
            apart(second, last),
            Some(Apart::Payments {
                message: "m-7f3".into(),
                left: Rows {
                    committed: 1,
                    uncommitted: 1
                },
                right: Rows {
                    committed: 1,
                    uncommitted: 0
                },
            })
        );
    }
}
