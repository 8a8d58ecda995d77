//! The tables only some designs use (idempotency_records, order_status,
//! orders, the consumer offset, the cache) are evidence like payments: every
//! built-in scenario under every design that uses one, at 80x24, 100x30 and
//! 120x40, every step: each row of such a table in the step's frame is on
//! screen with its fields whole (message ID, status, owner, deadline,
//! result, version...), a row that goes on to an indented second line read
//! as one, or the panel's heading counts it hidden (`…1 other row`). The
//! projector's in-progress chapter read `m-7f3 in_progress owner …`: A's
//! record, the one whose deadline B takes over, cut to its status.

use crate::common::sweep::{self, Step};
use idem::sim::Frame;
use idem::sim::db::RecordRow;
use idem::tui::app::Panel;

/// A row of an extra table and the fields it must show whole: `start` is
/// how its line begins; where it goes on to indented lines they are read
/// with it.
struct Row {
    start: String,
    fields: Vec<String>,
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A record's fields as the events word them: the deadline binds only
/// while the record is in progress (`until 33s`).
fn record_fields(r: &RecordRow) -> Vec<String> {
    let mut out = vec![
        r.message_id.clone(),
        r.status.clone(),
        format!("owner {}", r.owner),
    ];
    if r.status == "in_progress" {
        out.push(format!("until {}", idem::sim::format_duration(r.deadline)));
    }
    out.push(
        r.result
            .as_ref()
            .map_or("no result".to_string(), |kept| format!("result {kept}")),
    );
    out
}

/// Every row of the extra tables in `f`, with its fields.
fn rows_of(f: &Frame) -> Vec<Row> {
    let db = &f.db;
    let mut out = Vec::new();
    let committed = |id: &str| db.records.iter().find(|c| c.message_id == id);
    for r in &db.records {
        out.push(Row {
            start: format!(" {} ", r.message_id),
            fields: record_fields(r),
        });
    }
    for u in &db.uncommitted {
        for r in &u.records {
            match committed(&r.message_id) {
                // Its version under the committed row: the fields that
                // differ.
                Some(c) => {
                    let mut fields = Vec::new();
                    if c.status != r.status {
                        fields.push(r.status.clone());
                    }
                    if c.owner != r.owner {
                        fields.push(format!("owner {}", r.owner));
                    }
                    if c.deadline != r.deadline && r.status == "in_progress" {
                        fields.push(format!("until {}", idem::sim::format_duration(r.deadline)));
                    }
                    if c.result != r.result {
                        fields.push(
                            r.result
                                .as_ref()
                                .map_or("no result".to_string(), |kept| format!("result {kept}")),
                        );
                    }
                    out.push(Row {
                        start: format!("  uncommitted ({}):", u.by),
                        fields,
                    });
                }
                None => {
                    let mut fields = record_fields(r);
                    fields.push(format!("uncommitted ({})", u.by));
                    out.push(Row {
                        start: format!(" {} ", r.message_id),
                        fields,
                    });
                }
            }
        }
        for s in &u.statuses {
            out.push(Row {
                start: String::new(),
                fields: vec![
                    format!("{} v{}", s.status, s.version),
                    format!("({})", u.by),
                ],
            });
        }
        for o in &u.orders {
            out.push(Row {
                start: String::new(),
                fields: vec![format!("last {}", o.last_message_id), format!("({})", u.by)],
            });
        }
        if let Some(n) = u.last_offset {
            out.push(Row {
                start: format!("  uncommitted ({}):", u.by),
                fields: vec![format!("offset {n}")],
            });
        }
    }
    for s in &db.statuses {
        out.push(Row {
            start: format!(" {} ", s.order),
            fields: vec![format!("{} {} v{}", s.order, s.status, s.version)],
        });
    }
    for o in &db.orders {
        out.push(Row {
            start: format!(" {} ", o.order),
            fields: vec![format!("{} last {}", o.order, o.last_message_id)],
        });
    }
    if db.uses_offsets {
        out.push(Row {
            start: match db.last_offset {
                Some(_) => " last applied".into(),
                None => " no offset".into(),
            },
            fields: vec![match db.last_offset {
                Some(n) => format!("last applied {n}"),
                None => "no offset applied yet".into(),
            }],
        });
    }
    for e in &f.cache.entries {
        out.push(Row {
            start: format!(" {} ", e.key),
            fields: vec![format!(
                "{} ttl {}",
                e.key,
                idem::sim::format_duration(e.ttl_left_ms)
            )],
        });
    }
    out
}

/// The panel's rows read as table rows: a row with the indented lines
/// that go on from it (three spaces or more, not a version's mark).
fn table_rows(panel: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in panel {
        // A record drawn alone packs its fields under two spaces
        // (`  owner A/rh-3b6c in txn A`); a version's mark is a row.
        let goes_on =
            l.starts_with("  ") && !l.trim().is_empty() && !l.starts_with("  uncommitted");
        match out.last_mut() {
            Some(last) if goes_on => {
                last.push(' ');
                last.push_str(l.trim());
            }
            _ => out.push(l.trim_end().to_string()),
        }
    }
    out
}

/// How many rows the heading says are folded away: the numbers after its
/// ellipsis or its arrow.
fn counted(heading: &str) -> usize {
    let Some(at) = heading.find(['…', '↓']) else {
        return 0;
    };
    heading[at..]
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<usize>().ok())
        .sum()
}

