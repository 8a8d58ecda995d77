//! Command-line parsing and dispatch. Exit codes: 0 fine, 1 a run missed its
//! expectation (with --check) or validation found errors, 2 usage or input
//! errors, and output that cannot be written.

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
    after_help = "With no command, idem opens the interactive simulator where you left off (the first step of the tour the first time; --fresh starts over)."
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
    /// Predict mode: answer each question before its step runs, then see.
    #[arg(long)]
    pub predict: bool,
    /// Start over: forget where you left off, the scenarios finished, the
    /// levels won and the scores (the old progress file is kept as a backup).
    #[arg(long)]
    pub fresh: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a scenario headless and print the whole run.
    Run {
        /// A built-in scenario name (see `idem list`) or a path to a .toml file.
        scenario: String,
        #[arg(long, value_parser = strategy_name, help = mode_help("run it under, by default the one the scenario is written for, as in `idem play`"))]
        mode: Option<String>,
        /// Run it under your own design, read from this file (see README,
        /// "Your own design").
        #[arg(long, value_name = "FILE", conflicts_with = "mode")]
        design: Option<PathBuf>,
        /// Seeds the broker's receipt handles; same seed, same run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit 1 if the run misses the scenario's expectation for this mode.
        #[arg(long)]
        check: bool,
        /// After the run, the questions it asks in predict mode, with the
        /// answers it computes and their why.
        #[arg(long)]
        questions: bool,
        /// Write the database to this file (open it with sqlite3 afterwards).
        /// Only a new file or a database an earlier idem run wrote (emptied in
        /// place); anything else is refused, as is a file another run uses.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Open a scenario in the interactive simulator.
    Play {
        /// A built-in scenario name (see `idem list`) or a path to a .toml file.
        #[arg(required_unless_present = "level")]
        scenario: Option<String>,
        #[arg(long, value_parser = strategy_name, help = mode_help("start with (m switches it in the simulator), by default the one the scenario is written for"))]
        mode: Option<String>,
        /// Play it under your own design, read from this file.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["mode", "level"])]
        design: Option<PathBuf>,
        /// Open level N of "build the handler yourself" (see `idem levels`).
        #[arg(long, value_name = "N", conflicts_with_all = ["mode", "step", "chapter"])]
        level: Option<usize>,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Open at this step (as the header counts them: 0 is the setup).
        #[arg(long, value_name = "N", conflicts_with = "chapter")]
        step: Option<usize>,
        /// Open at the first step of this chapter (1 is the first).
        #[arg(long, value_name = "N")]
        chapter: Option<usize>,
        /// Step without the short animations between steps.
        #[arg(long)]
        no_animation: bool,
        /// Draw with ASCII characters only (no box drawing, no symbols).
        #[arg(long)]
        ascii: bool,
        /// Predict mode: answer each question before its step runs, then see.
        #[arg(long)]
        predict: bool,
    },
    /// List the built-in scenarios.
    List,
    /// The levels of "build the handler yourself": fix a broken handler
    /// until the prover cannot break it. Opens the level screen.
    Levels {
        /// Print the levels instead of opening the screen.
        #[arg(long)]
        list: bool,
        /// Draw with ASCII characters only (no box drawing, no symbols).
        #[arg(long)]
        ascii: bool,
    },
    /// Check scenario files for errors without running them.
    Validate {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Explore every schedule within bounds for each strategy and show the
    /// shortest one that breaks each weaker design.
    Check(CheckArgs),
    /// Soak the designs at production scale: many payments, several
    /// consumers, faults at given rates, the same schedule for every design;
    /// then a report of the money and every violation found.
    Soak(crate::soak_cli::SoakArgs),
    /// Print a shell completion script (for example:
    /// `idem completions bash > ~/.local/share/bash-completion/completions/idem`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Draw one moment of the simulator as a picture: SVG, PNG, text or HTML.
    Shot(crate::pictures::ShotArgs),
    /// Record a whole run, one frame per step: animated SVG, GIF or asciicast.
    Record(crate::pictures::RecordArgs),
    /// Write a lesson to hand out: one self-contained HTML file that steps
    /// through a scenario (or `tour`), every design, with the narration.
    Lesson(crate::pictures::LessonArgs),
    /// Redraw the README's pictures (screenshots/) from the program itself.
    Screenshots {
        /// Where to write them.
        #[arg(default_value = "screenshots")]
        dir: PathBuf,
        /// Replace pictures already there (a link is replaced itself).
        #[arg(long)]
        force: bool,
    },
    /// Print the manual page (roff): `idem man > idem.1; man ./idem.1`.
    #[command(hide = true)]
    Man,
    /// Print a long generated scenario, to measure idem at scale:
    /// `idem generate --messages 10000 > big.toml; idem run big.toml`.
    #[command(hide = true)]
    Generate {
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=idem::scenario::limits::MAX_MESSAGES as i64))]
        messages: u32,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--mode`'s help, with every design named, so `--help` is the list.
fn mode_help(what: &str) -> String {
    format!(
        "The handler design to {what}: {}",
        Strategy::names().join(", ")
    )
}

pub fn strategy_name(name: &str) -> Result<String, String> {
    Strategy::by_name(name)
        .map(|s| s.name.to_string())
        .ok_or_else(|| {
            format!(
                "the designs are {}{}",
                Strategy::names().join(", "),
                idem::suggest::did_you_mean(name, Strategy::names())
            )
        })
}

/// An error that has already been explained to the user, with its exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

pub fn input_error(message: impl std::fmt::Display) -> anyhow::Error {
    Exit {
        code: 2,
        message: message.to_string(),
    }
    .into()
}

pub fn load(name: &str) -> Result<Script> {
    scenario::find(name).map_err(input_error)
}

/// The design asked for on the command line: `--mode NAME` or `--design FILE`
/// (clap lets only one through).
#[derive(Clone, Copy, Default)]
pub struct DesignChoice<'a> {
    pub mode: Option<&'a str>,
    pub design: Option<&'a std::path::Path>,
}

/// The design a run or a play uses: the file's, else `--mode`, else the
/// one the scenario is written for.
pub fn choose_design(
    script: &Script,
    mode: Option<&str>,
    design: Option<&std::path::Path>,
) -> Result<Strategy> {
    if let Some(path) = design {
        return idem::scenario::design_file::load(path).map_err(input_error);
    }
    // One rule everywhere: a scenario opens in the design it is written for.
    let mode = mode.map_or_else(|| script.design(), str::to_string);
    Strategy::by_name(&mode).context("strategy checked by clap")
}

/// A scenario for a front end that keeps every frame whole (the simulator,
/// the pictures): long ones are refused with the command that runs them.
pub fn load_to_show(name: &str) -> Result<Script> {
    let script = load(name)?;
    let n = script.setup.messages.len();
    let most = scenario::limits::MAX_PLAY_MESSAGES;
    if n > most {
        return Err(input_error(format!(
            "{name} has {n} messages: the simulator and the pictures keep every step's whole state, and show scenarios of up to {most}; `idem run {name}` streams a run of any length"
        )));
    }
    Ok(script)
}

pub fn run(
    name: &str,
    DesignChoice { mode, design }: DesignChoice<'_>,
    seed: u64,
    format: Format,
    check: bool,
    db: Option<PathBuf>,
    questions: bool,
) -> Result<ExitCode> {
    if questions && matches!(format, Format::Json) {
        return Err(input_error(
            "--questions lists the questions as text; the JSON has every frame to compute them from",
        ));
    }
    let mut script = load(name)?;
    // Refuse a file that is not idem's before any work, and know whether
    // this run replaces an earlier one; the check is repeated under the lock.
    let found = match &db {
        Some(path) => Some(idem::sim::db_file::inspect(path).map_err(input_error)?),
        None => None,
    };
    script.setup.db_file = db.clone();
    let strategy = choose_design(&script, mode, design)?;
    let mode = &strategy.name.to_string();
    let expect = script.expect.get(mode);
    for warning in missing_targets(&script, &strategy) {
        note(&format!("idem: warning: {name}: {warning}"));
    }
    let long = script.setup.messages.len() > idem::scenario::limits::MAX_PLAY_MESSAGES;
    if long && (matches!(format, Format::Json) || questions) {
        return Err(input_error(format!(
            "{name}: --format json writes every step's whole state, and this scenario has {} messages (at most {} for JSON); the text transcript streams any length",
            script.setup.messages.len(),
            idem::scenario::limits::MAX_PLAY_MESSAGES
        )));
    }
    let missed = if long {
        let end = run_streamed(&script, &strategy, seed, expect)?;
        db_notes(db.as_deref(), found);
        expect.map(|e| !end.misses(e).is_empty())
    } else {
        let timeline = Timeline::build(&script, &strategy, seed, &[]).map_err(input_error)?;
        db_notes(db.as_deref(), found);
        let mut text = match format {
            Format::Text => report::transcript(&timeline, expect),
            Format::Json => report::json(&timeline, expect),
        };
        if questions {
            text.push_str(&report::questions(&timeline, &script));
        }
        emit(&text)?;
        expect.map(|e| !timeline.misses(e).is_empty())
    };
    if check {
        let Some(missed) = missed else {
            return Err(input_error(format!(
                "--check: {name} has no expectation for {mode}; it has: {}",
                script.strategies().join(", ")
            )));
        };
        if missed {
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
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

/// `run A to <step>` actions whose step this design's program lacks: such
/// a run goes on until the handler is done, which is worth a warning.
fn missing_targets(script: &Script, strategy: &Strategy) -> Vec<String> {
    let mut out = Vec::new();
    for (chapter, step) in script.steps.iter().enumerate() {
        for action in &step.actions {
            if let scenario::Action::Run {
                consumer,
                to: Some(to),
            } = action
                && strategy.position(to).is_none()
            {
                out.push(format!(
                    "chapter {}: `run {consumer} to {to}`: the {} design has no `{to}` step, so {consumer} runs until it is done with its message or blocked",
                    chapter + 1,
                    strategy.name
                ));
            }
        }
    }
    out
}

/// A long run, written step by step as it is made: nothing of it is kept.
fn run_streamed(
    script: &Script,
    strategy: &Strategy,
    seed: u64,
    expect: Option<&scenario::Expectation>,
) -> Result<idem::timeline::stream::End> {
    use idem::report::stream;
    use std::io::Write;
    let title = script.title_for(&strategy.name);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    // The first write error is kept and ends the writing; the run goes on
    // to its end only to be judged.
    let mut failed: Option<std::io::Error> = None;
    let mut write = |text: &str, failed: &mut Option<std::io::Error>| {
        if failed.is_none()
            && let Err(e) = out.write_all(idem::terminal_text::escape(text).as_bytes())
        {
            *failed = Some(e);
        }
    };
    write(
        &stream::header(&script.name, title, &strategy.name, seed),
        &mut failed,
    );
    let end = idem::timeline::stream::stream(script, strategy, seed, |step| {
        write(&stream::step(&step), &mut failed)
    })
    .map_err(input_error)?;
    write(&stream::end(&end, &strategy.name, expect), &mut failed);
    if failed.is_none()
        && let Err(e) = out.flush()
    {
        failed = Some(e);
    }
    match failed {
        None => Ok(end),
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(end),
        Some(e) => Err(Exit {
            code: 2,
            message: format!("cannot write the output: {e}"),
        }
        .into()),
    }
}

/// Where the database went, for a run with `--db`.
fn db_notes(db: Option<&std::path::Path>, found: Option<idem::sim::db_file::Found>) {
    if let Some(path) = db {
        if found == Some(idem::sim::db_file::Found::Earlier) {
            note(&format!(
                "idem: replaced {}, a database an earlier idem run wrote",
                path.display()
            ));
        }
        note(&format!(
            "idem: the database is in {} (open it with sqlite3)",
            path.display()
        ));
    }
}

/// Opens the interactive simulator. Input errors come out exactly as
/// `idem run` prints them, and the terminal is never touched without a TTY.
/// Where `idem play` opens: a step, or a chapter's first step.
#[derive(Clone, Copy, Default)]
pub struct At {
    pub step: Option<usize>,
    pub chapter: Option<usize>,
}

/// What the simulator does with the learner's progress.
#[derive(Clone, Copy, Default)]
pub struct Learner {
    /// Open where the learner left off (`idem` with no command).
    pub resume: bool,
    pub fresh: bool,
    pub predict: bool,
}

pub fn play(
    name: &str,
    DesignChoice { mode, design }: DesignChoice<'_>,
    seed: u64,
    mut at: At,
    animation: bool,
    ascii: bool,
    learner: Learner,
) -> Result<ExitCode> {
    use std::io::IsTerminal;
    // Only a session on a terminal reads or keeps progress: a pipe or a
    // test never touches the learner's file.
    let (keeper, progress) = if std::io::stdout().is_terminal() {
        open_progress(learner.fresh)
    } else {
        (None, idem::learner::Progress::new())
    };
    let mut name = name.to_string();
    let mut mode = mode.map(str::to_string);
    if learner.resume
        && let Some(last) = &progress.last
    {
        match load(&last.scenario) {
            Ok(script) => {
                name = last.scenario.clone();
                if script.strategies().contains(&last.design) {
                    mode = Some(last.design.clone());
                }
                at.step = Some(last.step);
            }
            Err(e) => note(&format!(
                "idem: cannot reopen {} where you left off ({e:#}); opening {name}",
                last.scenario
            )),
        }
    }
    let name = name.as_str();
    let script = load_to_show(name)?;
    let strategy = choose_design(&script, mode.as_deref(), design)?;
    let mode = strategy.name.to_string();
    let options = idem::tui::Options {
        animation,
        ascii,
        color: idem::tui::theme::Theme::color_from_env(std::env::var_os("NO_COLOR")),
    };
    // A saved moment opens where it was saved, unless the command line says otherwise.
    let saved = script.open_at.filter(|_| at.chapter.is_none());
    let mut app = idem::tui::App::new(script, strategy, seed, options).map_err(input_error)?;
    if let Some(step) = at.step.or(saved) {
        match app.open_at_step(step) {
            Ok(()) => {}
            // A place remembered from an older run of a changed scenario.
            Err(_) if learner.resume => app.pos = app.last_pos(),
            Err(e) => return Err(input_error(e)),
        }
    }
    if let Some(chapter) = at.chapter {
        app.open_at_chapter(chapter).map_err(input_error)?;
    }
    if !std::io::stdout().is_terminal() {
        return Err(input_error(format!(
            "the interactive simulator needs a terminal; to print the run instead, try `idem run {name} {}`",
            match design {
                Some(path) => format!("--design {}", path.display()),
                None => format!("--mode {mode}"),
            }
        )));
    }
    app.levels.recall(&progress);
    app.progress = progress;
    app.keeper = keeper;
    if learner.predict {
        idem::tui::update(&mut app, idem::tui::Action::Predict);
    }
    idem::tui::terminal::run(app)?;
    Ok(ExitCode::SUCCESS)
}

/// The learner's progress and the keeper of its file. A problem with the
/// file is told once, here, before the screen changes.
fn open_progress(fresh: bool) -> (Option<idem::learner::Keeper>, idem::learner::Progress) {
    use idem::learner::{Keeper, Progress, Store};
    let Some(store) = Store::locate() else {
        note("idem: no home folder to keep your progress in (set IDEM_STATE_DIR to choose one)");
        return (None, Progress::new());
    };
    let (keeper, progress, problem) = Keeper::open(store, fresh);
    if let Some(problem) = problem {
        note(&format!("idem: {problem}"));
    }
    (Some(keeper), progress)
}

/// Writes to stdout. A reader that went away (`idem run ... | head`) got
/// what it wanted: that is silent success. Any other failure (a full disk,
/// `> /dev/full`) is an error with its OS cause, exit 2.
pub fn emit(text: &str) -> Result<()> {
    write_stdout(idem::terminal_text::escape(text).as_bytes())
}

pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Exit {
            code: 2,
            message: format!("cannot write the output: {e}"),
        }
        .into()),
    }
}

/// The manual page, made from the same definitions as `--help`.
pub fn man() -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| input_error(format!("cannot render the manual page: {e}")))?;
    write_stdout(&page)?;
    Ok(ExitCode::SUCCESS)
}

/// A generated scenario on stdout (see `scenario::generate`).
pub fn generate(messages: u32) -> Result<ExitCode> {
    write_stdout(scenario::generate::many_payments(messages as usize).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The completion script for `shell`, on stdout as it is (it is ours, and
/// a shell reads it byte for byte).
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "idem", &mut script);
    write_stdout(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes one line to stderr, escaped (errors echo file names and input).
/// A stderr that cannot be written is no reason to panic: there is nobody
/// left to tell.
pub fn note(text: &str) {
    use std::io::Write;
    let text = idem::terminal_text::escape(text);
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

pub fn list() -> Result<ExitCode> {
    use std::fmt::Write;
    let scripts = scenario::load::builtins();
    let width = scripts.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut groups: Vec<_> = scripts.iter().map(|s| s.group).collect();
    groups.dedup();
    let mut text = String::new();
    for group in groups {
        let _ = writeln!(text, "{}:", group.title());
        for s in scripts.iter().filter(|s| s.group == group) {
            let _ = writeln!(
                text,
                "  {:<width$}  {} (designs: {})",
                s.name,
                s.summary,
                s.strategies().join(", ")
            );
        }
    }
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}

pub fn validate(files: &[String]) -> Result<ExitCode> {
    let mut bad = 0;
    for file in files {
        let path = std::path::Path::new(file);
        // A file with a `name` and no `title` is a design, not a scenario.
        let read = if scenario::design_file::is_design_file(path) {
            scenario::design_file::load(path).map(|design| {
                format!(
                    "ok (design `{}`, {} steps)",
                    design.name,
                    design.program.len()
                )
            })
        } else {
            scenario::find(file).map(|script| {
                format!(
                    "ok ({} chapters, expectations for {})",
                    script.steps.len(),
                    script.strategies().join(", ")
                )
            })
        };
        match read {
            Ok(said) => emit(&format!("{file}: {said}\n"))?,
            Err(LoadError::Scenario(errors)) => {
                bad += 1;
                report_all(file, &errors);
            }
            Err(other) => {
                bad += 1;
                note(&other.to_string());
            }
        }
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Every error of a file, then how many there were when more than one.
fn report_all(file: &str, errors: &scenario::ScenarioErrors) {
    note(&errors.to_string());
    if errors.count() > 1 {
        let perhaps = if errors.is_cut_short() {
            " or more"
        } else {
            ""
        };
        note(&format!("{file}: {} errors{perhaps}", errors.count()));
    }
}

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
}

pub fn check(args: &CheckArgs) -> Result<ExitCode> {
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
        Some(path) => Some(idem::scenario::design_file::load(path).map_err(input_error)?),
        None => None,
    };
    let report = match crate::progress::shown_while(&watch, || match &mine {
        Some(design) => check::run_designs(std::slice::from_ref(design), &bounds, &watch),
        None => check::run_watched(&bounds, &watch),
    }) {
        Ok(report) => report,
        Err(e @ check::CheckError::Budget { .. }) => return Err(input_error(e)),
        Err(e) => return Err(anyhow::anyhow!(e)),
    };
    match args.format {
        Format::Text => emit(&check::render(&report))?,
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
            "idem: memory: peak {:.1} MiB; about {} bytes per state (the largest search: {largest} states)",
            peak as f64 / 1024.0,
            grown / largest
        ));
    }
    if let Some(dir) = &args.save {
        let files: Vec<(String, String)> = report
            .strategies
            .iter()
            .flat_map(|s| &s.counterexamples)
            .map(|cx| (cx.file_name(), cx.to_toml()))
            .collect();
        let saved =
            crate::save::save_all(dir, &files).map_err(|e| input_error(format!("{e:#}")))?;
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
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `idem levels --list`: each level's number, title and condition.
pub fn list_levels() -> Result<ExitCode> {
    use std::fmt::Write;
    let mut text = String::new();
    for level in idem::levels::all() {
        let _ = write!(text, "{:>2}  {}", level.number, level.title);
        if let Some(rule) = &level.rule {
            let _ = write!(text, " ({rule})");
        }
        text.push('\n');
    }
    text.push_str("Play one: idem play --level N, or idem levels for the level screen\n");
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The level screen, on level `number` (the first when `None`).
pub fn levels(number: Option<usize>, animation: bool, ascii: bool) -> Result<ExitCode> {
    use std::io::IsTerminal;
    let count = idem::levels::BUILTIN.len();
    let index = match number {
        Some(n) if (1..=count).contains(&n) => n - 1,
        Some(n) => {
            return Err(input_error(format!(
                "there is no level {n}: the levels are 1 to {count} (idem levels --list)"
            )));
        }
        None => 0,
    };
    // Behind the level screen, the main screen: where a counterexample
    // plays when the learner asks to watch their handler break.
    let script = load("tour-1")?;
    let strategy = choose_design(&script, None, None)?;
    let options = idem::tui::Options {
        animation,
        ascii,
        color: idem::tui::theme::Theme::color_from_env(std::env::var_os("NO_COLOR")),
    };
    let mut app = idem::tui::App::new(script, strategy, 0, options).map_err(input_error)?;
    app.levels.go_to(index);
    app.overlay = idem::tui::app::Overlay::Levels;
    if !std::io::stdout().is_terminal() {
        return Err(input_error(
            "the level screen needs a terminal; idem levels --list prints the levels, and idem check --design FILE proves a design of your own",
        ));
    }
    // The levels won before are shown as won, and a new win is kept.
    let (keeper, progress) = open_progress(false);
    app.levels.recall(&progress);
    app.progress = progress;
    app.keeper = keeper;
    idem::tui::terminal::run(app)?;
    Ok(ExitCode::SUCCESS)
}
