//! Every key, and what the marks on screen mean.

use crate::tui::app::App;
use crate::tui::keys::KEYS;
use crate::tui::{layout, measure};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let g = &t.g;
    let mut lines: Vec<Line<'static>> = KEYS
        .iter()
        .filter_map(|k| k.help)
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(format!(" {:<24} ", t.text(keys)), t.key()),
                Span::raw(what),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" Marks    ", t.title()),
        Span::raw(format!(
            "{} done  {} failed, or lost: no answer came back (the call may have worked)  {} duplicate key  {} skipped  {} not owner (another delivery holds the record)  {} not run yet (in a one-line strip; a full list leaves it blank)",
            g.done, g.failed, g.conflict, g.skipped, g.superseded, g.todo
        )),
    ]));
    lines.push(Line::raw(format!(
        "          {} the provider replayed a stored result  {} what only you, the observer, can see (acks lost; duplicate deliveries, or dup. deliveries: a message delivered again, not a second payment)",
        g.replay, g.observer
    )));
    lines.push(Line::raw(format!(
        "          {} blocked, waiting for a lock  {} awaits the provider's answer to another request with its key  {} refused with 409: that request is still in progress  {} backed off (another delivery's record is live)  {} crashed: the step never ran, or its answer was never received  {} next step",
        g.waiting, g.awaiting, g.refused, g.backed_off, g.crashed, g.upcoming
    )));
    // One meaning per mark on every screen: `!` is a risk, never an end.
    lines.push(Line::raw(format!(
        "          {} at risk, nothing wrong yet: a fault armed or happening; in the explorer, a design that holds only within the bounds (it breaks one bound further)  {} a pass that proves nothing",
        g.warning, g.vacuous
    )));
    lines.push(Line::from(vec![
        Span::styled(" Changes  ", t.title()),
        Span::raw(format!(
            "{} new  {} changed or committed  {} removed or rolled back (this step)",
            g.added, g.changed, g.removed
        )),
    ]));
    lines.push(Line::raw(format!(
        "          {} the step that just ran  (+1) a counter moved  {} was $40 a figure moved",
        g.ran, g.changed
    )));
    let signs = super::overflow::signs(t, 2);
    let heading = super::overflow::heading_signs(t, 2);
    lines.push(Line::from(vec![
        Span::styled(" Folds    ", t.title()),
        Span::raw(format!(
            "{} or {}: rows the panel has no room for, counted (never a change of the figure beside it; after a count, {}); z zooms it",
            signs.0.trim_start(),
            signs.1.trim_start(),
            heading.1.trim_start()
        )),
    ]));
    lines.push(Line::from(vec![
        Span::styled(" Verdict  ", t.title()),
        Span::raw(format!(
            "{} correct  {} in progress  {} something went wrong  {} dead-lettered",
            g.done, g.pending, g.failed, g.dead_letter
        )),
    ]));
    // Rows as drawn: a line wider than the box wraps.
    let rows = measure::rows(&lines, 82, false);
    let popup = layout::help(area, usize::from(rows));
    // Scrolled no further than the last line coming into view, counting
    // rows as they wrap in the box as drawn.
    let room = popup.height.saturating_sub(2);
    let inner_w = popup.width.saturating_sub(2);
    let mut most = 0;
    while most < lines.len() && measure::rows(&lines[most..], inner_w, false) > room {
        most += 1;
    }
    let skip = app.help_scroll.min(most);
    let lines: Vec<Line<'static>> = lines.into_iter().skip(skip).collect();
    let title = if skip > 0 {
        format!(" Keys ({} {skip} above) ", t.text("↑"))
    } else {
        " Keys ".to_string()
    };
    Clear.render(popup, buf);
    let block = Block::bordered()
        .border_set(g.border)
        .border_style(t.border(true))
        .title(Span::styled(title, t.title()))
        .title_bottom(Span::styled(" Esc or ? to close ", t.dim()));
    let inner = block.inner(popup);
    block.render(popup, buf);
    super::overflow::show(t, lines, true, inner, buf);
}
