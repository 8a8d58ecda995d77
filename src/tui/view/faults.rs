//! The fault menu: break something at the step on screen.

use crate::tui::app::App;
use crate::tui::faults::menu;
use crate::tui::layout;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

pub fn render(app: &App, selected: usize, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let items = menu(app.frame());
    let popup = layout::faults(area, items.len());
    Clear.render(popup, buf);
    Block::bordered()
        .border_set(t.g.border)
        .border_style(t.border(true))
        .title(Span::styled(
            // What is chosen here is made as the next step: named by
            // that step, as the fork's every later word names it.
            format!(" Break something at step {} ", app.pos + 1),
            t.title(),
        ))
        .render(popup, buf);
    let inner_w = popup.width.saturating_sub(2);
    // Numbers right-aligned, so labels line up past nine items.
    let digits = items.len().to_string().len();
    for (i, item) in items.iter().enumerate() {
        let y = popup.y + 1 + i as u16;
        if y + 2 >= popup.bottom() {
            break;
        }
        let here = i == selected;
        let mut line = Line::from(vec![
            Span::styled(
                format!(
                    " {} {:>digits$}. ",
                    if here { t.g.next } else { " " },
                    i + 1
                ),
                t.key(),
            ),
            Span::raw(item.label.clone()),
        ]);
        if here {
            line = line.style(t.highlight());
        }
        line.render(Rect::new(popup.x + 1, y, inner_w, 1), buf);
    }
    let later = app.timeline.frames.len() - 1 > app.pos;
    let note = if later {
        " acting here forks the run: the script stops here"
    } else {
        " the move happens after this step"
    };
    Line::styled(note, t.dim()).render(
        Rect::new(popup.x + 1, popup.bottom().saturating_sub(2), inner_w, 1),
        buf,
    );
}
