//! The database side of the world: the engine the consumers' sessions
//! write to, and the world's own copy of what it has committed, kept
//! current move by move (`tables.rs`).

use super::tables::TableIndex;
use crate::sim::db::{Database, Tables};
use std::collections::BTreeMap;

pub(in crate::sim) struct Store {
    pub(in crate::sim) db: Database,
    /// The committed tables, read whenever no write transaction is open
    /// (they cannot change while one is).
    pub(in crate::sim) committed: Tables,
    /// Lookups over `committed`.
    pub(super) index: TableIndex,
    /// Processed IDs a retention job deleted, with the step it did so.
    pub(super) pruned: BTreeMap<String, usize>,
}

impl Store {
    /// A database as the run finds it at the start: nothing read back yet.
    pub(super) fn on(db: Database) -> Store {
        Store {
            db,
            committed: Tables::default(),
            index: TableIndex::default(),
            pruned: BTreeMap::new(),
        }
    }

    /// This store's copy of the committed tables, over `db` (which holds
    /// the same rows): every field named, so that a new one is not forgotten.
    pub(super) fn copy_onto(&self, db: Database) -> Store {
        Store {
            db,
            committed: self.committed.clone(),
            index: self.index.clone(),
            pruned: self.pruned.clone(),
        }
    }
}
