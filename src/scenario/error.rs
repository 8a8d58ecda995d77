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
    /// The offending line around the column, for a caret under it.
    excerpt: Excerpt,
}

/// At most [`WINDOW`] characters of a line: a hostile file can have a line
/// of a megabyte, which must neither flood the terminal nor be copied into
/// each of thousands of errors.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Excerpt {
    text: String,
    /// Characters of `text` before the column.
    caret: usize,
    cut_before: bool,
    cut_after: bool,
}

impl ScenarioError {
    pub fn at(file: &str, text: &str, span: Option<Range<usize>>, message: String) -> Self {
        let offset = span.map_or(0, |s| s.start).min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = text[line_start..offset].chars().count() + 1;
        let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
        let whole = &text[line_start..line_end];
        let whole = whole.strip_suffix('\r').unwrap_or(whole);
        let head = &whole[..(offset - line_start).min(whole.len())];
        let from = head
            .char_indices()
            .rev()
            .nth(WINDOW / 2 - 1)
            .map_or(0, |(i, _)| i);
        let mut shown = whole[from..].chars();
        let excerpt = Excerpt {
            text: shown.by_ref().take(WINDOW).collect(),
            caret: head[from..].chars().count(),
            cut_before: from > 0,
            cut_after: shown.next().is_some(),
        };
        ScenarioError {
            file: file.to_string(),
            line,
            column,
            message: shorten(message),
            excerpt,
        }
    }
}

impl fmt::Display for ScenarioError {
    /// Everything that came from the file or its name is escaped: the error
    /// is about a hostile file as often as a mistaken one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, "")
    }
}

impl ScenarioError {
    /// The place and the message, `kind` (`warning: `) between them, and
    /// the line with a caret under the column.
    pub(super) fn write(&self, f: &mut fmt::Formatter<'_>, kind: &str) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {kind}{}",
            escape(&self.file),
            self.line,
            self.column,
            escape(&self.message)
        )?;
        let gutter = self.line.to_string();
        let Excerpt {
            text,
            caret,
            cut_before,
            cut_after,
        } = &self.excerpt;
        let head = if *cut_before { "…" } else { "" };
        let tail = if *cut_after { "…" } else { "" };
        let up_to_caret: String = text.chars().take(*caret).collect();
        // The caret goes under the escaped text of the column's character.
        let before = format!("{head}{}", escape(&up_to_caret));
        writeln!(f, "{gutter} | {head}{}{tail}", escape(text))?;
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

/// Errors of one file kept whole; the rest are only counted, so that a
/// hostile file can neither flood the terminal nor fill memory.
pub const MAX_ERRORS: usize = 50;

/// The errors of one file, in the order a reader meets them: the first
/// [`MAX_ERRORS`], and how many more there were. Never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioErrors {
    kept: Vec<ScenarioError>,
    more: usize,
    /// The search stopped before the end of the file: there may be errors
    /// beyond those counted.
    cut_short: bool,
    /// How many syntax errors the parser reported after the first one,
    /// and that one's line: not listed, as they may only follow from it.
    syntax_after: Option<(usize, usize)>,
    /// The file's warnings (an old keyword), each at its place as an
    /// error is: told among the errors in file order, as a fix for one
    /// is easiest made in the same pass as the others.
    warned: Vec<ScenarioError>,
}

impl ScenarioErrors {
    /// `all` put in file order; errors at one place keep their order.
    /// Panics on an empty list: a file without errors has no list.
    pub fn new(mut all: Vec<ScenarioError>) -> Self {
        assert!(!all.is_empty(), "a list of errors with none in it");
        all.sort_by_key(|e| (e.line, e.column));
        let more = all.len().saturating_sub(MAX_ERRORS);
        all.truncate(MAX_ERRORS);
        ScenarioErrors {
            kept: all,
            more,
            cut_short: false,
            syntax_after: None,
            warned: Vec::new(),
        }
    }

    /// Errors found as places in `text` and their messages, of which only
    /// the first [`MAX_ERRORS`] in file order are made into errors (each
    /// copies its line of the file).
    pub fn at(file: &str, text: &str, mut all: Vec<(Option<Range<usize>>, String)>) -> Self {
        all.sort_by_key(|(span, _)| span.as_ref().map_or(0, |s| s.start));
        let more = all.len().saturating_sub(MAX_ERRORS);
        let kept = all
            .into_iter()
            .take(MAX_ERRORS)
            .map(|(span, message)| ScenarioError::at(file, text, span, message))
            .collect();
        Self::new(kept).with_more(more)
    }

