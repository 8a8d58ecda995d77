//! The closer a line still owes, for a syntax error whose message names
//! one token only: `amount = 40 ]` after `[{` is "expected `,`", where the
//! fix is the `}` that closes the inline table. Read from the line alone,
//! so it is said only when the line tells it without doubt.

/// The message with the closer added (`expected `,` or `}` to close the
/// inline table opened at column 13`), when it ends in one expected token
/// and a `{` or `[` opened earlier on the error's line is still open at
/// `at`, with another closer than that token; else `None`.
pub(super) fn with_closer(message: &str, text: &str, at: usize) -> Option<String> {
    let (_, expected) = message.rsplit_once("expected ")?;
    let token = expected.strip_prefix('`')?.strip_suffix('`')?;
    if token.is_empty() || token.contains('`') {
        return None;
    }
    let before = text.get(..at)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let (opener, offset) = innermost_open(&before[line_start..])?;
    let (closer, what) = match opener {
        '{' => ('}', "inline table"),
        _ => (']', "array"),
    };
    if token == closer.to_string() {
        return None;
    }
    let column = before[line_start..line_start + offset].chars().count() + 1;
    Some(format!(
        "{message} or `{closer}` to close the {what} opened at column {column}"
    ))
}

/// The innermost `{` or `[` still open at the end of `line` (the line up
/// to the error), and its byte offset; `None` when none is, or when the
/// line cannot be read with certainty: it ends inside a string or a
/// comment, holds a multi-line string's quotes, or closes more than it
/// opened (it may then be part of a value begun on an earlier line).
fn innermost_open(line: &str) -> Option<(char, usize)> {
    if line.contains("\"\"\"") || line.contains("'''") {
        return None;
    }
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut chars = line.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => loop {
                match chars.next()? {
                    (_, '\\') => {
                        chars.next()?;
                    }
                    (_, '"') => break,
                    _ => {}
                }
            },
            '\'' => while chars.next()?.1 != '\'' {},
            '#' => return None,
            '{' | '[' => open.push((c, i)),
            '}' | ']' => {
                let (opened, _) = open.pop()?;
                if (opened == '{') != (c == '}') {
                    return None;
                }
            }
            _ => {}
        }
    }
    open.pop()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(line: &str, message: &str) -> Option<String> {
        let at = line.find('^').expect("a caret marks the place");
        let text = line.replacen('^', "", 1);
        with_closer(message, &text, at)
    }

    #[test]
    fn an_inline_table_left_open_names_its_brace() {
        assert_eq!(
            hint(
                "messages = [{ id = \"m-7f3\", amount = 40 ^]",
                "invalid inline table element, expected `,`"
            )
            .as_deref(),
            Some(
                "invalid inline table element, expected `,` or `}` to close the inline table opened at column 13"
            )
        );
    }

    #[test]
    fn an_array_names_its_bracket_on_a_later_line() {
        let text = "a = 1\nx = [1, \"[\" ^2]";
        assert_eq!(
            hint(text, "missing comma, expected `,`").as_deref(),
            Some("missing comma, expected `,` or `]` to close the array opened at column 5")
        );
    }

    #[test]
    fn no_hint_where_the_line_does_not_tell() {
        // The token named is the closer already.
        assert_eq!(hint("[setup^", "unclosed table, expected `]`"), None);
        // Nothing open on the line (the bracket is on an earlier line).
        assert_eq!(hint("x = [\n  1 ^2", "missing comma, expected `,`"), None);
        // More than one token named.
        assert_eq!(hint("x = {a = 1 ^", "expected `,` or `}`"), None);
        // Inside a string, a comment, or a multi-line string.
        assert_eq!(hint("x = [\"a ^", "expected `\"`"), None);
        assert_eq!(hint("x = [1 # [ ^", "expected `,`"), None);
        assert_eq!(hint("x = [\"\"\"a ^", "expected `,`"), None);
        // More closed than opened: part of something begun earlier.
        assert_eq!(hint("  1] ^", "expected `,`"), None);
    }
}
