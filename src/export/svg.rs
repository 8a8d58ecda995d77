//! A buffer as SVG: a monospace grid in a terminal-like window, one
//! background rectangle per coloured run and one text run per style span.
//! The same buffer always gives the same bytes.

use super::palette::{self, cell_colors};
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use std::fmt::Write;

pub const FONT_SIZE: f64 = 14.0;
/// DejaVu Sans Mono advances 1233/2048 em: the grid follows the font.
pub const CELL_W: f64 = 8.43;
pub const CELL_H: f64 = 18.0;
const PAD: f64 = 12.0;
const TITLE_BAR: f64 = 28.0;
/// The fonts the picture asks for, the bundled one first (the PNG loads it
/// from its own bytes; a browser falls back to the others).
pub const FONT_FAMILY: &str = "'DejaVu Sans Mono', 'DejaVu Sans', Menlo, Consolas, monospace";

/// Width and height of the picture of a `cols` × `rows` screen, in pixels.
pub fn size(cols: u16, rows: u16) -> (f64, f64) {
    (
        2.0 * PAD + f64::from(cols) * CELL_W,
        TITLE_BAR + 2.0 * PAD + f64::from(rows) * CELL_H,
    )
}

/// One run of cells drawn alike.
#[derive(PartialEq)]
struct Look {
    fg: String,
    bg: Option<String>,
    bold: bool,
    italic: bool,
    dim: bool,
    underline: bool,
    crossed: bool,
}

pub fn render(buffer: &Buffer, title: &str) -> String {
    let area = buffer.area;
    let (w, h) = size(area.width, area.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2}" height="{h:.2}" viewBox="0 0 {w:.2} {h:.2}" role="img" aria-label="{}">"#,
        escape(title)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r#"<rect width="{w:.2}" height="{h:.2}" rx="8" fill="{}"/>"#,
        palette::FRAME
    );
    let _ = writeln!(
        out,
        r#"<rect x="1" y="{TITLE_BAR}" width="{:.2}" height="{:.2}" fill="{}"/>"#,
        w - 2.0,
        h - TITLE_BAR - 1.0,
        palette::BACKGROUND
    );
    for (i, colour) in ["#ed6a5e", "#f5bf4f", "#61c554"].iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="14" r="6" fill="{colour}"/>"#,
            18 + i * 20
        );
    }
    let _ = writeln!(
        out,
        r##"<text x="{:.2}" y="18.5" fill="#b8b3a8" font-family="{FONT_FAMILY}" font-size="12" text-anchor="middle">{}</text>"##,
        w / 2.0,
        escape(title)
    );
    let _ = writeln!(
        out,
        r#"<g font-family="{FONT_FAMILY}" font-size="{FONT_SIZE}" xml:space="preserve">"#
    );
    for y in 0..area.height {
        row(buffer, y, &mut out);
    }
    out.push_str("</g>\n</svg>\n");
    out
}

