//! The explorer, full screen: the checker's table (one row per design, its
//! schedules by how they end, and whether it held to its claim), then the
//! selected design's shortest counterexamples with their cause chains.

use super::keybar;
use crate::check::{Bounds, CheckReport, StrategyReport};
use crate::tui::app::App;
use crate::tui::explorer::{Column, Exploration, Selection, Standing, num};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

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
        let first = b.to_string();
        let first = first.lines().next().unwrap_or_default();
        let rest = first.strip_prefix("bounds: ").unwrap_or(first);
        let line = Line::raw(format!(
            "bounds: at most {} per schedule {} {rest}",
            crate::check::further::faults(b.max_faults),
            t.g.dot
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
        detail(t, s, &report.bounds, sel.cx, &l, buf);
    }
}

fn rule<'a>(t: &Theme, title: String) -> Block<'a> {
    Block::new()
        .borders(Borders::TOP)
        .border_set(t.g.border)
        .border_style(t.dim())
        .title(Span::styled(title, t.title()))
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

fn detail(
    t: &Theme,
    s: &StrategyReport,
    bounds: &Bounds,
    cx_sel: usize,
    l: &layout::Explorer,
    buf: &mut Buffer,
) {
    let width = l.detail.width as usize;
    let claim = if s.claims_safe {
        "claims exactly-once"
    } else {
        "claims nothing"
    };
    let title = cut(
        t,
        &format!(
            " {} {} {claim} {} {} ",
            s.strategy, t.g.dot, t.g.dot, s.summary
        ),
        width.saturating_sub(2),
    );
    let block = rule(t, title);
    let inner = block.inner(l.detail);
    block.render(l.detail, buf);
    // Each line with how it meets the edge: the chain wraps (it is the
    // point); the list and the steps are cut so that each stays one line.
    let mut lines: Vec<(Line, Edge)> = Vec::new();
    if s.counterexamples.is_empty() {
        // The claim with its bounds wraps: it is the point, never cut.
        lines.extend(
            properties(t, s, bounds)
                .into_iter()
                .enumerate()
                .map(|(i, l)| (l, if i == 0 { Edge::Wrap } else { Edge::Cut })),
        );
    } else {
        let class_w = s
            .counterexamples
            .iter()
            .map(|c| c.class.text().len())
            .max()
            .unwrap_or(0);
        let shown = l.cx_offset..l.cx_offset + usize::from(l.list.height);
        let n = s.counterexamples.len();
        for (i, cx) in s.counterexamples.iter().enumerate() {
            if !shown.contains(&i) {
                continue;
            }
            let here = i == cx_sel;
            let mut line = Line::from(vec![
                Span::styled(
                    format!(
                        " {} {:>w$}. ",
                        if here { t.g.next } else { " " },
                        i + 1,
                        w = n.to_string().len()
                    ),
                    t.key(),
                ),
                Span::styled(format!("{:<class_w$}", cx.class.text()), t.bad()),
                Span::raw({
                    // The long words where there is room for them.
                    let wide = width >= 100;
                    let paid = if wide {
                        format!("ends with ${} in payments", cx.total)
                    } else {
                        format!("${} paid", cx.total)
                    };
                    let charge = if wide { "provider charge" } else { "charge" };
                    let plural = if cx.charges == 1 { "" } else { "s" };
                    // Found breadth-first: the shortest run to this end,
                    // which is why it can be shorter than a tour's story.
                    let shortest = if wide { ", the shortest" } else { ", shortest" };
                    format!(
                        "  {} moves{shortest} {} {paid}, {} {charge}{plural}",
                        cx.moves.len(),
                        t.g.dot,
                        cx.charges
                    )
                }),
            ]);
            if here {
                line = line.style(t.highlight());
            }
            lines.push((line, Edge::Cut));
        }
        if let Some(cx) = s.counterexamples.get(cx_sel) {
            let chain = cx.verdict.chain_with(t.arrow());
            lines.push((
                Line::from(vec![
                    Span::styled(" why: ", t.dim()),
                    Span::styled(t.text(&chain).into_owned(), t.warn()),
                ]),
                Edge::Wrap,
            ));
            // Said only where it fits whole: a cut sentence would hide
            // the reason it gives.
            let why_shortest = " found breadth-first: the shortest run to each end; a tour may tell another, to teach one fault at a time";
            if why_shortest.chars().count() < width {
                lines.push((Line::styled(why_shortest, t.dim()), Edge::Cut));
            }
            if let Some(b) = &s.bounds {
                lines.push((
                    Line::styled(
                        format!(
                            " (checked with a second message for the same order and at most {} fault{} per schedule)",
                            b.max_faults,
                            if b.max_faults == 1 { "" } else { "s" }
                        ),
                        t.dim(),
                    ),
                    Edge::Cut,
                ));
            }
            let title_w = cx
                .steps
                .iter()
                .map(|st| st.title.chars().count())
                .max()
                .unwrap_or(0)
                .min(28);
            let n_w = cx.steps.len().to_string().len();
            // Each move stays one line; what does not fit ends in an
            // ellipsis, and Enter replays the run in full.
            let said_w = width.saturating_sub(2 + n_w + 2 + title_w + 2);
            for (i, step) in cx.steps.iter().enumerate() {
                let said = step.happened.join(" ");
                let title: String = step.title.chars().take(title_w).collect();
                lines.push((
                    Line::from(vec![
                        Span::styled(format!("  {:>n_w$}. ", i + 1), t.dim()),
                        Span::styled(format!("{:<title_w$}  ", t.text(&title)), t.info()),
                        Span::raw(cut(t, &said, said_w)),
                    ]),
                    Edge::Cut,
                ));
            }
        }
    }
    // The list scrolls; what is above or below it says so at its end.
    let (above, below) = (
        l.cx_offset,
        s.counterexamples
            .len()
            .saturating_sub(l.cx_offset + usize::from(l.list.height)),
    );
    let mut y = inner.y;
    let total = lines.len();
    for (i, (line, edge)) in lines.into_iter().enumerate() {
        if y >= inner.bottom() {
            break;
        }
        // The last row left, with more lines to come, says how many.
        let left = total - i;
        if y + 1 == inner.bottom() && left > 1 {
            let down = if t.ascii() { "" } else { "↓ " };
            Line::styled(
                format!(" {down}{left} more lines: Enter replays this run in full"),
                t.key(),
            )
            .render(Rect::new(inner.x, y, inner.width, 1), buf);
            break;
        }
        let wraps = edge == Edge::Wrap;
        let h = if wraps {
            let mut h = crate::tui::measure::rows([&line], inner.width, false)
                .clamp(1, 4)
                .min(inner.bottom() - y);
            // A chain that would fill the last rows leaves the last one to
            // say how many lines follow it, the run's moves among them.
            if left > 1 && y + h >= inner.bottom() && h > 1 {
                h -= 1;
            }
            h
        } else {
            1
        };
        let at = Rect::new(inner.x, y, inner.width, h);
        if wraps {
            Paragraph::new(line)
                .wrap(Wrap { trim: false })
                .render(at, buf);
        } else {
            super::fit(t, line, usize::from(inner.width)).render(at, buf);
        }
        y += h;
    }
    // No arrows in ASCII: their stand-ins would read as letters.
    let (up, down) = if t.ascii() {
        ("", "")
    } else {
        ("↑ ", "↓ ")
    };
    let note = match (above, below) {
        (0, 0) => None,
        (0, b) => Some(format!(" {down}{b} more ")),
        (a, 0) => Some(format!(" {up}{a} above ")),
        (a, b) => Some(format!(" {up}{a} above, {down}{b} more ")),
    };
    if let Some(note) = note.filter(|_| !l.list.is_empty()) {
        let w = (note.chars().count() as u16).min(l.list.width);
        let at = Rect::new(l.list.right() - w, l.list.bottom() - 1, w, 1);
        Line::styled(note, t.key()).render(at, buf);
    }
}

/// For a design nothing broke: what was proved, and that it was not proved
/// vacuously.
fn properties(t: &Theme, s: &StrategyReport, bounds: &Bounds) -> Vec<Line<'static>> {
    // The claim with its bounds and the try one bound further, in the words
    // `idem check` prints: never a bare "holds".
    let mut lines = vec![Line::styled(
        format!(
            " No schedule breaks {}: it {} ({} schedules, {} states).",
            s.strategy,
            crate::check::further::claim(s, bounds),
            num(s.schedules),
            num(s.states)
        ),
        t.good(),
    )];
    let mark = |ok: bool| if ok { t.g.done } else { t.g.failed };
    for inv in &s.invariants {
        lines.push(Line::raw(format!(
            "   always     {} {}",
            mark(inv.holds),
            inv.text
        )));
    }
    for w in &s.witnesses {
        let how = match (w.seen, w.required, w.depth) {
            (true, _, Some(d)) => format!("seen after {d} moves"),
            (true, _, None) => "seen".into(),
            (false, true, _) => "NEVER SEEN: the pass is vacuous".into(),
            (false, false, _) => "not possible within these bounds".into(),
        };
        lines.push(Line::raw(format!(
            "   sometimes  {} {} ({how})",
            mark(w.seen || !w.required),
            w.text
        )));
    }
    lines
}

/// Text cut to `width` characters, with an ellipsis when it was longer.
fn cut(t: &Theme, text: &str, width: usize) -> String {
    let text = t.text(text);
    if text.chars().count() <= width {
        return text.into_owned();
    }
    let keep = width.saturating_sub(t.g.ellipsis.chars().count() + 1);
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(t.g.ellipsis);
    out.push(' ');
    out
}

/// How a line of the counterexample pane meets the pane's right edge.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// Wrapped onto up to four rows.
    Wrap,
    /// Kept to one row, cut at the edge.
    Cut,
}
