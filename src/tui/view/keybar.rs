//! The bottom line: the keys that matter here, or a note about the last one.

use crate::tui::app::{App, Overlay};
use crate::tui::keys::KEYS;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    if let Some(note) = &app.status {
        Line::from(vec![
            Span::styled(" ! ", t.warn()),
            Span::styled(t.text(note).into_owned(), t.warn()),
        ])
        .render(area, buf);
        return;
    }
    let hints: Vec<(&str, &str)> = match app.overlay {
        Overlay::Picker { .. } => vec![("↑/↓", "choose"), ("Enter", "open"), ("Esc", "close")],
        Overlay::Faults { .. } => {
            vec![("↑/↓", "choose"), ("Enter/1-9", "do it"), ("Esc", "cancel")]
        }
        Overlay::Help => vec![("Esc/?", "close")],
        Overlay::Explorer(_) => vec![
            ("↑/↓", "design"),
            ("←/→", "counterexample"),
            ("Enter", "replay it"),
            ("Esc", "back"),
            ("q", "quit"),
        ],
        Overlay::None if app.compare.is_some() => vec![
            ("←/→", "step"),
            ("[/]", "chapter"),
            ("v", "where they part"),
            ("m", "mode"),
            ("c/Esc", "back"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Overlay::None => KEYS.iter().filter_map(|k| k.hint).collect(),
    };
    // Help and quit always show, at the right end; the rest fill from the
    // left as far as the width allows.
    let (tail, main): (Vec<_>, Vec<_>) = hints
        .into_iter()
        .partition(|(key, _)| matches!(*key, "?" | "q"));
    let item = |key: &str, what: &str| -> (Vec<Span<'static>>, usize) {
        let key = t.text(key).into_owned();
        let w = key.chars().count() + what.len() + 3;
        (
            vec![
                Span::styled(key, t.key()),
                Span::styled(format!(" {what}  "), t.dim()),
            ],
            w,
        )
    };
    let tail: Vec<_> = tail.iter().map(|(k, w)| item(k, w)).collect();
    let tail_w: usize = tail.iter().map(|(_, w)| w).sum();
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1 + tail_w;
    for (key, what) in main {
        let (s, w) = item(key, what);
        if used + w > area.width as usize {
            break;
        }
        used += w;
        spans.extend(s);
    }
    for (s, _) in tail {
        spans.extend(s);
    }
    Line::from(spans).render(area, buf);
}
