//! Who did what in this step, in plain words.

use crate::sim::{Actor, EventKind, Frame};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

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
