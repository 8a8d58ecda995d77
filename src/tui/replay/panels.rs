//! The three panels of the world after a replayed step, each as lines:
//! the broker's queue, the provider's charges and Idempotency-Key store,
//! and the program's tables as idem read them. What is new or changed
//! against the step before carries the change mark.

use super::Replay;
use crate::harness::run::Step;
use crate::harness::transcript::times;
use crate::sim::broker::{MessageState, StoredMessage};
use crate::sim::format_duration;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// A program's own words, safe on a terminal: controls escaped, tabs as
/// spaces.
pub(super) fn own(text: &str) -> String {
    crate::terminal_text::escape(&text.replace('\t', " ")).into_owned()
}

impl Replay {
    pub(super) fn queue(&self, step: &Step, width: u16) -> Vec<Line<'static>> {
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

    pub(super) fn provider(&self, step: &Step, width: u16) -> Vec<Line<'static>> {
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

    pub(super) fn tables(&self, step: &Step) -> Vec<Line<'static>> {
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
