//! What one step changed against the frame before it: rows, figures, queue
//! entries, key-store entries and the handler step that ran. Plain data
//! (computed in `diff.rs`), so every front end marks the same things and
//! stepping back shows a step's marks again without recomputing.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Changed,
    /// A row written in a transaction that committed in this step.
    Committed,
    /// A row an open transaction had written, gone with its rollback.
    RolledBack,
    Removed,
}

/// Where a changed item lives on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Queue,
    Payments,
    Processed,
    Records,
    Statuses,
    Orders,
    Offset,
    Cache,
    Charges,
    Keys,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItemChange {
    pub place: Place,
    /// The item's identity in its place: a message's broker ID, a
    /// processed row's message ID, a charge ID; a payment row's position,
    /// since the same payment can be recorded twice.
    pub key: String,
    pub change: Change,
    /// The item as it was, so that one that is gone can still be shown for
    /// the step that removed it.
    pub was: String,
}

/// The step of its program a consumer ran in this step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepRan {
    pub consumer: String,
    pub step: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Changes {
    pub items: Vec<ItemChange>,
    /// The committed payments total before this step, when it moved.
    pub total_was: Option<u64>,
    /// How many charges the provider had made before this step, when it moved.
    pub charges_was: Option<usize>,
    /// Messages still in the queue (waiting or in flight) before this step,
    /// when that number moved.
    pub queue_was: Option<usize>,
    /// Committed rows in processed_messages before this step, when that
    /// number moved.
    pub processed_was: Option<usize>,
    /// Rows of processed_messages that open transactions hold and have not
    /// committed, before this step, when that part (or who holds it) moved:
    /// a committed count alone would read "unchanged" beside a new row.
    pub pending_processed_was: Option<usize>,
    /// The amount in payment rows that open transactions hold and have not
    /// committed, before this step, when that part (or who holds it) moved.
    pub pending_total_was: Option<u64>,
    /// Broker counters that moved, by field name, with their value before.
    pub counters: Vec<(&'static str, u32)>,
    pub steps: Vec<StepRan>,
}

impl Changes {
    /// How an item changed in this step, if it did.
    pub fn of(&self, place: Place, key: &str) -> Option<Change> {
        self.items
            .iter()
            .find(|i| i.place == place && i.key == key)
            .map(|i| i.change)
    }

    /// Items of a place that are gone after this step.
    pub fn gone(&self, place: Place) -> impl Iterator<Item = &ItemChange> {
        self.items.iter().filter(move |i| {
            i.place == place && matches!(i.change, Change::Removed | Change::RolledBack)
        })
    }

    /// A counter's value before this step, if it moved.
    pub fn counter_was(&self, name: &str) -> Option<u32> {
        self.counters
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    /// The program step a consumer ran in this step, if it ran one.
    pub fn step_of(&self, consumer: &str) -> Option<usize> {
        self.steps
            .iter()
            .find(|s| s.consumer == consumer)
            .map(|s| s.step)
    }

    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}
