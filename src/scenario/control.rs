//! Every string of a scenario file — titles, narration, IDs, actions, even
//! keys — ends up on a terminal. TOML escapes (`\e`, `\u001b`, `\x9b`) can
//! put control characters into them, so they are refused here, at the
//! escape that wrote them, before any other check can echo the value.

use super::error::{MAX_ERRORS, ScenarioError, ScenarioErrors};
use crate::terminal_text::{describe, escape, is_control};
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Refuses every control character in the keys and strings of `text`.
/// A document that does not parse is left to the parser's own errors.
pub fn check(file: &str, text: &str) -> Result<(), ScenarioErrors> {
    // TOML allows NUL nowhere; the parser would call it a missing `=`. One
    // is enough to say the file is not text (UTF-16 has one every other
    // byte), so only the first is reported.
    if let Some(at) = text.find('\0') {
        return Err(ScenarioError::at(
            file,
            text,
            Some(at..at + 1),
            "a NUL byte (U+0000): a scenario is a text file, and TOML allows no NUL anywhere"
                .into(),
        )
        .into());
    }
    let Ok(doc) = DeTable::parse(text) else {
        return Ok(());
    };
    let mut found = Found {
        text,
        kept: Vec::new(),
        more: 0,
    };
    table(&mut found, doc.get_ref(), &mut String::new());
    if found.kept.is_empty() {
        return Ok(());
    }
    Err(ScenarioErrors::at(file, text, found.kept).with_more(found.more))
}

/// What the walk found: the first [`MAX_ERRORS`] it met (keys in name
/// order, so past the limit not quite the first in the file) with their
/// messages, which echo the key's path, of any length; and a count of the
/// rest.
struct Found<'t> {
    text: &'t str,
    kept: Vec<(Option<Range<usize>>, String)>,
    more: usize,
}

fn table(found: &mut Found<'_>, t: &DeTable<'_>, path: &mut String) {
    for (key, value) in t {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key.get_ref());
        string(found, key.get_ref(), key.span(), path, "the key");
        self::value(found, value, path);
        path.truncate(len);
    }
}

fn value(found: &mut Found<'_>, v: &Spanned<DeValue<'_>>, path: &mut String) {
    match v.get_ref() {
        DeValue::String(s) => string(found, s, v.span(), path, "the text of"),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{}]", i + 1));
                value(found, item, path);
                path.truncate(len);
            }
        }
        DeValue::Table(t) => table(found, t, path),
        _ => {}
    }
}

fn string(found: &mut Found<'_>, s: &str, span: Range<usize>, path: &str, what: &str) {
    // Where the search for the next escape goes on from: a string with
    // two `\e` has two escapes to point at.
    let mut from = span.start;
    // A CRLF line end inside a multi-line string is a line end, not a
    // carriage return on its own.
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        let name = invisible(c);
        if name.is_none() && !is_control(c) {
            continue;
        }
        if found.kept.len() == MAX_ERRORS {
            found.more += 1;
            continue;
        }
        let message = match name {
            Some(name) => format!(
                "invisible character U+{:04X} ({name}) in {what} `{}`: it makes text display as something it is not, so scenario text may not hold it",
                c as u32,
                escape(path)
            ),
            None => format!(
                "control character {} in {what} `{}`: scenario text may hold newlines and tabs, but no control characters (a terminal would obey them)",
                describe(c),
                escape(path)
            ),
        };
        let at = locate(found.text, from..span.end, c);
        from = at + 1;
        while from < span.end && !found.text.is_char_boundary(from) {
            from += 1;
        }
        found.kept.push((Some(at..at + 1), message));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_escape_is_pointed_at_and_past_the_limit_counted() {
        let text = format!(
            "title = \"{}\"\nsummary = \"a\\u0007\\e\"\n",
            "x\\e".repeat(60)
        );
        let errors = check("f.toml", &text).unwrap_err();
        assert_eq!((errors.len(), errors.more()), (MAX_ERRORS, 12));
        // `summary` comes before `title`: both of its escapes are kept.
        let places: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
        let mut expected: Vec<(usize, usize)> = (0..48).map(|i| (1, 11 + 3 * i)).collect();
        expected.extend([(2, 13), (2, 19)]);
        assert_eq!(places, expected);
        assert!(
            errors[49]
                .message
                .contains("U+001B (ESC) in the text of `summary`")
        );
    }

    #[test]
    fn a_crlf_in_a_multi_line_string_is_a_line_end() {
        assert!(check("f.toml", "title = \"\"\"a\r\nb\"\"\"\r\n").is_ok());
        let errors = check("f.toml", "title = \"\"\"a\\rb\"\"\"\n").unwrap_err();
        assert_eq!(errors.count(), 1);
    }
}
