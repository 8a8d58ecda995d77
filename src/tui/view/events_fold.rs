//! Which events the events panel keeps when it cannot show every one the
//! story leaves to it. The newest-first walk (`newest::show_told`) keeps
//! the newest, and a step that ends on the observer's note hid the
//! party's fact before it: at 80x24, tour-3 naive step 5, the story told
//! the first three events, the panel the observer's note, and the
//! broker's lease expiry, the event the chapter is about, was whole in
//! neither. There the parties' facts are kept first, in their order, the
//! observer's notes after them where rows are left, and the fold says how
//! many notes it hides and that they are the observer's (`z` reads them).

use super::newest::{Item, Unit, fold_sign};
use crate::tui::measure;
use crate::tui::theme::Theme;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The lines the panel shows where it folds and the story leaves it a
/// fact and an observer's note: the fold's sign, then every fact the
/// story does not tell and the notes that fit, newest first, all in the
/// step's order. None where the facts alone do not fit (the walk then
/// stands, its newest cut and signed), or where the story leaves it no
/// fact or no note. `told` is how many of `items`, the oldest, the story
/// tells whole.
pub(super) fn facts_first(
    t: &Theme,
    items: &[Item],
    unit: Unit,
    told: usize,
    area: Rect,
) -> Option<Vec<Line<'static>>> {
    let w = area.width;
    let all: Vec<Line<'static>> = items.iter().flat_map(|i| i.lines.clone()).collect();
    if measure::rows(&all, w, false) <= area.height {
        return None;
    }
    let told = told.min(items.len());
    let untold = told..items.len();
    let notes: Vec<usize> = untold.clone().filter(|&i| items[i].note).collect();
    // Where the story leaves no fact to the panel, its newest note stands
    // as the walk draws it, cut and signed where it must be: its start is
    // read, not only its count.
    if notes.is_empty() || untold.clone().all(|i| items[i].note) {
        return None;
    }
    let rows = |keep: &[usize]| -> u16 {
        let lines: Vec<Line<'static>> = keep
            .iter()
            .flat_map(|&i| items[i].lines.iter().cloned())
            .collect();
        let hidden = notes.iter().filter(|n| !keep.contains(n)).count();
        measure::rows(&[sign(t, told, hidden, unit, w)], w, false) + measure::rows(&lines, w, false)
    };
    let mut keep: Vec<usize> = untold.filter(|&i| !items[i].note).collect();
    if rows(&keep) > area.height {
        return None;
    }
    // The notes back where rows are left, the newest first: the note a
    // step ends on is often its lesson.
    for &n in notes.iter().rev() {
        let at = keep.partition_point(|&i| i < n);
        keep.insert(at, n);
        if rows(&keep) > area.height {
            keep.remove(at);
        }
    }
    let hidden = notes.iter().filter(|n| !keep.contains(n)).count();
    let mut lines = vec![sign(t, told, hidden, unit, w)];
    lines.extend(keep.iter().flat_map(|&i| items[i].lines.iter().cloned()));
    Some(lines)
}

/// The sign over what the panel keeps: the `told` events the story tells
/// whole, and the `notes` of the observer's the panel has no room for,
/// named as such (a bare `1 more event` read as a fact lost). The
/// longest wording that fits one row at `w`, else the shortest.
fn sign(t: &Theme, told: usize, notes: usize, unit: Unit, w: u16) -> Line<'static> {
    if notes == 0 {
        return fold_sign(t, told, told, unit, w);
    }
    let what = |n: usize| if n == 1 { unit.0 } else { unit.1 };
    let whose = if notes == 1 {
        "observer's note"
    } else {
        "observer's notes"
    };
    // The unit right after the count, as every count in the panel has it
    // (`events_cut_in_words`).
    let more = format!("{notes} more {} hidden", what(notes));
    let forms: Vec<String> = if told == 0 {
        vec![
            format!("{more}: the {whose}"),
            format!("{more}: {whose}"),
            more,
        ]
    } else {
        vec![
            format!("{told} told in the story, {more}: the {whose}"),
            format!("{told} in story, {more}: the {whose}"),
            format!("{told} in story, {more}: {whose}"),
            format!("{told} in story, {more}"),
        ]
    };
    longest_fitting(t, &forms, w)
}

