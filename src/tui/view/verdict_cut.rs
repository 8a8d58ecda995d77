//! A verdict with no room for all its words says how many rows more it
//! has and names the key that reads it whole (`…2 more · w`), one space
//! after the last word it keeps. Teacher trial, tour-2 naive at its last
//! step at 80x24: `… whose ack was lost on the  …2 more` named no key, so
//! nothing said how to read the rest, and its gap read as a slip.

use super::overflow;
use crate::cut_at_word::cut_at_word;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The panel's sign for `hidden` rows it has no room for: the sign every
/// panel draws (`… ↓ 2 more`, `…2 more`), and after it, where the screen
/// has keys, the key that reads the verdict whole (`w`, as the one-row
/// verdict's count of causes names it).
pub fn signs(t: &Theme, hidden: u16) -> (String, String) {
    let (long, short) = overflow::signs(t, hidden);
    if t.terminal_keys() {
        let key = format!(" {} w", t.g.dot);
        (long + &key, short + &key)
    } else {
        (long, short)
    }
}

/// A one-row verdict that no form holds, in `width` columns: its first
/// pieces whole (the headline, then each order's figures, then each link
/// of why), as many as fit before the sign; a piece is never cut, so no
/// figure loses its number (`order 1042: 0 …2 more` read as a count of
/// nothing). Where even the headline does not fit beside the sign, it is
/// cut at a word's end. The sign counts the rows the rest would take.
pub fn one_row(
    t: &Theme,
    head: Span<'static>,
    pieces: &[Span<'static>],
    width: u16,
) -> Line<'static> {
    let room = usize::from(width);
    let rows = |spans: Vec<Span<'static>>| {
        let line = Line::from(spans);
        crate::tui::measure::rows(&[line], width, false).max(1)
    };
    for kept in (0..=pieces.len()).rev() {
        let rest: Vec<Span<'static>> = pieces[kept..]
            .iter()
            .map(|p| Span::styled(p.content.trim_start().to_string(), p.style))
            .collect();
        if rest.is_empty() {
            continue;
        }
        let (long, short) = signs(t, rows(rest));
        let mut spans = vec![head.clone()];
        spans.extend(pieces[..kept].iter().cloned());
        let used: usize = spans.iter().map(Span::width).sum();
        let sign = [long, short]
            .into_iter()
            .find(|s| used + Span::raw(s).width() <= room);
        if let Some(sign) = sign {
            spans.push(Span::styled(sign, t.key()));
            return Line::from(spans);
        }
    }
    // The headline cut at a word's end: what is not shown is the rest of
    // the verdict's rows after this one.
    let mut all = vec![head.clone()];
    all.extend(pieces.iter().cloned());
    let hidden = rows(all).saturating_sub(1).max(1);
    let (_, short) = signs(t, hidden);
    let cut = cut_at_word(&head.content, room, &short).unwrap_or_default();
    let words = cut.strip_suffix(short.as_str()).unwrap_or(&cut).to_string();
    Line::from(vec![
        Span::styled(words, head.style),
        Span::styled(short, t.key()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// tour-2 naive's last step at 80x24: the headline alone is wider
    /// than the row.
    #[test]
    fn a_long_headline_is_cut_at_a_word_with_one_space_and_the_key() {
        let t = Theme::new(false, false);
        let head = Span::raw(
            "○ ends unsettled: m-7f3 is still leased to A, whose ack was lost on the wire; \
             in 24s the lease runs out and the broker offers it again",
        );
        let figures = [Span::raw("   order 1042: 1 payment row, 1 charge")];
        let row = plain(&one_row(&t, head, &figures, 78));
        assert!(row.ends_with(" more · w"), "{row}");
        assert!(!row.contains("  "), "{row}");
        assert!(Span::raw(&row).width() <= 78, "{row}");
        assert!(
            row.starts_with("○ ends unsettled: m-7f3 is still leased to A"),
            "{row}"
        );
    }

    /// Two orders' figures: the second goes whole, never `order 1042: 0`.
    #[test]
    fn a_figure_is_never_cut() {
        let t = Theme::new(false, false);
        let head = Span::raw("○ in progress");
        let figures = [
            Span::raw("   order 1040: 0 payment rows, 1 charge"),
            Span::raw("   order 1042: 1 payment row, 1 charge"),
        ];
        let row = plain(&one_row(&t, head, &figures, 78));
        assert_eq!(
            row,
            "○ in progress   order 1040: 0 payment rows, 1 charge … ↓ 1 more · w"
        );
    }

    /// The lesson page has no keys to name.
    #[test]
    fn the_page_names_no_key() {
        let t = Theme {
            medium: crate::scenario::key_word::Medium::Page,
            ..Theme::new(false, false)
        };
        let (long, short) = signs(&t, 2);
        assert!(
            !long.contains(" w") && !short.contains(" w"),
            "{long} {short}"
        );
    }
}
