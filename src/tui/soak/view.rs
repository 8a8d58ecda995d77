//! Draws the soak dashboard: progress, each design's figures side by side
//! (counts, money, payments settled per minute, the money's drift as a
//! line), and the violations as they were found, the chosen one's cause
//! chain in full. Every mark pairs its colour with a word.

use super::{Dashboard, SPEEDS};
use crate::check::num;
use crate::sim::counter_words as words;
use crate::sim::{Outcome, format_duration};
use crate::soak::live::LiveDesign;
use crate::tui::explorer::Column;
use crate::tui::measure;
use crate::tui::view::keybar;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Borders, Chart, Dataset, Gauge, GraphType, List, ListItem, ListState, Paragraph,
    Sparkline, StatefulWidget, Widget, Wrap,
};

impl Widget for &Dashboard {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let state = if self.finished() {
            Span::styled("finished", t.good())
        } else if self.paused {
            Span::styled("PAUSED", t.warn())
        } else {
            Span::styled(SPEEDS[self.speed].1, t.info())
        };
        // The state first: the settings after it wrap onto more rows
        // rather than lose the faults.
        let head = Line::from(vec![
            Span::styled(t.text(" idem soak · ").into_owned(), t.title()),
            state,
            Span::raw(t.text(" · ").into_owned()),
            Span::raw(t.text(&self.settings).into_owned()),
        ]);
        let head_rows = measure::rows([&head], area.width, false).min(3);
        let [header, gauge, designs, violations, keys] = Layout::vertical([
            Constraint::Length(head_rows),
            Constraint::Length(1),
            Constraint::Fill(3),
            Constraint::Fill(2),
            Constraint::Length(1),
        ])
        .areas(area);
        Paragraph::new(head)
            .wrap(Wrap { trim: false })
            .render(header, buf);
        self.progress(gauge, buf);
        let n = self.live.designs.len().max(1) as u32;
        let columns = Layout::horizontal((0..n).map(|_| Constraint::Ratio(1, n))).split(designs);
        for (d, column) in self.live.designs.iter().zip(columns.iter()) {
            self.design(d, *column, buf);
        }
        self.violations(violations, buf);
        self.keys(keys, buf);
    }
}

impl Dashboard {
    /// The bottom line: a note about the last key, or the keys that
    /// matter now, whole, the ones a narrow screen leaves out counted
    /// (`+2`) as on the simulator's bar. The header says whether the run
    /// is paused or finished.
    fn keys(&self, area: Rect, buf: &mut Buffer) {
        let mut keys: Vec<(String, &str, u8)> = Vec::new();
        if !self.finished() {
            let pause = if self.paused { "resume" } else { "pause" };
            keys.push(("space".into(), pause, 2));
            keys.push(("+/-".into(), "speed", 4));
        }
        keys.push(("↑/↓".into(), "choose", 3));
        keys.push(("Enter".into(), "open its story", 1));
        let quit = if self.finished() {
            "quit and print the report"
        } else {
            "stop"
        };
        keys.push(("q".into(), quit, 0));
        keybar::note_or_keys(
            &self.theme,
            self.notice.as_deref(),
            &keys,
            usize::from(area.width),
        )
        .render(area, buf);
    }

    fn progress(&self, area: Rect, buf: &mut Buffer) {
        let total = self.live.total * self.live.designs.len() as u64;
        let published: u64 = self.live.designs.iter().map(|d| d.published).sum();
        let settled: u64 = self.live.designs.iter().map(|d| d.settled).sum();
        let ratio = if total == 0 {
            0.0
        } else {
            (published as f64 / total as f64).clamp(0.0, 1.0)
        };
        // The clock of the design furthest behind while any still runs: the
        // one that keeps moving.
        let designs = &self.live.designs;
        let running = designs.iter().filter(|d| !d.finished).map(|d| d.virtual_ms);
        let virtual_ms = running
            .min()
            .or_else(|| designs.iter().map(|d| d.virtual_ms).max())
            .unwrap_or(0);
        let time = format_duration(virtual_ms / 1000 * 1000);
        let n = designs.len();
        let each = num(self.live.total);
        let (published, total, settled) = (num(published), num(total), num(settled));
        // Over every design: the header's count is per design.
        let over = if n > 1 {
            format!(" ({n} designs × {each})")
        } else {
            String::new()
        };
        // The longest form that fits: a gauge's label has one row.
        let label = [
            format!(
                "{published} of {total} payments published{over}, {settled} settled · {time} of virtual time"
            ),
            format!("{published}/{total} published{over} · {settled} settled · {time} virtual"),
            format!("{published}/{total} published{over} · {time}"),
            format!("{published}/{total} · {time}"),
        ]
        .into_iter()
        .find(|l| l.chars().count() <= usize::from(area.width))
        .unwrap_or_else(|| format!("{published}/{total}"));
        Gauge::default()
            .ratio(ratio)
            .label(self.theme.text(&label).into_owned())
            .gauge_style(self.theme.info())
            .use_unicode(!self.theme.ascii())
            .render(area, buf);
    }

