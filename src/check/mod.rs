//! `idem check`: every schedule within explicit bounds, for every strategy,
//! on the real engine and real SQLite. A strategy that claims an
//! exactly-once effect must survive all of them; every other one must show
//! the shortest schedule that breaks it.
//!
//! The step function is the simulator's own: `enabled` lists the moves,
//! `World::apply` makes them. The driver is breadth-first, so the first
//! failing state found of each kind is one a shortest schedule reaches.
//!
//! For a front end (the TUI's explorer):
//!
//! ```no_run
//! let report = idem::check::run(&idem::check::Bounds::default()).unwrap();
//! for row in &report.strategies {
//!     for cx in &row.counterexamples {
//!         // cx.moves: the schedule; cx.script: the same as a scenario,
//!         // ready for idem::timeline::Timeline::build.
//!         let _ = (&cx.moves, &cx.script);
//!     }
//! }
//! ```

mod bounds;
mod count;
mod counterexample;
mod enabled;
mod explore;
mod fingerprint;
pub mod further;
mod packed;
pub mod promise;
mod property;
mod report;
mod table;
mod watch;

pub use crate::sim::Outcome;
pub use bounds::Bounds;
pub use count::num;
pub use counterexample::{CounterStep, Counterexample, move_words};
pub use enabled::{Choice, Cost, Used, enabled, was_blocked};
pub use explore::SEED;
pub use property::{Eventually, Invariant, Kind, Witness};
pub use report::{CheckReport, EventuallyResult, InvariantResult, StrategyReport, WitnessResult};
pub use table::{REFUSED, WIDTH, render, render_at, table, table_at, wrap};
pub use watch::{DEFAULT_MAX_STATES, FurtherSeen, Seen, Watch};

use crate::sim::{SimError, Strategy};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error("no strategy named `{name}`; the strategies are {}", known.join(", "))]
    UnknownStrategy { name: String, known: Vec<String> },
    #[error(
        "bounds too large: {states} states explored for {strategy} without finishing; raise --max-states (now {max}) or narrow the bounds"
    )]
    Budget {
        strategy: String,
        states: u64,
        max: u64,
    },
}

/// Checks every strategy the bounds select (all of `Strategy::all()` by
/// default), strategies in parallel on the available cores, each one
/// deterministic on its own.
pub fn run(bounds: &Bounds) -> Result<CheckReport, CheckError> {
    run_watched(bounds, &Watch::default())
}

/// [`run`], counting into `watch` as it goes and stopping a design at its
/// state budget.
pub fn run_watched(bounds: &Bounds, watch: &Watch) -> Result<CheckReport, CheckError> {
    let strategies: Vec<Strategy> = match &bounds.strategy {
        None => Strategy::all(),
        Some(name) => vec![
            Strategy::by_name(name).ok_or_else(|| CheckError::UnknownStrategy {
                name: name.clone(),
                known: Strategy::names().into_iter().map(String::from).collect(),
            })?,
        ],
    };
    run_designs(&strategies, bounds, watch)
}

