//! Every key, and what the signs on screen mean. Rows are wrapped here
//! with a hanging indent (a key's words continue under its words, not
//! under the key), so the help scrolls by rows and counts exactly the
//! rows it has no room for.

use super::hanging::hanging;
use super::help_legend::{self, Sign};
use crate::tui::app::App;
use crate::tui::keys::KEYS;
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

/// The widest the box is drawn, borders included.
const BOX_WIDTH: u16 = 84;
/// Where a key's words start: its keys' column, padded.
const KEY_COLUMN: usize = 26;
/// Where a legend's signs start: its section's heading, padded.
const HEADING_COLUMN: usize = 10;

/// The help's rows in `width` columns: the key table, a blank row, the
/// legend of signs.
pub fn rows(t: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (keys, what) in KEYS.iter().filter_map(|k| k.help) {
        let keys = format!(" {:<w$} ", t.text(keys), w = KEY_COLUMN - 2);
        let spans = [
            Span::styled(keys, t.key()),
            Span::raw(t.text(what).into_owned()),
        ];
        out.extend(hanging(&spans, width, KEY_COLUMN));
    }
    out.push(Line::raw(""));
    for section in help_legend::sections(t) {
        for (i, signs) in section.lines.iter().enumerate() {
            let heading = if i == 0 { section.heading } else { "" };
            let mut spans = vec![Span::styled(
                format!(" {heading:<w$}", w = HEADING_COLUMN - 1),
                t.title(),
            )];
            for (j, Sign { sign, meaning }) in signs.iter().enumerate() {
                if j > 0 {
                    spans.push(Span::raw("  "));
                }
                spans.push(Span::styled(t.text(sign).into_owned(), t.key()));
                // A sign of words (`◀ this step`) ends where its meaning
                // starts only with a colon; a lone mark needs none.
                let sep = if Span::raw(sign.as_str()).width() > 1 {
                    ": "
                } else {
                    " "
                };
                if !meaning.is_empty() {
                    spans.push(Span::raw(format!("{sep}{}", t.text(meaning))));
                }
            }
            out.extend(hanging(&spans, width, HEADING_COLUMN));
        }
    }
    out
}

/// The box on a screen of `area`, its rows, and the most rows it can be
/// scrolled by (0 where all of it fits).
fn measured(t: &Theme, area: Rect) -> (Rect, Vec<Line<'static>>, usize) {
    let inner_w = BOX_WIDTH.min(area.width).saturating_sub(2);
    let rows = rows(t, usize::from(inner_w));
    let popup = layout::help(area, rows.len());
    let room = usize::from(popup.height.saturating_sub(2));
    let most = rows.len().saturating_sub(room);
    (popup, rows, most)
}

/// The most rows the help scrolls by on a screen of `area`: the last row
/// in view, and no further.
pub fn most_scroll(t: &Theme, area: Rect) -> usize {
    measured(t, area).2
}

/// The rows PgDn and PgUp scroll the help by on a screen of `area`: the
/// box's rows less the one that counts the rows below and the one read
/// last, which stays in view on top.
pub fn page(t: &Theme, area: Rect) -> usize {
    let (popup, ..) = measured(t, area);
    // Inside its two borders.
    usize::from(popup.height.saturating_sub(2 + 2)).max(1)
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let g = &t.g;
    let (popup, rows, most) = measured(t, area);
    // Clamped again here: the screen may have grown since the last key.
    let skip = app.help_scroll.min(most);
    let rows: Vec<Line<'static>> = rows.into_iter().skip(skip).collect();
    let title = if skip > 0 {
        format!(" Keys and signs ({} {skip} above) ", t.text("↑"))
    } else {
        " Keys and signs ".to_string()
    };
    // Said where there is more than the box shows: how to see the rest.
    let foot = if most > 0 {
        format!(
            " {} PgUp/PgDn scroll {} Esc or ? to close ",
            t.text("↑/↓"),
            g.dot
        )
    } else {
        " Esc or ? to close ".to_string()
    };
    Clear.render(popup, buf);
    let block = Block::bordered()
        .border_set(g.border)
        .border_style(t.border(true))
        .title(Span::styled(title, t.title()))
        .title_bottom(Span::styled(foot, t.dim()));
    let inner = block.inner(popup);
    block.render(popup, buf);
    super::overflow::show(t, rows, false, inner, buf);
}
