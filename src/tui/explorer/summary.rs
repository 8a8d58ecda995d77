//! A design's summary in the explorer's detail, read whole somewhere.
//! Teacher trial at 120x40, with the detail whole (`z`): its rule's title
//! cut the summary with no count and no way to read it (`idempotent · …
//! ID as I… ──`). Whole, the summary's first words stay in the title and
//! the rest goes on on rows of its own right under it; in the table's
//! pane, a title that cuts it cuts at a word and names `z`. The layout's
//! list of runs starts under those rows, so a click still finds its run:
//! which is why this lives beside the table's answers, not in the view.

use crate::check::StrategyReport;
use crate::tui::explorer::Selection;
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::layout::Rect;

/// The title of the detail's rule for `s` in a pane `detail` wide: the
/// design's name, its promise and its summary where they fit; else, whole,
/// as many of the summary's words as fit (see [`rest`]); else, in the
/// table's pane, cut at a word with `… z shows it whole`.
pub fn title(t: &Theme, s: &StrategyReport, whole: bool, detail: Rect) -> String {
    let room = room(detail);
    let full = head(t, s, true);
    if fits(&full, room) {
        return full;
    }
    if whole {
        return split(t, s, room).0;
    }
    let head = format!("{}{} ", head(t, s, false), t.g.dot);
    let sign = format!("{} z shows it whole ", t.g.ellipsis);
    let left = room.saturating_sub(head.chars().count());
    match crate::cut_at_word::cut_at_word(&t.text(&s.summary), left, &sign) {
        Some(summary) if !summary.trim_start().starts_with(t.g.ellipsis) => {
            format!("{head}{summary}")
        }
        _ => cut(t, &full, room),
    }
}

/// The rest of the summary the whole detail's title has no room for,
/// wrapped at words into rows `detail` wide, each after one space; none
/// where the title holds it all.
pub fn rest(t: &Theme, s: &StrategyReport, detail: Rect) -> Vec<String> {
    let room = room(detail);
    if fits(&head(t, s, true), room) {
        return Vec::new();
    }
    let width = usize::from(detail.width);
    let (_, rest) = split(t, s, room);
    let mut rows: Vec<String> = Vec::new();
    for word in rest.split_whitespace() {
        match rows.last_mut() {
            Some(row) if fits(&format!("{row} {word}"), width) => {
                row.push(' ');
                row.push_str(word);
            }
            _ => rows.push(format!(" {word}")),
        }
    }
    rows
}

/// `l` with its list of runs under the rows [`rest`] takes, while the
/// detail is whole.
pub fn below(
    t: &Theme,
    report: Option<&crate::check::CheckReport>,
    sel: Selection,
    l: layout::Explorer,
) -> layout::Explorer {
    match report.and_then(|r| r.strategies.get(sel.row)) {
        Some(s) if sel.whole => {
            let rows = rest(t, s, l.detail).len();
            l.list_below(u16::try_from(rows).unwrap_or(u16::MAX))
        }
        _ => l,
    }
}

/// The title's room: the rule's width less a column at each end.
fn room(detail: Rect) -> usize {
    usize::from(detail.width).saturating_sub(2)
}

/// ` in-progress · promises an exactly-once effect `, and with `summary`
/// its summary after a dot.
fn head(t: &Theme, s: &StrategyReport, summary: bool) -> String {
    let promise = crate::check::promise::said(s.claims_safe);
    let head = format!(" {} {} {promise} ", s.strategy, t.g.dot);
    let words = if summary {
        format!("{head}{} {} ", t.g.dot, s.summary)
    } else {
        head
    };
    t.text(&words).into_owned()
}

/// The whole detail's title, with as many of the summary's words as fit,
/// and the words left for the rows under it (all of them where none fit).
fn split(t: &Theme, s: &StrategyReport, room: usize) -> (String, String) {
    let head_dot = format!("{}{} ", head(t, s, false), t.g.dot);
    let summary = t.text(&s.summary).into_owned();
    let kept = summary
        .match_indices(' ')
        .map(|(at, _)| at)
        .rfind(|&at| fits(&format!("{head_dot}{} ", &summary[..at]), room))
        .unwrap_or(0);
    if kept == 0 {
        return (cut(t, &head(t, s, false), room), summary);
    }
    (
        format!("{head_dot}{} ", &summary[..kept]),
        summary[kept..].trim_start().to_string(),
    )
}

fn fits(text: &str, room: usize) -> bool {
    text.chars().count() <= room
}

/// Text cut to `width` characters, with the theme's ellipsis.
fn cut(t: &Theme, text: &str, width: usize) -> String {
    if fits(text, width) {
        return text.to_string();
    }
    let keep = width.saturating_sub(t.g.ellipsis.chars().count() + 1);
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(t.g.ellipsis);
    out.push(' ');
    out
}
