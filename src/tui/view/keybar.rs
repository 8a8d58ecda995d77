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
    // (key, words, rank): the lowest ranks stay when the bar is narrow;
    // help and quit always do, at the right end.
    let listed = |hints: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str, u8)> {
        hints
            .iter()
            .enumerate()
            .map(|(i, &(k, w))| {
                (
                    k,
                    w,
                    if matches!(k, "?" | "q") {
                        0
                    } else {
                        i as u8 + 1
                    },
                )
            })
            .collect()
    };
    let mut hints: Vec<(&str, &str, u8)> = match app.overlay {
        Overlay::Picker { .. } => listed(&[
            ("↑/↓", "choose"),
            ("0-9", "number"),
            ("Enter", "open"),
            ("Esc", "close"),
        ]),
        // A long menu takes its number in two digits, then Enter.
        Overlay::Faults { .. } if crate::tui::faults::menu(app.frame()).len() > 9 => listed(&[
            ("↑/↓", "choose"),
            ("0-9", "number"),
            ("Enter", "do it"),
            ("Esc", "cancel"),
        ]),
        Overlay::Faults { .. } => {
            listed(&[("↑/↓", "choose"), ("Enter/1-9", "do it"), ("Esc", "cancel")])
        }
        Overlay::Help => listed(&[("↑/↓", "scroll"), ("Esc/?", "close")]),
        Overlay::Explorer(_) => listed(&[
            ("↑/↓", "design"),
            ("←/→", "counterexample"),
            ("Enter", "replay it"),
            ("Esc/q", "back"),
        ]),
        // The arrows go first when the bar is narrow: they need no telling.
        Overlay::Levels => vec![
            ("↑/↓", "step", 9),
            ("1-0", "add", 1),
            ("d", "remove", 2),
            ("K/J", "move", 3),
            ("Enter", "prove", 1),
            ("v", "watch", 4),
            ("[/]", "level", 5),
            ("r", "reset", 8),
            ("Esc", "back", 6),
            ("?", "hint", 0),
        ],
        Overlay::None if app.compare.is_some() => listed(&[
            ("←/→", "step"),
            ("[/]", "chapter"),
            ("v", "where they part"),
            ("m", "design"),
            ("c/Esc", "back"),
            ("?", "help"),
            ("q", "quit"),
        ]),
        Overlay::None => KEYS
            .iter()
            .filter_map(|k| k.hint.map(|(key, what)| (key, what, k.rank)))
            .collect(),
    };
    // A scenario told for one design (a saved counterexample) has no
    // other design to switch to: the key is not offered.
    if crate::tui::app::designs(&app.script).len() < 2 {
        hints.retain(|(key, _, _)| *key != "m");
    }
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
    // The last item's two trailing spaces may fall off the edge.
    let room = area.width as usize + 2;
    let mut by_rank: Vec<usize> = (0..hints.len()).collect();
    by_rank.sort_by_key(|&i| hints[i].2);
    let mut keep = vec![false; hints.len()];
    let mut used = 1;
    for i in by_rank {
        let (key, what, _) = hints[i];
        let (_, w) = item(key, what);
        if used + w <= room {
            used += w;
            keep[i] = true;
        }
    }
    // Shown in their own order, help and quit last.
    let (tail, main): (Vec<_>, Vec<_>) = hints
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(h, _)| h)
        .partition(|(key, _, _)| matches!(*key, "?" | "q"));
    let mut spans = vec![Span::raw(" ")];
    for (key, what, _) in main.into_iter().chain(tail) {
        spans.extend(item(key, what).0);
    }
    Line::from(spans).render(area, buf);
}
