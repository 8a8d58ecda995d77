//! What the command line names: a scenario (built-in or a file) and a
//! design (`--mode NAME` or `--design FILE`).

use super::exit::input_error;
use anyhow::{Context, Result};
use idem::scenario::{self, Script};
use idem::sim::Strategy;

/// `--mode`'s help, with every design named, so `--help` is the list.
pub fn mode_help(what: &str) -> String {
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

pub fn load(name: &str) -> Result<Script> {
    scenario::find_warned(name).map(warned).map_err(input_error)
}

/// What a file was read into, its warnings (an old keyword) printed on
/// stderr first: the file works, and its author hears what to rewrite.
pub fn warned<T>(read: scenario::Warned<T>) -> T {
    for warning in &read.warnings {
        super::output::note(&warning.to_string());
    }
    read.value
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
        return idem::scenario::design_file::load_warned(path)
            .map(warned)
            .map_err(input_error);
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