fn row(buffer: &Buffer, y: u16, out: &mut String) {
    let area = buffer.area;
    let top = TITLE_BAR + PAD + f64::from(y) * CELL_H;
    let baseline = top + 13.5;
    // Cells as (column, symbol, look), a wide glyph's second half skipped.
    let mut cells: Vec<(u16, &str, Look)> = Vec::new();
    let mut skip = 0;
    for x in 0..area.width {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let cell = &buffer[(area.x + x, area.y + y)];
        let symbol = cell.symbol();
        skip = super::text::unicode_width(symbol).saturating_sub(1);
        let m = cell.modifier;
        let (fg, bg) = cell_colors(cell.fg, cell.bg, m);
        cells.push((
            x,
            symbol,
            Look {
                fg,
                bg,
                bold: m.contains(Modifier::BOLD),
                italic: m.contains(Modifier::ITALIC),
                dim: m.contains(Modifier::DIM),
                underline: m.contains(Modifier::UNDERLINED),
                crossed: m.contains(Modifier::CROSSED_OUT),
            },
        ));
    }
    // Box-drawing cells become lines drawn edge to edge, so borders join
    // across rows whatever the font's height; their text is a space.
    let mut lines: Vec<(String, String)> = Vec::new();
    // Block glyphs (the presenter's large figures) become rectangles that
    // fill their cells exactly, so the figures have no seams between rows.
    for (x, symbol, look) in &mut cells {
        let Some((fx, fy, fw, fh)) = block_part(symbol) else {
            continue;
        };
        let left = PAD + f64::from(*x) * CELL_W;
        let _ = writeln!(
            out,
            r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{}"/>"#,
            left + fx * CELL_W,
            top + fy * CELL_H,
            // A hair wider and taller than the cell, so anti-aliasing at
            // the cell's fractional edges leaves no seam between blocks.
            fw * CELL_W + 0.6,
            fh * CELL_H + 0.6,
            look.fg
        );
        *symbol = " ";
    }
    for (x, symbol, look) in &mut cells {
        let Some(dirs) = box_directions(symbol) else {
            continue;
        };
        let left = PAD + f64::from(*x) * CELL_W;
        let (cx, cy) = (left + CELL_W / 2.0, top + CELL_H / 2.0);
        let mut d = String::new();
        let [up, down, l, r] = dirs;
        if up || down {
            let from = if up { top } else { cy };
            let to = if down { top + CELL_H } else { cy };
            let _ = write!(d, "M{cx:.2} {from:.2}V{to:.2}");
        }
        if l || r {
            let from = if l { left } else { cx };
            let to = if r { left + CELL_W } else { cx };
            let _ = write!(d, "M{from:.2} {cy:.2}H{to:.2}");
        }
        match lines.iter_mut().find(|(colour, _)| *colour == look.fg) {
            Some((_, path)) => path.push_str(&d),
            None => lines.push((look.fg.clone(), d)),
        }
        *symbol = " ";
    }
    for (colour, d) in &lines {
        let _ = writeln!(
            out,
            r#"<path d="{d}" stroke="{colour}" stroke-width="1.2" fill="none"/>"#
        );
    }
    let mut start = 0;
    while start < cells.len() {
        let mut end = start + 1;
        while end < cells.len() && cells[end].2 == cells[start].2 {
            end += 1;
        }
        let look = &cells[start].2;
        let x0 = PAD + f64::from(cells[start].0) * CELL_W;
        let last = &cells[end - 1];
        let x1 =
            PAD + f64::from(last.0) * CELL_W + CELL_W * super::text::unicode_width(last.1) as f64;
        if let Some(bg) = &look.bg {
            let _ = writeln!(
                out,
                r#"<rect x="{x0:.2}" y="{top:.2}" width="{:.2}" height="{CELL_H}" fill="{bg}"/>"#,
                x1 - x0
            );
        }
        let text: String = cells[start..end].iter().map(|c| c.1).collect();
        let trimmed = text.trim_end();
        if !trimmed.trim_start().is_empty() {
            let lead = trimmed.len() - trimmed.trim_start().len();
            let x = PAD + f64::from(cells[start].0 + lead as u16) * CELL_W;
            let mut attrs = format!(r#"x="{x:.2}" y="{baseline:.2}" fill="{}""#, look.fg);
            if look.bold {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if look.italic {
                attrs.push_str(r#" font-style="italic""#);
            }
            if look.dim {
                attrs.push_str(r#" opacity="0.6""#);
            }
            match (look.underline, look.crossed) {
                (true, true) => attrs.push_str(r#" text-decoration="underline line-through""#),
                (true, false) => attrs.push_str(r#" text-decoration="underline""#),
                (false, true) => attrs.push_str(r#" text-decoration="line-through""#),
                _ => {}
            }
            let _ = writeln!(out, "<text {attrs}>{}</text>", escape(trimmed.trim_start()));
        }
        start = end;
    }
}

/// The part of its cell a block glyph fills: x, y, width, height, as
/// fractions of the cell.
fn block_part(symbol: &str) -> Option<(f64, f64, f64, f64)> {
    Some(match symbol {
        "█" => (0.0, 0.0, 1.0, 1.0),
        "▀" => (0.0, 0.0, 1.0, 0.5),
        "▄" => (0.0, 0.5, 1.0, 0.5),
        "▌" => (0.0, 0.0, 0.5, 1.0),
        "▐" => (0.5, 0.0, 0.5, 1.0),
        _ => return None,
    })
}

/// The arms of a light box-drawing glyph: up, down, left, right.
fn box_directions(symbol: &str) -> Option<[bool; 4]> {
    Some(match symbol {
        "─" => [false, false, true, true],
        "│" => [true, true, false, false],
        "┌" | "╭" => [false, true, false, true],
        "┐" | "╮" => [false, true, true, false],
        "└" | "╰" => [true, false, false, true],
        "┘" | "╯" => [true, false, true, false],
        "├" => [true, true, false, true],
        "┤" => [true, true, true, false],
        "┬" => [false, true, true, true],
        "┴" => [true, false, true, true],
        "┼" => [true, true, true, true],
        _ => return None,
    })
}

/// Text and attribute values as XML: markup characters escaped, and control
/// characters (which XML cannot hold) shown as U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Style};

    #[test]
    fn one_text_run_per_style_and_a_rect_per_background() {
        let mut b = Buffer::empty(Rect::new(0, 0, 10, 1));
        b.set_string(0, 0, "ab", Style::default().fg(Color::Red));
        b.set_string(2, 0, "<c", Style::default().bg(Color::Green));
        let svg = render(&b, "t & u");
        assert!(svg.contains(">ab</text>"), "{svg}");
        assert!(svg.contains(">&lt;c</text>"), "{svg}");
        assert_eq!(
            svg.matches("<text ").count(),
            3,
            "title, and two runs: {svg}"
        );
        assert!(
            svg.contains(r##"fill="#a9b665""##),
            "green background: {svg}"
        );
        assert!(svg.contains("t &amp; u"));
        assert_eq!(render(&b, "t"), render(&b, "t"), "deterministic");
    }
}
