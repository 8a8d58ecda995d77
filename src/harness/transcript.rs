//! A run as text, step by step: what each instance asked and was
//! answered, the fault where one fell (marked ✗), and after each step the
//! queue, the provider's charges and keys, the program's tables (read by
//! query) and what the program wrote to stderr.

use super::run::RunReport;
use std::fmt::Write;

pub fn render(report: &RunReport) -> String {
    let mut out = String::new();
    for (n, step) in report.steps.iter().enumerate() {
        let title = match step.point {
            Some(p) => format!("step {} (point {p})", n + 1),
            None => format!("step {}", n + 1),
        };
        let mark = if step.fault.is_some() {
            "  ✗ FAULT"
        } else {
            ""
        };
        let _ = writeln!(out, "── {title}{mark}");
        for line in &step.lines {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out, "  queue:");
        for q in &step.queue {
            let _ = writeln!(out, "    {q}");
        }
        let _ = writeln!(
            out,
            "  provider charges: {}",
            if step.charges.is_empty() {
                "none".to_string()
            } else {
                step.charges.join("; ")
            }
        );
        if !step.keys.is_empty() {
            let _ = writeln!(out, "  provider keys: {}", step.keys.join("; "));
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
            for row in &table.rows {
                let _ = writeln!(out, "    {}", row.join(" | "));
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
