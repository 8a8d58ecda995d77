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
}

impl ScreenshotsArgs {
    pub fn run(&self) -> Result<ExitCode> {
        screenshots(&self.dir, self.force)
    }
}

/// Writes every picture of the gallery into `dir`, as PNG, and the tour
/// as an animated SVG. Every name is checked before the first is written,
/// so a refusal leaves the folder as it was.
fn screenshots(dir: &Path, force: bool) -> Result<ExitCode> {
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
