//! The marks for what the step on screen changed: a symbol and a word, in
//! the change colour where there is colour. They stay until the next step,
//! and stepping back shows that step's marks again (they come from the
//! frame, not from the motion between frames).

use crate::sim::change::{Change, ItemChange};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The word for a change, after its symbol.
fn word(c: Change) -> &'static str {
    match c {
        Change::Added => "new",
        Change::Changed => "changed",
        Change::Committed => "committed",
        Change::RolledBack => "rolled back",
        Change::Removed => "removed",
    }
}

fn symbol(t: &Theme, c: Change) -> &'static str {
    match c {
        Change::Added => t.g.added,
        Change::Changed | Change::Committed => t.g.changed,
        Change::RolledBack | Change::Removed => t.g.removed,
    }
}

/// `  + new` at the end of a line; only the symbol when `room` is short.
pub fn tag(t: &Theme, c: Change, room: usize) -> Span<'static> {
    let full = format!("  {} {}", symbol(t, c), word(c));
    let text = if full.chars().count() <= room {
        full
    } else {
        format!(" {}", symbol(t, c))
    };
    Span::styled(text, t.change())
}

/// A line with a change tag, if there is one, fitted to `width`.
pub fn tagged(
    t: &Theme,
    mut line: Line<'static>,
    c: Option<Change>,
    width: usize,
) -> Line<'static> {
    if let Some(c) = c {
        let room = width.saturating_sub(line.width());
        line.spans.push(tag(t, c, room));
    }
    line
}

/// An item the step removed, shown once more for the step that removed it.
pub fn gone(t: &Theme, item: &ItemChange) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" {}", t.text(&item.was)), t.dim()),
        Span::styled(
            format!("  {} {}", symbol(t, item.change), word(item.change)),
            t.change(),
        ),
    ])
}

/// A figure that moved: `(was $40)`.
pub fn was(t: &Theme, before: String) -> Span<'static> {
    Span::styled(format!("  {} was {before}", t.g.changed), t.change())
}
