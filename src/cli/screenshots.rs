//! `idem screenshots`: redraws the README's pictures.

use super::exit::input_error;
use super::output::note;
use super::picture::write;
use anyhow::Result;
use idem::export::{self, Kind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ScreenshotsArgs {
    /// Where to write them.
    #[arg(default_value = "screenshots")]
    dir: PathBuf,
}

impl ScreenshotsArgs {
    pub fn run(&self) -> Result<ExitCode> {
        screenshots(&self.dir)
    }
}

/// Writes every picture of the gallery into `dir`, as PNG.
fn screenshots(dir: &Path) -> Result<ExitCode> {
    use idem::export::gallery::PICTURES;
    std::fs::create_dir_all(dir)
        .map_err(|e| input_error(format!("cannot create the folder {}: {e}", dir.display())))?;
    for picture in &PICTURES {
        let shot = picture.shot().map_err(input_error)?;
        let buffer = shot.buffer().map_err(input_error)?;
        let bytes =
            export::render(&buffer, Kind::Png, &shot.title()).map_err(|e| anyhow::anyhow!(e))?;
        let path = dir.join(format!("{}.png", picture.name));
        write(&path, &bytes)?;
        note(&format!("idem: wrote {}", path.display()));
    }
    let tour = idem::export::gallery::tour_recording().map_err(input_error)?;
    let path = dir.join(format!("{}.svg", idem::export::gallery::TOUR_RECORDING));
    write(&path, tour.as_bytes())?;
    note(&format!("idem: wrote {}", path.display()));
    Ok(ExitCode::SUCCESS)
}
