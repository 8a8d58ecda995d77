//! What a running check shares with whoever watches it: live counts for a
//! progress line, and the state budget that stops a search whose bounds
//! are too large to finish. Atomics, because the strategies are checked on
//! several threads at once; no clock here, the watcher keeps its own.

use crate::sim::db::{Database, Tables};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The default budget of distinct states per design: about a thousand
/// times what the default bounds need, a few hundred MB at most.
pub const DEFAULT_MAX_STATES: u64 = 2_000_000;

#[derive(Debug)]
pub struct Watch {
    /// A design whose search finds more distinct states than this stops.
    pub max_states: u64,
    states: AtomicU64,
    stacked: AtomicU64,
    designs_done: AtomicUsize,
    designs: AtomicUsize,
    /// Databases a finished search left, with what each holds: the next
    /// design's search starts its worlds on them. On PostgreSQL a new one
    /// is a schema made and connections opened; a reused one is emptied.
    /// Dropped with the last watch that shares them, at the end of the
    /// check.
    spares: Arc<Spares>,
}

#[derive(Default)]
struct Spares(Mutex<Vec<(Database, Tables)>>);

impl std::fmt::Debug for Spares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |s| s.len());
        write!(f, "{n} spare databases")
    }
}

impl Default for Watch {
    fn default() -> Self {
        Watch::new(DEFAULT_MAX_STATES)
    }
}

/// A snapshot of the counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Distinct states found so far, over all designs.
    pub states: u64,
    /// States waiting on the search stacks to be expanded further.
    pub queue: u64,
    pub designs_done: usize,
    pub designs: usize,
}

impl Watch {
    pub fn new(max_states: u64) -> Self {
        Watch {
            max_states,
            states: AtomicU64::new(0),
            stacked: AtomicU64::new(0),
            designs_done: AtomicUsize::new(0),
            designs: AtomicUsize::new(0),
            spares: Arc::default(),
        }
    }

    /// A watch of its own budget and counts that shares this one's spare
    /// databases: a design's tries one bound further start on the
    /// databases its own search left, instead of making new ones (on
    /// PostgreSQL, schemas and connections the server has few of).
    pub fn sharing(&self, max_states: u64) -> Self {
        Watch {
            spares: Arc::clone(&self.spares),
            ..Watch::new(max_states)
        }
    }

    pub fn seen(&self) -> Seen {
        Seen {
            states: self.states.load(Ordering::Relaxed),
            queue: self.stacked.load(Ordering::Relaxed),
            designs_done: self.designs_done.load(Ordering::Relaxed),
            designs: self.designs.load(Ordering::Relaxed),
        }
    }

    pub(super) fn start(&self, designs: usize) {
        self.designs.store(designs, Ordering::Relaxed);
    }

    pub(super) fn found_state(&self) {
        self.states.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn stack_moved(&self, pushed: bool) {
        if pushed {
            self.stacked.fetch_add(1, Ordering::Relaxed);
        } else {
            self.stacked.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// A database a search no longer needs.
    pub(super) fn spare_database(&self, db: Database, holds: Tables) {
        if let Ok(mut spares) = self.spares.0.lock() {
            spares.push((db, holds));
        }
    }

    /// A database another search left, if any.
    pub(super) fn take_database(&self) -> Option<(Database, Tables)> {
        self.spares.0.lock().ok()?.pop()
    }

    pub(super) fn design_done(&self) {
        self.designs_done.fetch_add(1, Ordering::Relaxed);
    }
}
