//! What the SQL and events panels read whole under a reveal's box at one
//! split of their row, drawn as the box leaves them (`predict::render`
//! draws them again in the rows under it): the layout weighs two splits
//! by it (`layout::reveal_split`).

use crate::sim::Frame;
use crate::tui::app::{App, Panel};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// What one split reads under the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reads {
    /// Statements read whole, each with its answer.
    pub statements: usize,
    /// Whether every event the revealed questions asked about
    /// (`reveal_subject::revealed`) is read whole.
    pub asked: bool,
}

/// What the SQL panel `sql` and the events panel `events` read whole of
/// `f` (the frame on screen) where the box ends at row `below`.
pub fn reads(app: &App, f: &Frame, [sql, events]: [Rect; 2], below: u16) -> Reads {
    let t = &app.theme;
    let sql_words = words(app, f, Panel::Sql, sql, below);
    let event_words = words(app, f, Panel::Events, events, below);
    let span = crate::tui::reveal::action_steps(app).is_some();
    let statements = super::sql::items(t, f, span, app.script.origin.step())
        .iter()
        .filter(|i| sql_words.contains(&squeeze(&i.lines)))
        .count();
    let lines = super::events::lines(t, f);
    let asked = crate::tui::reveal_subject::revealed(app, f)
        .iter()
        .filter_map(|&i| lines.get(i))
        .all(|l| event_words.contains(&squeeze(std::slice::from_ref(l))));
    Reads { statements, asked }
}

/// The words `panel` shows inside its border, drawn in the rows of `r`
/// from `below` down.
fn words(app: &App, f: &Frame, panel: Panel, r: Rect, below: u16) -> String {
    let top = below.max(r.y);
    let rest = Rect::new(r.x, top, r.width, r.bottom().saturating_sub(top));
    // A title, a line and a border at least, or the box covers it whole.
    if rest.height < 3 {
        return String::new();
    }
    // Drawn as `predict::under_the_box` draws it, border and all, and read
    // inside the border; no story is read under the box, so none of the
    // events is told there.
    let mut buf = Buffer::empty(rest);
    super::draw_panel(app, f, panel, rest, false, None, 0, &mut buf);
    let inner = rest.inner(ratatui::layout::Margin::new(1, 1));
    let rows: Vec<String> = (inner.y..inner.bottom())
        .map(|y| {
            (inner.x..inner.right())
                .map(|x| buf[(x, y)].symbol())
                .collect()
        })
        .collect();
    rows.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line's words, one space between each.
fn squeeze(lines: &[ratatui::text::Line<'static>]) -> String {
    lines
        .iter()
        .flat_map(|l| &l.spans)
        .map(|s| s.content.as_ref())
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