    fn design(&self, d: &LiveDesign, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let verdict = if d.violations == 0 {
            Span::styled(" no violations ", t.good())
        } else {
            Span::styled(format!(" {} violations ", num(d.violations)), t.bad())
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(t.border(false))
            .title(Line::from(vec![
                Span::styled(format!(" {} ", d.design), t.title()),
                verdict,
            ]));
        let inner = block.inner(area);
        block.render(area, buf);
        let k = &d.counters;
        let m = &d.money;
        let money = |label: &str, n: u64, owed: u64| {
            let d = n as i64 - owed as i64;
            let mut spans = vec![Span::raw(format!("{label} ${} ", num(n)))];
            if d != 0 {
                spans.push(Span::styled(
                    format!("({}${} vs owed)", sign(d), num(d.unsigned_abs())),
                    t.bad(),
                ));
            } else {
                spans.push(Span::styled("(as owed)", t.good()));
            }
            Line::from(spans)
        };
        // Designs run side by side, each at its own pace: every column
        // says how far its own run has come, so figures of different
        // moments are never read as one.
        let state = if d.finished { "done" } else { "running" };
        // The handlers' skips as they know them (the key was recorded); how
        // many were no duplicate is the observer's, under its mark. Beside
        // the broker's duplicates when the row has room, else a row of
        // their own rather than a phrase wrapped in its middle.
        let dups = format!(
            "{} {}",
            words::DUPLICATE_DELIVERIES,
            num(k.duplicates_delivered.into())
        );
        let skips = format!(
            "{} {}{}",
            words::SKIPPED_BY_KEY,
            num(k.duplicates_skipped.into()),
            match k.skipped_not_duplicates {
                0 => String::new(),
                1 => format!(" ({} 1 not a duplicate)", t.g.observer),
                n => format!(" ({} {} not duplicates)", t.g.observer, num(n.into())),
            }
        );
        let sep = " · ";
        let skip_rows = if dups.chars().count() + sep.chars().count() + skips.chars().count()
            <= usize::from(inner.width)
        {
            vec![Line::raw(format!("{dups}{sep}{skips}"))]
        } else {
            vec![Line::raw(dups), Line::raw(skips)]
        };
        let mut lines = vec![
            Line::styled(
                format!(
                    "{state} at {} virtual · {} of {} settled",
                    format_duration(d.virtual_ms / 1000 * 1000),
                    num(d.settled),
                    num(self.live.total)
                ),
                t.info(),
            ),
            Line::raw(format!(
                "{} {} · {} {}",
                words::DELIVERED,
                num(k.delivered.into()),
                words::REDELIVERED,
                num(k.redeliveries.into()),
            )),
            Line::raw(format!(
                "{} {} · crashes {} · DLQ {}",
                words::ACKS_LOST,
                num(k.acks_lost.into()),
                num(k.crashes.into()),
                num(k.dead_lettered.into())
            )),
        ];
        lines.extend(skip_rows);
        lines.extend([
            Line::raw(format!(
                "processed_messages {} (pruned {})",
                num(d.processed_rows),
                num(d.pruned_rows)
            )),
            Line::raw(format!("owed ${}", num(m.owed))),
            money("charged", m.charged, m.owed),
            money("recorded", m.recorded, m.owed),
            Line::raw(outcomes(d, usize::from(inner.width))),
        ]);
        // The figures come first; the charts take the rows left over, and
        // the border says when there were too few for them.
        let rows = measure::rows(&lines, inner.width, true);
        let spark_rows = if inner.height >= rows + 3 { 3 } else { 0 };
        if rows > inner.height {
            block_note(
                area,
                &[
                    " ↓ more: a bigger terminal shows every figure ",
                    " ↓ more: bigger terminal ",
                    " ↓ more ",
                ],
                t,
                buf,
            );
        } else if spark_rows == 0 || inner.height < rows + 3 + 4 {
            let cut: &[&str] = if spark_rows == 0 {
                &[
                    " charts: a taller terminal shows them ",
                    " charts: taller terminal ",
                ]
            } else {
                &[
                    " drift chart: a taller terminal shows it ",
                    " drift chart: taller terminal ",
                ]
            };
            block_note(area, cut, t, buf);
        }
        let [text, spark, chart] = Layout::vertical([
            Constraint::Length(rows),
            Constraint::Length(spark_rows),
            Constraint::Fill(1),
        ])
        .areas(inner);
        Paragraph::new(
            lines
                .into_iter()
                .map(|l| self.ascii_line(l))
                .collect::<Vec<_>>(),
        )
        .wrap(Wrap { trim: true })
        .render(text, buf);
        // The whole run, from its first minute, squeezed into the width:
        // each bar is the mean per minute of the minutes it covers, so
        // the growth from the start never scrolls away.
        let width = (spark.width as usize).max(1);
        let settled = &d.settled_per_minute;
        let group = settled.len().div_ceil(width).max(1);
        let minutes = d.span() * group as u64;
        let bars: Vec<u64> = settled
            .chunks(group)
            .map(|c| c.iter().sum::<u64>().div_ceil(minutes))
            .collect();
        if spark_rows > 0 {
            Sparkline::default()
                .block(Block::default().title(Span::styled(
                    chart_title(
                        t,
                        "payments settled per virtual minute, the whole run",
                        spark.width,
                    ),
                    t.dim(),
                )))
                .data(&bars)
                .style(t.info())
                .render(spark, buf);
        }
        if chart.height >= 4 {
            self.drift_chart(d, chart, buf);
        }
    }

    /// Dollars charged beyond what was owed, minute by minute.
    fn drift_chart(&self, d: &LiveDesign, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let points: Vec<(f64, f64)> = d
            .drift_per_minute
            .iter()
            .enumerate()
            .map(|(i, v)| ((d.first_minute + i as u64 * d.span()) as f64, *v as f64))
            .collect();
        let low = points.iter().map(|p| p.1).fold(0.0, f64::min);
        let high = points.iter().map(|p| p.1).fold(1.0, f64::max);
        let first = d.first_minute as f64;
        let last = first + ((points.len().max(2) - 1) as u64 * d.span()) as f64;
        let dataset = Dataset::default()
            .name(t.text("charged − owed ($)").into_owned())
            .marker(if t.ascii() {
                Marker::Dot
            } else {
                Marker::Braille
            })
            .graph_type(GraphType::Line)
            .style(if high > 1.0 || low < 0.0 {
                t.bad()
            } else {
                t.good()
            })
            .data(&points);
        Chart::new(vec![dataset])
            .block(Block::default().title(Span::styled(
                chart_title(
                    t,
                    "dollars charged beyond what was owed so far, by virtual minute",
                    area.width,
                ),
                t.dim(),
            )))
            .hidden_legend_constraints((Constraint::Length(0), Constraint::Length(0)))
            .x_axis(
                Axis::default()
                    .bounds([first, last])
                    .labels([minute(d.first_minute), minute(last as u64)]),
            )
            .y_axis(
                Axis::default()
                    .bounds([low, high])
                    .labels([dollars(low), dollars(high)]),
            )
            .render(area, buf);
    }

    fn violations(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let listed = self.live.violations.len();
        let total: u64 = self.live.designs.iter().map(|d| d.violations).sum();
        let title = if total as usize > listed {
            format!(
                " Violations as found: {} listed of {} ",
                num(listed as u64),
                num(total)
            )
        } else {
            format!(" Violations as found: {} ", num(listed as u64))
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(t.border(true))
            .title(Span::styled(t.text(&title).into_owned(), t.title()));
        let inner = block.inner(area);
        block.render(area, buf);
        if listed == 0 {
            Paragraph::new(Span::styled(
                t.text("none so far: each payment is judged when it settles")
                    .into_owned(),
                t.good(),
            ))
            .render(inner, buf);
            return;
        }
        let [list, chain] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(3)]).areas(inner);
        // The longest design's name and a space: the mark never touches it.
        let name = 1 + self
            .live
            .designs
            .iter()
            .map(|d| d.design.chars().count())
            .max()
            .unwrap_or(0);
        let items: Vec<ListItem> = self
            .live
            .violations
            .iter()
            .map(|v| {
                let story = if v.story.is_some() { "" } else { " (no story)" };
                ListItem::new(self.ascii_line(Line::from(vec![
                    Span::styled(format!("{:<name$}", v.design), t.dim()),
                    Span::styled(format!("✕ {:<14}", short(v.outcome)), t.bad()),
                    Span::raw(format!(
                        "{} at {}{story}",
                        v.fact,
                        format_duration(v.at_ms / 1000 * 1000)
                    )),
                ])))
            })
            .collect();
        let mut state = ListState::default().with_selected(Some(self.selected));
        StatefulWidget::render(
            List::new(items)
                .highlight_style(t.highlight())
                .highlight_symbol(t.text("▶ ").into_owned()),
            list,
            buf,
            &mut state,
        );
        if let Some(v) = self.live.violations.get(self.selected) {
            // The simulator's arrow, where the terminal has it.
            let told = v.verdict.chain_with(t.arrow());
            Paragraph::new(t.text(&told).into_owned())
                .style(Style::default())
                .wrap(Wrap { trim: true })
                .render(chain, buf);
        }
    }

