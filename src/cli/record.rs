//! `idem record`: a whole run, one frame per step: animated SVG, GIF or
//! asciicast.

use super::exit::input_error;
use super::picture::{OutputArgs, RunToDraw, ScreenArgs, shot_of};
use anyhow::Result;
use idem::export::shot::{Moment, View};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RecordArgs {
    #[command(flatten)]
    run: RunToDraw,
    /// How long each step stays on screen.
    #[arg(long, default_value = "1500ms", value_parser = pace)]
    pace: u64,
    #[command(flatten)]
    screen: ScreenArgs,
    /// .svg (animated), .gif or .cast (asciicast v2).
    #[command(flatten)]
    output: OutputArgs,
}

impl RecordArgs {
    pub fn run(&self) -> Result<ExitCode> {
        record(self)
    }
}

fn pace(text: &str) -> Result<u64, String> {
    idem::sim::parse_duration(text)
        .filter(|ms| (100..=60_000).contains(ms))
        .ok_or_else(|| {
            format!(
                "`{text}` is not a pace: write a duration from 100ms to 60s, as in 1500ms or 2s"
            )
        })
}

fn record(args: &RecordArgs) -> Result<ExitCode> {
    use idem::export::record;
    let ext = args.output.check(&["svg", "gif", "cast"])?;
    let shot = shot_of(&args.run, &args.screen, Moment::Start, View::Main)?;
    let frames = record::frames(&shot).map_err(input_error)?;
    let title = shot.title();
    let bytes = match ext.as_str() {
        "svg" => record::animated_svg(&frames, args.pace, &title).into_bytes(),
        "cast" => record::cast(&frames, args.pace, &title).into_bytes(),
        _ => record::gif(&frames, args.pace, &title).map_err(|e| anyhow::anyhow!(e))?,
    };
    args.output.write(
        &bytes,
        &format!(
            " ({} steps, {} each)",
            frames.len(),
            idem::sim::format_duration(args.pace)
        ),
    )?;
    Ok(ExitCode::SUCCESS)
}
