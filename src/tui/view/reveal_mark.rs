//! Predict mode's reveal mark, `✓right` or `✕wrong`, at the right end of
//! the row of its panel that holds the figure the question was about: the
//! eye finds the verdict on the answer where the value is. The mark always
//! carries its word (a bare `✕` beside a charge reads as "the charge
//! failed"). Where the row leaves it no room, the row is drawn again
//! narrower, by the panel's own rules (its shorter forms, words cut with
//! "…"), never drawn over; where even that would cost the row its evidence
//! (its ID, figures, `no key`, its state, a moved figure's old value), the
//! row stays whole and the mark goes on the panel's bottom border.

use super::{broker, database, overflow, provider};
use crate::scenario::Subject;
use crate::sim::Frame;
use crate::sim::frame::MessagePhase;
use crate::timeline::Asked;
use crate::tui::app::{App, Panel};
use crate::tui::layout::Main;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

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
    // The columns the row keeps beside the mark.
    let room = inner_w - mark_w - GAP;
    // The row drawn as a panel `room` wide would draw it.
    let narrow = || {
        row_of(t, frame, subject, charge, room, inner_h).and_then(|at| {
            lines_of(app, buf.area, frame, panel, room, inner_w, inner_h)
                .into_iter()
                .nth(at)
        })
    };
    let style = if right { t.good() } else { t.bad() };
    let style = style.patch(t.highlight());
    if usize::from(drawn_to) + GAP > usize::from(x) {
        // No room after the words: the row as the panel draws it narrower,
        // if that keeps what the question is judged on; else the row stays
        // whole and the mark stands beside it (`beside_row`).
        let evidence = evidence(t, frame, subject, charge);
        let Some(narrow) = narrow().filter(|l| l.width() <= room && keeps(&evidence, l)) else {
            beside_row(t, rect, line, &mark, style, buf);
            return;
        };
        let row = Rect::new(rect.x + 1, y, rect.width - 2, 1);
        for bx in row.left()..row.right() {
            buf[(bx, y)].reset();
        }
        overflow::show(
            t,
            vec![narrow],
            false,
            Rect {
                width: room as u16,
                ..row
            },
            buf,
        );
    }
    buf.set_string(x, y, &mark, style);
}

