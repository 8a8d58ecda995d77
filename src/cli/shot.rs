//! `idem shot`: one moment as a picture: SVG, PNG, text or HTML.

use super::exit::input_error;
use super::picture::{OutputArgs, RunToDraw, ScreenArgs, shot_of};
use anyhow::{Context, Result};
use idem::export::shot::{Moment, View};
use idem::export::{self, Kind};
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ShotArgs {
    #[command(flatten)]
    run: RunToDraw,
    /// After this many steps.
    #[arg(long, conflicts_with_all = ["chapter", "at_verdict", "end"])]
    step: Option<usize>,
    /// At the first step of this chapter (1 is the first).
    #[arg(long, conflicts_with_all = ["at_verdict", "end"])]
    chapter: Option<usize>,
    /// At the first step that goes wrong (else the last step).
    #[arg(long, conflicts_with = "end")]
    at_verdict: bool,
    /// At the last step.
    #[arg(long)]
    end: bool,
    /// Which screen: main, compare, engines (SQLite beside PostgreSQL,
    /// with --db), presenter, explorer, help, faults, picker.
    #[arg(long, default_value = "main", value_parser = view_name)]
    view: String,
    #[command(flatten)]
    screen: ScreenArgs,
    /// .svg, .png, .txt or .html.
    #[command(flatten)]
    output: OutputArgs,
}

impl ShotArgs {
    pub fn run(&self) -> Result<ExitCode> {
        shot(self)
    }
}

fn view_name(name: &str) -> Result<String, String> {
    View::parse(name)
        .map(|_| name.to_string())
        .ok_or_else(|| format!("the views are {}", View::NAMES.join(", ")))
}

fn shot(args: &ShotArgs) -> Result<ExitCode> {
    let ext = args.output.check(&["svg", "png", "txt", "html"])?;
    let kind = Kind::from_path(Path::new(&format!("x.{ext}"))).context("extension checked")?;
    let moment = match (args.step, args.chapter, args.at_verdict, args.end) {
        (Some(n), ..) => Moment::Step(n),
        (_, Some(n), ..) => Moment::Chapter(n),
        (_, _, true, _) => Moment::Verdict,
        (.., true) => Moment::End,
        _ => Moment::Start,
    };
    let view = View::parse(&args.view).context("view checked by clap")?;
    let shot = shot_of(&args.run, &args.screen, moment, view)?;
    let buffer = shot.buffer().map_err(input_error)?;
    let bytes = export::render(&buffer, kind, &shot.title()).map_err(|e| anyhow::anyhow!(e))?;
    args.output.write(&bytes, "")?;
    Ok(ExitCode::SUCCESS)
}
