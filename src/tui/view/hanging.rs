//! Styled text wrapped at word boundaries with a hanging indent: the first
//! row starts at the edge, every row after it under the text it continues.
//! Rows are made here, one `Line` each, rather than by a wrapping
//! `Paragraph`, so that a pane can count exactly the rows it has no room
//! for, and a continued line reads as one item, not as a new one.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// `spans` in rows of at most `width` columns (a single word wider than a
/// row stays whole on its own row, for the caller's cut to mark); rows
/// after the first start with `indent` spaces. Spaces at the start of the
/// text are kept; spaces where a row breaks are dropped.
pub fn hanging(spans: &[Span<'static>], width: usize, indent: usize) -> Vec<Line<'static>> {
    let indent = indent.min(width.saturating_sub(1));
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    // Whether the row holds a word yet (a fresh row holds only its indent).
    let mut worded = false;
    let mut space: Option<Span<'static>> = None;
    for (text, style, blank) in tokens(spans) {
        let w = Span::raw(text.as_str()).width();
        if blank {
            if rows.is_empty() && !worded {
                // The text's own leading spaces: part of its layout.
                row.push(Span::styled(text, style));
                used += w;
            } else if worded {
                space = Some(Span::styled(text, style));
            }
            continue;
        }
        let gap = space.as_ref().map_or(0, Span::width);
        if worded && used + gap + w > width {
            rows.push(Line::from(std::mem::take(&mut row)));
            row.push(Span::raw(" ".repeat(indent)));
            used = indent;
            space = None;
        } else if let Some(s) = space.take() {
            used += s.width();
            row.push(s);
        }
        row.push(Span::styled(text, style));
        used += w;
        worded = true;
    }
    if worded || rows.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}

/// The text of `spans` as runs of spaces and runs of anything else, each
/// with its span's style and whether it is spaces.
fn tokens(spans: &[Span<'static>]) -> Vec<(String, Style, bool)> {
    let mut out: Vec<(String, Style, bool)> = Vec::new();
    for span in spans {
        for c in span.content.chars() {
            let blank = c == ' ';
            match out.last_mut() {
                Some((text, style, b)) if *b == blank && *style == span.style => text.push(c),
                _ => out.push((c.to_string(), span.style, blank)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(rows: &[Line]) -> Vec<String> {
        rows.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn rows_after_the_first_hang_under_the_text() {
        let rows = hanging(
            &[
                Span::raw(" why: "),
                Span::raw("charged twice because the ack was lost"),
            ],
            20,
            6,
        );
        assert_eq!(
            text(&rows),
            [
                " why: charged twice",
                "      because the",
                "      ack was lost"
            ]
        );
        assert!(rows.iter().all(|r| r.width() <= 20));
    }

    #[test]
    fn a_line_that_fits_is_one_row_as_it_was() {
        let rows = hanging(&[Span::raw("  1. A: receive")], 40, 6);
        assert_eq!(text(&rows), ["  1. A: receive"]);
    }

    #[test]
    fn a_word_wider_than_the_row_stays_whole_for_the_cut_to_mark() {
        let rows = hanging(&[Span::raw("a verylongwordindeed b")], 8, 2);
        assert_eq!(text(&rows), ["a", "  verylongwordindeed", "  b"]);
    }
}
