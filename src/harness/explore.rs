//! Explore: every schedule of faults within stated bounds, fewest faults
//! first (breadth first), so the first schedule found for each outcome is
//! a shortest one. A schedule places each fault at a point of the run
//! without it; runs are deterministic, so a point found in a run is there
//! again when the run is repeated with one more fault after it.

use super::diagnosis::Diagnosis;
use super::faults::{Planned, Schedule};
use super::run::{self, Config, RunReport};
use crate::sim::message::Message;
use crate::sim::verdict::{Outcome, Verdict};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The bounds an exploration covers, stated in its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub messages: usize,
    pub instances: usize,
    pub faults: usize,
}

pub const MAX_MESSAGES: usize = 2;
pub const MAX_INSTANCES: usize = 2;
pub const MAX_FAULTS: usize = 2;

/// The messages an exploration publishes: distinct orders, distinct amounts.
pub fn messages(n: usize) -> Vec<Message> {
    (0..n)
        .map(|k| Message::payment(&format!("m-{}", k + 1), 1042 + k as u32, [40, 25][k % 2]))
        .collect()
}

/// The shortest schedule that ends in one outcome.
#[derive(Clone, Debug)]
pub struct Found {
    pub outcome: Outcome,
    pub schedule: Vec<Planned>,
    pub verdict: Verdict,
    /// Where it was found: how many schedules came before it, plus one.
    pub number: usize,
    /// The step of its run (counted from 1, as its replay counts them)
    /// that each point of the run fell in: the report names a fault's
    /// point beside its replay's step.
    pub steps: BTreeMap<usize, usize>,
}

impl Found {
    /// The schedule in words, each fault at its point and its replay's
    /// step: `lose-response at point 1 (replay step 3)`.
    pub fn describe(&self) -> String {
        super::faults::describe_with_steps(&self.schedule, "replay step", |point| {
            self.steps.get(&point).copied()
        })
    }
}

/// The step of `report`'s run, counted from 1 as its replay counts them,
/// of each point it answered (recorded or not). A point told over more
/// than one step is at its first.
pub fn point_steps(report: &RunReport) -> BTreeMap<usize, usize> {
    let mut steps = BTreeMap::new();
    for (i, point) in report.step_points.iter().enumerate() {
        if let Some(point) = point {
            steps.entry(*point).or_insert(i + 1);
        }
    }
    steps
}

#[derive(Clone, Debug)]
pub struct Explored {
    pub bounds: Bounds,
    pub schedules: usize,
    pub starts: u64,
    /// Schedules per outcome (a schedule with two wrong effects counts in both).
    pub counts: BTreeMap<Outcome, usize>,
    /// Schedules that counted under more than one outcome: the report
    /// says why its counts add up to more than `schedules` only when some did.
    pub several: usize,
    /// The shortest failing schedule per outcome, worst outcome first.
    pub failures: Vec<Found>,
}

/// A bad program stops the exploration: the schedule it broke on.
#[derive(Debug)]
pub struct Stopped {
    pub diagnosis: Diagnosis,
    pub schedule: Vec<Planned>,
}

pub fn explore(
    base: &Config,
    bounds: Bounds,
    workers: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Explored, Stopped> {
    let mut level: Vec<Vec<Planned>> = vec![Vec::new()];
    let mut explored = Explored {
        bounds,
        schedules: 0,
        starts: 0,
        counts: BTreeMap::new(),
        several: 0,
        failures: Vec::new(),
    };
    let mut found: BTreeMap<Outcome, Found> = BTreeMap::new();
    for depth in 0..=bounds.faults {
        let reports = run_all(base, &level, workers, explored.schedules, progress);
        let mut next = Vec::new();
        for (schedule, report) in level.iter().zip(reports) {
            explored.schedules += 1;
            let report = report.map_err(|diagnosis| Stopped {
                diagnosis,
                schedule: schedule.clone(),
            })?;
            explored.starts += u64::from(report.starts);
            let outcomes = report.verdict.outcomes();
            if outcomes.len() > 1 {
                explored.several += 1;
            }
            for outcome in outcomes {
                *explored.counts.entry(outcome).or_default() += 1;
                if outcome.is_failure() && !found.contains_key(&outcome) {
                    found.insert(
                        outcome,
                        Found {
                            outcome,
                            schedule: schedule.clone(),
                            verdict: report.verdict.clone(),
                            number: explored.schedules,
                            steps: point_steps(&report),
                        },
                    );
                }
            }
            if depth < bounds.faults {
                let after = schedule.last().map(|p| p.point);
                for point in &report.points {
                    if after.is_some_and(|a| point.index <= a) {
                        continue;
                    }
                    for fault in &point.faults {
                        let mut child = schedule.clone();
                        child.push(Planned {
                            point: point.index,
                            fault: *fault,
                        });
                        next.push(child);
                    }
                }
            }
        }
        level = next;
        if level.is_empty() {
            break;
        }
    }
    explored.failures = Outcome::FAILURES
        .iter()
        .filter_map(|o| found.remove(o))
        .collect();
    Ok(explored)
}

/// Runs schedules on `workers` threads, each in its own directory; the
/// reports come back in the schedules' order.
fn run_all(
    base: &Config,
    schedules: &[Vec<Planned>],
    workers: usize,
    done_before: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Result<RunReport, Diagnosis>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = std::sync::atomic::AtomicBool::new(false);
    let slots: Vec<Mutex<Option<Result<RunReport, Diagnosis>>>> =
        schedules.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for w in 0..workers.max(1) {
            let (next, done, failed, slots) = (&next, &done, &failed, &slots);
            scope.spawn(move || {
                let mut cfg = base.clone();
                cfg.dir = base.dir.join(format!("worker-{w}"));
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= schedules.len() || failed.load(Ordering::SeqCst) {
                        break;
                    }
                    let report = run::run(&cfg, &mut Schedule(&schedules[k]));
                    if report.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    *slots[k].lock().expect("slot") = Some(report);
                    progress(done_before + done.fetch_add(1, Ordering::SeqCst) + 1);
                }
            });
        }
    });
    // After a bad program, the schedules not run are not reported: the
    // first diagnosis in order ends the list.
    let mut out = Vec::new();
    for slot in slots {
        match slot.into_inner().expect("slot") {
            Some(report) => {
                let stop = report.is_err();
                out.push(report);
                if stop {
                    break;
                }
            }
            None => break,
        }
    }
    out
}
