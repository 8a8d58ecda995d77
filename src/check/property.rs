//! What the checker demands of every schedule.
//!
//! - always, in every state: at most one committed payment row and at most
//!   one provider charge per business fact, and a processed message ID
//!   implies its payment once nothing more can happen to that fact;
//! - eventually, in every quiet state (nothing left to do but inject more
//!   faults): each fact charged exactly once, or dead-lettered without an
//!   extra charge;
//! - sometimes, in some state: a duplicate was delivered, and two consumers
//!   held the same message at once. Without these a pass proves nothing.

use crate::sim::{Frame, Outcome, Payment, World};
use serde::Serialize;
use std::fmt;

/// How a quiet state ended for the customer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Correct,
    /// Dead-lettered with at most one charge and one payment row: an
    /// operator's problem, not a wrong effect.
    DeadLettered,
    /// The message left the queue (acked) with no effect and no record.
    MessageLost,
    /// Marked as handled, never charged.
    ChargeLost,
    /// An older status change overwrote a newer one.
    StaleState,
    Disagree,
    ChargedTwice,
}

impl Class {
    pub const ALL: [Class; 7] = [
        Class::Correct,
        Class::DeadLettered,
        Class::MessageLost,
        Class::ChargeLost,
        Class::StaleState,
        Class::Disagree,
        Class::ChargedTwice,
    ];

    /// The wrong effects, in the order the table shows them.
    pub const FAILURES: [Class; 5] = [
        Class::ChargedTwice,
        Class::ChargeLost,
        Class::Disagree,
        Class::MessageLost,
        Class::StaleState,
    ];

    pub fn text(self) -> &'static str {
        match self {
            Class::Correct => "correct",
            Class::DeadLettered => "dead-lettered",
            Class::MessageLost => "message lost",
            Class::ChargeLost => Outcome::ChargeLost.text(),
            Class::StaleState => Outcome::StaleState.text(),
            Class::Disagree => Outcome::Disagree.text(),
            Class::ChargedTwice => Outcome::ChargedTwice.text(),
        }
    }

    /// For file names: `charged-twice`.
    pub fn slug(self) -> String {
        self.text()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    }

    pub fn is_failure(self) -> bool {
        !matches!(self, Class::Correct | Class::DeadLettered)
    }

    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    pub fn parse(text: &str) -> Option<Class> {
        Self::ALL
            .into_iter()
            .find(|c| c.text() == text || c.slug() == text)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Invariant {
    OnePayment,
    OneCharge,
    ProcessedImpliesPayment,
}

impl Invariant {
    pub const ALL: [Invariant; 3] = [
        Invariant::OnePayment,
        Invariant::OneCharge,
        Invariant::ProcessedImpliesPayment,
    ];

    pub fn text(self) -> &'static str {
        match self {
            Invariant::OnePayment => "at most one payment row per business fact",
            Invariant::OneCharge => "at most one provider charge per business fact",
            Invariant::ProcessedImpliesPayment => {
                "a processed message ID implies its payment (once the fact is settled)"
            }
        }
    }

    pub fn bit(self) -> u8 {
        1 << (self as u8)
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
    if frame.counters.duplicates_delivered > 0 {
        j.witnessed |= Witness::DuplicateDelivered.bit();
    }
    let held: Vec<&str> = world
        .consumers()
        .iter()
        .filter_map(|c| c.delivery.as_ref().map(|d| d.message.id.as_str()))
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
        c.delivery
            .as_ref()
            .is_some_and(|d| d.message.payment.order == order)
    });
    !held && !world.broker().order_pending(order)
}

/// The classes of the facts of a quiet state, as bits, and the worst one.
/// The verdict is the one the simulator shows; the checker only sorts it.
pub fn classify(frame: &Frame) -> (u8, Class) {
    let mut bits = 0;
    let mut worst = Class::Correct;
    for fact in &frame.verdict.facts {
        let class = match fact.outcome {
            Outcome::Correct => Class::Correct,
            // A quiet state has nothing left in flight; a fact still in
            // progress there would be a checker bug, so it must not pass.
            Outcome::InProgress | Outcome::MessageLost => Class::MessageLost,
            Outcome::DeadLettered => Class::DeadLettered,
            Outcome::ChargeLost => Class::ChargeLost,
            Outcome::StaleState => Class::StaleState,
            Outcome::Disagree => Class::Disagree,
            Outcome::ChargedTwice => Class::ChargedTwice,
        };
        bits |= class.bit();
        worst = worst.max(class);
    }
    (bits, worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_words_round_trip() {
        for c in Class::ALL {
            assert_eq!(Class::parse(c.text()), Some(c));
            assert_eq!(Class::parse(&c.slug()), Some(c));
        }
        assert_eq!(Class::Disagree.slug(), "provider-and-database-disagree");
        assert_eq!(Class::ChargedTwice.slug(), "charged-twice");
    }

    #[test]
    fn only_wrong_effects_are_failures() {
        let failures: Vec<Class> = Class::ALL.into_iter().filter(|c| c.is_failure()).collect();
        let mut expected = Class::FAILURES.to_vec();
        expected.sort();
        assert_eq!(failures, expected);
    }
}
