//! The picture commands: `shot` (one moment as SVG, PNG, text or HTML),
//! `record` (a whole run), `lesson` (an HTML handout) and `screenshots`,
//! all drawn by the very code that draws the terminal.

use crate::cli::{input_error, load, strategy_name};
use anyhow::{Context, Result};
use idem::export::shot::{Moment, Shot, View};
use idem::export::{self, Kind};
use idem::sim::Strategy;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ShotArgs {
    /// A built-in scenario name (see `idem list`) or a path to a .toml file.
    scenario: String,
    /// The handler design; by default the one the scenario is written for.
    #[arg(long, value_parser = strategy_name)]
    mode: Option<String>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
    /// Which screen: main, compare, explorer, help, faults, picker.
    #[arg(long, default_value = "main", value_parser = view_name)]
    view: String,
    /// The terminal size, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = size)]
    size: (u16, u16),
    /// Draw with ASCII only, as `--ascii` does on screen.
    #[arg(long)]
    ascii: bool,
    /// Without colour, as NO_COLOR does on screen.
    #[arg(long)]
    no_color: bool,
    /// Where to write: the extension picks the format (.svg, .png, .txt, .html).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

fn view_name(name: &str) -> Result<String, String> {
    View::parse(name)
        .map(|_| name.to_string())
        .ok_or_else(|| format!("the views are {}", View::NAMES.join(", ")))
}

fn size(text: &str) -> Result<(u16, u16), String> {
    let bad = || format!("`{text}` is not a size: write COLUMNSxROWS, from 40x12 to 400x200");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u16 = w.trim().parse().map_err(|_| bad())?;
    let h: u16 = h.trim().parse().map_err(|_| bad())?;
    if !(40..=400).contains(&w) || !(12..=200).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

pub fn shot(args: &ShotArgs) -> Result<ExitCode> {
    let kind = Kind::from_path(&args.output).ok_or_else(|| {
        input_error(format!(
            "{}: the file name must end in .svg, .png, .txt or .html",
            args.output.display()
        ))
    })?;
    if args.output.exists() && !args.force {
        return Err(input_error(format!(
            "{} already exists; pass --force to replace it",
            args.output.display()
        )));
    }
    let script = load(&args.scenario)?;
    let mode = args.mode.clone().unwrap_or_else(|| script.design());
    let strategy = Strategy::by_name(&mode).context("strategy checked by clap")?;
    let moment = match (args.step, args.chapter, args.at_verdict, args.end) {
        (Some(n), ..) => Moment::Step(n),
        (_, Some(n), ..) => Moment::Chapter(n),
        (_, _, true, _) => Moment::Verdict,
        (.., true) => Moment::End,
        _ => Moment::Start,
    };
    let shot = Shot {
        script,
        strategy,
        seed: args.seed,
        moment,
        view: View::parse(&args.view).context("view checked by clap")?,
        width: args.size.0,
        height: args.size.1,
        ascii: args.ascii,
        color: !args.no_color,
    };
    let buffer = shot.buffer().map_err(input_error)?;
    let bytes = export::render(&buffer, kind, &shot.title()).map_err(|e| anyhow::anyhow!(e))?;
    std::fs::write(&args.output, bytes)
        .map_err(|e| input_error(format!("cannot write {}: {e}", args.output.display())))?;
    crate::cli::note(&format!("idem: wrote {}", args.output.display()));
    Ok(ExitCode::SUCCESS)
}

/// Writes every picture of the gallery into `dir`, as PNG.
pub fn screenshots(dir: &std::path::Path) -> Result<ExitCode> {
    use idem::export::gallery::PICTURES;
    std::fs::create_dir_all(dir)
        .map_err(|e| input_error(format!("cannot create the folder {}: {e}", dir.display())))?;
    for picture in &PICTURES {
        let shot = picture.shot().map_err(input_error)?;
        let buffer = shot.buffer().map_err(input_error)?;
        let bytes =
            export::render(&buffer, Kind::Png, &shot.title()).map_err(|e| anyhow::anyhow!(e))?;
        let path = dir.join(format!("{}.png", picture.name));
        std::fs::write(&path, bytes)
            .map_err(|e| input_error(format!("cannot write {}: {e}", path.display())))?;
        crate::cli::note(&format!("idem: wrote {}", path.display()));
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct RecordArgs {
    /// A built-in scenario name (see `idem list`) or a path to a .toml file.
    scenario: String,
    /// The handler design; by default the one the scenario is written for.
    #[arg(long, value_parser = strategy_name)]
    mode: Option<String>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How long each step stays on screen.
    #[arg(long, default_value = "1500ms", value_parser = pace)]
    pace: u64,
    /// The terminal size, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = size)]
    size: (u16, u16),
    #[arg(long)]
    ascii: bool,
    #[arg(long)]
    no_color: bool,
    /// Where to write: .svg (animated), .gif or .cast (asciicast v2).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
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

pub fn record(args: &RecordArgs) -> Result<ExitCode> {
    use idem::export::record;
    let ext = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if !["svg", "gif", "cast"].contains(&ext.as_str()) {
        return Err(input_error(format!(
            "{}: the file name must end in .svg, .gif or .cast",
            args.output.display()
        )));
    }
    if args.output.exists() && !args.force {
        return Err(input_error(format!(
            "{} already exists; pass --force to replace it",
            args.output.display()
        )));
    }
    let script = load(&args.scenario)?;
    let mode = args.mode.clone().unwrap_or_else(|| script.design());
    let strategy = Strategy::by_name(&mode).context("strategy checked by clap")?;
    let shot = Shot {
        script,
        strategy,
        seed: args.seed,
        moment: Moment::Start,
        view: View::Main,
        width: args.size.0,
        height: args.size.1,
        ascii: args.ascii,
        color: !args.no_color,
    };
    let frames = record::frames(&shot).map_err(input_error)?;
    let title = shot.title();
    let bytes = match ext.as_str() {
        "svg" => record::animated_svg(&frames, args.pace, &title).into_bytes(),
        "cast" => record::cast(&frames, args.pace, &title).into_bytes(),
        _ => record::gif(&frames, args.pace, &title).map_err(|e| anyhow::anyhow!(e))?,
    };
    std::fs::write(&args.output, bytes)
        .map_err(|e| input_error(format!("cannot write {}: {e}", args.output.display())))?;
    crate::cli::note(&format!(
        "idem: wrote {} ({} steps, {} each)",
        args.output.display(),
        frames.len(),
        idem::sim::format_duration(args.pace)
    ));
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct LessonArgs {
    /// A scenario (built-in name or .toml path), or `tour` for the whole tour.
    scenario: String,
    /// The terminal size of each screen, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = size)]
    size: (u16, u16),
    /// Where to write the lesson: an .html file.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

pub fn lesson(args: &LessonArgs) -> Result<ExitCode> {
    if Kind::from_path(&args.output) != Some(Kind::Html) {
        return Err(input_error(format!(
            "{}: a lesson is one HTML file; the name must end in .html",
            args.output.display()
        )));
    }
    if args.output.exists() && !args.force {
        return Err(input_error(format!(
            "{} already exists; pass --force to replace it",
            args.output.display()
        )));
    }
    let (scripts, title) = if args.scenario == "tour" {
        let tour: Vec<_> = idem::scenario::load::builtins()
            .into_iter()
            .filter(|s| s.group == idem::scenario::Group::Tour)
            .collect();
        (
            tour,
            "idem · the tour of the Idempotent Consumer".to_string(),
        )
    } else {
        let script = load(&args.scenario)?;
        let title = format!("idem · {}", script.title);
        (vec![script], title)
    };
    let html = idem::export::lesson::render(&scripts, args.size, &title).map_err(input_error)?;
    std::fs::write(&args.output, html)
        .with_context(|| format!("writing {}", args.output.display()))?;
    eprintln!(
        "idem: wrote {} (open it in any browser)",
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
