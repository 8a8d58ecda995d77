//! `idem soak`: parses its flags into a soak configuration, runs it with a
//! progress bar on stderr, prints the report and writes the stories of the
//! violations found with `--save`.

use super::choose::strategy_name;
use super::db_arg::{DbArg, clean_up_on_signal, db_arg};
use super::exit::{Exit, input_error};
use super::output::{Format, emit, note};
use super::save;
use super::width;
use anyhow::Result;
use clap::Args;
use idem::sim::{Strategy, parse_duration};
use idem::soak::{self, Config, FaultRates, Mix};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

#[derive(Args)]
pub struct SoakArgs {
    /// A design to soak; give it again for more, side by side on the same
    /// schedule (default: naive and idempotent).
    #[arg(long, value_parser = strategy_name)]
    mode: Vec<String>,
    /// Payments the producers publish.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    messages: u64,
    /// Consumers per design, all on that design's one database (1 to 8).
    #[arg(long, default_value_t = 3, value_name = "K")]
    consumers: usize,
    /// Seeds the schedule and the interleaving; same seed, same report.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Chance per payment of each fault: crash, lose-ack, lose-response,
    /// slow, republish, expire (`crash=0.5%,lose-ack=1%`, or `none`).
    #[arg(long, default_value = soak::faults::DEFAULT, value_parser = FaultRates::parse)]
    faults: FaultRates,
    /// The amounts payments are drawn from, in dollars.
    #[arg(long, default_value = "5,12,20,40,75,120,250", value_parser = Mix::parse_amounts)]
    amounts: ::std::vec::Vec<u32>,
    /// Share of payments a customer genuinely makes twice (two messages,
    /// both owed).
    #[arg(long, default_value = "1%", value_parser = |t: &str| Mix::parse_share("--identical", t))]
    identical: u32,
    /// Share of payments that are the second part of the order before.
    #[arg(long, default_value = "2%", value_parser = |t: &str| Mix::parse_share("--same-order", t))]
    same_order: u32,
    /// Delete processed IDs older than this (virtual time: 30m, 1h); the
    /// report says how many late duplicates that let through.
    #[arg(long, value_name = "AGE", value_parser = retention)]
    retention: Option<u64>,
    /// Keep each design's database in a file named after this one
    /// (soak.db: soak-naive.db, soak-idempotent.db), same rules as `run --db`.
    /// Or run on a PostgreSQL server: postgres://USER@HOST:PORT/DB (each
    /// design in a schema of its own, dropped at the end).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<std::ffi::OsString>,
    /// The report only, no live dashboard (also when stdout is not a
    /// terminal): a progress bar on stderr, then the report.
    #[arg(long)]
    headless: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the story of the first violation of each outcome, per design,
    /// as a scenario file that `idem run --check` replays.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
}

fn retention(text: &str) -> Result<u64, String> {
    match parse_duration(text) {
        Some(0) => Err("a retention of 0s would forget every ID at once".into()),
        Some(ms) => Ok(ms),
        None => Err(format!(
            "`{text}` is not a duration (write 30m, 1h, 2d; at most 366d)"
        )),
    }
}

impl SoakArgs {
    pub fn run(&self, ascii: bool) -> Result<ExitCode> {
        soak(self, ascii)
    }
}