    /// The same errors, with `n` more counted beyond them.
    pub fn with_more(mut self, n: usize) -> Self {
        self.more += n;
        self
    }

    /// The same errors, found by a search that stopped before the end of
    /// the file when `yes`.
    pub fn cut_short(mut self, yes: bool) -> Self {
        self.cut_short |= yes;
        self
    }

    /// These errors less those on a line where `other` has one: a value
    /// or key `other` already refused fails again here (an unknown key
    /// `x\u{8}`), and once is enough. `None` when none is left.
    pub fn beside(self, other: Option<&ScenarioErrors>) -> Option<Self> {
        let Some(other) = other else {
            return Some(self);
        };
        let lines: Vec<usize> = other.kept.iter().map(|e| e.line).collect();
        let kept: Vec<ScenarioError> = self
            .kept
            .into_iter()
            .filter(|e| !lines.contains(&e.line))
            .collect();
        (!kept.is_empty()).then_some(ScenarioErrors {
            kept,
            more: self.more,
            cut_short: self.cut_short,
            syntax_after: self.syntax_after,
            warned: self.warned,
        })
    }

    /// Both lists as one, in file order, still at most [`MAX_ERRORS`]
    /// kept; `None` on either side adds nothing.
    pub fn join(first: Option<Self>, second: Option<Self>) -> Option<Self> {
        match (first, second) {
            (Some(a), Some(b)) => {
                let more = a.more + b.more;
                let cut = a.cut_short || b.cut_short;
                let after = a.syntax_after.or(b.syntax_after);
                let mut all = a.kept;
                all.extend(b.kept);
                let mut warned = a.warned;
                warned.extend(b.warned);
                let mut joined = Self::new(all)
                    .with_more(more)
                    .cut_short(cut)
                    .with_warnings(warned);
                joined.syntax_after = after;
                Some(joined)
            }
            (a, b) => a.or(b),
        }
    }

    /// The same errors, the syntax error on `line` among them followed
    /// by `n` more the parser reported, left unlisted as they may follow
    /// from it.
    pub fn syntax_after(mut self, n: usize, line: usize) -> Self {
        self.syntax_after = (n > 0).then_some((n, line));
        self
    }

    /// The same errors, with these warnings told among them, each a
    /// warning's place and words (`ScenarioWarning` holds one).
    pub fn with_warnings(mut self, warnings: Vec<ScenarioError>) -> Self {
        self.warned.extend(warnings);
        self.warned.sort_by_key(|w| (w.line, w.column));
        self
    }

    /// How many warnings are told among the errors.
    pub fn warnings(&self) -> usize {
        self.warned.len()
    }

    /// Whether there may be errors beyond those counted.
    pub fn is_cut_short(&self) -> bool {
        self.cut_short
    }

    /// The first error in the file.
    pub fn into_first(self) -> ScenarioError {
        self.kept.into_iter().next().expect("never empty")
    }

    /// How many errors the file has, kept or not.
    pub fn count(&self) -> usize {
        self.kept.len() + self.more
    }

    /// Errors counted but not kept.
    pub fn more(&self) -> usize {
        self.more
    }
}

impl From<ScenarioError> for ScenarioErrors {
    fn from(error: ScenarioError) -> Self {
        ScenarioErrors {
            kept: vec![error],
            more: 0,
            cut_short: false,
            syntax_after: None,
            warned: Vec::new(),
        }
    }
}

impl std::ops::Deref for ScenarioErrors {
    type Target = [ScenarioError];
    fn deref(&self) -> &[ScenarioError] {
        &self.kept
    }
}

impl<'a> IntoIterator for &'a ScenarioErrors {
    type Item = &'a ScenarioError;
    type IntoIter = std::slice::Iter<'a, ScenarioError>;
    fn into_iter(self) -> Self::IntoIter {
        self.kept.iter()
    }
}

impl fmt::Display for ScenarioErrors {
    /// One error after another, each with its line, the warnings among
    /// them in file order (an error first at one place), then what was
    /// left out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.kept.iter().map(|e| (e, ""));
        let warnings = self.warned.iter().map(|w| (w, "warning: "));
        let mut all: Vec<(&ScenarioError, &str)> = errors.chain(warnings).collect();
        all.sort_by_key(|(e, _)| (e.line, e.column));
        for (i, (error, kind)) in all.into_iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            error.write(f, kind)?;
        }
        // Said once, after the error they may follow from: each a place
        // the parser lost its footing, not something to fix.
        if let Some((n, line)) = self.syntax_after {
            let (errors, they) = if n == 1 {
                ("error", "it")
            } else {
                ("errors", "they")
            };
            write!(
                f,
                "\n… and {n} more syntax {errors} after line {line}, not listed: {they} may follow from the one there, so fix that one and validate again"
            )?;
        }
        let others = "the search for them stopped there";
        match (self.more, self.cut_short) {
            (0, false) => Ok(()),
            (0, true) => write!(f, "\n… and perhaps more errors: {others}"),
            (1, false) => write!(f, "\n… and 1 more error"),
            (n, false) => write!(f, "\n… and {n} more errors"),
            (n, true) => write!(f, "\n… and {n} more errors, and perhaps others: {others}"),
        }
    }
}

