//! What happens in this step: the scenario's narration for the chapter, led
//! by the action this frame belongs to, the words the step itself added in
//! bold, and the end of the story in view when it is longer than the panel.

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
    // What this step's action said is the newest text: set apart in bold,
    // after what the chapter had said before it.
    let (before, said) = match f.said.as_deref() {
        Some(said) if f.narration.ends_with(said) => {
            (&f.narration[..f.narration.len() - said.len()], Some(said))
        }
        _ => (f.narration.as_str(), None),
    };
    text.push(Span::raw(t.text(before).into_owned()));
    if let Some(said) = said {
        text.push(Span::styled(t.text(said).into_owned(), t.title()));
    }
    let body = Paragraph::new(Line::from(text)).wrap(Wrap { trim: true });
    let total = rows_needed(&body, area.width);
    let header = Paragraph::new(lines.clone()).wrap(Wrap { trim: true });
    let mut header_rows = rows_needed(&header, area.width).min(area.height);
    let border = area.bottom();
    // Short of rows, the step line moves onto the bottom border, so the
    // words of the step get every row inside.
    if total + header_rows > area.height && border < buf.area.bottom() && area.width > 20 {
        let mut spans = vec![Span::raw(" ")];
        spans.extend(lines.swap_remove(0).spans);
        spans.push(Span::raw(" "));
        let step_line = Line::from(spans);
        let w = (step_line.width() as u16).min(area.width / 2);
        let room = Rect::new(area.x + 1, border, w, 1);
        Paragraph::new(step_line).render(room, buf);
        header_rows = 0;
    } else {
        header.render(
            Rect {
                height: header_rows,
                ..area
            },
            buf,
        );
    }
    let body_area = Rect {
        y: area.y + header_rows,
        height: area.height - header_rows,
        ..area
    };
    if body_area.height == 0 {
        return;
    }
    // When the story is longer than the panel, its end is what this step
    // just told: show the end, and say how much is above.
    let total = rows_needed(&body, body_area.width);
    let hidden = total.saturating_sub(body_area.height);
    body.scroll((hidden, 0)).render(body_area, buf);
    if hidden > 0 {
        let up = if t.ascii() { "^" } else { "↑" };
        let hint = if app.focus == Panel::Narration {
            format!(" {up} {hidden} more above {} z: read all ", t.g.dot)
        } else {
            format!(" {up} {hidden} more above {} click, then z ", t.g.dot)
        };
        // On the panel's bottom border, where it covers no text.
        let w = hint.chars().count() as u16;
        let border = body_area.bottom();
        if w + 4 <= body_area.width && border < buf.area.bottom() {
            buf.set_string(
                body_area.right() - w - 1,
                border,
                hint,
                t.key().patch(t.highlight()),
            );
        }
    }
}

/// The rows a wrapped paragraph takes at this width.
fn rows_needed(para: &Paragraph<'_>, width: u16) -> u16 {
    const TALL: u16 = 400;
    let probe_area = Rect::new(0, 0, width, TALL);
    let mut probe = Buffer::empty(probe_area);
    para.render(probe_area, &mut probe);
    (0..TALL)
        .rev()
        .find(|&y| (0..width).any(|x| probe[(x, y)].symbol() != " "))
        .map_or(0, |y| y + 1)
}
