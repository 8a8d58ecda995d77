//! What happens in this step: the scenario's narration for the chapter, led
//! by the action this frame belongs to.

use crate::sim::{Frame, format_duration};
use crate::tui::app::{App, Panel};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub fn render(app: &App, f: &Frame, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let last = app.timeline.frames.len() - 1;
    let who = if f.action.starts_with("you: ") {
        t.warn()
    } else {
        t.info()
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{} step {}/{last}", t.g.next, f.index), t.title()),
        Span::styled(
            format!(" {} t={} {} ", t.g.dot, format_duration(f.time_ms), t.g.dot),
            t.dim(),
        ),
        Span::styled(t.text(&f.action).into_owned(), who),
    ])];
    if f.index == 0 {
        lines[0].spans.push(Span::styled(
            format!(
                "   press {} to take the first step, ? for help",
                t.text("→")
            ),
            t.key(),
        ));
    }
    if let Some(hint) = app.end_hint() {
        lines[0]
            .spans
            .push(Span::styled(format!("   {}", t.text(&hint)), t.key()));
    }
    let mut text = Vec::new();
    // After a fork the script's words tell what was written, not this run.
    if let Some(k) = app.forked_at().filter(|&k| f.index > k) {
        text.push(Span::styled(
            format!("[Written for the scripted run; yours has differed since step {k}.] "),
            t.warn(),
        ));
    }
    text.push(Span::raw(t.text(&f.narration).into_owned()));
    lines.push(Line::from(text));
    let para = Paragraph::new(lines).wrap(Wrap { trim: true });
    // Render one row taller off screen: text in that row was cut.
    let probe_area = Rect::new(0, 0, area.width, area.height + 1);
    let mut probe = Buffer::empty(probe_area);
    (&para).render(probe_area, &mut probe);
    let cut = (0..area.width).any(|x| probe[(x, area.height)].symbol() != " ");
    para.render(area, buf);
    // Cut text says so, and how to read the rest.
    if cut && area.height > 0 {
        // Say exactly what to press: z enlarges the selected panel.
        let hint = if app.focus == Panel::Narration {
            format!(" {} z: read all ", t.g.ellipsis)
        } else {
            format!(" {} click here, then z: read all ", t.g.ellipsis)
        };
        let w = hint.chars().count() as u16;
        if w + 4 > area.width {
            return;
        }
        buf.set_string(
            area.right() - w,
            area.bottom() - 1,
            hint,
            t.key().patch(t.highlight()),
        );
    }
}
