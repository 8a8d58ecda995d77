//! The payment provider: the charges it made and its Idempotency-Key store.

use super::marks;
use crate::sim::Frame;
use crate::sim::change::Place;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

pub fn lines(t: &Theme, f: &Frame, width: usize) -> Vec<Line<'static>> {
    drawn(t, f, width).0
}

/// The line of the panel that heads the Idempotency-Key store, which
/// predict mode marks when a question was about the provider's answer
/// (the charges' heading is always the first line).
pub fn key_store_line(t: &Theme, f: &Frame, width: usize) -> usize {
    drawn(t, f, width).1
}

/// The key store's heading when it holds no key, in full.
const KEY_STORE_EMPTY: (&str, &str) = ("Idempotency-Key store", ": empty");

/// The panel's lines, and where the key store's heading is.
fn drawn(t: &Theme, f: &Frame, width: usize) -> (Vec<Line<'static>>, usize) {
    let g = &t.g;
    let p = &f.provider;
    let many = p.charges.len() > 1;
    let mut out = vec![Line::from(vec![
        // Short where the change mark needs the room.
        Span::styled(
            if width >= 30 || f.changes.charges_was.is_none() {
                "charges made "
            } else {
                "charges "
            },
            t.title(),
        ),
        Span::styled(
            format!("{} (${})", p.charges.len(), p.total_charged),
            if many { t.bad() } else { t.title() },
        ),
    ])];
    let ch = &f.changes;
    if let Some(was) = ch.charges_was {
        out[0].spans.push(marks::was(t, was.to_string()));
    }
    // The charges are the evidence: they come first and are never dropped
    // to make room. An empty key store takes one line; whatever does not fit
    // is counted by the panel's "more" sign.
    for c in &p.charges {
        let mut text = format!(" {} order {} ${}", c.id, c.order, c.amount);
        if width >= 34 {
            text.push_str(match &c.key {
                Some(_) => " with key",
                None => " no key",
            });
        }
        let change = ch.of(Place::Charges, &c.id);
        out.push(marks::tagged(t, Line::raw(text), change, width));
    }
    let heading = out.len();
    if p.keys.is_empty() {
        // "empty" is the fact: the heading gives way to it where the panel
        // is narrow, never the other way round.
        let (name, said) = if width >= KEY_STORE_EMPTY.0.len() + KEY_STORE_EMPTY.1.len() {
            KEY_STORE_EMPTY
        } else {
            ("Idempotency-Keys", ": none")
        };
        out.push(Line::from(vec![
            Span::styled(name, t.title()),
            Span::styled(said, t.dim()),
        ]));
    } else {
        out.push(Line::styled("Idempotency-Key store", t.title()));
    }
    for k in &p.keys {
        let mut spans = vec![Span::raw(format!(" {} {} {}", k.key, g.arrow, k.result))];
        let room = width.saturating_sub(spans[0].width());
        if k.replayed_now {
            let text = if room >= 16 {
                "replayed now"
            } else {
                "replayed"
            };
            spans.push(Span::styled(
                format!(" {} {text}", g.replay),
                t.warn().patch(t.highlight()),
            ));
        } else if k.replays > 0 {
            spans.push(Span::styled(
                format!(" {} replayed {}{}", g.replay, g.times, k.replays),
                t.dim(),
            ));
        }
        let change = ch.of(Place::Keys, &k.key);
        out.push(marks::tagged(t, Line::from(spans), change, width));
    }
    out.extend(ch.gone(Place::Keys).map(|g| marks::gone(t, g, width)));
    (out, heading)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Predict mode marks the line the panel says heads the key store: it is
    /// that heading at every step of every run.
    #[test]
    fn the_key_store_line_is_where_its_heading_is_drawn() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            let lines: Vec<String> = lines(&t, f, 40).iter().map(|l| l.to_string()).collect();
            let at = key_store_line(&t, f, 40);
            assert!(
                lines[at].starts_with("Idempotency-Key store"),
                "{at_step}: line {at} is {:?}",
                lines[at]
            );
        });
    }

    /// An empty key store says so whole at every panel width, 80x24's 27
    /// columns included (it read `Idempotency-Key store: emp…` there).
    #[test]
    fn an_empty_key_store_says_so_whole_at_every_width() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            if !f.provider.keys.is_empty() {
                return;
            }
            for w in 22..=44 {
                let heading = &lines(&t, f, w)[key_store_line(&t, f, w)];
                let text = heading.to_string();
                assert!(
                    heading.width() <= w && text.starts_with("Idempotency-Key"),
                    "{at_step} at {w}: {text:?}"
                );
                assert!(
                    text.ends_with("empty") || text.ends_with("none"),
                    "{text:?}"
                );
            }
        });
    }
}
