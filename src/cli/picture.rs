//! What the picture commands share: the run to draw, the screen it is
//! drawn on, and the file it goes to. Every picture is drawn by the very
//! code that draws the terminal.

use super::choose::{load_to_show, strategy_name};
use super::exit::input_error;
use super::output::note;
use anyhow::{Context, Result};
use idem::export::shot::{Moment, Shot, View};
use idem::sim::Strategy;
use std::path::PathBuf;

/// Which run to draw: the scenario, the design, the seed.
#[derive(clap::Args)]
pub struct RunToDraw {
    /// A built-in scenario name (see `idem list`) or a path to a .toml file.
    scenario: String,
    /// The handler design; by default the one the scenario is written for.
    #[arg(long, value_parser = strategy_name)]
    mode: Option<String>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run on a PostgreSQL server, postgres://USER@HOST:PORT/DB (in a
    /// schema of the run's own, dropped at the end).
    #[arg(long, value_name = "URL")]
    db: Option<String>,
}

/// How the screen is drawn, as on a terminal of that size.
#[derive(clap::Args)]
pub struct ScreenArgs {
    /// The terminal size, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = size)]
    size: (u16, u16),
    /// Draw with ASCII only, as `--ascii` does on screen.
    #[arg(long)]
    ascii: bool,
    /// Without colour, as NO_COLOR does on screen.
    #[arg(long)]
    no_color: bool,
}

/// Where the picture goes.
#[derive(clap::Args)]
pub struct OutputArgs {
    /// The file to write; its extension picks the format.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Replace FILE if it exists (a link is replaced itself, not its target).
    #[arg(long)]
    force: bool,
}

impl OutputArgs {
    /// The file's extension, lower case, once it is one of `allowed` and
    /// the file may be written.
    pub fn check(&self, allowed: &[&str]) -> Result<String> {
        let ext = self
            .output
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        if !allowed.contains(&ext.as_str()) {
            let names: Vec<String> = allowed.iter().map(|e| format!(".{e}")).collect();
            return Err(input_error(format!(
                "{}: the file name must end in {}",
                self.output.display(),
                names.join(", ")
            )));
        }
        idem::output_file::check(&self.output, self.force).map_err(input_error)?;
        Ok(ext)
    }

    pub fn write(&self, bytes: &[u8], what: &str) -> Result<()> {
        idem::output_file::write(&self.output, bytes, self.force).map_err(input_error)?;
        note(&format!("idem: wrote {}{what}", self.output.display()));
        Ok(())
    }
}

pub fn shot_of(run: &RunToDraw, screen: &ScreenArgs, moment: Moment, view: View) -> Result<Shot> {
    let mut script = load_to_show(&run.scenario)?;
    script.setup.postgres = super::db_arg::postgres_only(run.db.as_deref())?;
    let mode = run.mode.clone().unwrap_or_else(|| script.design());
    // The design asked for is drawn, even one the scenario is not written
    // for; then without the scenario's words, and the reader is told.
    if let Some(left_out) = script.story_left_out(&mode) {
        note(&format!(
            "idem: {left_out} (it is written for {})",
            script.written_for_list()
        ));
    }
    Ok(Shot {
        strategy: Strategy::by_name(&mode).context("strategy checked by clap")?,
        script,
        seed: run.seed,
        moment,
        view,
        width: screen.size.0,
        height: screen.size.1,
        ascii: screen.ascii,
        color: !screen.no_color,
    })
}

pub fn size(text: &str) -> Result<(u16, u16), String> {
    let bad = || format!("`{text}` is not a size: write COLUMNSxROWS, from 40x12 to 400x200");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u16 = w.trim().parse().map_err(|_| bad())?;
    let h: u16 = h.trim().parse().map_err(|_| bad())?;
    if !(40..=400).contains(&w) || !(12..=200).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}
