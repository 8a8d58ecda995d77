//! How many rows text takes on screen, measured one way everywhere: by
//! ratatui's own wrapping (`Paragraph::line_count`), the one that draws
//! it. A layout sized by this measure fits what is drawn into it, whatever
//! the words, spaces or wide characters.

use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

/// Rows `lines` take drawn as a `Paragraph` wrapped at word boundaries in
/// `width` columns; `trim` as the `Wrap` that draws them (`true` drops the
/// spaces a wrapped row would start with). A blank line takes a row.
pub fn rows<'a>(lines: impl IntoIterator<Item = &'a Line<'a>>, width: u16, trim: bool) -> u16 {
    let lines: Vec<Line<'a>> = lines.into_iter().cloned().collect();
    let count = Paragraph::new(lines)
        .wrap(Wrap { trim })
        .line_count(width.max(1));
    u16::try_from(count).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;

    /// The rows a paragraph fills when it is drawn: the last row with a
    /// mark on it.
    fn drawn_rows(text: &str, width: u16, trim: bool) -> u16 {
        let area = Rect::new(0, 0, width, 400);
        let mut buf = Buffer::empty(area);
        Paragraph::new(text)
            .wrap(Wrap { trim })
            .render(area, &mut buf);
        (0..area.height)
            .filter(|&y| (0..width).any(|x| buf[(x, y)].symbol() != " "))
            .max()
            .map_or(1, |y| y + 1)
    }

    #[test]
    fn rows_are_the_rows_drawn() {
        let words = [
            "a",
            "delivered",
            "1,234,567",
            "·",
            "crash=0.5%,lose-ack=1%,lose-response=0.5%,slow=2%,republish=1%,expire=0.5%",
            "(+$394,703",
            "vs",
            "  owed)",
            "✓",
            "支払い",
        ];
        // A fixed walk through word sequences and widths: the same cases on
        // every run, from a width of 2 (a wide character's) up.
        let mut seed = 7u64;
        for case in 0..600 {
            let mut text = String::from(if case % 2 == 0 { " idem" } else { "idem" });
            for _ in 0..(case % 13) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push(' ');
                text.push_str(words[(seed >> 33) as usize % words.len()]);
            }
            let width = 2 + (case % 97) as u16;
            for trim in [false, true] {
                assert_eq!(
                    rows(&[Line::raw(text.clone())], width, trim),
                    drawn_rows(&text, width, trim),
                    "{text:?} at {width}, trim {trim}"
                );
            }
        }
        // Lines add up, a blank one included.
        let lines = [Line::raw("one two three"), Line::raw(""), Line::raw("four")];
        assert_eq!(rows(&lines, 8, true), 4);
        assert_eq!(rows(&lines, 80, true), 3);
    }
}
