//! The words a reader sees in one part of a drawn screen, whitespace
//! squeezed: a phrase wrapped over two rows reads as one line.

use ratatui::layout::{Margin, Rect};

/// `s` with every run of whitespace one space.
pub fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words inside `r`'s border on `screen` (as `Screen::text` draws it,
/// each row quoted), its rows joined.
pub fn words_in(screen: &str, r: Rect) -> String {
    let inner = r.inner(Margin::new(1, 1));
    let rows: Vec<String> = screen
        .lines()
        .skip(usize::from(inner.y))
        .take(usize::from(inner.height))
        .map(|l| {
            let l = l.strip_prefix('"').unwrap_or(l);
            l.chars()
                .skip(usize::from(inner.x))
                .take(usize::from(inner.width))
                .collect()
        })
        .collect();
    squeeze(&rows.join(" "))
}
