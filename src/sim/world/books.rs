//! The observer's books on each business fact: what happened to it that a
//! verdict may need to explain, kept as the run goes. Only the observer
//! keeps them; no party of the system could.

use super::facts::FactBook;
use crate::sim::cause::Cause;
use crate::sim::message::{Message, Payment};
use crate::sim::verdict::LedgerEntry;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Default)]
pub(super) struct Books {
    /// Per business fact: what happened to it that a verdict may need to explain.
    pub(super) notes: BTreeMap<Payment, Vec<Vec<Cause>>>,
    /// Per business fact: each provider replay of a stored charge, with
    /// why the call was made again (why a repeat did no harm). Apart from
    /// `notes`, whose last one the chains of a wrong outcome end with.
    pub(super) replays: BTreeMap<Payment, Vec<Vec<Cause>>>,
    /// Message IDs delivered at least once, with the payments delivered
    /// under each, to count duplicates and tell a reused ID.
    pub(super) seen: BTreeMap<String, BTreeSet<Payment>>,
    /// Messages (ID and payment) whose work a delivery has done (a
    /// payment or status committed, a charge made at the provider), with
    /// that delivery's receipt: any other delivery of one of them is a
    /// duplicate delivery.
    pub(super) worked: BTreeMap<(String, Payment), String>,
    /// Messages (ID and payment) a delivery of which passed the handler's
    /// check and went on with the work: a later skip of the same message
    /// is a duplicate skipped, a skip of any other is a new message whose
    /// key collided with a record another one left.
    pub(super) went_on: BTreeSet<(String, Payment)>,
    /// Facts whose newest delivery inserted a payment row (committed or
    /// not since): only for them can a row missing now have been rolled
    /// back in the attempt the fact waits on. A delivery that died before
    /// writing (a crash straight after receiving) rolled nothing back,
    /// whatever an earlier one did (teacher trial 31, level 2).
    pub(super) row_written: BTreeSet<Payment>,
    /// Facts whose message an ack removed before any work was saved.
    pub(super) acked_before_work: BTreeSet<Payment>,
    /// Facts the provider refused for good (a declined card, a key reused
    /// for another request): for them the dead-letter queue is a right end.
    pub(super) refused: BTreeSet<Payment>,
    /// The effects that happened (the verdict's cause chains), per
    /// payment, in the order they happened.
    pub(super) ledger_by: BTreeMap<Payment, Vec<LedgerEntry>>,
    /// Every fact's verdict, kept as the run goes.
    pub(super) facts: FactBook,
    /// A setup message whose ID an earlier setup message with another
    /// payment carries: the order of that earlier one.
    pub(super) reused: BTreeMap<(String, Payment), u32>,
    /// Messages the producer published after the start (`produce`), by
    /// ID, until their fact retires; the first one wins, as in the setup.
    pub(super) produced: BTreeMap<String, Message>,
    /// Per order, each status version a commit wrote to its row, and how
    /// many commits wrote it: the row keeps only the last, so whether the
    /// status ever went back, or a version was applied twice, is known
    /// only here.
    pub(super) applied_versions: BTreeMap<u32, BTreeMap<u32, u32>>,
}

impl Books {
    /// Whether some message went to the dead-letter queue and, for every
    /// one that did, a crash ended each of its receives: a run no handler
    /// can finish, whatever it does (its dead-letter notes name why each
    /// lease ended; see `World::every_receive_crashed`).
    pub(super) fn every_receive_crashed(&self) -> bool {
        let mut dead = self
            .notes
            .values()
            .flatten()
            .filter(|note| matches!(note.first(), Some(Cause::DeadLetterQueue { .. })))
            .peekable();
        dead.peek().is_some()
            && dead.all(|note| {
                note.len() > 1 && note[1..].iter().all(|c| matches!(c, Cause::Crashed { .. }))
            })
    }

    /// Empty books for a run of these setup messages.
    pub(super) fn of(messages: &[Message]) -> Books {
        Books {
            reused: reused_ids(messages),
            ..Books::default()
        }
    }
}

/// For each (ID, payment) of the setup, the order of the first earlier
/// message that carries the same ID with another payment, if one does.
fn reused_ids(messages: &[Message]) -> BTreeMap<(String, Payment), u32> {
    let mut first: BTreeMap<&str, Vec<&Payment>> = BTreeMap::new();
    let mut reused = BTreeMap::new();
    for m in messages {
        let earlier = first.entry(&m.id).or_default();
        let key = (m.id.clone(), m.payment.clone());
        // Only the first message with this ID and payment counts, as the
        // search from the start of the list found it.
        if !earlier.contains(&&m.payment) {
            if let Some(other) = earlier.iter().find(|p| ***p != m.payment) {
                reused.entry(key).or_insert(other.order);
            }
            earlier.push(&m.payment);
        }
    }
    reused
}
