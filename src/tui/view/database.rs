//! The Payments database: the payments rows with the total, and the
//! processed_messages table that makes the handler idempotent.

use super::marks;
use crate::sim::Frame;
use crate::sim::change::Place;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

pub fn lines(t: &Theme, f: &Frame, width: usize, height: usize) -> Vec<Line<'static>> {
    drawn(t, f, width, height).0
}

/// The line of the panel that heads `processed_messages`, which predict
/// mode marks when a question was about it (the payments' heading, with
/// their total, is always the first line).
pub fn processed_line(t: &Theme, f: &Frame, width: usize, height: usize) -> usize {
    drawn(t, f, width, height).1
}

/// The panel's lines, and where the `processed_messages` heading is.
fn drawn(t: &Theme, f: &Frame, width: usize, height: usize) -> (Vec<Line<'static>>, usize) {
    let g = &t.g;
    let db = &f.db;
    let twice = db.payments.iter().any(|p| p.repeat);
    let ch = &f.changes;
    let mut out = vec![Line::from(vec![
        Span::styled("payments", t.title()),
        Span::styled(
            if width >= 30 {
                format!(" {} total recorded ", g.dot)
            } else {
                format!(" {} total ", g.dot)
            },
            t.dim(),
        ),
        Span::styled(
            format!("${}", db.total_charged),
            if twice { t.bad() } else { t.title() },
        ),
    ])];
    if let Some(was) = ch.total_was {
        out[0].spans.push(marks::was(t, format!("${was}")));
    }
    // The column names only when every row still fits below them.
    let rows = db.payments.len().max(1) + 2 + db.processed.len().max(1);
    if width >= 28 && rows + 2 <= height {
        out.push(Line::styled(" order  amount  message", t.dim()));
    }
    if db.payments.is_empty() && ch.gone(Place::Payments).next().is_none() {
        out.push(Line::styled(" (no rows)", t.dim()));
    }
    for (i, p) in db.payments.iter().enumerate() {
        let row = if width >= 36 {
            format!(
                " {:<6} {:<7} {}",
                p.order,
                format!("${}", p.amount),
                p.message_id
            )
        } else {
            format!(" {} ${} {}", p.order, p.amount, p.message_id)
        };
        let room = width.saturating_sub(row.chars().count());
        let mut spans = vec![Span::raw(row)];
        if let Some(by) = &p.uncommitted_by {
            // The owner goes first when the row is too narrow for both.
            let full = format!("  uncommitted ({by})");
            let text = if full.chars().count() <= room {
                full
            } else {
                " uncommitted".to_string()
            };
            spans.push(Span::styled(text, t.warn()));
        } else if p.repeat {
            spans.push(Span::styled(format!(" {} again", g.failed), t.bad()));
        }
        let change = ch.of(Place::Payments, &i.to_string());
        out.push(marks::tagged(t, Line::from(spans), change, width));
    }
    out.extend(ch.gone(Place::Payments).map(|g| marks::gone(t, g, width)));
    extra_tables(t, f, width, &mut out);
    if !db.uses_processed {
        // One row: the rows this design does write need the room.
        let said = if width >= 44 {
            ": not used by this design"
        } else {
            ": not used"
        };
        let heading = out.len();
        out.push(Line::from(vec![
            Span::styled("processed_messages", t.title()),
            Span::styled(said, t.dim()),
        ]));
        return (out, heading);
    }
    let heading = out.len();
    out.push(Line::styled("processed_messages", t.title()));
    if db.processed.is_empty() && ch.gone(Place::Processed).next().is_none() {
        out.push(Line::styled(" (no rows)", t.dim()));
    }
    for p in &db.processed {
        let change = ch.of(Place::Processed, &p.message_id);
        let mut spans = vec![Span::raw(format!(" {}", p.message_id))];
        // A committed row is plain, as in payments: a label kept on every
        // later step would read as news; the step that commits it says so
        // with its change mark.
        if let Some(by) = &p.uncommitted_by {
            spans.push(Span::styled(format!("  uncommitted ({by})"), t.warn()));
        }
        out.push(marks::tagged(t, Line::from(spans), change, width));
        if p.conflict {
            out.push(Line::styled(
                format!("   {} duplicate key: 0 rows inserted", g.conflict),
                t.bad(),
            ));
        }
    }
    out.extend(ch.gone(Place::Processed).map(|g| marks::gone(t, g, width)));
    (out, heading)
}

