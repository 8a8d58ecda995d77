//! The terminal colours a picture is drawn in: a dark theme, with the
//! sixteen named colours mapped the way common terminals show them.

use ratatui::style::{Color, Modifier};

pub const BACKGROUND: &str = "#1d2021";
pub const FOREGROUND: &str = "#d5d0c4";
/// The window frame around the screen.
pub const FRAME: &str = "#3a3d3e";

/// A cell's colours as drawn: `Reset` is the theme's, reversed video swaps
/// them. Returns (foreground, background); background `None` is the screen's.
pub fn cell_colors(fg: Color, bg: Color, modifier: Modifier) -> (String, Option<String>) {
    let fg_hex = hex(fg).unwrap_or_else(|| FOREGROUND.to_string());
    let bg_hex = hex(bg);
    if modifier.contains(Modifier::REVERSED) {
        (
            bg_hex.unwrap_or_else(|| BACKGROUND.to_string()),
            Some(fg_hex),
        )
    } else {
        (fg_hex, bg_hex)
    }
}

/// `None` for the terminal's default.
pub fn hex(color: Color) -> Option<String> {
    let rgb = match color {
        Color::Reset => return None,
        Color::Black => (0x1d, 0x20, 0x21),
        Color::Red => (0xea, 0x69, 0x62),
        Color::Green => (0xa9, 0xb6, 0x65),
        Color::Yellow => (0xd8, 0xa6, 0x57),
        Color::Blue => (0x7d, 0xae, 0xa3),
        Color::Magenta => (0xd3, 0x86, 0x9b),
        Color::Cyan => (0x89, 0xb4, 0x82),
        Color::Gray => (0xa8, 0x99, 0x84),
        Color::DarkGray => (0x7c, 0x6f, 0x64),
        Color::LightRed => (0xf2, 0x8b, 0x82),
        Color::LightGreen => (0xc5, 0xd1, 0x7f),
        Color::LightYellow => (0xe9, 0xb9, 0x6e),
        Color::LightBlue => (0x9c, 0xc8, 0xbd),
        Color::LightMagenta => (0xe3, 0xa1, 0xb4),
        Color::LightCyan => (0xa6, 0xcf, 0x9f),
        Color::White => (0xeb, 0xe6, 0xd9),
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) => indexed(i),
    };
    Some(format!("#{:02x}{:02x}{:02x}", rgb.0, rgb.1, rgb.2))
}

/// The xterm 256-colour cube and grey ramp; the first sixteen as above.
fn indexed(i: u8) -> (u8, u8, u8) {
    const NAMED: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];
    match i {
        0..=15 => {
            let h = hex(NAMED[i as usize]).expect("named colours have a value");
            let v = |k: usize| u8::from_str_radix(&h[k..k + 2], 16).expect("hex");
            (v(1), v(3), v(5))
        }
        16..=231 => {
            let n = i - 16;
            let level = |c: u8| if c == 0 { 0 } else { 55 + c * 40 };
            (level(n / 36), level((n / 6) % 6), level(n % 6))
        }
        _ => {
            let g = 8 + (i - 232) * 10;
            (g, g, g)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reversed_video_swaps_and_reset_is_the_theme() {
        let (fg, bg) = cell_colors(Color::Reset, Color::Reset, Modifier::REVERSED);
        assert_eq!(fg, BACKGROUND);
        assert_eq!(bg.as_deref(), Some(FOREGROUND));
        assert_eq!(hex(Color::Indexed(196)).as_deref(), Some("#ff0000"));
        assert_eq!(hex(Color::Indexed(1)), hex(Color::Red));
    }
}
