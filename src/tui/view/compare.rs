//! Two designs side by side on the same script, in lockstep, with the
//! point where they part ways called out.

use super::{database, events, provider, service, verdict};
use crate::sim::Frame;
use crate::tui::app::App;
use crate::tui::compare::{Compare, handled, times};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

pub fn render(app: &App, c: &Compare, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let (header, left, right, keybar) = layout::compare(area);
    let (lf, rf) = c.frames(app.pos);
    let (chapter, of) = (lf.chapter, app.script.steps.len());
    let top = Line::from(vec![
        Span::styled(" Compare ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
        Span::styled(
            t.text(app.script.title_for(app.strategy.name)).into_owned(),
            t.title(),
        ),
        Span::styled(
            format!(
                " {} chapter {chapter}/{of}: {} {} position {}/{}",
                t.g.dot,
                t.text(&lf.chapter_title),
                t.g.dot,
                app.pos,
                c.pairs.len() - 1
            ),
            t.dim(),
        ),
    ]);
    super::fit(t, top, header.width as usize)
        .render(Rect::new(header.x, header.y, header.width, 1), buf);
    let at_split = c.diverge == Some(app.pos);
    let second = match c.diverge {
        Some(d) => {
            let (a, b) = c.frames(d);
            // Name the side that went wrong there, in its own words.
            let (who, outcome) = if a.verdict.outcome.is_failure() {
                (&c.left.strategy, a.verdict.outcome)
            } else {
                (&c.right.strategy, b.verdict.outcome)
            };
            let (what, _) = verdict::headline(t, outcome);
            let text = format!(
                " {} they part ways at position {d}: {who} {what} ",
                t.g.token
            );
            let mut spans = vec![Span::styled(
                text,
                if at_split { t.flash() } else { t.warn() },
            )];
            spans.push(if at_split {
                Span::styled(" here", t.bad())
            } else {
                Span::styled(" (v jumps there)", t.dim())
            });
            super::fit(t, Line::from(spans), header.width as usize)
        }
        None => Line::styled(
            " the two designs do not part ways in this scenario",
            t.dim(),
        ),
    };
    second.render(Rect::new(header.x, header.y + 1, header.width, 1), buf);
    side(t, &c.left.strategy, lf, at_split, left, buf);
    side(t, &c.right.strategy, rf, at_split, right, buf);
    super::keybar::render(app, keybar, buf);
}

fn side(t: &Theme, name: &str, f: &Frame, split: bool, area: Rect, buf: &mut Buffer) {
    let border = if split { t.flash() } else { t.border(false) };
    let block = Block::bordered()
        .border_set(t.g.border)
        .border_style(border)
        .title(Span::styled(format!(" design: {name} "), t.key()));
    let inner = block.inner(area);
    block.render(area, buf);
    let w = inner.width as usize;
    let (head, style) = verdict::headline(t, f.verdict.outcome);
    let mut lines = vec![Line::from(vec![
        Span::styled(head, style),
        Span::styled(verdict::chain(t, &f.verdict), t.dim()),
    ])];
    for (id, n) in handled(f) {
        let style = match n {
            0 => t.dim(),
            1 => t.good(),
            _ => t.bad(),
        };
        let glyph = match n {
            0 => t.g.pending,
            1 => t.g.done,
            _ => t.g.failed,
        };
        lines.push(Line::styled(format!("{glyph} {id} {}", times(n)), style));
    }
    lines.push(Line::styled(
        format!("step {} {} {}", f.index, t.g.dot, t.text(&f.action)),
        t.info(),
    ));
    lines.push(Line::raw(""));
    lines.extend(database::lines(t, f, w, 99));
    lines.extend(provider::lines(t, f, w, 99));
    lines.push(Line::styled("service", t.title()));
    lines.extend(service::lines(t, f, w, 0));
    lines.push(Line::styled("this step", t.title()));
    lines.extend(events::lines(t, f));
    Paragraph::new(lines).render(inner, buf);
}
