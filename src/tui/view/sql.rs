//! The SQL each consumer sent to SQLite in this step, and what it answered.

use crate::sim::Frame;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

pub fn lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    if f.sql.is_empty() {
        return vec![Line::styled("(no SQL in this step)", t.dim())];
    }
    let mut out = Vec::new();
    for r in &f.sql {
        out.push(Line::from(vec![
            Span::styled(format!("{}> ", r.consumer), t.title()),
            Span::raw(r.sql.clone()),
        ]));
        let lower = r.result.to_lowercase();
        let style =
            if lower.contains("busy") || lower.contains("conflict") || lower.contains("0 rows") {
                t.warn()
            } else if lower.contains("error") || lower.contains("fail") {
                t.bad()
            } else {
                t.good()
            };
        out.push(Line::from(vec![
            Span::raw("   "),
            Span::styled(format!("{} {}", t.g.arrow, t.text(&r.result)), style),
        ]));
    }
    out
}
