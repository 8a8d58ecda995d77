//! The picture commands: `shot` (one moment as SVG, PNG, text or HTML),
//! `record` (a whole run), `lesson` (an HTML handout) and `screenshots`,
//! all drawn by the very code that draws the terminal.

use crate::cli::{input_error, load_to_show, note, strategy_name};
use anyhow::{Context, Result};
use idem::export::shot::{Moment, Shot, View};
use idem::export::{self, Kind};
use idem::scenario::Script;
use idem::sim::Strategy;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Which run to draw: the scenario, the design, the seed.
#[derive(clap::Args)]
pub struct RunArgs {
    /// A built-in scenario name (see `idem list`) or a path to a .toml file.
    scenario: String,
    /// The handler design; by default the one the scenario is written for.
    #[arg(long, value_parser = strategy_name)]
    mode: Option<String>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
    fn check(&self, allowed: &[&str]) -> Result<String> {
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

    fn write(&self, bytes: &[u8], what: &str) -> Result<()> {
        idem::output_file::write(&self.output, bytes, self.force).map_err(input_error)?;
        note(&format!("idem: wrote {}{what}", self.output.display()));
        Ok(())
    }
}

fn shot_of(run: &RunArgs, screen: &ScreenArgs, moment: Moment, view: View) -> Result<Shot> {
    let script = load_to_show(&run.scenario)?;
    let mode = run.mode.clone().unwrap_or_else(|| script.design());
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

#[derive(clap::Args)]
pub struct ShotArgs {
    #[command(flatten)]
    run: RunArgs,
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
    /// Which screen: main, compare, presenter, explorer, help, faults, picker.
    #[arg(long, default_value = "main", value_parser = view_name)]
    view: String,
    #[command(flatten)]
    screen: ScreenArgs,
    /// .svg, .png, .txt or .html.
    #[command(flatten)]
    output: OutputArgs,
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

/// Writes every picture of the gallery into `dir`, as PNG, and the tour
/// as an animated SVG. Every name is checked before the first is written,
/// so a refusal leaves the folder as it was.
pub fn screenshots(dir: &Path, force: bool) -> Result<ExitCode> {
    use idem::export::gallery::{PICTURES, TOUR_RECORDING};
    std::fs::create_dir_all(dir)
        .map_err(|e| input_error(format!("cannot create the folder {}: {e}", dir.display())))?;
    let names: Vec<PathBuf> = PICTURES
        .iter()
        .map(|p| dir.join(format!("{}.png", p.name)))
        .chain(std::iter::once(dir.join(format!("{TOUR_RECORDING}.svg"))))
        .collect();
    for path in &names {
        idem::output_file::check(path, force).map_err(input_error)?;
    }
    for (picture, path) in PICTURES.iter().zip(&names) {
        let shot = picture.shot().map_err(input_error)?;
        let buffer = shot.buffer().map_err(input_error)?;
        let bytes =
            export::render(&buffer, Kind::Png, &shot.title()).map_err(|e| anyhow::anyhow!(e))?;
        idem::output_file::write(path, &bytes, force).map_err(input_error)?;
        note(&format!("idem: wrote {}", path.display()));
    }
    let tour = idem::export::gallery::tour_recording().map_err(input_error)?;
    let path = names.last().context("the tour's name is in the list")?;
    idem::output_file::write(path, tour.as_bytes(), force).map_err(input_error)?;
    note(&format!("idem: wrote {}", path.display()));
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct RecordArgs {
    #[command(flatten)]
    run: RunArgs,
    /// How long each step stays on screen.
    #[arg(long, default_value = "1500ms", value_parser = pace)]
    pace: u64,
    #[command(flatten)]
    screen: ScreenArgs,
    /// .svg (animated), .gif or .cast (asciicast v2).
    #[command(flatten)]
    output: OutputArgs,
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

#[derive(clap::Args)]
pub struct LessonArgs {
    /// A scenario (built-in name or .toml path), or `tour` for the whole tour.
    scenario: String,
    /// The terminal size of each screen, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = size)]
    size: (u16, u16),
    /// An .html file.
    #[command(flatten)]
    output: OutputArgs,
}

pub fn lesson(args: &LessonArgs) -> Result<ExitCode> {
    args.output.check(&["html"])?;
    let (scripts, title): (Vec<Script>, String) = if args.scenario == "tour" {
        let tour = idem::scenario::load::builtins()
            .into_iter()
            .filter(|s| s.group == idem::scenario::Group::Tour)
            .collect();
        (tour, "idem · the tour of the Idempotent Consumer".into())
    } else {
        let script = load_to_show(&args.scenario)?;
        let title = format!("idem · {}", script.title);
        (vec![script], title)
    };
    let html = idem::export::lesson::render(&scripts, args.size, &title).map_err(input_error)?;
    args.output
        .write(html.as_bytes(), " (open it in any browser)")?;
    Ok(ExitCode::SUCCESS)
}