fn soak(args: &SoakArgs, ascii: bool) -> Result<ExitCode> {
    let designs = if args.mode.is_empty() {
        vec![Strategy::naive(), Strategy::idempotent()]
    } else {
        args.mode
            .iter()
            .filter_map(|m| Strategy::by_name(m))
            .collect()
    };
    let (file, postgres) = match args.db.as_deref().map(db_arg).transpose()? {
        None => (None, None),
        Some(DbArg::File(path)) => (Some(path), None),
        Some(DbArg::Postgres(url)) => {
            clean_up_on_signal();
            (None, Some(*url))
        }
    };
    let config = Config {
        designs,
        messages: args.messages,
        consumers: args.consumers,
        seed: args.seed,
        faults: args.faults.clone(),
        mix: Mix {
            amounts: args.amounts.clone(),
            identical_ppm: args.identical,
            same_order_ppm: args.same_order,
        },
        retention_ms: args.retention,
        db: file.clone(),
        postgres,
    };
    config.check().map_err(input_error)?;
    use std::io::IsTerminal;
    let report = if args.headless || !std::io::stdout().is_terminal() {
        with_progress(&config)?
    } else {
        with_dashboard(&config, ascii)?
    };
    let text = match args.format {
        // Wrapped as `idem check` wraps: to the reader's terminal, or the
        // fixed width for a file or a pipe, at word ends, indented after.
        Format::Text => report.text_at(width::text_width(idem::check::WIDTH)),
        Format::Json => report.json(),
    };
    emit(&text)?;
    if let Some(db) = &file {
        for d in &report.designs {
            note(&format!(
                "idem: the {} database is in {} (open it with sqlite3)",
                d.design,
                soak::db_file(db, &d.design).display()
            ));
        }
    }
    // A design that promises to be safe and broke is news, as in `idem check`;
    // outside what it assumes, the report says why instead.
    let broken = report.designs.iter().any(|d| {
        Strategy::by_name(&d.design).is_some_and(|s| s.claims_safe)
            && d.outside.is_none()
            && d.tally.violations() > 0
    });
    let saved = match &args.save {
        Some(dir) => save_stories(&report, dir),
        None => Ok(()),
    };
    save::verdict_then_save(broken, saved)
}

/// Each example story as a scenario file in `dir`, and a line saying how
/// many were new.
fn save_stories(report: &soak::SoakReport, dir: &std::path::Path) -> Result<()> {
    // One story can be the example of two outcomes (charged twice,
    // provider and database disagree): one file.
    let files: Vec<(String, String)> = report
        .designs
        .iter()
        .flat_map(|d| d.tally.examples.values())
        .filter_map(|e| Some((e.story.clone()?, e.story_text.clone()?)))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .collect();
    let new = save::save_all(dir, &files).map_err(|e| input_error(format!("{e:#}")))?;
    note(&format!(
        "idem: {} stories in {} ({new} new)",
        files.len(),
        dir.display()
    ));
    Ok(())
}

/// Runs the soak under the live dashboard; the report follows on stdout.
fn with_dashboard(config: &Config, ascii: bool) -> Result<soak::SoakReport> {
    let options = idem::tui::Options {
        animation: false,
        ascii,
        color: idem::tui::theme::Theme::color_from_env(std::env::var_os("NO_COLOR")),
    };
    let watched = idem::tui::soak::run::dashboard(config, options, idem::export::moment::save)?;
    note(&format!(
        "idem: the dashboard drew {} frames in {:.1} s ({:.0} a second)",
        watched.frames,
        watched.seconds,
        watched.frames as f64 / watched.seconds.max(1e-9)
    ));
    watched.report.map_err(|e| {
        anyhow::Error::new(Exit {
            code: 2,
            message: e.to_string(),
        })
    })
}

/// Runs the soak while a progress bar on stderr counts the payments
/// published over all designs (hidden when stderr is not a terminal).
fn with_progress(config: &Config) -> Result<soak::SoakReport> {
    let published = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let total = config.messages * config.designs.len() as u64;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} soak {bar:30} {human_pos}/{human_len} payments published · {elapsed_precise} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let n = published.load(Ordering::Relaxed);
                bar.set_position(n);
                if n == total {
                    // The last retries and leases still have to play out.
                    bar.set_message("· settling the last payments");
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let report = soak::run(config, &published);
        done.store(true, Ordering::Relaxed);
        report
    });
    bar.finish_and_clear();
    report.map_err(|e| {
        anyhow::Error::new(Exit {
            code: 2,
            message: e.to_string(),
        })
    })
}
