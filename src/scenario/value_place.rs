//! Where a part of a string value is written in the file: serde keeps the
//! span of the whole literal, quotes and all, and an error about one word
//! of it (`run A to provder`) should put its caret under that word.

use std::ops::Range;

/// The file's range for `part` (a byte range of `value`) of the string
/// literal at `literal`; the whole literal when `part` is `None`, or when
/// the literal is not written as the value reads (an escape, a multi-line
/// string's first line break), so the bytes would not line up.
pub fn inside(
    text: &str,
    literal: Range<usize>,
    value: &str,
    part: Option<Range<usize>>,
) -> Range<usize> {
    let (Some(part), Some(written)) = (part, text.get(literal.clone())) else {
        return literal;
    };
    for quote in ["\"\"\"", "'''", "\"", "'"] {
        let inner = written
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote));
        if let Some(inner) = inner {
            if inner != value || part.end > value.len() {
                break;
            }
            let start = literal.start + quote.len();
            return start + part.start..start + part.end;
        }
    }
    literal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_of_a_plain_string_is_placed_under_itself() {
        let text = r#"a = "run A to provder""#;
        let at = inside(text, 4..text.len(), "run A to provder", Some(9..16));
        assert_eq!(&text[at], "provder");
        let text = "a = 'wait soon'";
        let at = inside(text, 4..text.len(), "wait soon", Some(5..9));
        assert_eq!(&text[at], "soon");
    }

    #[test]
    fn a_literal_that_reads_otherwise_is_pointed_at_whole() {
        let text = r#"a = "run\u0020A""#;
        assert_eq!(
            inside(text, 4..text.len(), "run A", Some(4..5)),
            4..text.len()
        );
        let text = "a = \"\"\"\nrun A\"\"\"";
        assert_eq!(
            inside(text, 4..text.len(), "run A", Some(4..5)),
            4..text.len()
        );
        assert_eq!(inside("a = \"x\"", 4..7, "x", None), 4..7);
    }
}
