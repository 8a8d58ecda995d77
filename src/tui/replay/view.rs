//! Draws a replayed schedule: a header with the program, the schedule, the
//! step and how the run ends; a strip of every step with the faults marked;
//! the broker's queue, the provider's charges and keys and the program's
//! tables after the step; what happened in the step (the fault, which
//! only the observer sees, marked ◇); the program's stderr up to the step.
//! Panels cut nothing silently (`overflow`), and what changed against the
//! step before carries the change mark.

use super::Replay;
use crate::harness::run::Step;
use crate::harness::transcript::times;
use crate::sim::broker::{MessageState, StoredMessage};
use crate::sim::format_duration;
use crate::tui::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::tui::measure;
use crate::tui::theme::{Theme, ascii_cell};
use crate::tui::view::{fit, overflow};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

impl Widget for &Replay {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            too_small(t, area, buf);
        } else if let Some(step) = self.step() {
            self.screen(step, area, buf);
        } else {
            Paragraph::new(Line::styled(
                "the replay recorded no step: the program ended before idem could note one",
                t.bad(),
            ))
            .wrap(Wrap { trim: false })
            .render(area, buf);
        }
        if t.ascii() {
            // The program's own words may hold any character.
            for cell in &mut buf.content {
                if !cell.symbol().is_ascii() {
                    let s = ascii_cell(cell.symbol());
                    cell.set_symbol(s);
                }
            }
        }
    }
}

fn too_small(t: &Theme, area: Rect, buf: &mut Buffer) {
    Paragraph::new(vec![
        Line::styled(
            format!("terminal too small: need {MIN_WIDTH}x{MIN_HEIGHT}"),
            t.bad(),
        ),
        Line::raw(format!("this one is {}x{}", area.width, area.height)),
        Line::styled("enlarge the window, or q to quit", t.dim()),
    ])
    .centered()
    .wrap(Wrap { trim: true })
    .render(area, buf);
}

/// A program's own words, safe on a terminal: controls escaped, tabs as
/// spaces.
fn own(text: &str) -> String {
    crate::terminal_text::escape(&text.replace('\t', " ")).into_owned()
}

/// A bordered panel named `name`, or `short` where the name would not
/// fit on the border; a name that does not fit even so ends in `…`.
fn block(t: &Theme, name: &str, short: &str, width: u16) -> Block<'static> {
    let room = usize::from(width).saturating_sub(4);
    let name = if name.chars().count() <= room {
        name
    } else {
        short
    };
    let title = fit(t, Line::styled(t.text(name).into_owned(), t.title()), room);
    let mut spans = vec![Span::raw(" ")];
    spans.extend(title.spans);
    spans.push(Span::raw(" "));
    Block::bordered()
        .border_set(t.g.border)
        .border_style(t.border(false))
        .title(Line::from(spans))
}

