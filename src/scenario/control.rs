//! Every string of a scenario file — titles, narration, IDs, actions, even
//! keys — ends up on a terminal. TOML escapes (`\e`, `\u001b`, `\x9b`) can
//! put control characters into them, so they are refused here, at the
//! escape that wrote them, before any other check can echo the value.

use super::error::ScenarioError;
use crate::terminal_text::{describe, escape, is_control};
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Refuses the first control character in any key or string of `text`.
/// A document that does not parse is left to the parser's own error.
pub fn check(file: &str, text: &str) -> Result<(), ScenarioError> {
    // TOML allows NUL nowhere; the parser would call it a missing `=`.
    if let Some(at) = text.find('\0') {
        return Err(ScenarioError::at(
            file,
            text,
            Some(at..at + 1),
            "a NUL byte (U+0000): a scenario is a text file, and TOML allows no NUL anywhere"
                .into(),
        ));
    }
    let Ok(doc) = DeTable::parse(text) else {
        return Ok(());
    };
    let mut path = String::new();
    table(file, text, doc.get_ref(), &mut path)
}

fn table(file: &str, text: &str, t: &DeTable<'_>, path: &mut String) -> Result<(), ScenarioError> {
    for (key, value) in t {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key.get_ref());
        string(file, text, key.get_ref(), key.span(), path, "the key")?;
        self::value(file, text, value, path)?;
        path.truncate(len);
    }
    Ok(())
}

fn value(
    file: &str,
    text: &str,
    v: &Spanned<DeValue<'_>>,
    path: &mut String,
) -> Result<(), ScenarioError> {
    match v.get_ref() {
        DeValue::String(s) => string(file, text, s, v.span(), path, "the text of"),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{}]", i + 1));
                value(file, text, item, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        DeValue::Table(t) => table(file, text, t, path),
        _ => Ok(()),
    }
}

fn string(
    file: &str,
    text: &str,
    s: &str,
    span: Range<usize>,
    path: &str,
    what: &str,
) -> Result<(), ScenarioError> {
    // A CRLF line end inside a multi-line string is a line end, not a
    // carriage return on its own.
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if let Some(name) = invisible(c) {
            let at = locate(text, span.clone(), c);
            return Err(ScenarioError::at(
                file,
                text,
                Some(at..at + 1),
                format!(
                    "invisible character U+{:04X} ({name}) in {what} `{}`: it makes text display as something it is not, so scenario text may not hold it",
                    c as u32,
                    escape(path)
                ),
            ));
        }
        if is_control(c) {
            let at = locate(text, span.clone(), c);
            return Err(ScenarioError::at(
                file,
                text,
                Some(at..at + 1),
                format!(
                    "control character {} in {what} `{}`: scenario text may hold newlines and tabs, but no control characters (a terminal would obey them)",
                    describe(c),
                    escape(path)
                ),
            ));
        }
    }
    Ok(())
}

/// The byte offset in the file of the escape (or raw character) that wrote
/// the control character `c` inside the literal at `span`; the literal's
/// start when it cannot be told.
fn locate(text: &str, span: Range<usize>, c: char) -> usize {
    let Some(literal) = text.get(span.clone()) else {
        return span.start;
    };
    let mut iter = literal.char_indices().peekable();
    while let Some((i, ch)) = iter.next() {
        if ch == c {
            return span.start + i;
        }
        if ch != '\\' {
            continue;
        }
        let Some(&(_, kind)) = iter.peek() else { break };
        let digits = match kind {
            'e' => Some(('\u{1b}', 0)),
            'b' => Some(('\u{8}', 0)),
            'f' => Some(('\u{c}', 0)),
            'r' => Some(('\r', 0)),
            'x' => Some(('\0', 2)),
            'u' => Some(('\0', 4)),
            'U' => Some(('\0', 8)),
            _ => None,
        };
        iter.next();
        let Some((fixed, n)) = digits else { continue };
        let decoded = if n == 0 {
            Some(fixed)
        } else {
            let start = i + 2;
            literal
                .get(start..start + n)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
        };
        if decoded == Some(c) {
            return span.start + i;
        }
    }
    span.start
}

/// Characters that change how text around them is shown without showing
/// themselves: bidirectional overrides and isolates (an ID can be made to
/// read as another) and zero-width characters (two IDs that look equal).
fn invisible(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{200b}' => "zero width space",
        '\u{200c}' => "zero width non-joiner",
        '\u{200d}' => "zero width joiner",
        '\u{2060}' => "word joiner",
        '\u{feff}' => "zero width no-break space",
        '\u{200e}' => "left-to-right mark",
        '\u{200f}' => "right-to-left mark",
        '\u{061c}' => "arabic letter mark",
        '\u{202a}' => "left-to-right embedding",
        '\u{202b}' => "right-to-left embedding",
        '\u{202c}' => "pop directional formatting",
        '\u{202d}' => "left-to-right override",
        '\u{202e}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        _ => return None,
    })
}
