//! The explorer, full screen: the checker's table (one row per design, its
//! schedules by how they end, and whether it held to its claim), then the
//! selected design's shortest counterexamples with their cause chains.

use super::{explorer_detail, keybar, rule};
use crate::check::{Bounds, CheckReport, StrategyReport};
use crate::tui::app::App;
use crate::tui::explorer::{Column, Exploration, Selection, Standing, num};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub fn render(app: &App, sel: Selection, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let report = app.exploration.report();
    let designs = report.map_or(0, |r| r.strategies.len());
    let cxs = report
        .and_then(|r| r.strategies.get(sel.row))
        .map_or(0, |s| s.counterexamples.len());
    let l = layout::explorer(area, designs, sel.row, cxs, sel.cx);
    header(t, report, l.header, buf);
    keybar::render(app, l.keybar, buf);
    let Some(report) = report else {
        waiting(app, l.table.union(l.detail), buf);
        return;
    };
    let indented = Rect {
        x: l.bounds.x + 1,
        width: l.bounds.width.saturating_sub(2),
        ..l.bounds
    };
    if indented.height == 1 {
        // One row: the faults first (what every claim below is bounded
        // by), then the rest of the first line, cut with a sign.
        let b = &report.bounds;
        let line = Line::raw(format!(
            "bounds: at most {} per schedule {} {}",
            crate::check::further::faults(b.max_faults),
            t.g.dot,
            b.setup_line()
        ));
        super::fit(t, line, usize::from(indented.width))
            .style(t.dim())
            .render(indented, buf);
    } else {
        Paragraph::new(bounds_lines(&report.bounds))
            .style(t.dim())
            .wrap(Wrap { trim: true })
            .render(indented, buf);
    }
    table(t, report, sel.row, &l, buf);
    if let Some(s) = report.strategies.get(sel.row) {
        explorer_detail::render(t, s, &report.bounds, sel.cx, &l, buf);
    }
}

