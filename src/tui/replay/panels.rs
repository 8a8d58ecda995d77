//! The three panels of the world after a replayed step, each as lines:
//! the broker's queue, the provider's charges and Idempotency-Key store,
//! and the program's tables as idem read them. What is new or changed
//! against the step before carries the change mark.

use super::Replay;
use crate::harness::run::Step;
use crate::harness::transcript::times;
use crate::sim::broker::{MessageState, StoredMessage};
use crate::sim::change::Change;
use crate::sim::format_duration;
use crate::sim::frame::{KeyView, MessagePhase};
use crate::sim::provider::Charge;
use crate::tui::forms::KeyForm;
use crate::tui::view::provider::{self, order_tag};
use crate::tui::view::{broker, marks, run_form};
use ratatui::text::{Line, Span};

/// A program's own words, safe on a terminal: controls escaped, tabs as
/// spaces.
pub(super) fn own(text: &str) -> String {
    crate::terminal_text::escape(&text.replace('\t', " ")).into_owned()
}

/// A queue entry's first row in its forms, fullest first: the message's
/// ID, the order in words and the broker's own ID, named as the broker's
/// (`b-1` beside `m-1` alone read as jargon: issue 18); then the order as
/// a tag (`#1042`, as the provider panel tags it); then the message's ID
/// alone. The amount is a figure: every form keeps it whole (`$4…` read
/// as another sum).
fn message_forms(m: &StoredMessage) -> [String; 3] {
    let p = &m.message.payment;
    let id = &m.message.id;
    [
        format!(
            "{id} order {} ${} (broker's ID {})",
            p.order,
            p.amount,
            m.broker_id()
        ),
        format!(
            "{id} {} ${} (broker's ID {})",
            order_tag(p.order),
            p.amount,
            m.broker_id()
        ),
        format!("{id} {} ${}", order_tag(p.order), p.amount),
    ]
}

/// A lease's row in its forms, fullest first: the receipt an ack must
/// present, named as one where there is room (the legend under the
/// header says it too), and the time the lease ends, which no form
/// leaves out.
fn lease_forms(receipt: &str, until: crate::sim::Millis) -> [String; 5] {
    let at = format_duration(until);
    [
        format!("receipt {receipt}, lease ends at {at}"),
        format!("{receipt}, lease ends at {at}"),
        format!("{receipt}, lease to {at}"),
        format!("lease ends at {at}"),
        format!("lease to {at}"),
    ]
}

/// The fullest of `forms` that fits `width` after a two-cell indent;
/// the last where none does.
fn fullest(forms: &[String], width: usize) -> &str {
    forms
        .iter()
        .find(|f| f.chars().count() + 2 <= width)
        .unwrap_or(&forms[forms.len() - 1])
}

impl Replay {
    /// The step before step `i`, to mark what changed.
    fn before_of(&self, i: usize) -> Option<&Step> {
        i.checked_sub(1).and_then(|b| self.steps.get(b))
    }

    /// What step `i` did to a queue entry: new (published in it), or its
    /// state or count of receives moved.
    fn message_change(&self, i: usize, m: &StoredMessage) -> Option<Change> {
        let was = self.before_of(i).map(|b| b.queue.as_slice()).unwrap_or(&[]);
        match was.iter().find(|w| w.seq == m.seq) {
            None => Some(Change::Added),
            Some(w) if w.state != m.state || w.receives != m.receives => Some(Change::Changed),
            Some(_) => None,
        }
    }

    /// The form of the queue entries' first rows for the whole replay at
    /// `width`: the fullest in which every entry of every step fits with
    /// its change mark's sign, so that a row does not change its words
    /// from step to step.
    fn message_form(&self, width: usize) -> usize {
        let sign = self.theme.g.added.chars().count() + 1;
        let copy = |m: &StoredMessage| {
            if m.copy > 1 {
                format!(" copy {}", m.copy).len()
            } else {
                0
            }
        };
        let steps: Vec<&Step> = self.steps.iter().collect();
        run_form::widest(0..3, &steps, |n, s| {
            s.queue
                .iter()
                .all(|m| message_forms(m)[n].chars().count() + copy(m) + sign <= width)
        })
        .unwrap_or(2)
    }

