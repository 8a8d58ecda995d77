//! Draws the soak dashboard: progress, each design's figures side by side
//! (counts, money, payments settled per minute, the money's drift as a
//! line), and the violations as they were found, the chosen one's cause
//! chain in full. Every mark pairs its colour with a word; whatever a
//! panel has no room for, its border says, with a count.

use super::{Dashboard, SPEEDS, figures, violations};
use crate::check::num;
use crate::sim::format_duration;
use crate::soak::live::LiveDesign;
use crate::tui::measure;
use crate::tui::view::keybar;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Sparkline, Widget, Wrap,
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
        let n = self.live.designs.len().max(1) as u32;
        let split =
            |area: Rect| Layout::horizontal((0..n).map(|_| Constraint::Ratio(1, n))).split(area);
        // The rows the tallest column's figures need, borders included.
        let needed = self
            .live
            .designs
            .iter()
            .zip(split(Rect { height: 1, ..area }).iter())
            .map(|(d, c)| {
                let inner = c.width.saturating_sub(2);
                measure::rows(&figures::lines(self, d, inner), inner, true) + 2
            })
            .max()
            .unwrap_or(0);
        let layout = |designs: Constraint, violations: Constraint| {
            Layout::vertical([
                Constraint::Length(head_rows),
                Constraint::Length(1),
                designs,
                violations,
                Constraint::Length(1),
            ])
            .areas(area)
        };
        let [mut header, mut gauge, mut designs, mut violations, mut keys] =
            layout(Constraint::Fill(3), Constraint::Fill(2));
        if designs.height < needed {
            // The figures before the charts and before more violations:
            // the list keeps its least and the columns take the rest.
            let rest = designs.height + violations.height;
            let take = needed.min(rest.saturating_sub(violations::LEAST_ROWS));
            if take > designs.height {
                [header, gauge, designs, violations, keys] =
                    layout(Constraint::Length(take), Constraint::Fill(1));
            }
        }
        Paragraph::new(head)
            .wrap(Wrap { trim: false })
            .render(header, buf);
        self.progress(gauge, buf);
        for (d, column) in self.live.designs.iter().zip(split(designs).iter()) {
            self.design(d, *column, buf);
        }
        self.violations(violations, buf);
        self.keys(keys, buf);
    }
}

