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
    let (mut out, mut heading) = tables(t, f, width);
    // The column names only where the rows are drawn in their columns
    // (`PAYMENT_COLUMNS` wide), and every line of every table still fits
    // below them: the rows are the evidence, the names are not.
    if width >= PAYMENT_COLUMNS && out.len() < height {
        out.insert(1, Line::styled(" order  amount  message", t.dim()));
        heading += 1;
    }
    (out, heading)
}

/// The panel width from which a payment's order, amount and message are
/// drawn in columns under their names.
const PAYMENT_COLUMNS: usize = 36;

/// Every table's lines, and where the `processed_messages` heading is.
fn tables(t: &Theme, f: &Frame, width: usize) -> (Vec<Line<'static>>, usize) {
    let g = &t.g;
    let db = &f.db;
    let twice = db.payments.iter().any(|p| p.repeat);
    let ch = &f.changes;
    let mut out = vec![heading(t, f, twice, width)];
    if db.payments.is_empty() && ch.gone(Place::Payments).next().is_none() {
        out.push(Line::styled(" (no rows)", t.dim()));
    }
    for (i, p) in db.payments.iter().enumerate() {
        let row = if width >= PAYMENT_COLUMNS {
            format!(
                " {:<6} {:<7} {}",
                p.order,
                format!("${}", p.amount),
                p.message_id
            )
        } else {
            format!(" {} ${} {}", p.order, p.amount, p.message_id)
        };
        let change = ch.of(Place::Payments, &i.to_string());
        let kept = match &p.uncommitted_by {
            Some(by) => vec![not_committed(t, row.chars().count(), by, change, width)],
            None if p.repeat => vec![Span::styled(format!(" {} again", g.failed), t.bad())],
            None => Vec::new(),
        };
        out.push(marks::tagged_with(t, Line::raw(row), kept, change, width));
    }
    out.extend(ch.gone(Place::Payments).map(|g| marks::gone(t, g, width)));
    extra_tables(t, f, width, &mut out);
    if !db.uses_processed {
        // One row: the rows this design does write need the room.
        let said = [": not used by this design", ": not used", ": unused"]
            .into_iter()
            .find(|said| "processed_messages".len() + said.len() <= width)
            .unwrap_or(": unused");
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
        let row = format!(" {}", p.message_id);
        // A committed row is plain, as in payments: a label kept on every
        // later step would read as news; the step that commits it says so
        // with its change mark.
        let mut kept: Vec<Span<'static>> = p
            .uncommitted_by
            .iter()
            .map(|by| not_committed(t, row.chars().count(), by, change, width))
            .collect();
        // The refused insert is this step's evidence: on the row's own line
        // where it fits (a short panel keeps it in view), else under it.
        let refused = [
            format!("  {} duplicate key: 0 rows inserted", g.conflict),
            format!("  {} duplicate key", g.conflict),
        ];
        let used = row.chars().count() + kept.iter().map(Span::width).sum::<usize>();
        let tag = if change.is_some() { 2 } else { 0 };
        let inline = refused
            .iter()
            .find(|r| p.conflict && used + r.chars().count() + tag <= width);
        if let Some(r) = inline {
            kept.push(Span::styled(r.clone(), t.bad()));
        }
        out.push(marks::tagged_with(t, Line::raw(row), kept, change, width));
        if p.conflict && inline.is_none() {
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
    // What an open transaction wrote, as its own connection reads it: a
    // row of its own, or a change to a committed row, drawn just under
    // that row as the writer's version of it. Two lines with one key are
    // one row seen two ways, never two rows.
    let under = |out: &mut Vec<Line<'static>>, versions: Vec<(&str, String)>| {
        out.extend(versions.into_iter().map(|(by, v)| version(t, by, v, width)));
    };
    if db.uses_records {
        out.push(Line::styled("idempotency_records", t.title()));
        if db.records.is_empty() && pending.iter().all(|u| u.records.is_empty()) {
            out.push(Line::styled(" (no rows)", t.dim()));
        }
        for r in &db.records {
            out.push(row(
                Place::Records,
                r.message_id.clone(),
                Line::raw(record(t, r)),
            ));
            let mine = pending.iter().flat_map(|u| {
                u.records
                    .iter()
                    .filter(|p| p.message_id == r.message_id)
                    .map(|p| (u.by.as_str(), record_change(t, r, p)))
            });
            under(out, mine.collect());
        }
        for u in pending {
            for r in &u.records {
                if !db.records.iter().any(|c| c.message_id == r.message_id) {
                    out.push(uncommitted(t, record(t, r), &u.by, width));
                }
            }
        }
        out.extend(gone(Place::Records));
    }
    if db.uses_statuses {
        out.push(Line::styled("order_status", t.title()));
        if db.statuses.is_empty() && pending.iter().all(|u| u.statuses.is_empty()) {
            out.push(Line::styled(" (no rows)", t.dim()));
        }
        let fields = |r: &crate::sim::db::StatusRow| format!("{} v{}", r.status, r.version);
        for r in &db.statuses {
            out.push(row(
                Place::Statuses,
                r.order.to_string(),
                Line::raw(format!(" {} {}", r.order, fields(r))),
            ));
            let mine = pending.iter().flat_map(|u| {
                u.statuses
                    .iter()
                    .filter(|p| p.order == r.order)
                    .map(|p| (u.by.as_str(), fields(p)))
            });
            under(out, mine.collect());
        }
        for u in pending {
            for r in &u.statuses {
                if !db.statuses.iter().any(|c| c.order == r.order) {
                    out.push(uncommitted(
                        t,
                        format!(" {} {}", r.order, fields(r)),
                        &u.by,
                        width,
                    ));
                }
            }
        }
    }
    if db.uses_orders {
        out.push(Line::styled("orders", t.title()));
        for r in &db.orders {
            out.push(row(
                Place::Orders,
                r.order.to_string(),
                Line::raw(format!(" {} last {}", r.order, r.last_message_id)),
            ));
            let mine = pending.iter().flat_map(|u| {
                u.orders
                    .iter()
                    .filter(|p| p.order == r.order)
                    .map(|p| (u.by.as_str(), format!("last {}", p.last_message_id)))
            });
            under(out, mine.collect());
        }
        for u in pending {
            for r in &u.orders {
                if !db.orders.iter().any(|c| c.order == r.order) {
                    let text = format!(" {} last {}", r.order, r.last_message_id);
                    out.push(uncommitted(t, text, &u.by, width));
                }
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
            .filter_map(|u| u.last_offset.map(|n| (n, u.by.as_str())))
        {
            out.push(version(t, by, format!("offset {n}"), width));
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

/// The payments heading with the total recorded, and what it was when
/// this step moved it: the figure and its mark stay whole, the words
/// around them give way.
fn heading(t: &Theme, f: &Frame, twice: bool, width: usize) -> Line<'static> {
    let total = format!("${}", f.db.total_charged);
    let was = f
        .changes
        .total_was
        .map_or(String::new(), |w| format!("{} was ${w}", t.g.changed));
    let long = format!(" {} total recorded ", t.g.dot);
    let short = format!(" {} total ", t.g.dot);
    let gap = if was.is_empty() { "" } else { "  " };
    // At the narrowest, the mark keeps its sign alone (as a row's change
    // tag does) rather than be cut.
    let sign = if was.is_empty() {
        String::new()
    } else {
        t.g.changed.to_string()
    };
    let tiers = [
        (long.as_str(), gap, &was),
        (&short, gap, &was),
        (&short, " ", &was),
        (" ", " ", &was),
        (" ", " ", &sign),
    ];
    let (words, gap, was) = tiers
        .into_iter()
        .find(|(words, gap, was)| {
            let w = [*words, gap, &total, was].map(|s| s.chars().count());
            "payments".len() + w.iter().sum::<usize>() <= width
        })
        .unwrap_or(tiers[4]);
    let mut line = Line::from(vec![
        Span::styled("payments", t.title()),
        Span::styled(words.to_string(), t.dim()),
        Span::styled(total, if twice { t.bad() } else { t.title() }),
    ]);
    if !was.is_empty() {
        line.spans
            .push(Span::styled(format!("{gap}{was}"), t.change()));
    }
    line
}

/// The words that say a row is not committed, and by whom where the row
/// has room for them; the row gives way to them (`marks::tagged_with`).
fn not_committed(
    t: &Theme,
    row_w: usize,
    by: &str,
    change: Option<crate::sim::change::Change>,
    width: usize,
) -> Span<'static> {
    let tag = if change.is_some() { 2 } else { 0 };
    let tiers = [
        format!("  uncommitted ({by})"),
        format!(" uncommitted ({by})"),
        " uncommitted".to_string(),
    ];
    let text = tiers
        .iter()
        .find(|m| row_w + m.chars().count() + tag <= width)
        .unwrap_or(&tiers[2])
        .clone();
    Span::styled(text, t.warn())
}

/// A row an open transaction wrote: shown, and marked as not yet committed.
fn uncommitted(t: &Theme, row: String, by: &str, width: usize) -> Line<'static> {
    let mark = not_committed(t, row.chars().count(), by, None, width);
    marks::tagged_with(t, Line::raw(row), vec![mark], None, width)
}

/// An open transaction's version of the committed row above: its mark
/// first, so the row's fields give way and the mark never does.
fn version(t: &Theme, by: &str, fields: String, width: usize) -> Line<'static> {
    let line = Line::from(vec![
        Span::styled(format!("  uncommitted ({by}):"), t.warn()),
        Span::raw(format!(" {fields}")),
    ]);
    super::fit(t, line, width)
}

/// What an open transaction changed in a committed record: the fields
/// that differ (all of them when only the deadline does).
fn record_change(
    t: &Theme,
    was: &crate::sim::db::RecordRow,
    now: &crate::sim::db::RecordRow,
) -> String {
    let result = |r: &crate::sim::db::RecordRow| {
        format!("{} {}", t.g.arrow, r.result.as_deref().unwrap_or("-"))
    };
    let mut fields = Vec::new();
    if now.status != was.status {
        fields.push(now.status.clone());
    }
    if now.owner != was.owner {
        fields.push(format!("owner {}", now.owner));
    }
    if now.result != was.result {
        fields.push(result(now));
    }
    if fields.is_empty() {
        return format!("{} owner {} {}", now.status, now.owner, result(now));
    }
    fields.join(" ")
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

    /// One key, one row: where an open transaction has changed a committed
    /// row, its version is drawn under that row and says whose and that it
    /// is not committed, whole, at every width; no two lines of a table
    /// start with the same key.
    #[test]
    fn a_row_an_open_transaction_changed_reads_as_one_row() {
        let t = Theme::new(false, false);
        let mut versions = 0;
        super::super::each_builtin_frame(|at_step, f| {
            for w in [27, 34, 41, 56] {
                let lines: Vec<String> = lines(&t, f, w, 40).iter().map(text).collect();
                let mut keys: Vec<&str> = lines
                    .iter()
                    .filter(|l| l.starts_with(" m-") || l.starts_with(" b-"))
                    .filter_map(|l| l.split_whitespace().next())
                    .collect();
                let all = keys.len();
                keys.sort_unstable();
                keys.dedup();
                assert_eq!(keys.len(), all, "{at_step} at {w}: a key twice\n{lines:#?}");
                for u in &f.db.uncommitted {
                    for r in &u.records {
                        let Some(at) = lines
                            .iter()
                            .position(|l| l.starts_with(&format!(" {} ", r.message_id)))
                        else {
                            continue;
                        };
                        if f.db.records.iter().any(|c| c.message_id == r.message_id) {
                            versions += 1;
                            let under = &lines[at + 1];
                            assert!(
                                under.starts_with(&format!("  uncommitted ({}):", u.by)),
                                "{at_step} at {w}: {under:?}"
                            );
                        }
                    }
                }
            }
        });
        assert!(
            versions > 0,
            "no run has a committed row an open transaction changed"
        );
    }

    /// The column names stand over rows drawn in those columns: at a width
    /// where the rows are drawn tight, no names.
    #[test]
    fn the_column_names_stand_over_rows_in_their_columns() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            for w in [28, 34, 36, 41] {
                let lines: Vec<String> = lines(&t, f, w, 40).iter().map(text).collect();
                let named = lines.iter().any(|l| l.starts_with(" order  amount"));
                for p in &f.db.payments {
                    let aligned = format!(" {:<6} {:<7} ", p.order, format!("${}", p.amount));
                    if named {
                        assert!(
                            lines.iter().any(|l| l.starts_with(&aligned)),
                            "{at_step} at {w}: {lines:#?}"
                        );
                    }
                }
            }
        });
    }

    /// A design without processed_messages says so whole from the width
    /// of the 80x24 panel (27) up; it read `processed_messages: not us…`.
    #[test]
    fn an_unused_table_says_so_whole() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            if f.db.uses_processed {
                return;
            }
            for w in 26..=50 {
                let at = processed_line(&t, f, w, 40);
                let line = &lines(&t, f, w, 40)[at];
                let text = text(line);
                assert!(
                    line.width() <= w && (text.ends_with("used") || text.ends_with("design")),
                    "{at_step} at {w}: {text:?}"
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
