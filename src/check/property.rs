//! What the checker demands of every schedule. Which properties say
//! anything about a run depends on what its messages are ([`Kind`]):
//!
//! - for payments, always, in every state: at most one committed payment
//!   row and at most one provider charge per business fact, and a
//!   processed message ID implies its payment once nothing more can happen
//!   to that fact; eventually, in every quiet state (nothing left to do but
//!   inject more faults): each fact charged exactly once, or dead-lettered
//!   without an extra charge;
//! - for status changes of an order (a design that keeps a version on the
//!   row), always: the order's status never goes back to an older version
//!   than one already committed, and no version is applied by two commits;
//!   eventually: the order ends at its newest version's status, or the
//!   change is dead-lettered;
//! - sometimes, in some state: a duplicate was delivered, and two consumers
//!   held the same message at once. Without these a pass proves nothing.

use crate::sim::{Frame, Outcome, Payment, World};
use serde::Serialize;

/// What a run's messages carry: the properties that apply follow from it
/// (a payment invariant says nothing about a run that charges nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Payments,
    StatusChanges,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Invariant {
    OnePayment,
    OneCharge,
    ProcessedImpliesPayment,
    /// The status row never holds an older version than one a commit
    /// already wrote.
    StatusNeverOlder,
    /// No status version is written by two commits.
    StatusVersionOnce,
}

impl Invariant {
    pub const ALL: [Invariant; 5] = [
        Invariant::OnePayment,
        Invariant::OneCharge,
        Invariant::ProcessedImpliesPayment,
        Invariant::StatusNeverOlder,
        Invariant::StatusVersionOnce,
    ];

    /// The kind of run this invariant says something about.
    pub fn kind(self) -> Kind {
        match self {
            Invariant::OnePayment | Invariant::OneCharge | Invariant::ProcessedImpliesPayment => {
                Kind::Payments
            }
            Invariant::StatusNeverOlder | Invariant::StatusVersionOnce => Kind::StatusChanges,
        }
    }

    /// The invariants of a run of this kind, in order.
    pub fn of(kind: Kind) -> impl Iterator<Item = Invariant> {
        Self::ALL.into_iter().filter(move |i| i.kind() == kind)
    }

    /// Whether the invariant speaks of something this handler has: one
    /// about processed message IDs says nothing of a design that keeps no
    /// `processed_messages` table (`offset`, `naive`), and listing it there
    /// would name a table the design does not have.
    pub fn applies_to(self, program: &[crate::sim::Op]) -> bool {
        use crate::sim::Op;
        match self {
            Invariant::ProcessedImpliesPayment => program.iter().any(|op| {
                matches!(
                    op,
                    Op::ClaimId | Op::CheckId | Op::ClaimInProgress | Op::MarkCompleted
                )
            }),
            _ => true,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Invariant::OnePayment => "at most one payment row per business fact",
            Invariant::OneCharge => "at most one provider charge per business fact",
            Invariant::ProcessedImpliesPayment => {
                "a processed message ID implies its payment (once the fact is settled)"
            }
            Invariant::StatusNeverOlder => {
                "an order's status never goes back to a version older than one committed"
            }
            Invariant::StatusVersionOnce => "each status version is applied by at most one commit",
        }
    }

    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// What every quiet state must show: the run's effect, once nothing more
/// can happen without another fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Eventually {
    ChargedOnce,
    NewestStatus,
}

