//! A mark never stands bare: where a panel's rows drew a mark in its short
//! form (` *`, ` ◀`), the panel's bottom border says what the symbol means
//! (`└─ * changed, ◀ this step ───┘`), in the marks' own style. It takes
//! no row from the panel's content, and its words come from the rows as
//! they were fitted (`marks::Shortened`), never read back off the screen.

use super::marks::Shortened;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// Names what `short` holds on the bottom border of the panel in `rect`,
/// drawn already. The legend starts after the corner and one stroke
/// (`└─ `) and takes only cells that still hold the border's plain
/// stroke: text already on the border (a count, a hint) comes first, and
/// the legend keeps one stroke before it. Where the room holds not every
/// meaning, the ones met first (the rows nearest the top) stay; where it
/// holds none, the border stays plain.
pub fn on_border(t: &Theme, short: &Shortened, rect: Rect, buf: &mut Buffer) {
    if short.is_empty() || rect.height < 2 || rect.width < 6 {
        return;
    }
    let y = rect.bottom() - 1;
    if y >= buf.area.bottom() || rect.right() > buf.area.right() {
        return;
    }
    let stroke = t.g.border.horizontal_bottom;
    let start = rect.x + 2;
    // The last stroke before the corner stays: `─┘`.
    let end = rect.right() - 2;
    let free = (start..end)
        .take_while(|&x| buf[(x, y)].symbol() == stroke)
        .count();
    // Text met before the corner keeps a stroke between it and the legend.
    let room = if usize::from(end - start) > free {
        free.saturating_sub(1)
    } else {
        free
    };
    if let Some(legend) = short.legend(room) {
        buf.set_line(start, y, &legend, u16::try_from(room).unwrap_or(u16::MAX));
    }
}

/// As `on_border`, for a box under a rule with its title and no border
/// below (the presenter's charges): the legend ends the rule, right of its
/// title, in the strokes after it, one stroke kept on each side.
pub fn on_rule(t: &Theme, short: &Shortened, rect: Rect, buf: &mut Buffer) {
    if short.is_empty() || rect.height < 1 || rect.width < 6 {
        return;
    }
    let y = rect.y;
    if y >= buf.area.bottom() || rect.right() > buf.area.right() {
        return;
    }
    let stroke = t.g.border.horizontal_top;
    let end = rect.right() - 1;
    let free = (rect.x..end)
        .rev()
        .take_while(|&x| buf[(x, y)].symbol() == stroke)
        .count();
    let room = free.saturating_sub(1);
    if let Some(legend) = short.legend(room) {
        let w = u16::try_from(legend.width()).unwrap_or(u16::MAX);
        buf.set_line(end - w, y, &legend, w);
    }
}

/// Names what `short` holds on the bottom border of the panel in `rect`
/// beside a reveal's answer mark `taken` cells wide at the border's right
/// end, where the border holds not both as `on_border` lays them (the
/// broker's 22 columns at 80x24): both lose their outer spaces and keep
/// a stroke between them and by each corner where there is room
/// (`└─* changed─✓right ↑─┘`), else only between them, so that the
/// answer never leaves a `*` with no word. The border is cleared first
/// (`give_way`). Returns the strokes to keep between the mark and the
/// right corner, or `None` where not one meaning fits whole: the border
/// then keeps only the mark.
pub fn beside_mark(
    t: &Theme,
    short: &Shortened,
    rect: Rect,
    taken: u16,
    buf: &mut Buffer,
) -> Option<u16> {
    give_way(t, rect, buf);
    let y = rect.bottom().saturating_sub(1);
    if short.is_empty() || rect.height < 2 || y >= buf.area.bottom() {
        return None;
    }
    // One stroke between legend and mark, and `lead` by each corner.
    let inner = rect.width.saturating_sub(2);
    let (lead, legend) = [1, 0].into_iter().find_map(|lead| {
        let room = inner.saturating_sub(taken + 1 + 2 * lead);
        short.tight_legend(usize::from(room)).map(|l| (lead, l))
    })?;
    let w = u16::try_from(legend.width()).unwrap_or(u16::MAX);
    buf.set_line(rect.x + 1 + lead, y, &legend, w);
    Some(lead)
}

/// Clears the bottom border of the panel in `rect` back to its strokes,
/// the legend gone whole: a reveal's `✓right ↑` takes that border where
/// the panel has no room for both (the broker's 20 columns at 80x24).
pub fn give_way(t: &Theme, rect: Rect, buf: &mut Buffer) {
    if rect.height < 2 || rect.width < 3 {
        return;
    }
    let y = rect.bottom() - 1;
    if y >= buf.area.bottom() || rect.right() > buf.area.right() {
        return;
    }
    let style = buf[(rect.x, y)].style();
    for x in rect.x + 1..rect.right() - 1 {
        let cell = &mut buf[(x, y)];
        cell.reset();
        cell.set_symbol(t.g.border.horizontal_bottom)
            .set_style(style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Block, Widget};

    fn bottom(buf: &Buffer) -> String {
        let y = buf.area.bottom() - 1;
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    fn drawn(width: u16, foot: Option<&'static str>, means: &[&str]) -> String {
        let t = Theme::new(false, false);
        let area = Rect::new(0, 0, width, 3);
        let mut buf = Buffer::empty(area);
        let mut block = Block::bordered().border_set(t.g.border);
        if let Some(foot) = foot {
            block = block.title_bottom(Line::raw(foot).right_aligned());
        }
        block.render(area, &mut buf);
        let mut short = Shortened::default();
        short.extend(means.iter().map(|m| Span::raw(m.to_string())));
        on_border(&t, &short, area, &mut buf);
        bottom(&buf)
    }

    /// Text already on the border comes first: the legend takes only the
    /// strokes before it, a stroke kept between them, and gives up whole
    /// meanings (never a cut one) where they do not fit; none at all where
    /// even the first does not.
    #[test]
    fn the_legend_takes_only_free_strokes_and_never_cuts_a_word() {
        assert_eq!(drawn(22, None, &["* changed"]), "└─ * changed ────────┘");
        assert_eq!(
            drawn(30, Some(" ↓ 2 more "), &["* changed", "◀ this step"]),
            "└─ * changed ────── ↓ 2 more ┘"
        );
        assert_eq!(drawn(12, None, &["* changed"]), "└──────────┘");
    }

    /// Beside a reveal's mark the legend keeps its words, against the
    /// left corner, a stroke by each corner where there is room and one
    /// between them always; with no room for a whole meaning, none.
    #[test]
    fn beside_the_answer_the_legend_keeps_its_words() {
        let t = Theme::new(false, false);
        let drawn = |width: u16| {
            let area = Rect::new(0, 0, width, 3);
            let mut buf = Buffer::empty(area);
            Block::bordered()
                .border_set(t.g.border)
                .render(area, &mut buf);
            let mut short = Shortened::default();
            short.extend([Span::raw("* changed")]);
            on_border(&t, &short, area, &mut buf);
            let lead = beside_mark(&t, &short, area, 8, &mut buf);
            (bottom(&buf), lead)
        };
        assert_eq!(drawn(22), ("└─* changed──────────┘".to_string(), Some(1)));
        assert_eq!(drawn(20), ("└* changed─────────┘".to_string(), Some(0)));
        assert_eq!(drawn(18), ("└────────────────┘".to_string(), None));
    }
}
