//! `idem screenshots`: redraws the README's pictures.

use super::exit::input_error;
use super::output::note;
use anyhow::{Context, Result};
use idem::export::{self, Kind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ScreenshotsArgs {
    /// Where to write them.
    #[arg(default_value = "screenshots")]
    dir: PathBuf,
    /// Replace pictures already there (a link is replaced itself).
    #[arg(long)]
    force: bool,
    /// Redraw only this picture (its file name, with or without the
    /// extension); may be given more than once.
    #[arg(long, value_name = "NAME")]
    only: Vec<String>,
}

impl ScreenshotsArgs {
    pub fn run(&self) -> Result<ExitCode> {
        screenshots(&self.dir, self.force, &self.only)
    }
}

/// Every file the gallery writes, by name: the pictures, then the tour.
fn file_names() -> Vec<String> {
    use idem::export::gallery::{PICTURES, TOUR_RECORDING};
    PICTURES
        .iter()
        .map(|p| format!("{}.png", p.name))
        .chain(std::iter::once(format!("{TOUR_RECORDING}.svg")))
        .collect()
}

/// Whether `file` is one of those `only` names (all of them, when it names
/// none); an `only` name that is no file of the gallery is an error.
fn chosen(only: &[String]) -> Result<Vec<bool>> {
    let files = file_names();
    let stem = |f: &str| {
        f.rsplit_once('.')
            .map_or(f.to_string(), |(s, _)| s.to_string())
    };
    for name in only {
        if !files.iter().any(|f| f == name || stem(f) == *name) {
            let stems: Vec<String> = files.iter().map(|f| stem(f)).collect();
            return Err(input_error(format!(
                "--only {}: no such picture{}; the pictures are {}",
                idem::terminal_text::escape(name),
                idem::suggest::did_you_mean(name, stems.iter().map(String::as_str)),
                stems.join(", ")
            )));
        }
    }
    Ok(files
        .iter()
        .map(|f| only.is_empty() || only.iter().any(|n| n == f || *n == stem(f)))
        .collect())
}

/// Writes every picture of the gallery into `dir`, as PNG, and the tour
/// as an animated SVG. Every name is checked before the first is written,
/// so a refusal leaves the folder as it was.
fn screenshots(dir: &Path, force: bool, only: &[String]) -> Result<ExitCode> {
    use idem::export::gallery::PICTURES;
    let chosen = chosen(only)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| input_error(format!("cannot create the folder {}: {e}", dir.display())))?;
    let names: Vec<PathBuf> = file_names().iter().map(|f| dir.join(f)).collect();
    for (path, _) in names.iter().zip(&chosen).filter(|(_, c)| **c) {
        idem::output_file::check(path, force).map_err(input_error)?;
    }
    for ((picture, path), _) in PICTURES
        .iter()
        .zip(&names)
        .zip(&chosen)
        .filter(|(_, c)| **c)
    {
        let shot = picture.shot().map_err(input_error)?;
        let buffer = shot.buffer().map_err(input_error)?;
        let bytes =
            export::render(&buffer, Kind::Png, &shot.title()).map_err(|e| anyhow::anyhow!(e))?;
        idem::output_file::write(path, &bytes, force).map_err(input_error)?;
        note(&format!("idem: wrote {}", path.display()));
    }
    if !chosen.last().copied().unwrap_or(false) {
        return Ok(ExitCode::SUCCESS);
    }
    let tour = idem::export::gallery::tour_recording().map_err(input_error)?;
    let path = names.last().context("the tour's name is in the list")?;
    idem::output_file::write(path, tour.as_bytes(), force).map_err(input_error)?;
    note(&format!("idem: wrote {}", path.display()));
    Ok(ExitCode::SUCCESS)
}
