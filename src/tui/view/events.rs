//! Who did what in this step, in plain words.

use super::{events_fold, newest, overflow};
use crate::sim::{Actor, EventKind, Frame};
use crate::tui::app::App;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The panel's lines of `f` drawn in `inner` (inside its border), `told`
/// of them, the oldest, told whole in the story: the main screen draws
/// them so, and the layout weighs a reveal's split by them
/// (`view::under_box`).
pub(crate) fn draw(app: &App, f: &Frame, told: usize, inner: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let items = items(t, f);
    // At a reveal the event the question asked about stays whole.
    let asked = crate::tui::reveal_subject::revealed(app, f);
    // Else, where the panel folds, the parties' facts the story
    // does not tell before the observer's notes.
    let kept = events_fold::asked_first(t, &items, newest::EVENTS, &asked, inner)
        .or_else(|| events_fold::facts_first(t, &items, newest::EVENTS, told, inner));
    match kept {
        Some(lines) => {
            overflow::show(t, lines, true, inner, buf);
        }
        None => newest::show_told(t, items, newest::EVENTS, told, inner, buf),
    }
}

pub fn lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    if f.events.is_empty() {
        return vec![Line::styled("(nothing happened)", t.dim())];
    }
    f.events
        .iter()
        .map(|e| {
            let (glyph, style) = match e.kind {
                EventKind::Info => (t.g.dot, t.dim()),
                EventKind::Good => (t.g.done, t.good()),
                EventKind::Bad => (t.g.failed, t.bad()),
                EventKind::Warning => (t.g.warning, t.warn()),
            };
            Line::from(vec![
                Span::styled(format!("{glyph} "), style),
                Span::styled(e.actor.label(), t.title()),
                Span::raw(format!(" {}", t.text(&e.text))),
            ])
        })
        .collect()
}

/// Each event a line of its own, the newest last (`view::newest`).
pub fn items(t: &Theme, f: &Frame) -> Vec<super::newest::Item> {
    let notes = f.events.iter().map(|e| e.actor == Actor::Observer);
    lines(t, f)
        .into_iter()
        .zip(notes.chain(std::iter::repeat(false)))
        .map(|(l, note)| super::newest::Item {
            lines: vec![l],
            squeezable: None,
            note,
        })
        .collect()
}