fn check(step: &Step, seen: &mut usize, wrong: &mut Vec<String>) {
    let f = &step.frame;
    let db = &f.db;
    if !(db.uses_records || db.uses_statuses || db.uses_orders || db.uses_offsets || f.cache.used) {
        return;
    }
    let panel = step.rows_in(Panel::Database);
    let rows = table_rows(&panel);
    let mut missing = Vec::new();
    let mut used = vec![false; rows.len()];
    for row in rows_of(f) {
        *seen += 1;
        let whole = |r: &String| {
            // A record drawn in its table heading's place names the table
            // before its key (`record m-7f3 in_progress`).
            // Drawn alone, a row of an open transaction says whose it is
            // in its short form (`record m-7f3 in txn B:`, `owner
            // A/rh-3b6c in txn A`).
            let r = squeeze(r);
            let r = r.strip_prefix("record ").unwrap_or(&r);
            let r = match r.split_once(" in txn ").and_then(|(id, rest)| {
                let (by, fields) = rest.split_once(": ").unwrap_or((rest, ""));
                (!id.contains(' ') && !by.contains(' '))
                    .then(|| format!("uncommitted ({}): {fields}", by.trim_end_matches(':')))
            }) {
                Some(version) => version,
                None => r.to_string(),
            };
            let r = (0..26u8).map(|i| char::from(b'A' + i)).fold(r, |r, by| {
                r.replace(&format!("in txn {by}"), &format!("uncommitted ({by})"))
            });
            r.starts_with(squeeze(&row.start).as_str())
                && row.fields.iter().all(|w| r.contains(&squeeze(w)))
        };
        if let Some(i) = (0..rows.len()).find(|&i| !used[i] && whole(&rows[i])) {
            used[i] = true;
            continue;
        }
        // On screen but cut is not hidden: no count excuses it.
        let start = squeeze(&row.start);
        let cut = |r: &String| {
            !start.is_empty() && squeeze(r).starts_with(start.as_str()) && r.contains('…')
        };
        if let Some(r) = rows.iter().find(|r| cut(r)) {
            wrong.push(format!("{}: cut: {r:?}\n{}", step.at(), panel.join("\n")));
        }
        missing.push(format!("{} {:?}", row.start.trim(), row.fields));
    }
    let heading = panel.first().cloned().unwrap_or_default();
    // A table's folded rows are counted beside its own heading where it
    // stands (`idempotency_records …1 row`), else beside the panel's.
    let own: usize = panel
        .iter()
        .skip(1)
        .map(|l| l.trim_end())
        .filter(|l| l.ends_with(" row") || l.ends_with(" rows"))
        .map(counted)
        .sum();
    if missing.len() > counted(&heading) + own {
        wrong.push(format!(
            "{}: {} row(s) neither whole nor counted ({:?} counts {}): {}\n{}",
            step.at(),
            missing.len(),
            heading.trim(),
            counted(&heading),
            missing.join("; "),
            panel.join("\n")
        ));
    }
}

fn whole_or_counted_at(size: (u16, u16)) {
    let mut seen = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, |step| check(step, &mut seen, &mut wrong));
    sweep::none_wrong("rows of the extra tables", seen, 100, &wrong, size);
}

#[test]
fn extra_table_rows_are_whole_or_counted_at_80x24() {
    whole_or_counted_at(sweep::SIZES[0]);
}

#[test]
fn extra_table_rows_are_whole_or_counted_at_100x30() {
    whole_or_counted_at(sweep::SIZES[1]);
}

#[test]
fn extra_table_rows_are_whole_or_counted_at_120x40() {
    whole_or_counted_at(sweep::SIZES[2]);
}

/// A table's folded rows are counted beside its own heading where it
/// stands, not beside the payments total (teacher trial 48, in-progress
/// at 100x30, B's takeover: `payments · total $0 …1 other row` above
/// `(no rows)`, the row A's record under `idempotency_records` below; at
/// 80x24, step 21, one record counted on both lines).
#[test]
fn a_tables_folded_rows_are_counted_under_its_own_heading() {
    let mut wrong = Vec::new();
    for (step, size) in [(14, (100, 30)), (28, (100, 30)), (21, (80, 24))] {
        let mut a = crate::common::app("in-progress", "in-progress");
        a.pos = step;
        let screen = crate::common::draw(&mut a, size.0, size.1);
        let rows: Vec<&str> = screen.lines().collect();
        let payments = rows
            .iter()
            .find(|l| l.contains("payments "))
            .copied()
            .unwrap_or("");
        let own = rows
            .iter()
            .any(|l| l.contains("idempotency_records …1 row"));
        if payments.contains("other") || payments.contains('…') || !own {
            wrong.push(format!("step {step} at {size:?}:\n{screen}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