/// [`run_watched`] for the given designs, which need not be built in (a
/// design file, a level): `bounds.strategy` is not consulted.
pub fn run_designs(
    strategies: &[Strategy],
    bounds: &Bounds,
    watch: &Watch,
) -> Result<CheckReport, CheckError> {
    watch.start(strategies.len());
    let started = Instant::now();
    // First every design's own search, then every further try of the
    // designs that held, each a task of its own: a design's two tries run
    // side by side instead of one after the other (on PostgreSQL a try
    // waits on the server most of its time).
    // A design with no try to come is done when its own search ends, so
    // that the count of designs done moves during the searches too.
    let widenings = |i: usize, report: &StrategyReport| {
        if report.claims_safe && !report.broken() && !report.vacuous() {
            further::widenings(&strategies[i], &bounds.for_strategy(&strategies[i]))
        } else {
            Vec::new()
        }
    };
    let mains = in_parallel(strategies.len(), |i| {
        watch.search_started(i, &strategies[i].name);
        let report = check_once(&strategies[i], bounds, watch);
        watch.search_done(i);
        if report.as_ref().is_ok_and(|r| widenings(i, r).is_empty()) {
            watch.design_done();
        }
        report
    })?;
    let mut tries: Vec<(usize, (further::Widening, Bounds))> = Vec::new();
    for (i, report) in mains.iter().enumerate() {
        for widening in widenings(i, report) {
            tries.push((i, widening));
        }
    }
    // The designs with the most states first: their tries take longest,
    // and started last they would keep one core busy after the others end.
    tries.sort_by_key(|(i, _)| (std::cmp::Reverse(mains[*i].states), *i));
    let left: Vec<AtomicUsize> = (0..strategies.len())
        .map(|i| AtomicUsize::new(tries.iter().filter(|(d, _)| *d == i).count()))
        .collect();
    watch.further_start(tries.len());
    let found = in_parallel(tries.len(), |k| {
        let (i, widening) = &tries[k];
        let what = further::place_of(widening);
        watch.try_started(k, format!("{} {what}", strategies[*i].name));
        let out = further::try_one(&strategies[*i], widening.clone(), watch, check_once);
        watch.try_done(k);
        if left[*i].fetch_sub(1, Ordering::Relaxed) == 1 {
            watch.design_done();
        }
        out
    })?;
    let mut strategies = mains;
    for ((i, _), f) in tries.iter().zip(found) {
        strategies[*i].further.push(f);
    }
    Ok(CheckReport {
        bounds: bounds.clone(),
        strategies,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `task(0..n)` on as many threads as there are cores, the results in task
/// order. A task that fails stops the ones not yet started: the whole
/// check fails with the first failure in task order (a design over its
/// budget, a lost server).
fn in_parallel<T: Send>(
    n: usize,
    task: impl Fn(usize) -> Result<T, CheckError> + Sync,
) -> Result<Vec<T>, CheckError> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |c| c.get())
        .min(n)
        .max(1);
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Result<T, CheckError>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let result = task(i);
                        let stop = result.is_err();
                        out.push((i, result));
                        if stop {
                            next.store(n, Ordering::Relaxed);
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a checker thread panicked"))
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Explores every schedule of one strategy within the bounds.
pub fn check_strategy(
    strategy: &Strategy,
    requested: &Bounds,
) -> Result<StrategyReport, CheckError> {
    check_watched(strategy, requested, &Watch::default())
}

/// [`check_strategy`], counting into `watch` and stopping at its budget.
/// A design that claims to be safe and holds is tried one bound further
/// (`further`), so that its claim can name what lies just past its bounds.
pub fn check_watched(
    strategy: &Strategy,
    requested: &Bounds,
    watch: &Watch,
) -> Result<StrategyReport, CheckError> {
    let mut report = check_once(strategy, requested, watch)?;
    if report.claims_safe && !report.broken() && !report.vacuous() {
        let used = requested.for_strategy(strategy);
        report.further = further::tries(strategy, &used, watch, check_once)?;
    }
    Ok(report)
}

/// One design's own search within `requested`, with no try one bound
/// further: what a check of it says before it widens its bounds.
pub fn search(strategy: &Strategy, requested: &Bounds) -> Result<StrategyReport, CheckError> {
    check_once(strategy, requested, &Watch::default())
}

/// Where `bounds` step outside what the design assumes, in words.
fn outside(strategy: &Strategy, bounds: &Bounds) -> Option<String> {
    let broken: Vec<&str> = strategy
        .assumptions()
        .into_iter()
        .filter(|a| bounds.retries > 0 && !a.allows_retries())
        .map(|a| a.text())
        .collect();
    (!broken.is_empty()).then(|| {
        format!(
            "a producer retry publishes a second record of a payment, and {} assumes {}",
            strategy.name,
            broken.join("; and ")
        )
    })
}

/// One exploration within `requested` (as the design's own bounds make
/// them), with no further try.
fn check_once(
    strategy: &Strategy,
    requested: &Bounds,
    watch: &Watch,
) -> Result<StrategyReport, CheckError> {
    let started = Instant::now();
    let bounds = &requested.for_strategy(strategy);
    let graph = explore::explore(strategy, bounds, watch)?;
    let counts = graph.path_counts();
    let mut outcomes: BTreeMap<Outcome, u64> = BTreeMap::new();
    let mut first_class: BTreeMap<Outcome, u32> = BTreeMap::new();
    let mut first_broken: BTreeMap<Invariant, u32> = BTreeMap::new();
    let mut first_seen: BTreeMap<Witness, u32> = BTreeMap::new();
    let mut schedules: u64 = 0;
    let mut unfinishable: u64 = 0;
    // Breadth-first order, so the first state found with a property is one
    // of the nearest to the start.
    for &i in &graph.order {
        let node = &graph.nodes[i as usize];
        for inv in Invariant::ALL {
            if node.judgement.broken & inv.bit() != 0 {
                first_broken.entry(inv).or_insert(i);
            }
        }
        for w in Witness::ALL {
            if node.judgement.witnessed & w.bit() != 0 {
                first_seen.entry(w).or_insert(i);
            }
        }
        let Some(worst) = node.worst else {
            continue;
        };
        let weight = counts.as_ref().map_or(1, |c| c[i as usize]);
        schedules = schedules.saturating_add(weight);
        // A run counts under every outcome it ends with (charged twice and
        // provider and database disagree: both columns), as its verdict
        // lists them; a run with no wrong effect under its one outcome.
        let wrong: Vec<Outcome> = Outcome::FAILURES
            .into_iter()
            .filter(|o| node.classes & o.bit() != 0)
            .collect();
        if !wrong.is_empty() && node.unfinishable {
            unfinishable = unfinishable.saturating_add(weight);
        }
        let ends = if wrong.is_empty() { vec![worst] } else { wrong };
        for class in ends {
            let entry = outcomes.entry(class).or_insert(0);
            *entry = entry.saturating_add(weight);
        }
        for class in Outcome::ALL {
            if node.classes & class.bit() != 0 {
                first_class.entry(class).or_insert(i);
            }
        }
    }
    let mut counterexamples: Vec<Counterexample> = Vec::new();
    for class in Outcome::FAILURES {
        if let Some(&node) = first_class.get(&class) {
            counterexamples.push(Counterexample::build(
                strategy,
                bounds,
                class,
                graph.path(node),
            )?);
        }
    }
    let kind = bounds.kind();
    let invariants = Invariant::of(kind)
        .filter(|inv| inv.applies_to(&strategy.program))
        .map(|inv| InvariantResult {
            invariant: inv,
            text: inv.text().to_string(),
            holds: !first_broken.contains_key(&inv),
            shortest: first_broken.get(&inv).map(|&n| graph.path(n)),
        })
        .collect();
    let witnesses = Witness::ALL
        .into_iter()
        .map(|w| WitnessResult {
            witness: w,
            text: w.text().to_string(),
            seen: first_seen.contains_key(&w),
            required: w != Witness::SameMessageTwice
                || (bounds.consumers >= 2 && bounds.early_expiries + bounds.retries > 0),
            depth: first_seen.get(&w).map(|&n| graph.nodes[n as usize].depth),
        })
        .collect();
    let failing = report::failing(&outcomes, schedules);
    let eventually = EventuallyResult {
        property: Eventually::of(kind),
        text: Eventually::of(kind).text().to_string(),
        holds: failing == 0,
        failing,
    };
    Ok(StrategyReport {
        strategy: strategy.name.to_string(),
        summary: strategy.summary.to_string(),
        claims_safe: strategy.claims_safe,
        messages: bounds
            .setup()
            .messages
            .iter()
            .map(|m| match &m.status {
                Some(update) => format!(
                    "{} (order {} is {}, version {})",
                    m.id, m.payment.order, update.status, update.version
                ),
                None => format!(
                    "{} (order {}, ${})",
                    m.id, m.payment.order, m.payment.amount
                ),
            })
            .collect(),
        bounds: (bounds != requested).then(|| bounds.clone()),
        schedules,
        schedules_counted: counts.is_some(),
        states: graph.nodes.len() as u64,
        transitions: graph.transitions,
        replays: graph.replays,
        max_depth: graph.nodes.iter().map(|n| n.depth).max().unwrap_or(0),
        truncated: graph.truncated,
        outcomes,
        unfinishable,
        kind,
        invariants,
        eventually,
        witnesses,
        counterexamples,
        assumptions: strategy.assumptions(),
        outside: outside(strategy, bounds),
        further: Vec::new(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
