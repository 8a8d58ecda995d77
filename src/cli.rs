//! Command-line parsing and dispatch. Exit codes: 0 fine, 1 a run missed its
//! expectation (with --check) or validation found errors, 2 usage or input
//! errors.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use idem::report;
use idem::scenario::{self, Script, load::LoadError};
use idem::sim::Strategy;
use idem::timeline::Timeline;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "idem",
    version,
    about = "The Idempotent Consumer pattern, simulated for real: a broker with leases, consumers on SQLite, a payment provider.",
    after_help = "With no command, idem opens the interactive simulator on the first step of the tour."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Step without the short animations between steps.
    #[arg(long)]
    pub no_animation: bool,
    /// Draw with ASCII characters only (no box drawing, no symbols).
    #[arg(long)]
    pub ascii: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a scenario headless and print the whole run.
    Run {
        /// A built-in scenario name (see `idem list`) or a path to a .toml file.
        scenario: String,
        /// The handler design to run it under.
        #[arg(long, default_value = "idempotent", value_parser = strategy_name)]
        mode: String,
        /// Seeds the broker's receipt handles; same seed, same run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit 1 if the run misses the scenario's expectation for this mode.
        #[arg(long)]
        check: bool,
        /// Write the database to this file (open it with sqlite3 afterwards).
        /// Refuses to overwrite a file that idem did not create.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Open a scenario in the interactive simulator.
    Play {
        /// A built-in scenario name (see `idem list`) or a path to a .toml file.
        scenario: String,
        /// The handler design to start with (m switches it in the simulator).
        #[arg(long, default_value = "idempotent", value_parser = strategy_name)]
        mode: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Step without the short animations between steps.
        #[arg(long)]
        no_animation: bool,
        /// Draw with ASCII characters only (no box drawing, no symbols).
        #[arg(long)]
        ascii: bool,
    },
    /// List the built-in scenarios.
    List,
    /// Check scenario files for errors without running them.
    Validate {
        #[arg(required = true)]
        files: Vec<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

fn strategy_name(name: &str) -> Result<String, String> {
    Strategy::by_name(name)
        .map(|s| s.name.to_string())
        .ok_or_else(|| format!("the strategies are {}", Strategy::names().join(", ")))
}

/// An error that has already been explained to the user, with its exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

fn input_error(message: impl std::fmt::Display) -> anyhow::Error {
    Exit {
        code: 2,
        message: message.to_string(),
    }
    .into()
}

pub fn load(name: &str) -> Result<Script> {
    scenario::find(name).map_err(|e| match e {
        LoadError::Scenario(e) => input_error(e),
        other => input_error(other),
    })
}

pub fn run(
    name: &str,
    mode: &str,
    seed: u64,
    format: Format,
    check: bool,
    db: Option<PathBuf>,
) -> Result<ExitCode> {
    let mut script = load(name)?;
    script.setup.db_file = db;
    let strategy = Strategy::by_name(mode).context("strategy checked by clap")?;
    let timeline = Timeline::build(&script, &strategy, seed, &[]).map_err(input_error)?;
    let expect = script.expect.get(mode);
    let text = match format {
        Format::Text => report::transcript(&timeline, expect),
        Format::Json => report::json(&timeline, expect),
    };
    print!("{text}");
    if check {
        let Some(expect) = expect else {
            return Err(input_error(format!(
                "--check: {name} has no expectation for {mode}; it has: {}",
                script.strategies().join(", ")
            )));
        };
        if !timeline.misses(expect).is_empty() {
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens the interactive simulator. Input errors come out exactly as
/// `idem run` prints them, and the terminal is never touched without a TTY.
pub fn play(name: &str, mode: &str, seed: u64, animation: bool, ascii: bool) -> Result<ExitCode> {
    use std::io::IsTerminal;
    let script = load(name)?;
    let strategy = Strategy::by_name(mode).context("strategy checked by clap")?;
    let options = idem::tui::Options {
        animation,
        ascii,
        color: idem::tui::theme::Theme::color_from_env(std::env::var_os("NO_COLOR")),
    };
    let app = idem::tui::App::new(script, strategy, seed, options).map_err(input_error)?;
    if !std::io::stdout().is_terminal() {
        return Err(input_error(format!(
            "the interactive simulator needs a terminal; to print the run instead, try `idem run {name} --mode {mode}`"
        )));
    }
    idem::tui::terminal::run(app)?;
    Ok(ExitCode::SUCCESS)
}

pub fn list() -> ExitCode {
    let scripts = scenario::load::builtins();
    let width = scripts.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut groups: Vec<_> = scripts.iter().map(|s| s.group).collect();
    groups.dedup();
    for group in groups {
        println!("{}:", group.title());
        for s in scripts.iter().filter(|s| s.group == group) {
            println!(
                "  {:<width$}  {} ({})",
                s.name,
                s.summary,
                s.strategies().join(", ")
            );
        }
    }
    ExitCode::SUCCESS
}

pub fn validate(files: &[String]) -> ExitCode {
    let mut bad = 0;
    for file in files {
        match scenario::find(file) {
            Ok(script) => println!(
                "{file}: ok ({} steps, expectations for {})",
                script.steps.len(),
                script.strategies().join(", ")
            ),
            Err(e) => {
                bad += 1;
                eprintln!("{e}");
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
