//! What a dashboard watches while a soak runs: each design's figures as
//! they stand, the violations as they are found, and the controls the
//! dashboard works (pause, speed, stop). The engine threads write it every
//! few ticks; the dashboard reads a copy on its own thread.

use super::tally::Money;
use crate::scenario::Script;
use crate::sim::world::Counters;
use crate::sim::{Millis, Outcome};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Violations listed of each design; more are counted, not listed.
pub const MAX_LISTED: usize = 200;
/// Points the history lines keep: past it, neighbouring points merge, so
/// the whole run stays in view at a coarser grain.
pub const HISTORY: usize = 240;

/// The dashboard's hands on the engine.
#[derive(Debug, Default)]
pub struct Control {
    pub paused: AtomicBool,
    pub stop: AtomicBool,
    /// How long each design sleeps every `SLICE` ticks, in microseconds:
    /// 0 is as fast as it goes.
    pub delay_us: AtomicU64,
}

/// Ticks a design runs between two looks at the controls and two updates
/// of its figures.
pub const SLICE: u64 = 256;

impl Control {
    /// Waits while paused, then the speed's delay; true when told to stop.
    pub fn checkpoint(&self) -> bool {
        while self.paused.load(Ordering::Relaxed) && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let delay = self.delay_us.load(Ordering::Relaxed);
        if delay > 0 {
            std::thread::sleep(std::time::Duration::from_micros(delay));
        }
        self.stop.load(Ordering::Relaxed)
    }
}

/// One design's figures as they stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveDesign {
    pub design: String,
    pub published: u64,
    pub settled: u64,
    pub virtual_ms: Millis,
    pub counters: Counters,
    pub money: Money,
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Payments counted under more than one outcome: the outcomes add up
    /// to more than were judged by this many.
    pub overlapping: u64,
    /// Second messages of a payment made twice on purpose: settled, and
    /// judged with the first, so the outcomes add up to fewer than
    /// settled by this many.
    pub made_twice: u64,
    pub violations: u64,
    pub processed_rows: u64,
    pub pruned_rows: u64,
    /// Payments settled in each point's minutes of virtual time, oldest
    /// first, from minute `first_minute` on; a point covers
    /// `minutes_per_point` minutes (0 before the first point: read as 1).
    pub settled_per_minute: Vec<u64>,
    pub first_minute: u64,
    pub minutes_per_point: u64,
    /// Dollars charged beyond what was owed, at the end of each point.
    pub drift_per_minute: Vec<i64>,
    pub finished: bool,
}

impl LiveDesign {
    /// Minutes of virtual time one point of the history covers.
    pub fn span(&self) -> u64 {
        self.minutes_per_point.max(1)
    }

    /// Counts `payments` (one fact's) settled at `now` in its point of
    /// virtual time (the money already booked). The history holds the
    /// whole run in at most `HISTORY` points: when it would hold more,
    /// each two neighbours merge into one, so the growth from the start
    /// never scrolls away.
    pub fn settled_at(&mut self, now: Millis, payments: u64) {
        self.settled += payments;
        let minute = now / 60_000;
        let drift = self.money.charged as i64 - self.money.owed as i64;
        if self.settled_per_minute.is_empty() {
            self.first_minute = minute;
            self.minutes_per_point = 1;
        }
        // Virtual time never runs backwards, so `minute` is at or past
        // the first point.
        while minute.saturating_sub(self.first_minute) / self.span() >= HISTORY as u64 {
            self.merge_neighbours();
        }
        let i = (minute.saturating_sub(self.first_minute) / self.span()) as usize;
        // A quiet stretch keeps the drift it had.
        let before = self.drift_per_minute.last().copied().unwrap_or(0);
        while self.settled_per_minute.len() <= i {
            self.settled_per_minute.push(0);
            self.drift_per_minute.push(before);
        }
        self.settled_per_minute[i] += payments;
        self.drift_per_minute[i] = drift;
    }

    /// Halves the history's grain: settled payments add up, the drift is
    /// the later point's (each is the drift at its end).
    fn merge_neighbours(&mut self) {
        self.settled_per_minute = self
            .settled_per_minute
            .chunks(2)
            .map(|pair| pair.iter().sum())
            .collect();
        self.drift_per_minute = self
            .drift_per_minute
            .chunks(2)
            .map(|pair| *pair.last().expect("chunks are never empty"))
            .collect();
        self.minutes_per_point = self.span() * 2;
    }
}

/// One violation, the moment it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveViolation {
    pub design: String,
    pub outcome: Outcome,
    /// `order 1031 ($40)`.
    pub fact: String,
    /// The fact's verdict, which the dashboard draws with its own arrow.
    pub verdict: Arc<crate::sim::Verdict>,
    /// Virtual time it settled at.
    pub at_ms: Millis,
    /// Its story as a scenario, when it replays on its own to the same end
    /// (shared: the dashboard copies the list every frame).
    pub story: Option<Arc<Script>>,
}

