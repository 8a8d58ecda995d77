//! The forms the story panel tells a step's own line in: whole, or,
//! where that does not fit, with the newest events (the ones the events
//! panel shows whole) in their shorter form. A sweep that reads the own
//! line on screen matches it against the form the panel chose.

use idem::sim::event::{Event, step_told, step_told_brief};

/// Every form of `events`' own line, the whole one first, each mapped
/// with `words` (the theme's text, squeezed) as the sweep compares them.
pub fn forms(events: &[Event], words: impl Fn(&str) -> String) -> Vec<String> {
    let n = events.len();
    let mut out = vec![words(&step_told(events))];
    for older in (0..n).rev() {
        let form = [
            step_told(&events[..older]),
            step_told_brief(&events[older..]),
        ]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
        let form = words(&form);
        if !out.contains(&form) {
            out.push(form);
        }
    }
    out
}

/// Of `forms`, the one `shown` (the panel's words, squeezed) tells: the
/// first shown whole, else the first whose start is shown before an
/// ellipsis; the whole line where none is.
pub fn on_screen(forms: &[String], shown: &str) -> String {
    if let Some(f) = forms.iter().find(|f| shown.contains(f.as_str())) {
        return f.clone();
    }
    let kept = shown.split_once('…').map_or("", |(k, _)| k.trim_end());
    forms
        .iter()
        .find(|f| !kept.is_empty() && f.starts_with(kept))
        .unwrap_or(&forms[0])
        .clone()
}
