//! A run as text, step by step: what each instance asked and was
//! answered, the fault where one fell (marked ✕, as the replay's strip marks it), and after each step the
//! queue, the provider's charges and keys, the program's tables (read by
//! query) and what the program wrote to stderr.

use super::run::RunReport;
use super::table_moves;
use crate::sim::broker::{MessageState, StoredMessage};
use crate::sim::provider::{Charge, KeyRecord};
use std::fmt::Write;

pub fn render(report: &RunReport) -> String {
    render_in(report, false)
}

/// As `render`, its marks of its own (`✕ again`) in ASCII with `ascii`.
pub fn render_in(report: &RunReport, ascii: bool) -> String {
    // A payment row that repeats an earlier one, as the simulator and the
    // replay's panels mark it (`harness::repeats`).
    let again = if ascii { "! again" } else { "✕ again" };
    let arrow = if ascii { "->" } else { "→" };
    let mut out = String::new();
    for (n, step) in report.steps.iter().enumerate() {
        let title = match step.point {
            Some(p) => format!("step {} (point {p})", n + 1),
            None => format!("step {}", n + 1),
        };
        let mark = if step.fault.is_some() {
            "  ✕ FAULT"
        } else {
            ""
        };
        let _ = writeln!(out, "── {title}{mark}");
        for line in &step.lines {
            let _ = writeln!(out, "  {line}");
        }
        // The program writes between its requests: what it wrote is said
        // as the step's own line, as the replay's panels say it.
        let before = n.checked_sub(1).map(|b| &report.steps[b]);
        let moves = table_moves::moved(before, step);
        if let Some(moved) = table_moves::said(&moves, arrow, str::to_string) {
            let _ = writeln!(out, "  its database, read by idem: {moved}");
        }
        let _ = writeln!(
            out,
            "  virtual time {}",
            crate::sim::format_duration(step.now)
        );
        let _ = writeln!(out, "  queue:");
        for q in &step.queue {
            let _ = writeln!(out, "    {}", queue_line(q));
        }
        let charges: Vec<String> = step.charges.iter().map(charge_line).collect();
        let _ = writeln!(
            out,
            "  provider charges: {}",
            if charges.is_empty() {
                "none".to_string()
            } else {
                charges.join("; ")
            }
        );
        if !step.keys.is_empty() {
            let keys: Vec<String> = step.keys.iter().map(key_line).collect();
            let _ = writeln!(out, "  provider keys: {}", keys.join("; "));
        }
        if step.tables.is_empty() {
            let _ = writeln!(out, "  the program's database: no tables yet");
        }
        for (table, total) in &step.tables {
            let _ = writeln!(
                out,
                "  table {} ({}): {}",
                table.name,
                table.columns.join(", "),
                match total {
                    0 => "no rows".to_string(),
                    1 => "1 row".to_string(),
                    n => format!("{n} rows"),
                }
            );
            let repeated = crate::harness::repeats::repeated(table, &step.payment_columns);
            for (row, again_here) in table.rows.iter().zip(repeated) {
                let mark = if again_here {
                    format!("  {again}")
                } else {
                    String::new()
                };
                let _ = writeln!(out, "    {}{mark}", row.join(" | "));
            }
            if *total > table.rows.len() {
                let _ = writeln!(out, "    … {} more rows", total - table.rows.len());
            }
        }
        for line in &step.stderr {
            let _ = writeln!(out, "  stderr {line}");
        }
    }
    out
}

/// One stored copy of a message: its identities, its payment, where it
/// is, and how often it was received.
pub fn queue_line(m: &StoredMessage) -> String {
    let state = match &m.state {
        MessageState::Waiting => "waiting".to_string(),
        MessageState::InFlight {
            consumer,
            receipt,
            until,
            ..
        } => format!(
            "leased to {consumer} (receipt {receipt}) until {}",
            crate::sim::format_duration(*until)
        ),
        MessageState::Acked { by } => format!("acked by {by}"),
        MessageState::DeadLettered => "dead-lettered".into(),
    };
    // The broker's own ID is named as the broker's: `b-1` beside `m-1`
    // alone read as a second message ID of the program's. A copy is
    // numbered only where the producer published the message again
    // (`copy 1` of a message published once read as jargon).
    let copy = if m.copy > 1 {
        format!(", copy {}", m.copy)
    } else {
        String::new()
    };
    format!(
        "{} (broker's ID {}{copy}, order {} ${}): {state}, received {}",
        m.message.id,
        m.broker_id(),
        m.message.payment.order,
        m.message.payment.amount,
        times(m.receives)
    )
}

pub fn charge_line(c: &Charge) -> String {
    format!(
        "{} order {} ${}, {}",
        c.id,
        c.order,
        c.amount,
        c.key
            .as_ref()
            .map_or("no Idempotency-Key".to_string(), |k| format!("key {k}"))
    )
}

pub fn key_line(k: &KeyRecord) -> String {
    format!(
        "{}: {} (replayed {})",
        k.key,
        k.result.describe(),
        k.replays
    )
}

/// `once`, `N times`.
pub fn times(n: u32) -> String {
    match n {
        1 => "once".to_string(),
        n => format!("{n} times"),
    }
}
