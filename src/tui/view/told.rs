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

/// [`own_events`] in as few words as the screen allows: the `whole`
/// newest events, which the events panel below shows whole, in their
/// shorter form (without the order and amount a call's line there gives);
/// the older ones as they are, since no panel shows them whole. The form
/// the story's own line takes where the whole one does not fit, before
/// it is cut.
pub fn own_events_brief(f: &Frame, whole: usize) -> String {
    let n = f.events.len();
    let older = n.saturating_sub(whole);
    let mut words = crate::sim::event::step_told(&f.events[..older]);
    let newer = crate::sim::event::step_told_brief(&f.events[older..]);
    if !words.is_empty() && !newer.is_empty() {
        words.push(' ');
    }
    words.push_str(&newer);
    words
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