/// The longest of `forms` (longest first) that fits one row at `w` as a
/// sign over the panel (`↑ …`, `(…)` in ASCII), else the last.
fn longest_fitting(t: &Theme, forms: &[String], w: u16) -> Line<'static> {
    let line = |form: &String| {
        let text = if t.ascii() {
            format!("({form})")
        } else {
            format!("↑ {form}")
        };
        Line::from(Span::styled(text, t.key()))
    };
    let shortest = line(forms.last().expect("a form"));
    forms
        .iter()
        .map(line)
        .find(|l| measure::rows(std::slice::from_ref(l), w, false) <= 1)
        .unwrap_or(shortest)
}

/// The lines the panel shows at a predict reveal whose questions are
/// about the events `asked` (`tui::reveal_subject`), where the
/// newest-first walk would fold one of them: those events whole, then the
/// others that fit, newest first, all in the step's order, under a sign
/// that counts the rest. None where the walk shows them whole already, or
/// where they alone do not fit.
pub(super) fn asked_first(
    t: &Theme,
    items: &[Item],
    unit: Unit,
    asked: &[usize],
    area: Rect,
) -> Option<Vec<Line<'static>>> {
    let asked: Vec<usize> = asked.iter().copied().filter(|&i| i < items.len()).collect();
    let from = items.len() - super::newest::shown_whole(t, items, unit, area);
    if asked.iter().all(|&i| i >= from) {
        return None;
    }
    let w = area.width;
    let rows = |keep: &[usize]| -> u16 {
        let lines: Vec<Line<'static>> = keep
            .iter()
            .flat_map(|&i| items[i].lines.iter().cloned())
            .collect();
        let sign = folded(t, items.len() - keep.len(), unit, w);
        measure::rows(&[sign], w, false) + measure::rows(&lines, w, false)
    };
    let mut keep = asked;
    if rows(&keep) > area.height {
        return led(t, items, unit, &keep, area);
    }
    for n in (0..items.len()).rev() {
        let at = keep.partition_point(|&i| i < n);
        if keep.get(at) == Some(&n) {
            continue;
        }
        keep.insert(at, n);
        if rows(&keep) > area.height {
            keep.remove(at);
        }
    }
    let mut lines = vec![folded(t, items.len() - keep.len(), unit, w)];
    lines.extend(keep.iter().flat_map(|&i| items[i].lines.iter().cloned()));
    Some(lines)
}

/// A panel with no row for the sign over the event asked about (the
/// answer's box took the others): the count leads the event's first row,
/// as it leads the newest where that alone fits (`newest::count_lead`).
/// None where more than one event is asked about, or it does not fit so.
fn led(
    t: &Theme,
    items: &[Item],
    unit: Unit,
    keep: &[usize],
    area: Rect,
) -> Option<Vec<Line<'static>>> {
    let &[i] = keep else {
        return None;
    };
    let mut lines = items[i].lines.clone();
    let first = lines.first()?;
    let lead = super::newest::count_lead(t, items.len() - 1, 0, unit, first);
    let mut spans = vec![Span::styled(lead, t.key())];
    spans.extend(first.spans.iter().cloned());
    lines[0] = Line::from(spans);
    (measure::rows(&lines, area.width, false) <= area.height).then_some(lines)
}

/// The sign over a reveal's events where the one asked about is kept and
/// `n` others are not: they may be above it or between the lines shown,
/// so it says folded, not above.
fn folded(t: &Theme, n: usize, unit: Unit, w: u16) -> Line<'static> {
    let what = if n == 1 { unit.0 } else { unit.1 };
    let forms = [
        format!("{n} more {what} folded; the one asked about kept"),
        format!("{n} more {what} folded"),
    ];
    longest_fitting(t, &forms, w)
}
