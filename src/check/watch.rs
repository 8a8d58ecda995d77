//! What a running check shares with whoever watches it: live counts for a
//! progress line, and the state budget that stops a search whose bounds
//! are too large to finish. Atomics, because the strategies are checked on
//! several threads at once; no clock here, the watcher keeps its own.

use crate::sim::db::{Database, Tables};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The default budget of distinct states per design: about a thousand
/// times what the default bounds need, a few hundred MB at most.
pub const DEFAULT_MAX_STATES: u64 = 2_000_000;

#[derive(Debug)]
pub struct Watch {
    /// A design whose search finds more distinct states than this stops.
    pub max_states: u64,
    /// Every state found so far, by every search: the designs' own and
    /// the tries one bound further, whose watches share this count, so
    /// that the headline moves whenever any search finds a state.
    states: Arc<AtomicU64>,
    stacked: AtomicU64,
    designs_done: AtomicUsize,
    designs: AtomicUsize,
    /// The designs whose own search runs now, by design, by name.
    searching: Mutex<BTreeMap<usize, String>>,
    /// The tries one bound further: their states, counted as they are
    /// found, and which tries are running, so that a watcher sees them
    /// move (a try can take longer than the search before it).
    further: Arc<FurtherCounts>,
    /// A try's own watch counts its states into its parent's `further`
    /// too: the try has a budget of its own, the watcher one line.
    counts_into: Option<Arc<FurtherCounts>>,
    /// Databases a finished search left, with what each holds: the next
    /// design's search starts its worlds on them. On PostgreSQL a new one
    /// is a schema made and connections opened; a reused one is emptied.
    /// Dropped with the last watch that shares them, at the end of the
    /// check.
    spares: Arc<Spares>,
}

#[derive(Debug, Default)]
struct FurtherCounts {
    states: AtomicU64,
    tries: AtomicUsize,
    done: AtomicUsize,
    /// The tries running, by task, in words (`idempotent at 3 faults`).
    running: Mutex<BTreeMap<usize, String>>,
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// States found so far by every search: the designs' own and the
    /// tries one bound further (a try finds again some states its
    /// design's search found: the sum of the searches, not of the
    /// distinct states of one).
    pub states: u64,
    /// States waiting on the search stacks to be expanded further.
    pub queue: u64,
    pub designs_done: usize,
    pub designs: usize,
    /// The designs whose own search runs now, in design order.
    pub searching: Vec<String>,
    /// The tries one bound further, once they have started.
    pub further: Option<FurtherSeen>,
}

/// How the tries one bound further are going.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FurtherSeen {
    /// Distinct states the tries have found so far, all together.
    pub states: u64,
    pub done: usize,
    pub tries: usize,
    /// The tries running now, in words, in task order.
    pub running: Vec<String>,
}

impl Watch {
    pub fn new(max_states: u64) -> Self {
        Watch {
            max_states,
            states: Arc::default(),
            stacked: AtomicU64::new(0),
            designs_done: AtomicUsize::new(0),
            designs: AtomicUsize::new(0),
            searching: Mutex::default(),
            further: Arc::default(),
            counts_into: None,
            spares: Arc::default(),
        }
    }

    /// A watch of its own budget that shares this one's spare databases
    /// and counts its states into this one's: a design's tries one bound
    /// further start on the databases its own search left, instead of
    /// making new ones (on PostgreSQL, schemas and connections the server
    /// has few of), and the watcher sees their states as they are found.
    pub fn sharing(&self, max_states: u64) -> Self {
        Watch {
            states: Arc::clone(&self.states),
            spares: Arc::clone(&self.spares),
            counts_into: Some(Arc::clone(&self.further)),
            ..Watch::new(max_states)
        }
    }

    pub fn seen(&self) -> Seen {
        Seen {
            states: self.states.load(Ordering::Relaxed),
            queue: self.stacked.load(Ordering::Relaxed),
            designs_done: self.designs_done.load(Ordering::Relaxed),
            designs: self.designs.load(Ordering::Relaxed),
            searching: self
                .searching
                .lock()
                .map(|r| r.values().cloned().collect())
                .unwrap_or_default(),
            further: self.further_seen(),
        }
    }

    fn further_seen(&self) -> Option<FurtherSeen> {
        let f = &self.further;
        let tries = f.tries.load(Ordering::Relaxed);
        (tries > 0).then(|| FurtherSeen {
            states: f.states.load(Ordering::Relaxed),
            done: f.done.load(Ordering::Relaxed),
            tries,
            running: f
                .running
                .lock()
                .map(|r| r.values().cloned().collect())
                .unwrap_or_default(),
        })
    }

    /// Design `design`'s own search (`name`) has started.
    pub fn search_started(&self, design: usize, name: &str) {
        if let Ok(mut searching) = self.searching.lock() {
            searching.insert(design, name.to_string());
        }
    }

    /// Design `design`'s own search has ended (its tries may follow).
    pub fn search_done(&self, design: usize) {
        if let Ok(mut searching) = self.searching.lock() {
            searching.remove(&design);
        }
    }

    /// `tries` tries one bound further are to come.
    pub fn further_start(&self, tries: usize) {
        self.further.tries.store(tries, Ordering::Relaxed);
    }

    /// Try `task` (`what`, in words) has started.
    pub fn try_started(&self, task: usize, what: String) {
        if let Ok(mut running) = self.further.running.lock() {
            running.insert(task, what);
        }
    }

    /// Try `task` has ended.
    pub fn try_done(&self, task: usize) {
        if let Ok(mut running) = self.further.running.lock() {
            running.remove(&task);
        }
        self.further.done.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn start(&self, designs: usize) {
        self.designs.store(designs, Ordering::Relaxed);
    }

    pub(super) fn found_state(&self) {
        self.states.fetch_add(1, Ordering::Relaxed);
        if let Some(further) = &self.counts_into {
            further.states.fetch_add(1, Ordering::Relaxed);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The count a watcher shows moves with every state any search finds:
    /// a design's own search, before the design is done, and a try one
    /// bound further, whose states the headline once left out (the
    /// explorer's "11,151 states so far" stood still while the tries ran).
    #[test]
    fn a_search_in_progress_raises_the_states_seen_before_its_design_is_done() {
        let watch = Watch::new(100);
        watch.start(2);
        watch.search_started(0, "naive");
        watch.found_state();
        watch.found_state();
        let seen = watch.seen();
        assert_eq!((seen.states, seen.designs_done), (2, 0));
        assert_eq!(seen.searching, vec!["naive".to_string()]);
        watch.search_done(0);
        watch.further_start(1);
        watch.try_started(0, "idempotent at 3 faults".into());
        let try_watch = watch.sharing(100);
        try_watch.found_state();
        let seen = watch.seen();
        assert_eq!(seen.states, 3, "a try's state counts in the headline");
        assert_eq!(seen.further.map(|f| f.states), Some(1));
        assert_eq!(seen.designs_done, 0);
        assert!(seen.searching.is_empty(), "{:?}", seen.searching);
    }

    /// Without the new calls: a try's states alone, as the check makes them.
    #[test]
    fn a_tries_states_count_in_the_headline() {
        let watch = Watch::new(100);
        watch.found_state();
        let try_watch = watch.sharing(100);
        try_watch.found_state();
        try_watch.found_state();
        assert_eq!(watch.seen().states, 3);
    }
}
