use crate::terminal_text::escape;
use std::fmt;
use std::ops::Range;

/// A problem in a scenario file, with the place it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The offending line of the file, for a caret under the column.
    pub source_line: String,
}

impl ScenarioError {
    pub fn at(file: &str, text: &str, span: Option<Range<usize>>, message: String) -> Self {
        let offset = span.map_or(0, |s| s.start).min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = text[line_start..offset].chars().count() + 1;
        let source_line = text[line_start..]
            .lines()
            .next()
            .unwrap_or_default()
            .to_string();
        ScenarioError {
            file: file.to_string(),
            line,
            column,
            message: shorten(message),
            source_line,
        }
    }
}

impl fmt::Display for ScenarioError {
    /// Everything that came from the file or its name is escaped: the error
    /// is about a hostile file as often as a mistaken one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {}",
            escape(&self.file),
            self.line,
            self.column,
            escape(&self.message)
        )?;
        let gutter = self.line.to_string();
        // A window of the line around the column: a hostile file can have
        // a line of a megabyte, which must not flood the terminal.
        let chars: Vec<char> = self.source_line.chars().collect();
        let at = self.column.saturating_sub(1).min(chars.len());
        let start = at.saturating_sub(WINDOW / 2);
        let end = (start + WINDOW).min(chars.len());
        let cut = |from: usize, to: usize| -> String { chars[from..to].iter().collect() };
        let head = if start > 0 { "…" } else { "" };
        let tail = if end < chars.len() { "…" } else { "" };
        // The caret goes under the escaped text of the column's character.
        let before = format!("{head}{}", escape(&cut(start, at)));
        writeln!(f, "{gutter} | {head}{}{tail}", escape(&cut(start, end)))?;
        write!(
            f,
            "{} | {}^",
            " ".repeat(gutter.len()),
            " ".repeat(before.chars().count())
        )
    }
}

/// A message that echoes a huge value (a key or ID of 100 000 characters)
/// keeps its head and its tail, which says what was expected.
fn shorten(message: String) -> String {
    const MOST: usize = 500;
    let count = message.chars().count();
    if count <= MOST {
        return message;
    }
    let head: String = message.chars().take(300).collect();
    let tail: String = message.chars().skip(count - 150).collect();
    format!("{head} … ({} characters left out) … {tail}", count - 450)
}

/// Characters of the offending line shown around the column.
const WINDOW: usize = 100;

impl std::error::Error for ScenarioError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_shown_around_the_column() {
        let text = format!("a = \"{}\u{1b}{}\"\n", "x".repeat(5_000), "y".repeat(5_000));
        let at = text.find('\u{1b}').unwrap();
        let e = ScenarioError::at("f.toml", &text, Some(at..at + 1), "bad".into());
        let shown = e.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[1].chars().count() < 120, "{}", lines[1]);
        assert!(lines[1].starts_with("1 | …x") && lines[1].ends_with("y…"));
        let caret = lines[2].chars().count() - 1;
        assert_eq!(lines[1].chars().nth(caret), Some('\\'), "{shown}");
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "a = 1\nbé = \"x\"\n";
        let e = ScenarioError::at("f.toml", text, Some(11..12), "bad".into());
        assert_eq!((e.line, e.column), (2, 5));
        assert_eq!(e.source_line, "bé = \"x\"");
        assert!(e.to_string().starts_with("f.toml:2:5: bad\n2 | bé"));
    }
}
