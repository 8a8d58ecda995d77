//! What the last move made: its events and SQL, and the marks that belong
//! to its frame alone. Every move starts it afresh.

use super::Move;
use crate::sim::event::{Event, SqlRecord};
use crate::sim::message::Payment;

#[derive(Clone, Debug, Default)]
pub(in crate::sim) struct Moment {
    pub(in crate::sim) events: Vec<Event>,
    pub(in crate::sim) sql: Vec<SqlRecord>,
    /// The message ID whose claim hit the unique key in this step.
    pub(in crate::sim) conflict: Option<String>,
    /// The key whose stored result was replayed in this step.
    pub(in crate::sim) replayed: Option<String>,
    /// What the provider answered a call made in this step.
    pub(in crate::sim) answered: Option<crate::sim::provider::CallAnswer>,
    /// The consumer whose handler ran in this step, if one did: only its
    /// step is marked as the one that ran.
    pub(in crate::sim) stepped: Option<String>,
    /// The provider answered a call in this step and the answer was lost
    /// on its way back: the step is told in the order it happened.
    pub(in crate::sim) answer_lost: bool,
    /// The stepping consumer asked the broker for a message and got none:
    /// its handler did no work in this step.
    pub(in crate::sim) found_nothing: bool,
    /// The move that made the current frame (none before the first).
    pub(in crate::sim) last_move: Option<Move>,
    /// Payments and processed IDs this move changed something about: the
    /// facts to judge again (the judging at the move's end takes them).
    pub(super) touched_facts: Vec<Payment>,
    pub(super) touched_ids: Vec<String>,
    /// The broker's copies the last move changed.
    pub(super) touched_copies: Vec<u32>,
}

impl Moment {
    /// A new move begins: nothing of the last one's output stays.
    /// (The lists keep their room: a long run makes millions of moves.)
    pub(super) fn begin(&mut self, mv: &Move) {
        self.events.clear();
        self.sql.clear();
        self.conflict = None;
        self.answer_lost = false;
        self.replayed = None;
        self.answered = None;
        self.stepped = None;
        self.found_nothing = false;
        self.last_move = Some(mv.clone());
    }
}
