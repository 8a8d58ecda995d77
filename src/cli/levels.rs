//! `idem levels` (and `idem play --level N`): the level screen, or with
//! `--list` the levels as text.

use super::choose::{choose_design, load};
use super::exit::input_error;
use super::global::Global;
use super::learner::open_progress;
use super::output::emit;
use anyhow::Result;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct LevelsArgs {
    /// Print the levels instead of opening the screen.
    #[arg(long)]
    list: bool,
    /// Draw with ASCII characters only (no box drawing, no symbols).
    #[arg(long)]
    ascii: bool,
}

impl LevelsArgs {
    pub fn run(&self, global: &Global) -> Result<ExitCode> {
        if self.list {
            return list_levels();
        }
        open(None, !global.no_animation, self.ascii || global.ascii)
    }
}

/// `idem levels --list`: each level's number, title and condition.
fn list_levels() -> Result<ExitCode> {
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
pub fn open(number: Option<usize>, animation: bool, ascii: bool) -> Result<ExitCode> {
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
    app.open_level_screen(index);
    if !std::io::stdout().is_terminal() {
        return Err(input_error(
            "the level screen needs a terminal; idem levels --list prints the levels, and idem check --design FILE proves a design of your own",
        ));
    }
    // The levels won before are shown as won, and a new win is kept.
    let (keeper, progress) = open_progress(false);
    app.levels.recall(&progress);
    app.progress = progress;
    app.keeper = idem::learner::Keeping(keeper);
    idem::tui::terminal::run(app, idem::export::moment::save)?;
    Ok(ExitCode::SUCCESS)
}
