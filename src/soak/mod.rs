//! `idem soak`: the pattern at production scale. Producers publish many
//! payments, several consumers per design handle them on one SQLite
//! database, faults fire at given rates, and several designs run the very
//! same schedule side by side, each on its own database. It streams: no
//! frames are kept, and a fact's story only while the fact is live.

pub mod driver;
pub mod faults;
pub mod live;
pub mod promise;
pub mod report;
pub mod schedule;
pub mod story;
pub mod tally;
pub mod workload;

pub use driver::DesignRun;
pub use faults::{FaultKind, FaultRates};
pub use live::Live;
pub use report::{Measured, SoakReport};
pub use workload::Mix;

use crate::sim::world::Setup;
use crate::sim::{Millis, SimError, Strategy};
use schedule::Plan;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

/// At most this many consumers per design: a story must fit a scenario file.
pub const MAX_CONSUMERS: usize = crate::scenario::limits::MAX_CONSUMERS;
/// At most this many payments in one soak, and over all its designs
/// together (`--messages` × designs). The bound is time and memory: each
/// design's database keeps its payments. 2,000,000 under two designs took
/// 146 MB at its peak and 228 CPU-seconds (measured on the project machine,
/// loaded); 10,000,000 under all 12 designs had run some 44 minutes and
/// taken 4 GB without a word.
pub const MAX_MESSAGES: u64 = 4_000_000;

/// Everything a soak is run from.
#[derive(Clone, Debug)]
pub struct Config {
    pub designs: Vec<Strategy>,
    pub messages: u64,
    pub consumers: usize,
    pub seed: u64,
    pub faults: FaultRates,
    pub mix: Mix,
    pub retention_ms: Option<Millis>,
    /// Each design's database goes to a file named after this one.
    pub db: Option<PathBuf>,
    /// Each design on a schema of its own on this PostgreSQL server
    /// instead (dropped when the design's run ends).
    pub postgres: Option<crate::sim::db::PgUrl>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            designs: vec![Strategy::naive(), Strategy::idempotent()],
            messages: 10_000,
            consumers: 3,
            seed: 0,
            faults: FaultRates::default(),
            mix: Mix::default(),
            retention_ms: None,
            db: None,
            postgres: None,
        }
    }
}

/// The world every design starts from: the broker's and the provider's
/// settings of the scenarios, one handler step a tenth of a second.
pub fn setup(consumers: usize) -> Setup {
    Setup {
        consumers: (0..consumers)
            .map(|i| char::from(b'A' + i as u8).to_string())
            .collect(),
        step_ms: 100,
        ..Setup::default()
    }
}

/// The database file of one design: `soak.db` gives `soak-naive.db`.
pub fn db_file(db: &Path, design: &str) -> PathBuf {
    let stem = db
        .file_stem()
        .map_or_else(Default::default, |s| s.to_string_lossy().into_owned());
    let name = match db.extension() {
        Some(ext) => format!("{stem}-{design}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{design}"),
    };
    db.with_file_name(name)
}

/// The settings echoed at the top of a report.
#[derive(Clone, Debug, Serialize)]
pub struct Echo {
    pub messages: u64,
    pub consumers: usize,
    pub seed: u64,
    pub designs: Vec<String>,
    pub faults: String,
    /// The same rates as a reader says them (`crash 0.5%, lost ack 1%`),
    /// for the text report; the JSON keeps the `--faults` form above.
    #[serde(skip)]
    pub fault_words: String,
    pub mix: String,
    pub retention: Option<String>,
    pub lease: String,
    pub step: String,
    /// Ticks between two payments published.
    pub gap: u64,
    /// The engine, when it is not the default SQLite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<&'static str>,
}

#[derive(Debug, thiserror::Error)]
pub enum SoakError {
    #[error("{design}: {source}")]
    Sim { design: String, source: SimError },
    #[error("{0}")]
    Config(String),
}

impl Config {
    pub fn check(&self) -> Result<(), SoakError> {
        let bad = |m: String| Err(SoakError::Config(m));
        if !(1..=MAX_MESSAGES).contains(&self.messages) {
            return bad(format!(
                "--messages: from 1 to {}",
                crate::check::num(MAX_MESSAGES)
            ));
        }
        let in_all = self.messages.saturating_mul(self.designs.len() as u64);
        if in_all > MAX_MESSAGES {
            return bad(format!(
                "--messages {} under {} designs is {} payments in all; a soak runs at most {} (about 150 MB and a few minutes): lower --messages or run fewer designs",
                crate::check::num(self.messages),
                self.designs.len(),
                crate::check::num(in_all),
                crate::check::num(MAX_MESSAGES)
            ));
        }
        if !(1..=MAX_CONSUMERS).contains(&self.consumers) {
            return bad(format!("--consumers: from 1 to {MAX_CONSUMERS}"));
        }
        if self.designs.is_empty() {
            return bad("--mode: at least one design".into());
        }
        if self.mix.amounts.is_empty() {
            return bad("--amounts: at least one amount".into());
        }
        for (i, d) in self.designs.iter().enumerate() {
            if self.designs[..i].iter().any(|e| e.name == d.name) {
                return bad(format!("--mode: {} is given twice", d.name));
            }
        }
        self.check_db()
    }

