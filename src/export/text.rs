//! A buffer as plain text: one line per row, trailing spaces dropped.

use ratatui::buffer::Buffer;

pub fn render(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        let mut skip = 0;
        for x in area.left()..area.right() {
            // The cell after a wide glyph is its second half, not a space.
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buffer[(x, y)].symbol();
            skip = unicode_width(symbol).saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Columns a symbol takes: idem draws only single-width glyphs, but text
/// from a scenario file may hold wide ones, and ratatui leaves the cell
/// after a wide glyph empty.
pub(crate) fn unicode_width(symbol: &str) -> usize {
    use ratatui::text::Span;
    Span::raw(symbol).width().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn rows_lose_their_trailing_spaces_only() {
        let mut b = Buffer::empty(Rect::new(0, 0, 6, 2));
        b.set_string(1, 0, "a b", ratatui::style::Style::default());
        assert_eq!(render(&b), " a b\n\n");
    }
}
