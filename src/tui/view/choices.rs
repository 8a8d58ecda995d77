//! A predict question's choices laid out as whole options. Wrapped as one
//! line, an option broke wherever the row ended (`5 no call` on one row,
//! `is made` on the next: teacher trial 11), and its tail read as a choice
//! of its own. Here an option joins a row only where all of it fits; one
//! longer than a row has rows of its own, going on under its own text.

use super::hanging::hanging;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// Columns before the first option of a row.
const MARGIN: usize = 2;
/// Columns between two options on one row.
const GAP: usize = 4;

/// `options`, numbered from 1, in rows of at most `width` columns.
pub fn choices(t: &Theme, options: &[String], width: usize) -> Vec<Line<'static>> {
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (i, option) in options.iter().enumerate() {
        let number = format!("{}", i + 1);
        let text = format!(" {}", t.text(option));
        let spans = [Span::styled(number.clone(), t.key()), Span::raw(text)];
        let w: usize = spans.iter().map(Span::width).sum();
        if !row.is_empty() && used + GAP + w <= width {
            row.push(Span::raw(" ".repeat(GAP)));
            row.extend(spans);
            used += GAP + w;
            continue;
        }
        if !row.is_empty() {
            rows.push(Line::from(std::mem::take(&mut row)));
        }
        if MARGIN + w <= width {
            row.push(Span::raw(" ".repeat(MARGIN)));
            row.extend(spans);
            used = MARGIN + w;
        } else {
            // Too long for any row: its own rows, each after the first
            // under its text, so the number still heads it alone.
            let mut head = vec![Span::raw(" ".repeat(MARGIN))];
            head.extend(spans);
            rows.extend(hanging(&head, width, MARGIN + number.len() + 1));
            used = 0;
        }
    }
    if !row.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::question::PROVIDER_ANSWERS;

    fn text(rows: &[Line]) -> Vec<String> {
        rows.iter().map(|l| l.to_string()).collect()
    }

    fn theme() -> Theme {
        Theme::new(false, false)
    }

    fn provider() -> Vec<String> {
        PROVIDER_ANSWERS.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_share_a_row_only_where_each_fits_whole() {
        let rows = choices(&theme(), &provider(), 78);
        assert_eq!(
            text(&rows),
            [
                "  1 201, a new charge    2 201, the stored result (a replay)",
                "  3 409 Conflict: still processing    4 another error (400, 402 or 422)",
                "  5 no call is made",
            ]
        );
    }

    #[test]
    fn a_row_wide_enough_holds_them_all() {
        let rows = choices(&theme(), &["yes".into(), "no".into()], 20);
        assert_eq!(text(&rows), ["  1 yes    2 no"]);
    }

    #[test]
    fn an_option_longer_than_a_row_goes_on_under_its_own_text() {
        let options = vec!["A".into(), "the consumer called B-long-name".into()];
        let rows = choices(&theme(), &options, 20);
        assert_eq!(
            text(&rows),
            ["  1 A", "  2 the consumer", "    called", "    B-long-name"]
        );
        assert!(rows.iter().all(|r| r.width() <= 20));
    }
}
