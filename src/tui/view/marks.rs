//! The marks for what the step on screen changed: a symbol and a word, in
//! the change colour where there is colour. They stay until the next step,
//! and stepping back shows that step's marks again (they come from the
//! frame, not from the motion between frames).

use super::fit;
use crate::sim::change::{Change, ItemChange};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The word for a change, after its symbol.
pub(super) fn word(c: Change) -> &'static str {
    match c {
        Change::Added => "new",
        Change::Changed => "changed",
        Change::Committed => "committed",
        Change::RolledBack => "rolled back",
        Change::Removed => "removed",
    }
}

pub(super) fn symbol(t: &Theme, c: Change) -> &'static str {
    match c {
        Change::Added => t.g.added,
        Change::Changed | Change::Committed => t.g.changed,
        Change::RolledBack | Change::Removed => t.g.removed,
    }
}

/// `  + new` at the end of a line, or ` +` alone where the words do not fit.
fn tag(t: &Theme, c: Change, room: usize) -> String {
    let full = format!("  {} {}", symbol(t, c), word(c));
    if full.chars().count() <= room {
        full
    } else {
        format!(" {}", symbol(t, c))
    }
}

/// A line with a change tag, if there is one, within `width`: the tag
/// stays whole and the line gives way (ending in an ellipsis) if it must.
pub fn tagged(t: &Theme, line: Line<'static>, c: Option<Change>, width: usize) -> Line<'static> {
    tagged_with(t, line, Vec::new(), c, width)
}

/// As `tagged`, with marks of the row's own (`uncommitted (B)`, `✕ again`)
/// between the row and the change tag: every mark stays whole, and the row
/// gives way (ending in an ellipsis) if it must.
pub fn tagged_with(
    t: &Theme,
    line: Line<'static>,
    kept: Vec<Span<'static>>,
    c: Option<Change>,
    width: usize,
) -> Line<'static> {
    let kept_w: usize = kept.iter().map(Span::width).sum();
    let text = c.map(|c| tag(t, c, width.saturating_sub(line.width() + kept_w)));
    let tag_w = text.as_ref().map_or(0, |s| s.chars().count());
    let mut line = fit(t, line, width.saturating_sub(kept_w + tag_w));
    line.spans.extend(kept);
    if let Some(text) = text {
        line.spans.push(Span::styled(text, t.change()));
    }
    line
}

/// An item the step removed, shown once more for the step that removed it.
pub fn gone(t: &Theme, item: &ItemChange, width: usize) -> Line<'static> {
    let was = Line::styled(format!(" {}", t.text(&item.was)), t.dim());
    let words = format!("  {} {}", symbol(t, item.change), word(item.change));
    // The words say what happened to the row: the row gives way first.
    let room = width.saturating_sub(words.chars().count()).max(6);
    let mut line = fit(t, was, room);
    line.spans.push(Span::styled(words, t.change()));
    line
}

/// A figure that moved: `(was $40)`.
pub fn was(t: &Theme, before: String) -> Span<'static> {
    Span::styled(format!("  {} was {before}", t.g.changed), t.change())
}

/// A figure that moved, where `was` has no room: its sign alone, ` *`.
pub fn was_sign(t: &Theme) -> Span<'static> {
    Span::styled(format!(" {}", t.g.changed), t.change())
}