impl std::error::Error for ScenarioErrors {}

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
        // Only the window is kept, whatever the length of the line.
        assert_eq!(e.excerpt.text.chars().count(), WINDOW);
        assert_eq!(e.excerpt.caret, WINDOW / 2);
    }

    #[test]
    fn a_place_at_a_line_end_or_the_end_of_the_file_has_its_caret_after_the_text() {
        let text = "a = [1\nb = 2";
        let e = ScenarioError::at("f.toml", text, Some(6..6), "bad".into());
        assert_eq!(e.to_string(), "f.toml:1:7: bad\n1 | a = [1\n  |       ^");
        let e = ScenarioError::at("f.toml", text, Some(12..12), "bad".into());
        assert_eq!(e.to_string(), "f.toml:2:6: bad\n2 | b = 2\n  |      ^");
        let e = ScenarioError::at("f.toml", "", None, "bad".into());
        assert_eq!(e.to_string(), "f.toml:1:1: bad\n1 | \n  | ^");
    }

    #[test]
    fn a_list_is_in_file_order_and_keeps_the_first_fifty() {
        let text = "a = 1\n".repeat(80);
        let all: Vec<(Option<Range<usize>>, String)> = (0..80)
            .rev()
            .map(|line| (Some(line * 6..line * 6 + 1), format!("bad {}", line + 1)))
            .collect();
        let errors = ScenarioErrors::at("f.toml", &text, all);
        assert_eq!((errors.len(), errors.more(), errors.count()), (50, 30, 80));
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, (1..=50).collect::<Vec<_>>());
        let shown = errors.to_string();
        assert!(shown.starts_with("f.toml:1:1: bad 1\n1 | a = 1\n  | ^\nf.toml:2:1: bad 2\n"));
        assert!(shown.ends_with("f.toml:50:1: bad 50\n50 | a = 1\n   | ^\n… and 30 more errors"));
        assert_eq!(errors.into_first().line, 1);
    }

    #[test]
    fn a_search_cut_short_says_there_may_be_more() {
        let one = || ScenarioError::at("f.toml", "a = 1\n", Some(0..1), "bad".into());
        let errors = ScenarioErrors::from(one()).cut_short(true);
        assert!(errors.is_cut_short());
        assert!(
            errors
                .to_string()
                .ends_with("\n… and perhaps more errors: the search for them stopped there")
        );
        let all = vec![(Some(0..1), "bad".to_string()); MAX_ERRORS + 2];
        let errors = ScenarioErrors::at("f.toml", "a = 1\n", all).cut_short(true);
        assert!(errors.to_string().ends_with(
            "\n… and 2 more errors, and perhaps others: the search for them stopped there"
        ));
        assert!(!ScenarioErrors::from(one()).to_string().contains('…'));
    }

    #[test]
    fn errors_found_out_of_order_are_put_in_file_order() {
        let text = "a = 1\nb = 2\n";
        let e = |at: usize, m: &str| ScenarioError::at("f.toml", text, Some(at..at + 1), m.into());
        let errors = ScenarioErrors::new(vec![e(6, "b"), e(4, "a2"), e(0, "a1"), e(4, "a3")]);
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages, ["a1", "a2", "a3", "b"]);
        assert_eq!(errors.more(), 0);
        assert!(!errors.to_string().contains("more"));
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "a = 1\nbé = \"x\"\n";
        let e = ScenarioError::at("f.toml", text, Some(11..12), "bad".into());
        assert_eq!((e.line, e.column), (2, 5));
        assert_eq!(e.to_string(), "f.toml:2:5: bad\n2 | bé = \"x\"\n  |     ^");
        // A CRLF line end is not part of the line shown.
        let e = ScenarioError::at("f.toml", "a = 1\r\nb\r\n", Some(5..6), "bad".into());
        assert_eq!(e.to_string(), "f.toml:1:6: bad\n1 | a = 1\n  |      ^");
    }
}
