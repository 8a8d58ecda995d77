//! `idem play` (and `idem` alone): the interactive simulator on a scenario,
//! at a step or a chapter, or where the learner left off.

use super::choose::{DesignChoice, choose_design, load, load_to_show, mode_help, strategy_name};
use super::db_arg::postgres_only;
use super::exit::input_error;
use super::global::Global;
use super::learner::open_progress;
use super::output::note;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct PlayArgs {
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
    /// Start over: forget the progress kept so far (scenarios finished,
    /// levels won, scores); the old progress file is kept as a backup.
    #[arg(long, conflicts_with = "level")]
    fresh: bool,
    /// Run on a PostgreSQL server, postgres://USER@HOST:PORT/DB, in
    /// schemas of the run's own (dropped at the end); SQLite in memory
    /// without it.
    #[arg(long, value_name = "URL")]
    db: Option<String>,
    /// Open with SQLite beside the PostgreSQL server of --db, the same
    /// design on both (E switches it in the simulator).
    #[arg(long, requires = "db", conflicts_with = "predict")]
    compare_engines: bool,
}

impl PlayArgs {
    pub fn run(&self, global: &Global) -> Result<ExitCode> {
        let animation = !(self.no_animation || global.no_animation);
        let ascii = self.ascii || global.ascii;
        if let Some(level) = self.level {
            return super::levels::open(Some(level), animation, ascii);
        }
        play(
            self.scenario.as_deref().unwrap_or("tour-1"),
            DesignChoice {
                mode: self.mode.as_deref(),
                design: self.design.as_deref(),
            },
            self.seed,
            At {
                step: self.step,
                chapter: self.chapter,
                engines: self.compare_engines,
            },
            (animation, ascii),
            Learner {
                resume: false,
                fresh: self.fresh || global.fresh,
                predict: self.predict || global.predict,
            },
            postgres_only(self.db.as_deref())?,
        )
    }
}

/// `idem` with no command: where the learner left off; the first time, the
/// tour, in the design it is written for.
pub fn resume(global: &Global) -> Result<ExitCode> {
    play(
        "tour-1",
        DesignChoice::default(),
        0,
        At::default(),
        (!global.no_animation, global.ascii),
        Learner {
            resume: !global.fresh,
            fresh: global.fresh,
            predict: global.predict,
        },
        None,
    )
}

/// Opens the interactive simulator. Input errors come out exactly as
/// `idem run` prints them, and the terminal is never touched without a TTY.
/// Where `idem play` opens: a step, or a chapter's first step.
#[derive(Clone, Copy, Default)]
struct At {
    pub step: Option<usize>,
    pub chapter: Option<usize>,
    /// SQLite beside PostgreSQL, from that moment.
    pub engines: bool,
}

/// What the simulator does with the learner's progress.
#[derive(Clone, Copy, Default)]
struct Learner {
    /// Open where the learner left off (`idem` with no command).
    pub resume: bool,
    pub fresh: bool,
    pub predict: bool,
}

fn play(
    name: &str,
    DesignChoice { mode, design }: DesignChoice<'_>,
    seed: u64,
    mut at: At,
    (animation, ascii): (bool, bool),
    learner: Learner,
    postgres: Option<idem::sim::db::PgUrl>,
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
    let mut script = load_to_show(name)?;
    script.setup.postgres = postgres;
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
    // The verdict of one run names the command that checks every schedule.
    app.design_file = design.map(|path| path.display().to_string());
    app.levels.recall(&progress);
    app.progress = progress;
    app.keeper = idem::learner::Keeping(keeper);
    if learner.predict {
        idem::tui::update(&mut app, idem::tui::Action::Predict);
    }
    if at.engines {
        idem::tui::update(&mut app, idem::tui::Action::CompareEngines);
        if app.compare.is_none() {
            return Err(input_error(app.status.take().unwrap_or_default()));
        }
    }
    idem::tui::terminal::run(app, idem::export::moment::save)?;
    Ok(ExitCode::SUCCESS)
}
