//! A program's own words (its stderr, its lines) are shown escaped and cut:
//! they may hold anything, and a diagnosis must stay readable.

/// `text` with control characters escaped, cut to `max` characters with `…`.
pub fn shorten(text: &str, max: usize) -> String {
    let escaped = crate::terminal_text::escape(text);
    let mut chars = escaped.chars();
    let cut: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_and_control_text_is_cut_and_escaped() {
        assert_eq!(super::shorten("abc", 5), "abc");
        assert_eq!(super::shorten("abcdef", 3), "abc…");
        assert!(!super::shorten("a\x1b[2Jb", 20).contains('\x1b'));
    }
}
