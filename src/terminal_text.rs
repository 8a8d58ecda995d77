//! Text that reaches a terminal must not carry control characters: an ESC
//! from a scenario file (or a file name, or an argument) would be obeyed by
//! the terminal as a command — recolour, move the cursor, retitle the
//! window, rewrite what was printed before. Newline and tab are layout and
//! pass; every other C0 character, DEL and the C1 range are controls.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` would act on a terminal instead of showing as text.
pub fn is_control(c: char) -> bool {
    c != '\n' && c != '\t' && c.is_control()
}

/// The first control character in `text`, with its byte offset.
pub fn find_control(text: &str) -> Option<(usize, char)> {
    text.char_indices().find(|&(_, c)| is_control(c))
}

/// `text` with every control character shown as `\u{1b}`, so that it reads
/// as what it is and does nothing. Borrows when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    if find_control(text).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// How a control character is named in an error message: `U+001B (ESC)`.
pub fn describe(c: char) -> String {
    const C0: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
        "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
        "SUB", "ESC", "FS", "GS", "RS", "US",
    ];
    let code = c as u32;
    match code {
        0..=31 => format!("U+{code:04X} ({})", C0[code as usize]),
        0x7f => "U+007F (DEL)".into(),
        _ => format!("U+{code:04X} (a C1 control)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_obeyed() {
        assert_eq!(escape("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(escape("\u{1b}[2Jgone"), "\\u{1b}[2Jgone");
        assert_eq!(escape("a\rb\u{7f}\u{9b}c"), "a\\u{d}b\\u{7f}\\u{9b}c");
        assert_eq!(find_control("ok é ✓"), None);
        assert_eq!(find_control("ab\u{7}"), Some((2, '\u{7}')));
        assert_eq!(describe('\u{1b}'), "U+001B (ESC)");
        assert_eq!(describe('\u{85}'), "U+0085 (a C1 control)");
    }
}