impl Eventually {
    pub fn of(kind: Kind) -> Eventually {
        match kind {
            Kind::Payments => Eventually::ChargedOnce,
            Kind::StatusChanges => Eventually::NewestStatus,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            // Dead-lettering ends a run well only for a message the
            // provider refuses every time: a healthy one there is a
            // failure (charge lost, or charged with no payment row).
            Eventually::ChargedOnce => {
                "each fact charged exactly once (dead-lettered only if the provider refused it)"
            }
            Eventually::NewestStatus => {
                "each order ends at its newest version's status, or dead-lettered"
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Witness {
    DuplicateDelivered,
    SameMessageTwice,
}

impl Witness {
    pub const ALL: [Witness; 2] = [Witness::DuplicateDelivered, Witness::SameMessageTwice];

    pub fn text(self) -> &'static str {
        match self {
            Witness::DuplicateDelivered => "a duplicate delivery happened",
            Witness::SameMessageTwice => "two consumers held the same message at once",
        }
    }

    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Everything the properties say about one state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    /// Invariant bits broken in this state. "At most one" means at most as
    /// many as the producer asked for.
    pub broken: u8,
    /// Witness bits seen in this state.
    pub witnessed: u8,
}

pub fn judge(world: &World, frame: &Frame) -> Judgement {
    let mut j = Judgement::default();
    let committed = &world.committed();
    let provider = world.provider();
    for (payment, expected) in facts(world) {
        let payments = committed
            .payments
            .iter()
            .filter(|p| p.order == payment.order && p.amount == payment.amount)
            .count();
        if payments > expected {
            j.broken |= Invariant::OnePayment.bit();
        }
        if provider.charges_for_payment(&payment) > expected {
            j.broken |= Invariant::OneCharge.bit();
        }
        let processed = committed.processed.iter().any(|row| {
            world
                .setup()
                .messages
                .iter()
                .any(|m| m.id == row.message_id && m.payment == payment)
        });
        if processed && payments == 0 && settled(world, payment.order) {
            j.broken |= Invariant::ProcessedImpliesPayment.bit();
        }
    }
    j.broken |= judge_statuses(world);
    if frame.counters.duplicates_delivered > 0 {
        j.witnessed |= Witness::DuplicateDelivered.bit();
    }
    let held: Vec<&str> = world
        .consumers()
        .iter()
        .filter_map(|c| c.delivery().map(|d| d.message.id.as_str()))
        .collect();
    if held
        .iter()
        .enumerate()
        .any(|(i, id)| held[..i].contains(id))
    {
        j.witnessed |= Witness::SameMessageTwice.bit();
    }
    j
}

/// The status invariants broken in this state, as bits: read from the
/// versions commits wrote (the observer's books) against the row as
/// committed now. Every state is judged, so a status that went back and
/// then forward again is caught in the state between.
fn judge_statuses(world: &World) -> u8 {
    let mut broken = 0;
    for (order, applied) in world.applied_versions() {
        let row = world
            .committed()
            .statuses
            .iter()
            .find(|s| s.order == *order)
            .map(|s| s.version);
        let newest = applied.keys().next_back().copied();
        if newest.is_some_and(|newest| row.is_none_or(|row| row < newest)) {
            broken |= Invariant::StatusNeverOlder.bit();
        }
        if applied.values().any(|&commits| commits > 1) {
            broken |= Invariant::StatusVersionOnce.bit();
        }
    }
    broken
}

/// The payments the producer asked for, each with how many times (two
/// setup messages with the same order and amount are two payments), in
/// setup order. Status changes charge nothing.
fn facts(world: &World) -> Vec<(Payment, usize)> {
    let mut out: Vec<(Payment, usize)> = Vec::new();
    for m in world.setup().messages.iter().filter(|m| m.status.is_none()) {
        match out.iter_mut().find(|(p, _)| *p == m.payment) {
            Some((_, n)) => *n += 1,
            None => out.push((m.payment.clone(), 1)),
        }
    }
    out
}

/// Nothing more can happen to this fact: no handler holds it and no copy
/// is waiting or leased.
fn settled(world: &World, order: u32) -> bool {
    let held = world.consumers().iter().any(|c| {
        c.delivery()
            .is_some_and(|d| d.message.payment.order == order)
    });
    !held && !world.broker().order_pending(order)
}

/// The classes of the facts of a quiet state, as bits, and the worst one.
/// The verdict is the one the simulator shows; the checker only sorts it.
pub fn classify(frame: &Frame) -> (u8, Outcome) {
    let mut bits = 0;
    let mut worst = Outcome::Correct;
    for fact in &frame.verdict.facts {
        let class = match fact.outcome {
            Outcome::Correct => Outcome::Correct,
            // A quiet state has nothing left in flight; a fact still in
            // progress there would be a checker bug, so it must not pass.
            Outcome::InProgress | Outcome::MessageLost => Outcome::MessageLost,
            Outcome::DeadLettered => Outcome::DeadLettered,
            Outcome::ChargeLost => Outcome::ChargeLost,
            Outcome::StaleState => Outcome::StaleState,
            Outcome::Disagree => Outcome::Disagree,
            Outcome::ChargedTwice => Outcome::ChargedTwice,
        };
        bits |= class.bit();
        worst = worst.max(class);
        // A run can go wrong in several ways at once: each one counts.
        for also in &fact.failures {
            bits |= also.bit();
        }
    }
    (bits, worst)
}