    fn ascii_line<'a>(&self, line: Line<'a>) -> Line<'a> {
        if !self.theme.ascii() {
            return line;
        }
        Line::from(
            line.spans
                .into_iter()
                .map(|s| Span::styled(self.theme.text(&s.content).into_owned(), s.style))
                .collect::<Vec<_>>(),
        )
    }
}

/// A chart's dollar figure: `$417,454`, `-$12`.
fn dollars(v: f64) -> String {
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}${}", num(v.abs().round() as u64))
}

/// A virtual minute as a duration (`6d12h49m`), not a count of minutes.
fn minute(m: u64) -> String {
    format_duration(m * 60_000)
}

/// A note on a panel's bottom border, right-aligned, where it says what
/// the panel had no room to show: the first of `notes` (longest first)
/// that fits, else a bare mark.
fn block_note(area: Rect, notes: &[&str], t: &crate::tui::theme::Theme, buf: &mut Buffer) {
    let notes = notes.iter().map(|n| t.text(n)).chain([t.text("…")]);
    let fits = |n: &str| n.chars().count() as u16 + 2 <= area.width;
    let Some(note) = notes.into_iter().find(|n| fits(n)) else {
        return;
    };
    if area.height < 2 {
        return;
    }
    let width = note.chars().count() as u16;
    let x = area.x + area.width - 1 - width;
    buf.set_string(x, area.y + area.height - 1, note, t.dim());
}