    /// The broker panel's lines; what its marks drawn short mean goes to
    /// `short`, for its border.
    pub(super) fn queue(
        &self,
        step: &Step,
        width: u16,
        short: &mut marks::Shortened,
    ) -> Vec<Line<'static>> {
        let t = &self.theme;
        let width = usize::from(width);
        let form = self.message_form(width);
        let mut out = Vec::new();
        for m in &step.queue {
            let mut first = vec![Span::styled(message_forms(m)[form].clone(), t.title())];
            if m.copy > 1 {
                first.push(Span::styled(format!(" copy {}", m.copy), t.warn()));
            }
            // Which message it is and its amount are the evidence: the
            // mark folds to its sign before they are cut, never the mark.
            let parts = marks::Parts {
                essential: Line::from(first),
                rest: Line::default(),
            };
            let change = self.message_change(self.at, m);
            out.push(marks::fit_parts(t, parts, Vec::new(), change, width).noted(short));
            let (phase, holder) = phase(m);
            let (_, states, style) = broker::state_forms(t, phase, holder, width);
            out.push(Line::styled(
                format!("  {}", fullest(&states, width)),
                style,
            ));
            let mut received = format!("  received {}", times(m.receives));
            if m.redelivered && width >= received.len() + 13 {
                received.push_str(", redelivered");
            }
            out.push(Line::styled(received, t.dim()));
            if let MessageState::InFlight { receipt, until, .. } = &m.state {
                let forms = lease_forms(receipt, *until);
                out.push(Line::styled(
                    format!("  {}", fullest(&forms, width)),
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

    /// Step `i`'s keys as every front end shows them, each with what the
    /// step did to it: stored in it (new), or replayed in it.
    fn key_views(&self, i: usize) -> Vec<(KeyView, Option<Change>)> {
        let before = self.before_of(i);
        self.steps[i]
            .keys
            .iter()
            .map(|k| {
                let was = before.and_then(|b| b.keys.iter().find(|x| x.key == k.key));
                let replayed_now = was.is_some_and(|w| w.replays < k.replays);
                let change = (before.is_some() && was.is_none()).then_some(Change::Added);
                (KeyView::of(k, replayed_now), change)
            })
            .collect()
    }

    /// The provider panel's lines; what its marks drawn short mean goes
    /// to `short`, for its border.
    pub(super) fn provider(
        &self,
        step: &Step,
        width: u16,
        short: &mut marks::Shortened,
    ) -> Vec<Line<'static>> {
        let t = &self.theme;
        let width = usize::from(width);
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
        // The simulator's charge rows: the order gives way, never the
        // amount, the key words or the mark.
        let change = |c: &Charge| {
            before
                .is_some_and(|b| !b.charges.iter().any(|x| x.id == c.id))
                .then_some(Change::Added)
        };
        out.extend(
            provider::charge_lines(t, &step.charges, &change, width)
                .into_iter()
                .map(|f| f.noted(short)),
        );
        if step.keys.is_empty() {
            out.push(provider::empty_store(t, width));
            return out;
        }
        out.push(Line::styled("Idempotency-Key store", t.title()));
        // The simulator's key rows, in one form for the whole replay.
        let runs: Vec<Vec<(KeyView, Option<Change>)>> =
            (0..self.steps.len()).map(|i| self.key_views(i)).collect();
        let forms = KeyForm::forms(usize::MAX);
        let form = run_form::widest(forms, &runs, |form, keys| {
            keys.iter()
                .all(|(k, c)| provider::key_fits(t, k, *c, false, form, width))
        })
        .unwrap_or(forms[forms.len() - 1]);
        for (k, change) in &runs[self.at] {
            out.push(provider::key_line(t, k, *change, false, form, width).noted(short));
        }
        out
    }

    /// The database panel's lines; what its marks drawn short mean (`✕
    /// again`) goes to `short`, for its border.
    pub(super) fn tables(
        &self,
        step: &Step,
        width: usize,
        short: &mut marks::Shortened,
    ) -> Vec<Line<'static>> {
        let t = &self.theme;
        let mut out = Vec::new();
        if step.tables.is_empty() {
            out.push(Line::styled("no tables yet", t.dim()));
        }
        let before = self.before();
        for (table, total) in &step.tables {
            let table_before = before
                .and_then(|b| b.tables.iter().find(|(x, _)| x.name == table.name))
                .map(|(x, n)| (x.rows.as_slice(), *n));
            // A count the step moved says by how much, as the broker's
            // counters do: a second row the same as the first changes
            // nothing else a reader could see at a glance.
            let was = table_before.map_or(0, |(_, n)| n);
            let moved = match (before.is_some(), total.cmp(&was)) {
                (true, std::cmp::Ordering::Greater) => format!(" (+{})", total - was),
                (true, std::cmp::Ordering::Less) => format!(" (-{})", was - total),
                _ => String::new(),
            };
            // The count in the fullest form that fits, so the change
            // beside it is never cut (trial 33: `processed_messages · 2
            // rows…` at 80x24 hid its `(+1)`).
            let name = own(&table.name);
            let rows = match total {
                1 => "1 row".to_string(),
                n => format!("{n} rows"),
            };
            let forms = [
                format!(" {} {rows}", t.g.dot),
                format!(" {rows}"),
                format!(" {total}"),
            ];
            let count = forms
                .iter()
                .find(|f| {
                    [&name, *f, &moved]
                        .iter()
                        .map(|s| s.chars().count())
                        .sum::<usize>()
                        <= width
                })
                .unwrap_or(&forms[forms.len() - 1]);
            let mut heading = vec![
                Span::styled(name, t.title()),
                Span::styled(count.clone(), t.dim()),
            ];
            if !moved.is_empty() {
                heading.push(Span::styled(moved, t.change()));
            }
            out.push(Line::from(heading));
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
            let rows_before = table_before.map_or(&[][..], |(r, _)| r);
            let repeated = crate::harness::repeats::repeated(table, &step.payment_columns);
            for (i, row) in table.rows.iter().enumerate() {
                let mut spans = vec![Span::raw(grid(row, &widths))];
                // Rows are counted, not only looked up: a row the same as
                // one before it is new when there are more of it than
                // before (`idem test` trial: a duplicate payment row went
                // unmarked because its twin was already there).
                let copies = |rows: &[Vec<String>]| rows.iter().filter(|r| *r == row).count();
                if before.is_some() && copies(&table.rows[..=i]) > copies(rows_before) {
                    spans.push(Span::styled(format!(" {}", t.g.added), t.change()));
                }
                // A row for an order already paid is named a duplicate, as
                // the simulator names it: `✕ again` after the row where it
                // fits whole; else its sign alone, the border saying its
                // words, as every mark folds (at 80x24 the columns and
                // their names leave the words no room, and a row of their
                // own cost the verdict one of its two).
                if repeated.get(i).copied().unwrap_or(false) {
                    let again = format!(" {} again", t.g.failed);
                    let used: usize = spans.iter().map(Span::width).sum();
                    if used + again.chars().count() <= width {
                        spans.insert(1, Span::styled(again, t.bad()));
                    } else {
                        spans.insert(1, Span::styled(format!(" {}", t.g.failed), t.bad()));
                        short.extend([Span::styled(format!("{} again", t.g.failed), t.bad())]);
                    }
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

/// A stored message's state as the simulator's frames name it, and who
/// holds or acked it.
fn phase(m: &StoredMessage) -> (MessagePhase, &str) {
    match &m.state {
        MessageState::Waiting => (MessagePhase::Waiting, ""),
        MessageState::InFlight { consumer, .. } => (MessagePhase::InFlight, consumer),
        MessageState::Acked { by } => (MessagePhase::Acked, by),
        MessageState::DeadLettered => (MessagePhase::DeadLettered, ""),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::sim::db::program::TableDump;
    use crate::tui::theme::Theme;

    /// A `payments` table after a step, with `rows` rows alike.
    fn payments(rows: usize) -> Step {
        let row = vec!["1042".to_string(), "40".to_string()];
        Step {
            tables: vec![(
                TableDump {
                    name: "payments".into(),
                    columns: vec!["order_id".into(), "amount".into()],
                    rows: vec![row; rows],
                },
                rows,
            )],
            ..Step::default()
        }
    }

    /// A replay of `payments` tables, `rows[i]` rows after step `i`.
    pub(in crate::tui::replay) fn replay_of(rows: &[usize]) -> Replay {
        Replay::new(
            "prog".into(),
            "none".into(),
            crate::sim::verdict::combine(Vec::new()),
            rows.iter().map(|&n| payments(n)).collect(),
            Theme::new(false, false),
        )
    }

    #[test]
    fn a_second_row_like_the_first_is_marked_new() {
        let mut replay = replay_of(&[0, 1, 2]);
        replay.at = 2;
        let step = replay.steps[2].clone();
        let lines: Vec<String> = replay
            .tables(&step, 40, &mut marks::Shortened::default())
            .iter()
            .map(|l| l.to_string())
            .collect();
        let added = Theme::new(false, false).g.added;
        assert_eq!(lines[0], "payments · 2 rows (+1)", "{lines:#?}");
        let marked = lines.iter().filter(|l| l.ends_with(&added)).count();
        assert_eq!(marked, 1, "{lines:#?}");
        // Where the panel is narrow the count gives way, never its change.
        let narrow =
            |w: usize| replay.tables(&step, w, &mut marks::Shortened::default())[0].to_string();
        assert_eq!(narrow(20), "payments 2 rows (+1)");
        assert_eq!(narrow(16), "payments 2 (+1)");
    }
}
