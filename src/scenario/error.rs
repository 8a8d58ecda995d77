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
            message,
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
        // The caret goes under the escaped text of the column's character.
        let before: String = self
            .source_line
            .chars()
            .take(self.column.saturating_sub(1))
            .collect();
        writeln!(f, "{gutter} | {}", escape(&self.source_line))?;
        write!(
            f,
            "{} | {}^",
            " ".repeat(gutter.len()),
            " ".repeat(escape(&before).chars().count())
        )
    }
}

impl std::error::Error for ScenarioError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "a = 1\nbé = \"x\"\n";
        let e = ScenarioError::at("f.toml", text, Some(11..12), "bad".into());
        assert_eq!((e.line, e.column), (2, 5));
        assert_eq!(e.source_line, "bé = \"x\"");
        assert!(e.to_string().starts_with("f.toml:2:5: bad\n2 | bé"));
    }
}