fn sign(n: i64) -> &'static str {
    if n < 0 { "-" } else { "+" }
}

fn short(o: Outcome) -> &'static str {
    match o {
        Outcome::Disagree => "disagree",
        other => other.text(),
    }
}

/// The outcomes line: a payment counts under each outcome it ends with,
/// as in the report. In full words where they fit the column, else with
/// `disagree` short as in the list below, else in the words `idem check`
/// heads its columns with (`twice`, `disagree`), so a
/// third count does not push the line onto a row the charts need.
fn outcomes(d: &LiveDesign, width: usize) -> String {
    let line = |word: fn(Outcome) -> &'static str| -> String {
        let parts: Vec<String> = Outcome::ALL
            .iter()
            .filter_map(|o| {
                d.outcomes
                    .get(o)
                    .map(|n| format!("{} {}", word(*o), num(*n)))
            })
            .collect();
        parts.join(" · ")
    };
    if d.outcomes.is_empty() {
        return "nothing settled yet".into();
    }
    let fits = |text: &String| text.chars().count() <= width;
    [line(Outcome::text), line(short)]
        .into_iter()
        .find(fits)
        .unwrap_or_else(|| line(|o| Column::Outcome(o).heading()))
}

/// A chart's title in `width` columns, cut at a word's end with its sign
/// (teacher trial 22: `…per virtual minute, the whole r` was cut by the
/// border, mid-word and unmarked).
fn chart_title(t: &crate::tui::theme::Theme, text: &str, width: u16) -> String {
    let text = t.text(text);
    crate::tui::view::cut_at_word::cut_at_word(&text, usize::from(width), t.g.ellipsis)
        .unwrap_or_default()
}
