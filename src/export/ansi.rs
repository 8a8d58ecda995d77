//! A buffer as terminal output: cursor home, then every row with its SGR
//! styles, as an asciicast frame replays it.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::fmt::Write;

pub fn render(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::from("\x1b[H");
    for y in area.top()..area.bottom() {
        let mut last: Option<String> = None;
        let mut skip = 0;
        for x in area.left()..area.right() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let cell = &buffer[(x, y)];
            let sgr = sgr(cell.fg, cell.bg, cell.modifier);
            if last.as_ref() != Some(&sgr) {
                out.push_str(&sgr);
                last = Some(sgr);
            }
            let symbol = cell.symbol();
            skip = super::text::unicode_width(symbol).saturating_sub(1);
            // A cell never carries control characters: the TUI filters
            // scenario text, and this keeps a recording safe to replay.
            out.extend(symbol.chars().filter(|c| !c.is_control()));
        }
        out.push_str("\x1b[0m");
        if y + 1 < area.bottom() {
            out.push_str("\r\n");
        }
    }
    out
}

fn sgr(fg: Color, bg: Color, m: Modifier) -> String {
    let mut codes = vec!["0".to_string()];
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::REVERSED, "7"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if m.contains(flag) {
            codes.push(code.into());
        }
    }
    if let Some(c) = colour(fg, 30) {
        codes.push(c);
    }
    if let Some(c) = colour(bg, 40) {
        codes.push(c);
    }
    let mut out = String::from("\x1b[");
    let _ = write!(out, "{}m", codes.join(";"));
    out
}

/// `base` is 30 for foreground, 40 for background.
fn colour(c: Color, base: u8) -> Option<String> {
    let named = |n: u8| Some((base + n).to_string());
    let bright = |n: u8| Some((base + 60 + n).to_string());
    match c {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => bright(0),
        Color::LightRed => bright(1),
        Color::LightGreen => bright(2),
        Color::LightYellow => bright(3),
        Color::LightBlue => bright(4),
        Color::LightMagenta => bright(5),
        Color::LightCyan => bright(6),
        Color::White => bright(7),
        Color::Indexed(i) => Some(format!("{};5;{i}", base + 8)),
        Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", base + 8)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn styles_become_sgr_and_rows_end_in_crlf() {
        let mut b = Buffer::empty(Rect::new(0, 0, 3, 2));
        b.set_string(
            0,
            0,
            "ok",
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
        );
        let out = render(&b);
        assert!(out.starts_with("\x1b[H\x1b[0;1;32mok"), "{out:?}");
        assert_eq!(out.matches("\r\n").count(), 1);
    }
}
