//! Pictures of the real program: the exact Buffer the TUI draws, written out
//! as SVG, PNG, plain text or HTML. Nothing here draws on its own; it only
//! translates cells, so a picture can never disagree with the screen.

pub mod ansi;
pub mod gallery;
pub mod html;
pub mod lesson;
mod lesson_data;
mod lesson_text;
pub mod moment;
pub mod palette;
pub mod png;
pub mod record;
pub mod shot;
pub mod svg;
pub mod text;

use std::path::Path;

/// The file kinds a picture can be written as, from the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Svg,
    Png,
    Txt,
    Html,
}

impl Kind {
    pub fn from_path(path: &Path) -> Option<Kind> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "svg" => Some(Kind::Svg),
            "png" => Some(Kind::Png),
            "txt" => Some(Kind::Txt),
            "html" | "htm" => Some(Kind::Html),
            _ => None,
        }
    }
}

/// A buffer in the format `kind` asks for, as bytes ready to write.
pub fn render(
    buffer: &ratatui::buffer::Buffer,
    kind: Kind,
    title: &str,
) -> Result<Vec<u8>, png::PngError> {
    Ok(match kind {
        Kind::Svg => svg::render(buffer, title).into_bytes(),
        Kind::Png => png::render(buffer, title)?,
        Kind::Txt => text::render(buffer).into_bytes(),
        Kind::Html => html::render(buffer, title).into_bytes(),
    })
}
