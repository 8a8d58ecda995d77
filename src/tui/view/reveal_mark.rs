//! Predict mode's reveal mark, `✓right` or `✕wrong`, at the right end of
//! the row of its panel that holds the figure the question was about: the
//! eye finds the verdict on the answer where the value is. The mark is on
//! that row at every size: where the row's words leave it no room, the
//! mark folds to its sign (`✕`), and if that is not enough the row is drawn
//! again narrower, by the panel's own rules (its words give way, ending in
//! "…"; its own marks stay whole), never drawn over.

use super::{broker, database, overflow, provider};
use crate::scenario::Subject;
use crate::sim::Frame;
use crate::timeline::Asked;
use crate::tui::app::{App, Panel};
use crate::tui::layout::Main;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
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
    let worded = format!("{sign}{}", if right { "right" } else { "wrong" });
    // A panel too narrow to keep a few columns of the row beside the sign:
    // the answer box says it in words.
    if inner_w < sign.chars().count() + GAP + 3 {
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
    // The row drawn as a panel narrower by `mark` would draw it.
    let narrow_for = |mark: &str| {
        let room = inner_w - mark.chars().count() - GAP;
        row_of(t, frame, subject, charge, room, inner_h).and_then(|at| {
            lines_of(
                t,
                &app.timeline.frames,
                frame,
                panel,
                room,
                inner_w,
                inner_h,
            )
            .into_iter()
            .nth(at)
        })
    };
    let room_for = |mark: &str| usize::from(rect.right() - 1) - mark.chars().count();
    let fits_whole = |mark: &str| usize::from(drawn_to) + GAP <= room_for(mark);
    // The row's words are the evidence the question is judged on (`waiting`,
    // `no key`, `* was $0`): the mark gives way before them. Its word goes
    // first, where the row has no room for it beside the whole row (the
    // answer box and its title say "right" or "wrong" in words, and the
    // sign keeps its colour); only where even the sign has no room is the
    // row drawn narrower, by the panel's own rules, and then the word comes
    // back only if the row it leaves is the one the sign alone would leave.
    let words_of = |l: Option<Line>| l.map(|l| l.to_string().trim_end().to_string());
    let mark = if fits_whole(&worded)
        || (!fits_whole(sign) && words_of(narrow_for(&worded)) == words_of(narrow_for(sign)))
    {
        worded
    } else {
        sign.to_string()
    };
    let mark_w = mark.chars().count();
    let x = rect.right() - 1 - mark_w as u16;
    if usize::from(drawn_to) + GAP > usize::from(x) {
        // No room after the words: the panel draws the row again as it
        // would in a panel narrower by the mark.
        let room = inner_w - mark_w - GAP;
        let Some(narrow) = narrow_for(&mark) else {
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
    let style = if right { t.good() } else { t.bad() };
    buf.set_string(x, y, &mark, style.patch(t.highlight()));
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

/// The panel's lines as drawn at `width` in a panel `whole` wide;
/// `frames` is the run, whose steps the broker names its counters for.
fn lines_of(
    t: &Theme,
    frames: &[Frame],
    f: &Frame,
    panel: Panel,
    width: usize,
    whole: usize,
    height: usize,
) -> Vec<Line<'static>> {
    match panel {
        Panel::Broker => {
            let form = broker::Form::of(t, frames, f, width, height);
            broker::lines(t, f, &form, width, height)
        }
        Panel::Database => database::lines_beside(t, frames, f, width, whole, height),
        Panel::Provider => provider::run_lines(t, frames, f, width, height),
        _ => Vec::new(),
    }
}