/// The last resort, where the row cannot give the mark room and keep
/// what it is judged on: the row stays whole and the mark goes as near it
/// as it can without covering a word, with an arrow at the row. First a
/// blank row of the panel just under it (`✕wrong ↑`) or just over it
/// (`✕wrong ↓`); else the border nearer the row, where the title leaves
/// the room (teacher trial 20: on the bottom border, nine rows under the
/// broker's first row, `✓right ↑` read as marking the counter above it).
fn beside_row(t: &Theme, rect: Rect, line: usize, mark: &str, style: Style, buf: &mut Buffer) {
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
        (rect.bottom() - 1, "↑")
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

/// What a row must keep to be judged on: each entry a set of forms, one
/// of which the row shows (the provider's charge row keeps its ID, order,
/// amount and whether it carried a key; a message keeps its ID and state;
/// a moved figure keeps the value it moved from).
fn evidence(t: &Theme, f: &Frame, subject: &Subject, charge: Option<&str>) -> Vec<Vec<String>> {
    // A heading keeps the word that says what its figure is (teacher
    // trial 19: `1→2 $80 keys 0 ✓right` beside the second charge, and
    // `payments $0→$40`, where every other step says `charges` and
    // `total`): a label the panel keeps at every step is evidence too.
    let charges = |f: &Frame| {
        let mut e = vec![
            vec!["charges".to_string()],
            vec![f.provider.charges.len().to_string()],
        ];
        if let Some(was) = f.changes.charges_was {
            e.push(vec![was.to_string()]);
        }
        e
    };
    match subject {
        Subject::PaymentsTotal | Subject::PaymentsRows | Subject::PaymentsRowsAny => {
            let mut e = vec![
                vec!["total".to_string()],
                vec![format!("${}", f.db.payments_total)],
            ];
            if let Some(was) = f.changes.total_was {
                e.push(vec![format!("${was}")]);
            }
            e
        }
        Subject::ProcessedRows | Subject::ProcessedRowsAny => Vec::new(),
        Subject::ProviderCharges | Subject::ChargesAgain => charges(f),
        Subject::ProviderAnswer => {
            let Some(c) = charge.and_then(|id| f.provider.charges.iter().find(|c| c.id == id))
            else {
                return charges(f);
            };
            let key = if c.key.is_some() { "key" } else { "no key" };
            vec![
                vec![c.id.clone()],
                vec![c.order.to_string()],
                vec![format!("${}", c.amount)],
                vec![key.to_string()],
            ]
        }
        Subject::Holder(id) | Subject::MessageState(id) | Subject::Deliveries(id) => {
            let Some(m) = f
                .queue
                .messages
                .iter()
                .find(|m| m.message_id == *id || m.broker_id == *id)
            else {
                return Vec::new();
            };
            // A message in flight is shown with the arrow to its holder in
            // every form (`in flight → A`, `→ A leased`, `→ A`).
            let holder = format!("{} {}", t.g.arrow, m.holder.as_deref().unwrap_or("?"));
            let state: Vec<String> = match m.phase {
                MessagePhase::Waiting => vec!["waiting".into()],
                MessagePhase::InFlight => vec![holder],
                MessagePhase::Acked => vec!["acked".into(), "removed".into()],
                MessagePhase::DeadLettered => vec!["dead-lettered".into(), "in DLQ".into()],
            };
            vec![vec![m.message_id.clone(), m.broker_id.clone()], state]
        }
    }
}

/// Does the row drawn narrower show each piece of its evidence? Word by
/// word, not as text inside text: a count `1` is not shown by `$120` or
/// `ch_81`, nor `key` by `keys 0`.
fn keeps(evidence: &[Vec<String>], line: &Line) -> bool {
    let words = words_of(&line.to_string());
    evidence.iter().all(|forms| {
        forms.iter().any(|form| {
            let form = words_of(form);
            !form.is_empty() && words.windows(form.len()).any(|w| w == form.as_slice())
        })
    })
}

/// A row's words, with the marks that join figures (`1→2`, `#1042`,
/// `($40)`) read as breaks and the arrow as a word of its own.
fn words_of(text: &str) -> Vec<String> {
    text.replace('→', " → ")
        .replace(['(', ')', ',', '#'], " ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
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

/// The panel's lines as drawn at `width` in a panel `whole` wide on the
/// screen `area`, over the runs the panel's own forms are chosen over:
/// the run on screen, whose steps the broker names its counters for, and
/// for the provider every design's run `m` reaches, as the panel draws it
/// (`provider_run_lines`), so that the row drawn narrower keeps the
/// panel's heading form.
fn lines_of(
    app: &App,
    area: Rect,
    f: &Frame,
    panel: Panel,
    width: usize,
    whole: usize,
    height: usize,
) -> Vec<Line<'static>> {
    let (t, frames) = (&app.theme, &app.timeline.frames);
    match panel {
        Panel::Broker => {
            let form = broker::Form::of(t, frames, f, width, height);
            broker::lines(t, f, &form, width, height)
        }
        Panel::Database => database::lines_beside(t, frames, f, width, whole, height),
        Panel::Provider => {
            let also = super::why_main_rows(app, panel, area, height);
            super::provider_run_lines(app, t, f, area, (width, height), also)
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(forms: &[&[&str]]) -> Vec<Vec<String>> {
        forms
            .iter()
            .map(|f| f.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn evidence_is_read_word_by_word() {
        // The count 1 is not in `$120` or `ch_81`; `key` is not `keys`.
        let row = Line::raw("ch_81 #1042 $120 keys 0");
        assert!(!keeps(&ev(&[&["1"]]), &row));
        assert!(!keeps(&ev(&[&["key"]]), &row));
        assert!(keeps(&ev(&[&["1042"], &["$120"], &["ch_81"]]), &row));
        // A moved figure's two values, and a form of two words.
        let heading = Line::raw("charges 1→2 $80 keys 0");
        assert!(keeps(&ev(&[&["charges"], &["2"], &["1"]]), &heading));
        let charge = Line::raw(" ch_82 #1042 $40 no key +");
        assert!(keeps(&ev(&[&["no key"]]), &charge));
        assert!(!keeps(&ev(&[&["with key"]]), &charge));
        // The holder's arrow, in any of its forms.
        assert!(keeps(&ev(&[&["→ A"]]), &Line::raw("▶ m-7f3 → A leased")));
        assert!(keeps(&ev(&[&["→ A"]]), &Line::raw("in flight →A")));
        assert!(!keeps(&ev(&[&["→ A"]]), &Line::raw("→ B leased, A idle")));
    }
}