impl Replay {
    fn screen(&self, step: &Step, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let head = self.head();
        let head_rows = measure::rows(&head, area.width, false).min(4);
        let happened = self.happened(step);
        let happened_rows = measure::rows(&happened, area.width.saturating_sub(2), false)
            .clamp(2, if area.height >= 36 { 6 } else { 4 });
        // The widths the three panels get below, inside their borders.
        let inner = |tenths: u16| (area.width * tenths / 10).saturating_sub(2);
        let queue_lines = self.queue(step, inner(3));
        let provider_lines = self.provider(step, inner(3));
        let table_lines = self.tables(step);
        // The three panels as tall as the longest needs, between a floor
        // and half the screen; the rest goes to the log and the verdict.
        let tallest = [queue_lines.len(), provider_lines.len(), table_lines.len()]
            .into_iter()
            .max()
            .unwrap_or(0);
        let top_rows = u16::try_from(tallest + 2)
            .unwrap_or(u16::MAX)
            .clamp(7, area.height / 2);
        let [header, strip, top, middle, bottom, keys] = Layout::vertical([
            Constraint::Length(head_rows),
            Constraint::Length(1),
            Constraint::Length(top_rows),
            Constraint::Length(happened_rows + 2),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Paragraph::new(head)
            .wrap(Wrap { trim: false })
            .render(header, buf);
        self.strip(strip, buf);
        let [broker, provider, database] = Layout::horizontal([
            Constraint::Fill(3),
            Constraint::Fill(3),
            Constraint::Fill(4),
        ])
        .areas(top);
        self.panel(
            (&format!("Message broker {} payments", t.g.dot), "Broker"),
            queue_lines,
            false,
            broker,
            buf,
        );
        self.panel(
            ("Payment provider", "Provider"),
            provider_lines,
            false,
            provider,
            buf,
        );
        self.panel(
            ("The program's database, read by idem", "Its database"),
            table_lines,
            false,
            database,
            buf,
        );
        let mut title = format!("What happened in step {}", self.at + 1);
        let short = title.clone();
        if step.fault_line.is_some() {
            title.push_str(&format!(" ({} only you see the fault)", t.g.observer));
        }
        self.panel((&title, &short), happened, true, middle, buf);
        let [stderr, verdict] =
            Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)]).areas(bottom);
        self.stderr(stderr, buf);
        self.panel(
            (
                &format!("{} The verdict at the end of the run", t.g.observer),
                &format!("{} The verdict at the end", t.g.observer),
            ),
            self.ending(),
            true,
            verdict,
            buf,
        );
        let text = self.notice.clone().unwrap_or_else(|| {
            "←/→ step · Home/End first/last · f/F next/previous fault · q quit".into()
        });
        Paragraph::new(fit(
            t,
            Line::styled(t.text(&format!(" {text}")).into_owned(), t.key()),
            usize::from(keys.width),
        ))
        .render(keys, buf);
    }

    fn panel(
        &self,
        (name, short): (&str, &str),
        lines: Vec<Line<'static>>,
        wrap: bool,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let t = &self.theme;
        let b = block(t, name, short, area.width);
        let inner = b.inner(area);
        b.render(area, buf);
        overflow::show(t, lines, wrap, inner, buf);
    }

    fn head(&self) -> Vec<Line<'static>> {
        let t = &self.theme;
        let n = self.steps.len();
        let place = format!("step {}/{n}", self.at + 1);
        let first = Line::from(vec![
            Span::styled(t.text(" idem test · replay · ").into_owned(), t.title()),
            Span::styled(place, t.info()),
            Span::raw(t.text(" · ").into_owned()),
            Span::raw(own(&self.program)),
        ]);
        let ends: Vec<&str> = self.verdict.outcomes().iter().map(|o| o.text()).collect();
        let bad = !self.verdict.failures.is_empty();
        let second = Line::from(vec![
            Span::raw(t.text(" faults: ").into_owned()),
            Span::styled(t.text(&self.schedule).into_owned(), t.warn()),
            Span::raw(t.text(" · the run ends ").into_owned()),
            Span::styled(
                t.text(&format!(
                    "{} {}",
                    if bad { t.g.failed } else { t.g.done },
                    ends.join(", ")
                ))
                .into_owned(),
                if bad { t.bad() } else { t.good() },
            ),
        ]);
        vec![first, second]
    }

    /// One cell a step: the fault steps marked, the step on screen lit.
    /// A run too long for the row shows the stretch around the step.
    fn strip(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let label = " steps ";
        let room = usize::from(area.width)
            .saturating_sub(label.len() + 2)
            .max(1);
        let n = self.steps.len();
        let from = if n <= room {
            0
        } else {
            self.at.saturating_sub(room / 2).min(n - room)
        };
        let to = (from + room).min(n);
        let mut spans = vec![Span::styled(label, t.dim())];
        spans.push(Span::styled(
            if from > 0 { t.g.ellipsis } else { " " },
            t.dim(),
        ));
        for (i, s) in self.steps.iter().enumerate().take(to).skip(from) {
            let (glyph, style) = if s.fault.is_some() {
                (t.g.failed, t.bad())
            } else {
                (t.g.dot, t.dim())
            };
            let style = if i == self.at {
                style.patch(t.highlight()).add_modifier(Modifier::REVERSED)
            } else {
                style
            };
            spans.push(Span::styled(glyph, style));
        }
        if to < n {
            spans.push(Span::styled(t.g.ellipsis, t.dim()));
        }
        Paragraph::new(Line::from(spans)).render(area, buf);
    }

    fn queue(&self, step: &Step, width: u16) -> Vec<Line<'static>> {
        let t = &self.theme;
        let was = self.before().map(|b| b.queue.as_slice()).unwrap_or(&[]);
        let mut out = Vec::new();
        for m in &step.queue {
            let before = was.iter().find(|w| w.seq == m.seq);
            let changed = before.is_none_or(|w| w.state != m.state || w.receives != m.receives);
            let mut first = vec![Span::styled(
                format!(
                    "{} {} order {} ${}",
                    m.message.id,
                    m.broker_id(),
                    m.message.payment.order,
                    m.message.payment.amount
                ),
                t.title(),
            )];
            if m.copy > 1 {
                first.push(Span::styled(format!(" copy {}", m.copy), t.warn()));
            }
            if changed {
                first.push(Span::styled(
                    format!(
                        " {}",
                        if before.is_none() {
                            t.g.added
                        } else {
                            t.g.changed
                        }
                    ),
                    t.change(),
                ));
            }
            out.push(Line::from(first));
            let (state, style) = state(t, m);
            out.push(Line::styled(format!("  {state}"), style));
            let mut received = format!("  received {}", times(m.receives));
            if m.redelivered && usize::from(width) >= received.len() + 13 {
                received.push_str(", redelivered");
            }
            out.push(Line::styled(received, t.dim()));
            if let MessageState::InFlight { receipt, until, .. } = &m.state {
                out.push(Line::styled(
                    format!("  {receipt}, lease ends at {}", format_duration(*until)),
                    t.dim(),
                ));
            }
        }
        if step.queue.is_empty() {
            out.push(Line::styled("(queue empty)", t.dim()));
        }
        out.push(Line::styled(
            format!("virtual time {}", format_duration(step.now)),
            t.dim(),
        ));
        out
    }

    fn provider(&self, step: &Step, width: u16) -> Vec<Line<'static>> {
        let t = &self.theme;
        let before = self.before();
        let total: u64 = step.charges.iter().map(|c| u64::from(c.amount)).sum();
        let mut out = vec![Line::from(vec![
            Span::styled("charges made ", t.title()),
            Span::styled(
                format!("{} (${total})", step.charges.len()),
                if step.charges.len() > 1 {
                    t.bad()
                } else {
                    t.title()
                },
            ),
        ])];
        for c in &step.charges {
            let new = before.is_some_and(|b| !b.charges.iter().any(|x| x.id == c.id));
            let mut spans = vec![Span::raw(format!(
                " {} {}{} ${} {}",
                c.id,
                // The word goes first where the change mark needs the room.
                if width >= 31 { "order " } else { "" },
                c.order,
                c.amount,
                if c.key.is_some() {
                    "with key"
                } else {
                    "no key"
                }
            ))];
            if new {
                spans.push(Span::styled(format!(" {}", t.g.added), t.change()));
            }
            out.push(Line::from(spans));
        }
        if step.keys.is_empty() {
            out.push(Line::from(vec![
                Span::styled("Idempotency-Key store", t.title()),
                Span::styled(": empty", t.dim()),
            ]));
        } else {
            out.push(Line::styled("Idempotency-Key store", t.title()));
        }
        for k in &step.keys {
            let was = before.and_then(|b| b.keys.iter().find(|x| x.key == k.key));
            let mut spans = vec![Span::raw(format!(
                " {} {} {}",
                own(&k.key),
                t.g.arrow,
                k.result.describe()
            ))];
            if k.replays > 0 {
                spans.push(Span::styled(
                    format!(" {} replayed {}{}", t.g.replay, t.g.times, k.replays),
                    if was.is_some_and(|w| w.replays < k.replays) {
                        t.warn().patch(t.highlight())
                    } else {
                        t.dim()
                    },
                ));
            }
            if before.is_some() && was.is_none() {
                spans.push(Span::styled(format!(" {}", t.g.added), t.change()));
            }
            out.push(Line::from(spans));
        }
        out
    }

    fn tables(&self, step: &Step) -> Vec<Line<'static>> {
        let t = &self.theme;
        let mut out = Vec::new();
        if step.tables.is_empty() {
            out.push(Line::styled("no tables yet", t.dim()));
        }
        let before = self.before();
        for (table, total) in &step.tables {
            let rows_before = before
                .and_then(|b| b.tables.iter().find(|(x, _)| x.name == table.name))
                .map(|(x, _)| x.rows.as_slice());
            out.push(Line::from(vec![
                Span::styled(own(&table.name), t.title()),
                Span::styled(
                    format!(
                        " {} {}",
                        t.g.dot,
                        match total {
                            1 => "1 row".to_string(),
                            n => format!("{n} rows"),
                        }
                    ),
                    t.dim(),
                ),
            ]));
            // A grid: each column as wide as its widest cell (to a limit),
            // so the values stand under their names.
            let widths: Vec<usize> = (0..table.columns.len())
                .map(|c| {
                    std::iter::once(&table.columns[c])
                        .chain(table.rows.iter().filter_map(|r| r.get(c)))
                        .map(|cell| own(cell).chars().count())
                        .max()
                        .unwrap_or(0)
                        .min(CELL)
                })
                .collect();
            out.push(Line::styled(grid(&table.columns, &widths), t.dim()));
            for row in &table.rows {
                let mut spans = vec![Span::raw(grid(row, &widths))];
                if before.is_some() && !rows_before.is_some_and(|r| r.contains(row)) {
                    spans.push(Span::styled(format!(" {}", t.g.added), t.change()));
                }
                out.push(Line::from(spans));
            }
            if *total > table.rows.len() {
                out.push(Line::styled(
                    format!(
                        " {} {} more rows not read",
                        t.g.ellipsis,
                        total - table.rows.len()
                    ),
                    t.dim(),
                ));
            }
        }
        out
    }

    fn happened(&self, step: &Step) -> Vec<Line<'static>> {
        let t = &self.theme;
        step.lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if step.fault_line == Some(i) {
                    Line::styled(
                        format!("{} {}", t.g.observer, own(l)),
                        t.bad().add_modifier(Modifier::ITALIC),
                    )
                } else {
                    Line::raw(own(l))
                }
            })
            .collect()
    }

    fn ending(&self) -> Vec<Line<'static>> {
        let t = &self.theme;
        let v = &self.verdict;
        let style = if v.failures.is_empty() {
            t.good()
        } else {
            t.bad()
        };
        vec![Line::styled(v.chain_with(t.arrow()), style)]
    }

    /// The program's stderr up to this step, newest last: the lines of
    /// this step bright, earlier ones dim; where they do not all fit, the
    /// newest stay and the first row counts the rest.
    fn stderr(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let b = block(
            t,
            &format!("The program's stderr, up to step {}", self.at + 1),
            &format!("Its stderr to step {}", self.at + 1),
            area.width,
        );
        let inner = b.inner(area);
        b.render(area, buf);
        let mut lines: Vec<Line<'static>> = Vec::new();
        for (i, s) in self.steps.iter().enumerate().take(self.at + 1) {
            let style = if i == self.at { t.title() } else { t.dim() };
            lines.extend(s.stderr.iter().map(|l| Line::styled(own(l), style)));
        }
        if lines.is_empty() {
            lines.push(Line::styled("(nothing yet)", t.dim()));
        }
        let rows = usize::from(inner.height);
        if lines.len() > rows && rows > 0 {
            let keep = rows - 1;
            let earlier = lines.len() - keep;
            let mut shown = vec![Line::styled(
                format!(
                    "{} {earlier} earlier {}",
                    if t.ascii() { "^" } else { "↑" },
                    if earlier == 1 { "line" } else { "lines" }
                ),
                t.dim(),
            )];
            shown.extend(lines.split_off(earlier));
            lines = shown;
        }
        overflow::show(t, lines, false, inner, buf);
    }
}

/// The widest a table's column is drawn; a longer value ends in `…`.
const CELL: usize = 24;

/// One row of a table: each cell padded to its column's width, or cut
/// with an ellipsis.
fn grid(cells: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (cell, &w) in cells.iter().zip(widths) {
        let cell = own(cell);
        let n = cell.chars().count();
        line.push(' ');
        if n > w {
            line.extend(cell.chars().take(w.saturating_sub(1)));
            line.push('…');
        } else {
            line.push_str(&cell);
            line.extend(std::iter::repeat_n(' ', w - n + 1));
        }
    }
    line.trim_end().to_string()
}

fn state(t: &Theme, m: &StoredMessage) -> (String, ratatui::style::Style) {
    match &m.state {
        MessageState::Waiting => ("waiting".into(), t.info()),
        MessageState::InFlight { consumer, .. } => {
            (format!("in flight {} {consumer}", t.g.arrow), t.warn())
        }
        MessageState::Acked { by } => (format!("acked by {by}"), t.good()),
        MessageState::DeadLettered => ("dead-lettered".into(), t.bad()),
    }
}
