//! A text cut to its room at a word's end, signed: one rule for every
//! title the screen cuts (the header's, a found schedule's, a chapter's)
//! and every title idem writes short (a soak story's chapters), so it
//! sits below every layer that uses it.
//! Teacher trial: `Why duplicates arr…` at 80x24 read as a word of its
//! own; half a word is never shown, and nothing is cut without a sign.

use ratatui::text::Span;

/// `text` in `room` columns: whole where it fits; else its longest start
/// that ends at a word's end (before a space) with `sign` after it inside
/// the room, the punctuation that closed the kept words given up to the
/// sign (`2/4: The…`, not `2/4:…` from `2/4: The retry`); the sign alone
/// where even the first word does not fit. `None` where the sign itself
/// does not fit. Widths are the terminal's (a wide symbol takes two
/// columns), and the sign is the theme's: `...` under `--ascii` takes
/// three.
pub fn cut_at_word(text: &str, room: usize, sign: &str) -> Option<String> {
    let width = |s: &str| Span::raw(s).width();
    if width(text) <= room {
        return Some(text.to_string());
    }
    let room = room.checked_sub(width(sign))?;
    let mut kept = "";
    for (at, _) in text.match_indices(' ') {
        if width(&text[..at]) > room {
            break;
        }
        kept = &text[..at];
    }
    let kept = kept.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':'));
    Some(format!("{kept}{sign}"))
}

#[cfg(test)]
mod tests {
    use super::cut_at_word;

    #[test]
    fn whole_where_it_fits() {
        assert_eq!(
            cut_at_word("The retry", 9, "…").as_deref(),
            Some("The retry")
        );
    }

    #[test]
    fn at_a_words_end_with_the_sign_inside_the_room() {
        let title = "Why duplicates arrive";
        // `Why duplicates…` is 15 columns.
        assert_eq!(
            cut_at_word(title, 15, "…").as_deref(),
            Some("Why duplicates…")
        );
        // One column less: never `Why duplicate…`.
        assert_eq!(cut_at_word(title, 14, "…").as_deref(), Some("Why…"));
        // A word ending right at the room's end is kept whole.
        assert_eq!(
            cut_at_word(title, 20, "…").as_deref(),
            Some("Why duplicates…")
        );
    }

    #[test]
    fn the_closing_punctuation_gives_way_to_the_sign() {
        assert_eq!(
            cut_at_word("chapter 2/4: The retry", 14, "…").as_deref(),
            Some("chapter 2/4…")
        );
        assert_eq!(cut_at_word("once, twice", 8, "…").as_deref(), Some("once…"));
    }

    #[test]
    fn a_single_word_longer_than_the_room_leaves_the_sign_alone() {
        assert_eq!(cut_at_word("Idempotency-Key", 8, "…").as_deref(), Some("…"));
        assert_eq!(cut_at_word("Idempotency-Key", 0, "…"), None);
    }

    #[test]
    fn wide_symbols_take_two_columns() {
        // `二重 支払い` is six symbols in eleven columns: counted by
        // symbols it would seem to fit, signed, in 10.
        let text = "二重 支払い 発生";
        assert_eq!(cut_at_word(text, 10, "…").as_deref(), Some("二重…"));
        assert_eq!(cut_at_word(text, 11, "…").as_deref(), Some("二重…"));
        assert_eq!(cut_at_word(text, 12, "…").as_deref(), Some("二重 支払い…"));
    }

    #[test]
    fn the_ascii_sign_takes_its_three_columns() {
        let title = "Why duplicates arrive";
        assert_eq!(
            cut_at_word(title, 15, "…").as_deref(),
            Some("Why duplicates…")
        );
        assert_eq!(cut_at_word(title, 15, "...").as_deref(), Some("Why..."));
        assert_eq!(
            cut_at_word(title, 17, "...").as_deref(),
            Some("Why duplicates...")
        );
        assert_eq!(cut_at_word(title, 2, "..."), None);
    }
}
