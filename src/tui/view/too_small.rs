//! Below 80x24 the panels would overlap and cut words: say so instead.

use crate::tui::app::App;
use crate::tui::layout::{MIN_HEIGHT, MIN_WIDTH};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let lines = vec![
        Line::styled(
            format!("terminal too small: need {MIN_WIDTH}x{MIN_HEIGHT}"),
            t.bad(),
        ),
        Line::raw(format!("this one is {}x{}", area.width, area.height)),
        Line::styled("enlarge the window, or q to quit", t.dim()),
    ];
    let [_, mid, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(3),
        Constraint::Fill(1),
    ])
    .areas(area);
    Paragraph::new(lines)
        .centered()
        .wrap(Wrap { trim: true })
        .render(mid, buf);
}