impl Dashboard {
    /// The bottom line: a note about the last key, or the keys that
    /// matter now, whole, the ones a narrow screen leaves out counted
    /// (`? +2`), which `?` names. The header says whether the run is
    /// paused or finished.
    fn keys(&self, area: Rect, buf: &mut Buffer) {
        keybar::note_or_keys(
            &self.theme,
            self.notice.as_deref(),
            &self.keys_now(),
            usize::from(area.width),
            (self.asked, keybar::LeftOut::Counted),
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
        let words = ProgressWords {
            published: num(published),
            total: num(total),
            settled: num(settled),
            time,
            designs: designs.len(),
            each: num(self.live.total),
        };
        // The form is chosen for the largest figures the run will show (all
        // published and settled, the clock past the producer's last
        // payment), so it stays the same as the digits grow (teacher trial:
        // "… of virtual time" became "… virtual" mid-run).
        let largest = ProgressWords {
            published: num(total),
            settled: num(total),
            time: longest_clock(self.live.planned_ms),
            ..words.clone()
        };
        let width = usize::from(area.width);
        let form = (0..FORMS).find(|&f| largest.form(f).chars().count() + 1 + MIN_BAR <= width);
        let Some(form) = form else {
            // No room for a bar: the count alone.
            let label = format!("{}/{}", words.published, words.total);
            Paragraph::new(self.theme.text(&label).into_owned()).render(area, buf);
            return;
        };
        // The bar keeps its length too: the words have the room of their
        // largest figures, a space apart from the bar (teacher trial:
        // `████████81,797/600,000 published`).
        // Wider only if the clock outran its estimate: never cut.
        let room = largest
            .form(form)
            .chars()
            .count()
            .max(words.form(form).chars().count());
        let room = room.min(width - 1) as u16;
        let bar = Rect {
            width: area.width - room - 1,
            ..area
        };
        let text = Rect {
            x: bar.right() + 1,
            width: room,
            ..area
        };
        Paragraph::new(Span::styled(
            bar_cells(ratio, bar.width, self.theme.ascii()),
            self.theme.info(),
        ))
        .render(bar, buf);
        Paragraph::new(self.theme.text(&words.form(form)).into_owned()).render(text, buf);
    }

    fn design(&self, d: &LiveDesign, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let (title, _) = figures::title(t, d, area.width);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(t.border(false))
            .title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        let lines = figures::lines(self, d, inner.width);
        // The figures come first; the charts take the rows left over, and
        // the border says when there were too few for them.
        let rows = measure::rows(&lines, inner.width, true);
        // The rows the figures leave: the sparkline (a title and two rows
        // of bars) and the drift chart (four rows at least) where both
        // fit; else the sparkline takes every row left, down to one, so no
        // row stays blank under a border saying there was no room
        // (teacher trial at 100x30: two blank rows under "charts: a
        // taller terminal shows them").
        let spare = inner.height.saturating_sub(rows);
        let spark_rows = if spare >= 3 + 4 { 3 } else { spare };
        if rows > inner.height {
            // Counted, as every fold in idem is: rows of text, since a
            // figure may wrap onto two.
            let hidden = rows - inner.height;
            let noun = if hidden == 1 { "line" } else { "lines" };
            let arrow = if t.ascii() { "" } else { "↓ " };
            block_note(
                area,
                // Where they are read: the report `q` prints has every
                // figure (trial 33: `↓ 2 more lines`, and no key).
                &[
                    format!(" {arrow}{hidden} more {noun}: in the report q prints "),
                    format!(" {arrow}{hidden} more: in the report q prints "),
                    format!(" {arrow}{hidden} more: in q's report "),
                    format!(" {arrow}{hidden} more {noun} "),
                    format!(" {arrow}{hidden} more "),
                    format!(" {}{hidden} more ", t.g.ellipsis),
                ],
                t,
                buf,
            );
        } else if spare < 3 + 4 {
            let cut: &[&str] = if spark_rows == 0 {
                &[
                    " charts: a taller terminal shows them ",
                    " charts: taller terminal ",
                    " no charts ",
                ]
            } else {
                &[
                    " drift chart: a taller terminal shows it ",
                    " drift chart: taller terminal ",
                    " no drift chart ",
                ]
            };
            let cut: Vec<String> = cut.iter().map(|c| c.to_string()).collect();
            block_note(area, &cut, t, buf);
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
        if spark_rows == 1 {
            // One row: a short name before the bars, on the same row.
            let name = chart_title(t, &["settled/min ", "settled "], spark.width / 2);
            let name_width = name.chars().count() as u16;
            Paragraph::new(Span::styled(name, t.dim())).render(spark, buf);
            let bars_area = Rect {
                x: spark.x + name_width,
                width: spark.width - name_width,
                ..spark
            };
            Sparkline::default()
                .data(&bars)
                .style(t.info())
                .render(bars_area, buf);
        } else if spark_rows > 1 {
            Sparkline::default()
                .block(Block::default().title(Span::styled(
                    chart_title(
                        t,
                        &[
                            "payments settled per virtual minute, the whole run",
                            "payments settled per virtual minute",
                            "settled per virtual minute",
                            "settled/min",
                        ],
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
        let flat_zero = points.iter().all(|p| p.1 == 0.0);
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
                    &[
                        "dollars charged beyond what was owed so far, by virtual minute",
                        "dollars charged beyond what was owed, by virtual minute",
                        "$ charged beyond owed, by virtual minute",
                        "$ charged beyond owed",
                        "charged − owed",
                    ],
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
            .y_axis(Axis::default().bounds([low, high]).labels(if flat_zero {
                // A line that never left $0 says so, and only so:
                // the top of its room is no dollar it reached.
                [dollars(0.0), String::new()]
            } else {
                [dollars(low), dollars(high)]
            }))
            .render(area, buf);
    }

    pub(super) fn ascii_line<'a>(&self, line: Line<'a>) -> Line<'a> {
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
fn block_note(area: Rect, notes: &[String], t: &crate::tui::theme::Theme, buf: &mut Buffer) {
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

/// A chart's title in `width` columns: the first of `forms` (longest
/// first) that fits (teacher trial 22: `…per virtual minute, the whole r`
/// was cut by the border, mid-word and unmarked).
fn chart_title(t: &crate::tui::theme::Theme, forms: &[&str], width: u16) -> String {
    // The longest form that fits whole: a title cut mid-thought
    // ("…per virtual minute, the whole…") reads as broken. Only where even
    // the shortest has no room is it cut, at a word, with the ellipsis.
    let forms: Vec<String> = forms.iter().map(|f| t.text(f).into_owned()).collect();
    forms
        .iter()
        .find(|f| f.chars().count() <= usize::from(width))
        .cloned()
        .or_else(|| {
            let last = forms.last()?;
            crate::cut_at_word::cut_at_word(last, usize::from(width), t.g.ellipsis)
        })
        .unwrap_or_default()
}

/// Bars narrower than this say too little to be worth their room.
const MIN_BAR: usize = 8;
/// The progress line's forms, longest first.
const FORMS: usize = 4;

/// The figures of the progress line, as text.
#[derive(Clone)]
struct ProgressWords {
    published: String,
    total: String,
    settled: String,
    time: String,
    designs: usize,
    each: String,
}

impl ProgressWords {
    /// Form `f`, 0 the longest.
    fn form(&self, f: usize) -> String {
        let ProgressWords {
            published,
            total,
            settled,
            time,
            ..
        } = self;
        // Over every design: the header's count is per design.
        let over = if self.designs > 1 {
            format!(" ({} designs × {})", self.designs, self.each)
        } else {
            String::new()
        };
        match f {
            0 => format!(
                "{published} of {total} payments published{over}, {settled} settled · {time} of virtual time"
            ),
            1 => {
                format!("{published}/{total} published{over} · {settled} settled · {time} virtual")
            }
            2 => format!("{published}/{total} published{over} · {time}"),
            _ => format!("{published}/{total} · {time}"),
        }
    }
}

/// The longest the virtual clock reads in a run whose producer publishes
/// for `planned_ms`: the drain and a late retry take it past that, so
/// twice it, and every field of hours, minutes and seconds at two digits.
fn longest_clock(planned_ms: crate::sim::Millis) -> String {
    let days = planned_ms.saturating_mul(2).saturating_add(3_600_000) / 86_400_000;
    if days > 0 {
        format!("{days}d23h59m59s")
    } else {
        "23h59m59s".to_string()
    }
}

/// A bar `width` cells long, filled to `ratio`: whole blocks and the
/// eighth of the last (`#` in ASCII, whole cells only).
fn bar_cells(ratio: f64, width: u16, ascii: bool) -> String {
    let eighths = (f64::from(width) * 8.0 * ratio.clamp(0.0, 1.0)).floor() as usize;
    let (full, part) = (eighths / 8, eighths % 8);
    if ascii {
        return "#".repeat(full);
    }
    let mut out = "█".repeat(full);
    if part > 0 {
        out.push(['▏', '▎', '▍', '▌', '▋', '▊', '▉'][part - 1]);
    }
    out
}
