//! The top line: where in the tour we are, the step, the design, the verdict.

use super::verdict::verdict_headline;
use crate::tui::app::{App, seconds_per_step};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let f = app.frame();
    let group = match (app.script.group, app.place_in_group()) {
        _ if app.is_counterexample() => "Counterexample found by idem check".to_string(),
        (crate::scenario::Group::Tour, Some((at, of))) => format!("Tour {at}/{of}"),
        (g, Some((at, of))) => format!("{} {at}/{of}", g.title()),
        // Not a built-in: a story a soak wrote, or a file.
        (_, None) if app.script.origin == crate::scenario::Origin::SoakStory => {
            "A soak's story".to_string()
        }
        (_, None) => "Your scenario".to_string(),
    };
    let left = vec![
        Span::styled(" idem ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
        Span::styled(group, t.info()),
        Span::styled(
            format!(
                " {} {}",
                t.g.dot,
                t.text(app.script.title_for(&app.strategy.name))
            ),
            t.title(),
        ),
    ];
    let (verdict, vstyle) = verdict_headline(t, &f.verdict);
    let mut right: Vec<Span<'static>> = vec![Span::raw("  ")];
    if let Some(k) = app.forked_at() {
        right.push(Span::styled(
            format!(" forked at step {k} "),
            t.warn().patch(t.highlight()),
        ));
        right.push(Span::raw("  "));
    }
    if app.playing {
        right.push(Span::styled(
            format!(
                "{} playing {}/step  ",
                t.g.playing,
                seconds_per_step(app.speed)
            ),
            t.info(),
        ));
    }
    right.extend([
        Span::styled(
            format!("step {}/{}", f.index, app.timeline.frames.len() - 1),
            t.title(),
        ),
        Span::styled(format!("  {}  ", t.g.dot), t.dim()),
    ]);
    // SQLite is the default and goes unnamed; a server run says so.
    if !f.engine.is_sqlite() {
        right.extend([
            Span::styled(f.engine.name(), t.info()),
            Span::styled(format!("  {}  ", t.g.dot), t.dim()),
        ]);
    }
    right.extend([
        Span::styled("design: ", t.dim()),
        Span::styled(app.strategy.name.clone(), t.key()),
        Span::styled(
            if crate::tui::app::designs(&app.script).len() < 2
                || app.theme.medium != crate::scenario::key_word::Medium::Terminal
            {
                ""
            } else {
                " (m)"
            },
            t.dim(),
        ),
        Span::styled(format!("  {}  ", t.g.dot), t.dim()),
        Span::styled(verdict, vstyle),
        Span::raw(" "),
    ]);
    let width = |spans: &[Span]| spans.iter().map(|s| s.width()).sum::<usize>();
    // On a narrow screen where we are (the group, a counterexample's
    // label) matters more than the reminder of which key switches the
    // design.
    let narrow = if app.is_counterexample() {
        width(&right) + 24 > area.width as usize
    } else {
        width(&right) + width(&left[..3]) + 1 > area.width as usize
    };
    if narrow {
        right.retain(|s| s.content != "design: " && s.content != " (m)");
    }
    let avail = (area.width as usize).saturating_sub(width(&right) + 1);
    // The scenario title gives way first: the right side is what changes,
    // and the chapter title is on the narration panel anyway.
    let mut left = left;
    if app.is_counterexample() && width(&left[..3]) > avail {
        left[2] = Span::styled("Counterexample", t.info());
    }
    let fixed = width(&left[..3]);
    let title = left.pop().expect("four spans");
    let room = avail.saturating_sub(fixed);
    if title.width() <= room {
        left.push(title);
    } else if room >= 12 {
        let cut: String = title.content.chars().take(room - 2).collect();
        left.push(Span::styled(format!("{cut}{}", t.g.ellipsis), title.style));
    }
    if width(&left) > avail {
        left.truncate(1);
        if app.is_counterexample() && width(&left) + 10 <= avail {
            left[0] = Span::styled(" Counterexample ", t.info());
        }
    }
    let left_line = Line::from(left);
    buf.set_style(area, Style::new());
    left_line.render(area, buf);
    Line::from(right).right_aligned().render(area, buf);
}

#[cfg(test)]
mod tests {
    use crate::scenario::Origin;
    use crate::tui::app::tests::app;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    fn header(origin: Origin, name: &str) -> String {
        let mut a = app("tour-1", "naive");
        a.script.name = name.into();
        a.script.origin = origin;
        let area = Rect::new(0, 0, 120, 1);
        let mut buf = Buffer::empty(area);
        super::render(&a, area, &mut buf);
        (0..area.width).map(|x| buf[(x, 0)].symbol()).collect()
    }

    /// A soak's story is told by what made it, not by its name.
    #[test]
    fn a_soak_story_is_named_so_whatever_its_file_is_called() {
        assert!(header(Origin::SoakStory, "stories/x.toml").contains("A soak's story"));
        assert!(header(Origin::Scenario, "soak-naive-x.toml").contains("Your scenario"));
    }
}
