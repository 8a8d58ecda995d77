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

/// The PNG, with the digest of the SVG it was drawn from in a text chunk
/// (`DRAWN_FROM`): a picture can be checked against the screen it shows
/// without drawing it again, which is most of what drawing costs.
pub fn rasterise(svg: &str) -> Result<Vec<u8>, PngError> {
    let png = pixmap(svg)?
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))?;
    Ok(with_text(&png, DRAWN_FROM, &svg_digest(svg)))
}

/// The keyword of the text chunk that holds the SVG's digest.
pub const DRAWN_FROM: &str = "idem-drawn-from-svg-sha256";

/// The SHA-256 of an SVG, in hex.
pub fn svg_digest(svg: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(svg.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The text of the PNG's `tEXt` chunk named `keyword`, if it has one.
pub fn text_chunk(png: &[u8], keyword: &str) -> Option<String> {
    let mut at = 8;
    while at + 12 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().ok()?) as usize;
        let kind = &png[at + 4..at + 8];
        let data = png.get(at + 8..at + 8 + len)?;
        if kind == b"tEXt" {
            let split = data.iter().position(|&b| b == 0)?;
            if &data[..split] == keyword.as_bytes() {
                return String::from_utf8(data[split + 1..].to_vec()).ok();
            }
        }
        at += 12 + len;
    }
    None
}

/// `png` with a `tEXt` chunk added right after its header (IHDR, always
/// first and 25 bytes with the signature's 8 before it).
fn with_text(png: &[u8], keyword: &str, text: &str) -> Vec<u8> {
    let mut data = keyword.as_bytes().to_vec();
    data.push(0);
    data.extend_from_slice(text.as_bytes());
    let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
    let typed: Vec<u8> = b"tEXt".iter().chain(&data).copied().collect();
    chunk.extend_from_slice(&typed);
    chunk.extend_from_slice(&crc32(&typed).to_be_bytes());
    let header_end = 8 + 25;
    let mut out = png[..header_end].to_vec();
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png[header_end..]);
    out
}

/// The CRC-32 a PNG chunk ends with (ISO 3309, over its type and data).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_the_one_png_uses() {
        // The IEND chunk's CRC, as every PNG ends.
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
    }

    #[test]
    fn a_drawn_png_says_what_it_was_drawn_from() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="red"/></svg>"#;
        let png = rasterise(svg).unwrap();
        assert_eq!(text_chunk(&png, DRAWN_FROM), Some(svg_digest(svg)));
        assert_eq!(text_chunk(&png, "other"), None);
        // Still a PNG any reader takes: tiny-skia decodes it.
        let back = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((back.width(), back.height()), (4, 3));
    }
}