/// The tables (and the cache) that only some designs of the catalogue use,
/// each shown only when the design on screen uses it.
fn extra_tables(t: &Theme, f: &Frame, width: usize, out: &mut Vec<Line<'static>>) {
    let db = &f.db;
    let ch = &f.changes;
    let row = |place: Place, key: String, line: Line<'static>| {
        marks::tagged(t, line, ch.of(place, &key), width)
    };
    let gone = |place: Place| {
        ch.gone(place)
            .map(|g| marks::gone(t, g, width))
            .collect::<Vec<_>>()
    };
    let pending = &db.uncommitted;
    if db.uses_records {
        out.push(Line::styled("idempotency_records", t.title()));
        if db.records.is_empty() {
            out.push(Line::styled(" (no rows)", t.dim()));
        }
        for r in &db.records {
            out.push(row(
                Place::Records,
                r.message_id.clone(),
                Line::raw(record(t, r)),
            ));
        }
        for u in pending {
            for r in &u.records {
                out.push(uncommitted(t, record(t, r), &u.by));
            }
        }
        out.extend(gone(Place::Records));
    }
    if db.uses_statuses {
        out.push(Line::styled("order_status", t.title()));
        if db.statuses.is_empty() {
            out.push(Line::styled(" (no rows)", t.dim()));
        }
        let status =
            |r: &crate::sim::db::StatusRow| format!(" {} {} v{}", r.order, r.status, r.version);
        for r in &db.statuses {
            out.push(row(
                Place::Statuses,
                r.order.to_string(),
                Line::raw(status(r)),
            ));
        }
        for u in pending {
            for r in &u.statuses {
                out.push(uncommitted(t, status(r), &u.by));
            }
        }
    }
    if db.uses_orders {
        out.push(Line::styled("orders", t.title()));
        let order =
            |r: &crate::sim::db::OrderRow| format!(" {} last {}", r.order, r.last_message_id);
        for r in &db.orders {
            out.push(row(Place::Orders, r.order.to_string(), Line::raw(order(r))));
        }
        for u in pending {
            for r in &u.orders {
                out.push(uncommitted(t, order(r), &u.by));
            }
        }
    }
    if db.uses_offsets {
        let text = match db.last_offset {
            Some(n) => format!(" last applied offset {n}"),
            None => " no offset applied yet".to_string(),
        };
        out.push(Line::styled("consumer offset", t.title()));
        out.push(row(Place::Offset, "offset".into(), Line::raw(text)));
        for (n, by) in pending
            .iter()
            .filter_map(|u| u.last_offset.map(|n| (n, &u.by)))
        {
            out.push(uncommitted(t, format!(" last applied offset {n}"), by));
        }
    }
    if f.cache.used {
        out.push(Line::styled("cache (outside the database)", t.title()));
        if f.cache.entries.is_empty() {
            out.push(Line::styled(" (empty)", t.dim()));
        }
        for e in &f.cache.entries {
            out.push(row(
                Place::Cache,
                e.key.clone(),
                Line::raw(format!(
                    " {} ttl {}",
                    e.key,
                    crate::sim::format_duration(e.ttl_left_ms)
                )),
            ));
        }
        out.extend(gone(Place::Cache));
    }
}

fn record(t: &Theme, r: &crate::sim::db::RecordRow) -> String {
    let result = r.result.as_deref().unwrap_or("-");
    format!(
        " {} {} owner {} {} {result}",
        r.message_id, r.status, r.owner, t.g.arrow
    )
}

/// A row an open transaction wrote: shown, and marked as not yet committed.
fn uncommitted(t: &Theme, row: String, by: &str) -> Line<'static> {
    Line::from(vec![
        Span::raw(row),
        Span::styled(format!("  uncommitted ({by})"), t.warn()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// Predict mode marks the line the panel says heads processed_messages:
    /// it is that heading at every step of every run, at narrow and wide
    /// widths.
    #[test]
    fn the_processed_line_is_where_its_heading_is_drawn() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            for w in [24, 56] {
                let lines: Vec<String> = lines(&t, f, w, 30).iter().map(text).collect();
                let at = processed_line(&t, f, w, 30);
                assert!(
                    lines[at].starts_with("processed_messages"),
                    "{at_step}: line {at} is {:?}",
                    lines[at]
                );
            }
        });
    }

    /// A committed row reads alike in every table: plain. Only the step that
    /// commits it marks it, so a label does not stay on as if it were news.
    #[test]
    fn a_committed_row_carries_no_label_after_its_step() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            let lines: Vec<String> = lines(&t, f, 56, 30).iter().map(text).collect();
            for p in f.db.processed.iter().filter(|p| p.uncommitted_by.is_none()) {
                if f.changes.of(Place::Processed, &p.message_id).is_some() {
                    continue;
                }
                let row = lines
                    .iter()
                    .find(|l| l.starts_with(&format!(" {}", p.message_id)))
                    .unwrap();
                assert!(!row.contains("committed"), "{at_step}: {row:?}");
            }
        });
    }
}
