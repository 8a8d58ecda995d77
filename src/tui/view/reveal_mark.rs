//! Predict mode's reveal mark, `✓right` or `✕wrong`, at the right end of
//! the row of its panel that holds the figure the question was about: the
//! eye finds the verdict on the answer where the value is. The mark always
//! carries its word (a bare `✕` beside a charge reads as "the charge
//! failed"). The reveal never changes a row's words (teacher trial 21: at
//! the reveal `total recorded` read `total`, `charges made 1` read
//! `charges 1`, `+ new` read `+`, and back after `Enter`; a label keeps
//! one form at one size, whatever the step): the mark stands on the row
//! only in the columns the row leaves blank as drawn, else beside it, on
//! a blank neighbour row or the panel's nearer border, pointing at it.

use super::marks::Shortened;
use super::{broker, database, mark_legend, provider};
use crate::scenario::Subject;
use crate::sim::Frame;
use crate::timeline::Asked;
use crate::tui::app::{App, Panel};
use crate::tui::layout::Main;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// Columns between the row's words and the mark: the mark is read apart
/// from the figure before it (`$80✓right` would read as one word).
const GAP: usize = 1;

pub(super) fn render(app: &App, m: &Main, asked: &Asked, right: bool, buf: &mut Buffer) {
    let t = &app.theme;
    let shown = app.shown_frame();
    let frame: &Frame = &shown;
    let subject = &asked.question.subject;
    // The provider's answer is judged on the charge it made or replayed.
    let charge = asked.answered_charge(&app.timeline.frames);
    let charge = charge.as_deref();
    let panel = panel_of(subject);
    let Some(&(_, rect)) = m.panels.iter().find(|(p, _)| *p == panel) else {
        return;
    };
    let inner_w = usize::from(rect.width.saturating_sub(2));
    let inner_h = usize::from(rect.height.saturating_sub(2));
    let sign = if right { t.g.done } else { t.g.failed };
    // The mark always carries its word: a bare `✕` beside a charge's row
    // reads as "the charge failed" (teacher trial), the very thing the
    // lesson is about.
    let mark = format!("{sign}{}", if right { "right" } else { "wrong" });
    let mark_w = mark.chars().count();
    // A panel too narrow to keep a few columns of the row beside the mark:
    // the answer box says it in words.
    if inner_w < mark_w + GAP + 3 {
        return;
    }
    // Where the panel drew the row: the panel says, never read back off
    // the screen.
    let Some(line) = row_of(t, frame, subject, charge, inner_w, inner_h) else {
        return;
    };
    if line >= inner_h {
        // Folded out of the panel: the answer box says it in words.
        return;
    }
    let y = rect.y + 1 + u16::try_from(line).unwrap_or(u16::MAX);
    let drawn_to = (rect.x + 1..rect.right() - 1)
        .rev()
        .find(|&bx| buf[(bx, y)].symbol() != " ")
        .map_or(rect.x + 1, |bx| bx + 1);
    let x = rect.right() - 1 - mark_w as u16;
    let style = if right { t.good() } else { t.bad() };
    let style = style.patch(t.highlight());
    if usize::from(drawn_to) + GAP > usize::from(x) {
        // No room after the words: the row stays as drawn and the mark
        // stands beside it (`beside_row`).
        // What the panel's marks drawn short mean, for its border to
        // keep naming beside the answer mark.
        let short = super::marked_lines(app, frame, panel, rect, buf.area)
            .map(|(_, short)| short)
            .unwrap_or_default();
        beside_row(t, rect, line, (&mark, style), &short, buf);
        return;
    }
    buf.set_string(x, y, &mark, style);
}

