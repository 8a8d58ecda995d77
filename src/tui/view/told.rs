//! How a step is told on screen, the same in the story panel, the
//! presenter view and compare: the step's own events first, in plain
//! words; the run's own authored words after them; words written for
//! another design or engine last, under a line that says whom they were
//! written for. The mark comes from the frame's type, never from the text.

use crate::sim::Frame;
use crate::tui::theme::Theme;
use ratatui::text::Line;

/// What this step did, every party's part, in the engine's words.
pub fn own_events(f: &Frame) -> String {
    crate::sim::event::step_told(&f.events)
}

/// The frame's borrowed words, as unwrapped lines: the mark, then the
/// words. Nothing when the frame's words are all its own.
pub fn borrowed_lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    let Some(b) = &f.borrowed else {
        return Vec::new();
    };
    vec![
        Line::styled(
            format!("{} {}", t.g.dot, b.written_for.mark()),
            t.dim().add_modifier(ratatui::style::Modifier::ITALIC),
        ),
        Line::styled(t.words(&b.text), t.dim()),
    ]
}