    /// `--db`: the given name and every design's file by `run --db`'s
    /// rules, all before the first is created, so a refusal of a later
    /// design's file leaves nothing behind.
    fn check_db(&self) -> Result<(), SoakError> {
        use crate::sim::db_file as rules;
        let Some(db) = &self.db else { return Ok(()) };
        if self.postgres.is_some() {
            return Err(SoakError::Config(
                "--db: a file and a PostgreSQL server at once; name one".into(),
            ));
        }
        let refused = |e: rules::DbFileError| SoakError::Config(e.to_string());
        rules::check_name(db).map_err(refused)?;
        for design in &self.designs {
            rules::inspect(&db_file(db, &design.name)).map_err(refused)?;
        }
        Ok(())
    }

    fn plan(&self, setup: &Setup) -> Plan {
        // Over the built-in designs too, so that a design meets the same
        // schedule whichever others run beside it; only a design file with a
        // longer handler slows the producer down.
        let longest = self
            .designs
            .iter()
            .chain(&Strategy::all())
            .map(|d| d.program.len())
            .max()
            .unwrap_or(1) as u64;
        Plan {
            messages: self.messages,
            consumers: self.consumers,
            rates: self.faults.clone(),
            mix: self.mix.clone(),
            // Two handler runs' worth of ticks. One consumer acts per tick,
            // and a conflict on the write lock or a fault costs ticks of
            // its own: at one run and a quarter the idempotent design fell
            // behind, and its queue (and the soak's memory) grew without end.
            gap: longest * 2,
            lease_ms: setup.lease_ms,
            step_ms: setup.step_ms,
            retention_ms: self.retention_ms,
        }
    }

    /// The virtual time the producer takes to publish every payment.
    pub fn planned_ms(&self) -> Millis {
        let setup = setup(self.consumers);
        let plan = self.plan(&setup);
        plan.messages
            .saturating_mul(plan.gap)
            .saturating_mul(plan.step_ms)
    }

    pub fn echo(&self) -> Echo {
        let setup = setup(self.consumers);
        Echo {
            messages: self.messages,
            consumers: self.consumers,
            seed: self.seed,
            designs: self.designs.iter().map(|d| d.name.to_string()).collect(),
            faults: self.faults.to_string(),
            fault_words: self.faults.words(),
            mix: self.mix.describe(),
            retention: self.retention_ms.map(crate::sim::format_duration),
            lease: crate::sim::format_duration(setup.lease_ms),
            step: crate::sim::format_duration(setup.step_ms),
            gap: self.plan(&setup).gap,
            engine: self
                .postgres
                .as_ref()
                .map(|_| crate::sim::db::Engine::Postgres.name()),
        }
    }
}

/// Runs every design, each on a thread of its own with its own copy of the
/// schedule (drawn from the same seed, so the same). `progress` counts
/// payments published over all designs.
pub fn run(config: &Config, progress: &AtomicU64) -> Result<SoakReport, SoakError> {
    run_live(config, progress, None)
}

/// `run`, with a dashboard watching `live` (made by `Live::new` with the
/// designs in the config's order) and working its controls.
pub fn run_live(
    config: &Config,
    progress: &AtomicU64,
    live: Option<&Live>,
) -> Result<SoakReport, SoakError> {
    config.check()?;
    if let Some(Ok(mut state)) = live.map(|l| l.state.lock()) {
        state.planned_ms = config.planned_ms();
    }
    let started = Instant::now();
    let results: Vec<Result<(DesignRun, Duration), SoakError>> = std::thread::scope(|s| {
        let handles: Vec<_> = config
            .designs
            .iter()
            .enumerate()
            .map(|(i, design)| {
                s.spawn(move || {
                    let began = Instant::now();
                    let mut setup = setup(config.consumers);
                    setup.db_file = config.db.as_deref().map(|db| db_file(db, &design.name));
                    // World::new gives the design a schema of its own.
                    setup.postgres = config.postgres.clone();
                    let plan = config.plan(&setup);
                    let wrap = |source| SoakError::Sim {
                        design: design.name.to_string(),
                        source,
                    };
                    let driver = driver::Driver::new(
                        setup,
                        design.clone(),
                        plan,
                        config.seed,
                        progress,
                        live.map(|l| (l, i)),
                    )
                    .map_err(wrap)?;
                    let run = driver.run().map_err(wrap)?;
                    Ok((run, began.elapsed()))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut designs = Vec::new();
    let mut times = Vec::new();
    for r in results {
        let (run, elapsed) = r?;
        times.push((run.design.clone(), run.published, elapsed));
        designs.push(run);
    }
    Ok(SoakReport {
        config: config.echo(),
        designs,
        measured: Measured::new(times, started.elapsed()),
    })
}
