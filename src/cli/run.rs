//! `idem run`: a scenario headless, every step printed as text or JSON,
//! then the verdict; with `--check`, exit 1 when it misses its expectation.

use super::choose::{DesignChoice, choose_design, load, mode_help, strategy_name};
use super::db_arg::{DbArg, clean_up_on_signal, db_arg};
use super::exit::{Exit, input_error};
use super::output::{Format, emit, note};
use anyhow::Result;
use idem::report;
use idem::scenario::{self, Script};
use idem::sim::Strategy;
use idem::timeline::Timeline;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RunArgs {
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
    /// Or run on a PostgreSQL server: postgres://USER@HOST:PORT/DB (in a
    /// schema of the run's own, dropped at the end).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<std::ffi::OsString>,
}

impl RunArgs {
    pub fn run(&self) -> Result<ExitCode> {
        run(
            &self.scenario,
            DesignChoice {
                mode: self.mode.as_deref(),
                design: self.design.as_deref(),
            },
            self.seed,
            self.format,
            self.check,
            self.db.as_deref().map(db_arg).transpose()?,
            self.questions,
        )
    }
}

fn run(
    name: &str,
    DesignChoice { mode, design }: DesignChoice<'_>,
    seed: u64,
    format: Format,
    check: bool,
    db: Option<DbArg>,
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
    let (db, found) = match db {
        Some(DbArg::File(path)) => {
            let found = idem::sim::db_file::inspect(&path).map_err(input_error)?;
            (Some(path), Some(found))
        }
        Some(DbArg::Postgres(url)) => {
            clean_up_on_signal();
            script.setup.postgres = Some(*url);
            (None, None)
        }
        None => (None, None),
    };
    script.setup.db_file = db.clone();
    let strategy = choose_design(&script, mode, design)?;
    let mode = &strategy.name.to_string();
    let expect = script.expect.get(mode);
    // Nothing to check against: refused before a transcript the check
    // would then disown.
    if check && expect.is_none() {
        return Err(input_error(format!(
            "--check: {name} has no expectation for {mode}; it has: {}",
            script.strategies().join(", ")
        )));
    }
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
        // Streamed only as text (JSON is refused above): the same pointer
        // to the check as the whole run's transcript ends with.
        if let Some(file) = design {
            emit(&one_run_note(mode, file))?;
        }
        expect.map(|e| !end.misses(e).is_empty())
    } else {
        let timeline = Timeline::build(&script, &strategy, seed, &[]).map_err(input_error)?;
        db_notes(db.as_deref(), found);
        let mut text = match format {
            Format::Text => report::transcript(&timeline, expect),
            Format::Json => report::json(&timeline, expect),
        };
        // A run is one schedule: "correct" here says nothing of the
        // crashes and interleavings it did not meet, and a learner's own
        // design has no expectation to weigh it against. Say where the
        // claim is tried in full.
        if let (Format::Text, Some(file)) = (format, design) {
            text.push_str(&one_run_note(mode, file));
        }
        if questions {
            // Their whys are the scenario's words too: none for a design
            // it is not written for.
            text.push_str(&report::questions(&timeline, &script.told_for(mode)));
        }
        emit(&text)?;
        expect.map(|e| !timeline.misses(e).is_empty())
    };
    if check && missed == Some(true) {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
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
                    "chapter {}: `run {consumer} to {to}`: the {} design has no `{to}` step ({}), so {consumer} runs until it is done with its message or blocked",
                    chapter + 1,
                    strategy.name,
                    idem::sim::step_name::name_of(to)
                ));
            }
        }
    }
    out
}

/// The last line of a design file's run: where every schedule is tried.
fn one_run_note(mode: &str, file: &std::path::Path) -> String {
    format!(
        "this is one run of {mode}, on one schedule; idem check --design {} tries every crash point and interleaving within its bounds\n",
        // A path is the user's text: no control character reaches the
        // terminal from it.
        idem::terminal_text::escape(&file.display().to_string())
    )
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
        &stream::header(
            &script.name,
            title,
            &strategy.name,
            seed,
            script.story_left_out(&strategy.name).as_deref(),
        ),
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
