//! `idem check`: explores every schedule within bounds for each design and
//! prints the table and the shortest runs that break them.

use super::check_progress;
use super::choose::strategy_name;
use super::exit::input_error;
use super::output::{Format, emit, note};
use super::save;
use super::width;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `idem check`; a bound left out keeps its default (printed).
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Check only this strategy.
    #[arg(long, value_parser = strategy_name)]
    strategy: Option<String>,
    /// Check your own design, read from this file, instead of the built-in
    /// ones (its counterexamples cannot be saved: --save names built-in
    /// designs only).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["strategy", "save"])]
    design: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write each counterexample as a scenario file into this directory.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Competing consumers (1 to 4).
    #[arg(long)]
    consumers: Option<usize>,
    /// Distinct messages published at the start (1 to 3).
    #[arg(long)]
    messages: Option<usize>,
    /// Crashes per consumer.
    #[arg(long)]
    crashes: Option<u32>,
    /// Lost acks per schedule.
    #[arg(long)]
    lost_acks: Option<u32>,
    /// Lost provider responses per schedule.
    #[arg(long)]
    lost_responses: Option<u32>,
    /// Leases that run out while their holder still works (a slow consumer).
    #[arg(long)]
    expiries: Option<u32>,
    /// Producer retries (second copies published).
    #[arg(long)]
    retries: Option<u32>,
    /// Faults of all kinds together in one schedule.
    #[arg(long)]
    faults: Option<u32>,
    /// Receives before the broker dead-letters a message.
    #[arg(long)]
    max_receives: Option<u32>,
    /// Treat identical consumers as distinct (slower; for cross-checking).
    #[arg(long)]
    no_symmetry: bool,
    /// Stop with exit 2 when one design's search finds more distinct states
    /// than this (bounds too large to finish).
    #[arg(long, value_name = "N", default_value_t = idem::check::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Replay every schedule on a PostgreSQL server,
    /// postgres://USER@HOST:PORT/DB (schemas of the check's own, dropped
    /// at the end); SQLite in memory without it.
    #[arg(long, value_name = "URL")]
    db: Option<String>,
}

impl CheckArgs {
    pub fn run(&self) -> Result<ExitCode> {
        check(self)
    }
}

fn check(args: &CheckArgs) -> Result<ExitCode> {
    use idem::check::{self, Bounds};
    let d = Bounds::default();
    let bounds = Bounds {
        consumers: args.consumers.unwrap_or(d.consumers),
        messages: args.messages.unwrap_or(d.messages),
        crashes: args.crashes.unwrap_or(d.crashes),
        lost_acks: args.lost_acks.unwrap_or(d.lost_acks),
        lost_responses: args.lost_responses.unwrap_or(d.lost_responses),
        early_expiries: args.expiries.unwrap_or(d.early_expiries),
        retries: args.retries.unwrap_or(d.retries),
        max_faults: args.faults.unwrap_or(d.max_faults),
        max_receives: args.max_receives.unwrap_or(d.max_receives),
        symmetry: !args.no_symmetry,
        strategy: args.strategy.clone(),
        postgres: super::db_arg::postgres_only(args.db.as_deref())?,
        ..d
    };
    if !(1..=Bounds::MAX_CONSUMERS).contains(&bounds.consumers) {
        return Err(input_error(format!(
            "--consumers must be 1 to {}",
            Bounds::MAX_CONSUMERS
        )));
    }
    if !(1..=Bounds::MAX_MESSAGES).contains(&bounds.messages) {
        return Err(input_error(format!(
            "--messages must be 1 to {}",
            Bounds::MAX_MESSAGES
        )));
    }
    if bounds.max_receives == 0 {
        return Err(input_error("--max-receives must be at least 1"));
    }
    if args.max_states == 0 {
        return Err(input_error("--max-states must be at least 1"));
    }
    let watch = check::Watch::new(args.max_states);
    let before = memory_kib("VmRSS:");
    let mine = match &args.design {
        Some(path) => Some(
            idem::scenario::design_file::load_warned(path)
                .map(super::choose::warned)
                .map_err(input_error)?,
        ),
        None => None,
    };
    let report = match check_progress::shown_while(&watch, || match &mine {
        Some(design) => check::run_designs(std::slice::from_ref(design), &bounds, &watch),
        None => check::run_watched(&bounds, &watch),
    }) {
        Ok(report) => report,
        Err(e @ check::CheckError::Budget { .. }) => return Err(input_error(e)),
        Err(e) => return Err(anyhow::anyhow!(e)),
    };
    match args.format {
        Format::Text => emit(&check::render_at(&report, width::text_width(check::WIDTH)))?,
        Format::Json => emit(&format!("{}\n", report.to_json()))?,
    }
    // What a state costs, to size --max-states: the peak the searches
    // reached over what the process held before, per state of the largest
    // search (each design's search is freed before the next).
    let largest = report
        .strategies
        .iter()
        .map(|s| s.states)
        .max()
        .unwrap_or(0);
    if let (Some(before), Some(peak)) = (before, memory_kib("VmHWM:"))
        && largest > 0
    {
        let grown = peak.saturating_sub(before) * 1024;
        note(&format!(
            "idem: peak memory {:.1} MiB, {} bytes per state (largest search: {largest} states)",
            peak as f64 / 1024.0,
            grown / largest
        ));
    }
    let saved = match &args.save {
        Some(dir) => save_counterexamples(&report, dir),
        None => Ok(()),
    };
    save::verdict_then_save(!report.passed(), saved)
}

/// Each counterexample as a scenario file in `dir`, and a line saying how
/// many were new.
fn save_counterexamples(report: &idem::check::CheckReport, dir: &std::path::Path) -> Result<()> {
    let files: Vec<(String, String)> = report
        .strategies
        .iter()
        .flat_map(|s| &s.counterexamples)
        .map(|cx| (cx.file_name(), cx.to_toml()))
        .collect();
    let saved = save::save_all(dir, &files).map_err(|e| input_error(format!("{e:#}")))?;
    let kept = files.len() - saved;
    note(&format!(
        "idem: saved {saved} counterexample scenario{} to {}{} (replay: idem run <file> --mode <design> --check)",
        if saved == 1 { "" } else { "s" },
        dir.display(),
        if kept > 0 {
            format!(", {kept} already there with the same text")
        } else {
            String::new()
        }
    ));
    Ok(())
}

/// A figure from /proc/self/status in KiB (`VmRSS:` now, `VmHWM:` the
/// peak), where the platform has it.
fn memory_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}