fn header(t: &Theme, report: Option<&CheckReport>, area: Rect, buf: &mut Buffer) {
    let mut left = Line::from(vec![
        Span::styled(" idem ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
        Span::styled("Explorer", t.info()),
        // SQLite whatever engine the story runs on: the checker on
        // PostgreSQL takes minutes (`idem check --db` runs it there).
        Span::styled(
            format!(
                " {} every schedule of every design, on real SQLite",
                t.g.dot
            ),
            t.title(),
        ),
    ]);
    let Some(report) = report else {
        left.render(area, buf);
        return;
    };
    let standings: Vec<Standing> = report.strategies.iter().map(Standing::of).collect();
    let holds = standings.iter().filter(|s| **s == Standing::Holds).count();
    let problems = standings.iter().filter(|s| s.is_problem()).count();
    let mut right = vec![Span::styled(
        format!("{} {holds} hold within bounds", t.g.done),
        t.good(),
    )];
    right.push(Span::styled(
        format!(
            "  {}  {} broken, as expected",
            t.g.dot,
            standings
                .iter()
                .filter(|s| **s == Standing::BrokenAsExpected)
                .count()
        ),
        t.dim(),
    ));
    if problems > 0 {
        right.push(Span::styled(
            format!("  {}  ! {problems} against its claim", t.g.dot),
            t.bad(),
        ));
    }
    right.push(Span::raw(" "));
    let right = Line::from(right);
    // The tally wins over the subtitle on a narrow screen.
    let room = area.width as usize;
    if left.width() + right.width() > room {
        left.spans.truncate(3);
    }
    (&left).render(area, buf);
    if left.width() + right.width() <= room {
        right.right_aligned().render(area, buf);
    }
}

fn waiting(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let lines = match &app.exploration {
        Exploration::Failed(e) => vec![
            Line::styled(format!(" {} the check stopped: {e}", t.g.failed), t.bad()),
            Line::raw(""),
            Line::styled(" Esc goes back; x here again tries once more.", t.dim()),
        ],
        Exploration::Running { ms } => {
            let spin = if t.ascii() {
                ["|", "/", "-", "\\"]
            } else {
                ["◐", "◓", "◑", "◒"]
            };
            let frame = spin[(*ms / 150) as usize % spin.len()];
            vec![
                Line::styled(
                    format!(
                        " {frame} exploring every schedule {} every crash point, lost ack, lost response and interleaving {} of every design{}",
                        t.text("—"),
                        t.text("—"),
                        t.g.ellipsis
                    ),
                    t.info(),
                ),
                Line::raw(""),
                Line::styled(
                    " This takes a few seconds, once: the table stays for the session. Esc goes back meanwhile.",
                    t.dim(),
                ),
            ]
        }
        _ => vec![],
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(rule(t, " The checker ".into()))
        .render(area, buf);
}

/// A design's result in the table. A design that holds says within which
/// bounds, and where the try one bound further broke it: never a bare
/// "safe".
fn result_words(s: &StrategyReport, requested: &Bounds, long: bool) -> String {
    let standing = Standing::of(s);
    if standing != Standing::Holds {
        return if long {
            standing.long()
        } else {
            standing.short()
        }
        .to_string();
    }
    let n = s.bounds.as_ref().unwrap_or(requested).max_faults;
    let broke = s
        .further
        .iter()
        .find(|f| f.breaks() && f.widening == crate::check::further::Widening::Fault);
    match (long, broke) {
        (true, Some(f)) => format!("holds within {n}, breaks at {}", f.bounds.max_faults),
        (true, None) => format!("holds within {}", crate::check::further::faults(n)),
        (false, _) => format!("holds within {n}"),
    }
}

/// The two lines of bounds, the second one shortened.
fn bounds_lines(b: &Bounds) -> Vec<Line<'static>> {
    let shown = b.to_string();
    let first = shown.lines().next().unwrap_or_default().to_string();
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let faults = format!(
        "faults: at most {} per schedule ({} per consumer, {}, {}, {} while the holder works, {})",
        b.max_faults,
        count(b.crashes, "crash", "crashes"),
        count(b.lost_acks, "lost ack", "lost acks"),
        count(b.lost_responses, "lost response", "lost responses"),
        count(b.early_expiries, "lease expiry", "lease expiries"),
        count(b.retries, "producer retry", "producer retries"),
    );
    vec![Line::raw(first), Line::raw(faults)]
}

/// The columns that fit in `width`, in screen order, and whether the result
/// column can use its long words.
fn columns(report: &CheckReport, name_w: usize, width: usize) -> (Vec<(Column, usize)>, bool) {
    let used: Vec<(Column, usize)> = Column::BY_PRIORITY
        .into_iter()
        .filter(|c| c.used(report))
        .map(|c| {
            let w = report
                .strategies
                .iter()
                .map(|s| num(c.value(s)).len())
                .chain([c.heading().len()])
                .max()
                .unwrap_or(0);
            (c, w)
        })
        .collect();
    let result_w = |long: bool| {
        report
            .strategies
            .iter()
            .map(|s| 2 + result_words(s, &report.bounds, long).chars().count())
            .max()
            .unwrap_or(6)
    };
    let fit = |long: bool| {
        let mut used_w = 2 + name_w + 2 + result_w(long) + 1;
        let mut out = Vec::new();
        for &(c, w) in &used {
            if used_w + w + 2 > width {
                break;
            }
            used_w += w + 2;
            out.push((c, w));
        }
        out
    };
    let long = fit(true);
    let short = fit(false);
    let (mut chosen, is_long) = if short.len() > long.len() && long.len() < used.len().min(4) {
        (short, false)
    } else {
        (long, true)
    };
    chosen.sort_by_key(|(c, _)| Column::IN_ORDER.iter().position(|o| o == c));
    (chosen, is_long)
}

fn table(t: &Theme, report: &CheckReport, selected: usize, l: &layout::Explorer, buf: &mut Buffer) {
    let block = rule(
        t,
        format!(
            " Designs {} how every schedule ends, and whether the design held to its claim ",
            t.g.dot
        ),
    );
    block.render(l.table, buf);
    let name_w = report
        .strategies
        .iter()
        .map(|s| s.strategy.len())
        .chain(["design".len()])
        .max()
        .unwrap_or(6);
    let (cols, long) = columns(report, name_w, l.table.width as usize);
    let mut heading = format!("  {:<name_w$}", "design");
    for (c, w) in &cols {
        heading.push_str(&format!("  {:>w$}", c.heading()));
    }
    heading.push_str("  result");
    Line::styled(heading, t.dim())
        .render(Rect::new(l.table.x, l.table.y + 1, l.table.width, 1), buf);
    for (i, s) in report.strategies.iter().enumerate().skip(l.offset) {
        let y = l.rows.y + (i - l.offset) as u16;
        if y >= l.rows.bottom() {
            break;
        }
        let here = i == selected;
        let standing = Standing::of(s);
        let (symbol, style) = match standing {
            Standing::Holds => (t.g.done, t.good()),
            Standing::BrokenAsExpected => (t.g.failed, t.warn()),
            Standing::Contradiction => ("!", t.bad()),
            Standing::Vacuous => ("?", t.bad()),
            Standing::NoFailureFound => (t.g.pending, t.dim()),
        };
        let name_style = if s.claims_safe {
            t.title()
        } else {
            Style::new()
        };
        let mut spans = vec![
            Span::styled(format!("{} ", if here { t.g.next } else { " " }), t.key()),
            Span::styled(format!("{:<name_w$}", s.strategy), name_style),
        ];
        for (c, w) in &cols {
            let v = c.value(s);
            let cell_style = match c {
                Column::Outcome(class) if class.is_failure() && v > 0 => t.bad(),
                _ => Style::new(),
            };
            spans.push(Span::styled(format!("  {:>w$}", num(v)), cell_style));
        }
        spans.push(Span::styled(
            format!("  {symbol} {}", result_words(s, &report.bounds, long)),
            style,
        ));
        let mut line = Line::from(spans);
        if here {
            line = line.style(t.highlight());
        }
        line.render(Rect::new(l.rows.x, y, l.rows.width, 1), buf);
    }
}