/// Where the row's blank columns leave the mark no room: the row stays
/// as drawn and the mark goes as near it
/// as it can without covering a word, with an arrow at the row. First a
/// blank row of the panel just under it (`✕wrong ↑`) or just over it
/// (`✕wrong ↓`); else the border nearer the row, where the title leaves
/// the room (teacher trial 20: on the bottom border, nine rows under the
/// broker's first row, `✓right ↑` read as marking the counter above it).
fn beside_row(
    t: &Theme,
    rect: Rect,
    line: usize,
    (mark, style): (&str, Style),
    short: &Shortened,
    buf: &mut Buffer,
) {
    let text = |arrow: &str| t.text(&format!(" {mark} {arrow} ")).into_owned();
    let w = text("↑").chars().count();
    // A corner and a stroke of the border stay on either side.
    if usize::from(rect.width) < w + 4 {
        return;
    }
    let x = rect.right() - 2 - w as u16;
    let inner = rect.inner(ratatui::layout::Margin::new(1, 1));
    let y = inner.y + u16::try_from(line).unwrap_or(u16::MAX);
    let blank = |y: u16| (inner.x..inner.right()).all(|bx| buf[(bx, y)].symbol().trim().is_empty());
    let border_free =
        |y: u16| (x - 1..rect.right() - 1).all(|bx| matches!(buf[(bx, y)].symbol(), "─" | "-"));
    let below = y + 1;
    let above = y.checked_sub(1).filter(|&a| a >= inner.y);
    let (at, arrow) = if below < inner.bottom() && blank(below) {
        (below, "↑")
    } else if let Some(a) = above.filter(|&a| blank(a)) {
        (a, "↓")
    } else if y - inner.y < inner.bottom() - 1 - y && border_free(rect.y) {
        (rect.y, "↓")
    } else {
        let bottom = rect.bottom() - 1;
        if !border_free(bottom) {
            // The bottom border names the marks drawn short there
            // (`mark_legend`) and has no room for both as drawn: the
            // answer keeps the right end and the legend the left, each
            // without its outer spaces (`└─* changed─✓right ↑─┘`); where
            // even that does not fit, the legend gives way whole, never
            // cut to a stub beside the mark.
            let tight = text("↑").trim().to_string();
            let taken = u16::try_from(tight.chars().count()).unwrap_or(u16::MAX);
            if let Some(lead) = mark_legend::beside_mark(t, short, rect, taken, buf) {
                let x = rect.right() - 1 - lead - taken;
                buf.set_string(x, bottom, &tight, style);
                return;
            }
        }
        (bottom, "↑")
    };
    // Inside the panel the mark keeps to the row's right end, as on a row.
    let x = if at == rect.y || at == rect.bottom() - 1 {
        x
    } else {
        rect.right() - 1 - (w - 1) as u16
    };
    let text = text(arrow);
    let text = if at == rect.y || at == rect.bottom() - 1 {
        text
    } else {
        text.trim_end().to_string()
    };
    buf.set_string(x, at, &text, style);
}

/// The panel that shows the figure a question is about.
fn panel_of(subject: &Subject) -> Panel {
    match subject {
        Subject::PaymentsTotal
        | Subject::PaymentsRows
        | Subject::PaymentsRowsAny
        | Subject::ProcessedRows
        | Subject::ProcessedRowsAny => Panel::Database,
        Subject::ProviderCharges | Subject::ChargesAgain | Subject::ProviderAnswer => {
            Panel::Provider
        }
        Subject::Holder(_) | Subject::MessageState(_) | Subject::Deliveries(_) => Panel::Broker,
    }
}

/// The row of its panel, `width` x `height` inside, that holds the figure;
/// `charge` is the charge a provider's answer made or replayed.
fn row_of(
    t: &Theme,
    f: &Frame,
    subject: &Subject,
    charge: Option<&str>,
    width: usize,
    height: usize,
) -> Option<usize> {
    match subject {
        // The payments' heading, with their total, and the provider's, with
        // its charges, are always the first line.
        Subject::PaymentsTotal | Subject::PaymentsRows | Subject::PaymentsRowsAny => Some(0),
        Subject::ProviderCharges | Subject::ChargesAgain => Some(0),
        Subject::ProcessedRows | Subject::ProcessedRowsAny => {
            Some(database::processed_line(t, f, width, height))
        }
        // The provider's answer is about the charge it made or replayed:
        // on that charge's row, else (a refusal, no call, or the row folded
        // away) on the heading that counts the charges, never on the key
        // store (an empty store beside `✓` reads as "empty is right").
        Subject::ProviderAnswer => Some(
            charge
                .and_then(|id| provider::charge_line(t, f, width, height, id))
                .unwrap_or(0),
        ),
        Subject::Holder(id) | Subject::MessageState(id) | Subject::Deliveries(id) => {
            broker::message_line(t, f, width, id)
        }
    }
}
