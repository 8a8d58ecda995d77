//! A buffer as PNG: its SVG rasterised with resvg, with the fonts the
//! repository ships loaded from their bytes, never from the machine, so the
//! picture is the same everywhere and text cannot silently go missing.

use ratatui::buffer::Buffer;
use resvg::usvg::{self, fontdb};
use std::sync::{Arc, OnceLock};

const MONO: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");
const MONO_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf");
/// For any symbol the monospace face lacks.
const FALLBACK: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("could not read the picture's SVG: {0}")]
    Svg(String),
    #[error("a {0}x{1} picture is too large to draw")]
    TooLarge(u32, u32),
    #[error("could not encode the PNG: {0}")]
    Encode(String),
}

fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            for bytes in [MONO, MONO_BOLD, FALLBACK] {
                db.load_font_data(bytes.to_vec());
            }
            db.set_monospace_family("DejaVu Sans Mono");
            db.set_sans_serif_family("DejaVu Sans");
            Arc::new(db)
        })
        .clone()
}

/// The picture at its natural size: one pixel per SVG unit.
pub fn render(buffer: &Buffer, title: &str) -> Result<Vec<u8>, PngError> {
    rasterise(&super::svg::render(buffer, title))
}

pub fn rasterise(svg: &str) -> Result<Vec<u8>, PngError> {
    pixmap(svg)?
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// The picture as straight RGBA bytes, row by row.
pub fn rgba(svg: &str) -> Result<Vec<u8>, PngError> {
    let pixmap = pixmap(svg)?;
    Ok(pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect())
}

fn pixmap(svg: &str) -> Result<resvg::tiny_skia::Pixmap, PngError> {
    let options = usvg::Options {
        font_family: "DejaVu Sans Mono".into(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or(PngError::TooLarge(size.width(), size.height()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}
