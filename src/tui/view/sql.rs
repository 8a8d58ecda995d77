//! The SQL each consumer sent to SQLite in this step, and what it answered.

use crate::sim::Frame;
use crate::sim::event::SqlAnswer;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// What the panel says at a step that sent no SQL: the layout leaves the
/// panel just this wide at such a step, and gives the rest to the events.
pub const NONE: &str = "(no SQL in this step)";

pub fn lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    lines_of(t, f, false, "step")
}

/// The statements of one step, or with `span` of the several steps a
/// reveal covers (`SQL in steps 4-5`): where there are none, the panel
/// says so of the steps its title names, in `unit`'s word for a step
/// (`step`, or `move` in a found schedule: the same width as [`NONE`]).
fn lines_of(t: &Theme, f: &Frame, span: bool, unit: &str) -> Vec<Line<'static>> {
    if f.sql.is_empty() {
        let none = if span {
            format!("(no SQL in these {unit}s)")
        } else {
            format!("(no SQL in this {unit})")
        };
        return vec![Line::styled(none, t.dim())];
    }
    let mut out = Vec::new();
    for r in &f.sql {
        out.push(Line::from(vec![
            Span::styled(format!("{}> ", r.consumer), t.title()),
            Span::raw(r.sql.clone()),
        ]));
        let style = match r.answer {
            SqlAnswer::Done => t.good(),
            SqlAnswer::Nothing => t.warn(),
        };
        out.push(Line::from(vec![
            Span::raw("   "),
            Span::styled(format!("{} {}", t.g.arrow, t.text(&r.result)), style),
        ]));
    }
    out
}

/// The step's statements as the panel folds them: each with its answer,
/// the statement the line that may lose its middle (`view::newest`);
/// `span` where the frame holds the several steps of a reveal.
pub fn items(t: &Theme, f: &Frame, span: bool, unit: &str) -> Vec<super::newest::Item> {
    let lines = lines_of(t, f, span, unit);
    if f.sql.is_empty() {
        return vec![super::newest::Item {
            lines,
            squeezable: None,
            note: false,
        }];
    }
    lines
        .chunks(2)
        .map(|pair| super::newest::Item {
            lines: pair.to_vec(),
            squeezable: Some(0),
            note: false,
        })
        .collect()
}
