//! The verdict so far: did the customer pay exactly once, and if not, the
//! chain of causes behind it.

use crate::sim::{Frame, Outcome, Verdict};
use crate::tui::theme::Theme;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The verdict's headline: a symbol and words, never colour alone.
pub fn headline(t: &Theme, outcome: Outcome) -> (String, Style) {
    let g = &t.g;
    // The catalogue of outcomes grows with the simulator: one it does not
    // name here still gets a symbol and its own words.
    #[allow(unreachable_patterns)]
    match outcome {
        Outcome::Correct => (format!("{} charged once", g.done), t.good()),
        Outcome::InProgress => (format!("{} nothing wrong yet", g.pending), t.info()),
        Outcome::DeadLettered => ("! dead-lettered".to_string(), t.warn()),
        Outcome::ChargeLost => (format!("{} charge lost", g.failed), t.bad()),
        Outcome::Disagree => (
            format!("{} provider and database disagree", g.failed),
            t.bad(),
        ),
        Outcome::ChargedTwice => (format!("{} charged twice", g.failed), t.bad()),
        other if other.is_failure() => (format!("{} {}", g.failed, other.text()), t.bad()),
        other => (format!("{} {}", g.pending, other.text()), t.warn()),
    }
}

/// The causes after the headline, joined with arrows that point back to
/// where it started.
pub fn chain(t: &Theme, v: &Verdict) -> String {
    v.cause
        .iter()
        .map(|c| format!(" {} {}", t.g.back_arrow, t.text(c)))
        .collect()
}

pub fn lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    let (text, style) = headline(t, f.verdict.outcome);
    let mut spans = vec![
        Span::styled(text, style),
        Span::styled(chain(t, &f.verdict), t.dim()),
    ];
    for fact in &f.verdict.facts {
        spans.push(Span::styled(
            format!(
                "   order {}: {} payment row{}, {} provider charge{}",
                fact.order,
                fact.payments,
                if fact.payments == 1 { "" } else { "s" },
                fact.charges,
                if fact.charges == 1 { "" } else { "s" },
            ),
            t.dim(),
        ));
    }
    vec![Line::from(spans)]
}