/// The figures and violations, behind one lock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveState {
    /// Payments each design publishes.
    pub total: u64,
    /// The virtual time the producer takes to publish them all: what the
    /// progress line sizes its words for, once, before the run shows it.
    pub planned_ms: Millis,
    pub designs: Vec<LiveDesign>,
    pub violations: Vec<LiveViolation>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_the_whole_run_with_gaps_as_zero() {
        let mut d = LiveDesign::default();
        d.settled_at(10_000, 1);
        d.settled_at(50_000, 1);
        d.money.owed = 40;
        d.money.charged = 80;
        d.settled_at(190_000, 1);
        assert_eq!(d.settled_per_minute, [2, 0, 0, 1]);
        assert_eq!(d.drift_per_minute, [0, 0, 0, 40]);
        d.settled_at(60_000 * (HISTORY as u64 + 10), 1);
        // Past HISTORY points the grain halves: the start stays in view.
        assert!(d.settled_per_minute.len() <= HISTORY);
        assert_eq!(d.first_minute, 0);
        assert_eq!(d.span(), 2);
        assert_eq!(d.settled_per_minute[..2], [2, 1]);
        assert_eq!(d.settled_per_minute.iter().sum::<u64>(), 4);
        assert_eq!(d.drift_per_minute[1], 40);
        assert_eq!(d.settled, 4);
        // However long the run, the points stay bounded.
        d.settled_at(60_000 * 1_000_000, 1);
        assert!(d.settled_per_minute.len() <= HISTORY);
        // Its first point now spans thousands of minutes: all four early
        // payments (minutes 0, 0, 3 and 250) are in it.
        assert!(d.span() > 250);
        assert_eq!(d.settled_per_minute[0], 4);
        assert_eq!(d.settled_per_minute.iter().sum::<u64>(), 5);
    }
}

#[derive(Debug, Default)]
pub struct Live {
    pub state: Mutex<LiveState>,
    pub control: Control,
    /// Keeps the designs at the same point of the schedule.
    pub pace: Pace,
}

/// Under a dashboard the designs move through the schedule together, a
/// slice at a time, so that neither runs ahead of the other: the columns
/// side by side always stand at (nearly) the same point, and a stop (`q`)
/// ends every design after the very same ticks of the schedule, so that
/// the report still compares like with like (teacher trial: stopped at
/// ~95k, naive had published 53,850 and idempotent 40,696, set side by
/// side). Which slice the stop falls on is decided once, from the slices
/// reached, never from a clock.
#[derive(Debug, Default)]
pub struct Pace {
    state: Mutex<PaceState>,
    moved: Condvar,
}

#[derive(Debug, Default)]
struct PaceState {
    /// The last slice each design reached, and whether it is done.
    reached: Vec<u64>,
    done: Vec<bool>,
    /// The slice every design stops at, once a stop was asked for.
    stop_at: Option<u64>,
}

impl Pace {
    fn new(designs: usize) -> Self {
        Pace {
            state: Mutex::new(PaceState {
                reached: vec![0; designs],
                done: vec![false; designs],
                stop_at: None,
            }),
            moved: Condvar::new(),
        }
    }

    /// Design `i` has reached `slice`: waits until every other design that
    /// is still running has reached it too. `stop` says a stop was asked
    /// for. Returns the slice every design stops at, once there is one.
    pub fn reach(&self, i: usize, slice: u64, stop: &dyn Fn() -> bool) -> Option<u64> {
        let Ok(mut s) = self.state.lock() else {
            return None;
        };
        if let Some(r) = s.reached.get_mut(i) {
            *r = slice;
        }
        self.moved.notify_all();
        loop {
            if s.stop_at.is_none() && stop() {
                // A design that reached slice M may already be past its
                // first tick, and none has passed slice M + 1 (each waits
                // there for the slowest), so M + 1 is a point every design
                // can still stop at.
                let furthest = (0..s.reached.len())
                    .filter(|&j| !s.done[j])
                    .map(|j| s.reached[j])
                    .max()
                    .unwrap_or(slice);
                s.stop_at = Some(furthest + 1);
                self.moved.notify_all();
            }
            if s.stop_at.is_some_and(|at| slice >= at) {
                return s.stop_at;
            }
            let behind = (0..s.reached.len()).any(|j| j != i && !s.done[j] && s.reached[j] < slice);
            if !behind {
                return s.stop_at;
            }
            // Woken when another design moves; the timeout only re-reads
            // the stop, which the dashboard sets without this lock.
            s = match self
                .moved
                .wait_timeout(s, std::time::Duration::from_millis(10))
            {
                Ok((s, _)) => s,
                Err(_) => return None,
            };
        }
    }

    /// Design `i` runs no more: nobody waits for it.
    pub fn done(&self, i: usize) {
        if let Ok(mut s) = self.state.lock()
            && let Some(d) = s.done.get_mut(i)
        {
            *d = true;
        }
        self.moved.notify_all();
    }
}

impl Live {
    pub fn new(total: u64, designs: &[&str]) -> Self {
        let designs_len = designs.len();
        let designs = designs
            .iter()
            .map(|d| LiveDesign {
                design: d.to_string(),
                ..LiveDesign::default()
            })
            .collect();
        Live {
            state: Mutex::new(LiveState {
                total,
                planned_ms: 0,
                designs,
                violations: Vec::new(),
            }),
            control: Control::default(),
            pace: Pace::new(designs_len),
        }
    }

    /// A copy of the state, for drawing without holding the lock.
    pub fn snapshot(&self) -> LiveState {
        self.state.lock().map(|s| s.clone()).unwrap_or_default()
    }
}
