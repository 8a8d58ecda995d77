//! The step's newest lines first: the SQL and events panels hold what one
//! step (or one action, at a reveal) produced, in order, and the last of
//! it is the lesson on screen (`→ 0 rows: conflict …`, the event the step
//! ends on). Where the panel is too short for all of it, the older lines
//! give way, counted in a sign on the top row, and a statement too long
//! for the rows left keeps its start and its end (the clause being
//! taught, `ON CONFLICT DO NOTHING`) with an ellipsis where its middle was.

use super::overflow;
use super::statement_squeeze::cut;
use crate::tui::measure;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Lines that go together: a statement and its answer, or one event.
pub struct Item {
    pub lines: Vec<Line<'static>>,
    /// The line that may lose its middle to fit (a statement); the others
    /// are kept whole.
    pub squeezable: Option<usize>,
    /// An observer's note (what no party can know), not a party's fact:
    /// where a panel cannot hold every item the story leaves to it, the
    /// facts are kept before the notes (`events_fold`).
    pub note: bool,
}

/// What a panel's items are called in its sign, one and many: the sign
/// counts items (an event wrapped on three rows is one event hidden).
pub type Unit = (&'static str, &'static str);
pub const EVENTS: Unit = ("event", "events");
pub const STATEMENTS: Unit = ("statement", "statements");

/// Draws `items` wrapped into `area`: all of them where they fit, else the
/// newest that fit, with the count of the items that gave way on top.
pub fn show(t: &Theme, items: Vec<Item>, unit: Unit, area: Rect, buf: &mut Buffer) {
    show_told(t, items, unit, 0, area, buf)
}

/// `show`, where the story panel on the same screen tells the `told`
/// oldest items whole: the sign says the ones it hides are there
/// (`↑ 4 events, told in the story above`), not lost (`fold_sign`).
pub fn show_told(
    t: &Theme,
    items: Vec<Item>,
    unit: Unit,
    told: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    if area.is_empty() {
        return;
    }
    let w = area.width;
    let all: Vec<Line<'static>> = items.iter().flat_map(|i| i.lines.clone()).collect();
    let total = measure::rows(&all, w, false);
    if total <= area.height {
        overflow::show(t, all, true, area, buf);
        return;
    }
    // From the newest back: whole where it fits, else squeezed to the rows
    // left; a row on top for the sign while anything older is hidden.
    let mut kept: Vec<Vec<Line<'static>>> = Vec::new();
    let mut used = 0u16;
    let mut older = items.len();
    let newest = items.len().saturating_sub(1);
    for (i, item) in items.iter().enumerate().rev() {
        let rows = measure::rows(&item.lines, w, false);
        // The sign's own rows: in a narrow panel it wraps to two.
        let sign = if i > 0 {
            measure::rows(&[fold_sign(t, i, told, unit, w)], w, false)
        } else {
            0
        };
        let room = area.height.saturating_sub(used + sign);
        let lines = if rows <= room {
            Some(item.lines.clone())
        } else {
            item.squeezable
                .and_then(|s| squeeze(t, &item.lines, s, w, room))
        };
        match lines {
            Some(lines) => {
                used += measure::rows(&lines, w, false);
                kept.push(lines);
                older = i;
                if used + sign >= area.height {
                    break;
                }
            }
            None if i == newest && i > 0 && area.height == 1 => {
                one_row(t, &items, unit, told, area, buf);
                return;
            }
            None if i == newest && i > 0 && count_beside(t, &items, unit, told, w, area, buf) => {
                return;
            }
            None if i == newest => {
                // The newest alone does not fit: it is drawn from its start
                // and the panel counts the rows below, as any panel does;
                // the older ones are counted on the top row.
                let mut rest = area;
                if i > 0 && area.height > 1 {
                    let top = Rect { height: 1, ..area };
                    overflow::show(t, vec![fold_sign(t, i, told, unit, w)], false, top, buf);
                    rest = Rect {
                        y: area.y + 1,
                        height: area.height - 1,
                        ..area
                    };
                }
                // A statement and its answer that fit no other way: the
                // statement's first words, then the answer, the lesson,
                // on the rows there are.
                // Its clause (the last four words) stays where the rows
                // hold it.
                let fits = |j: &Line<'static>| {
                    measure::rows(std::slice::from_ref(j), w, false) <= rest.height
                };
                let lines = match [4, 0].map(|end| joined(t, item, end)) {
                    [Some(j), _] if fits(&j) => vec![j],
                    [_, Some(j)] if fits(&j) => {
                        // The statement's end is gone too: a row that says
                        // so where there is one (`z` reads it whole).
                        let used = measure::rows(std::slice::from_ref(&j), w, false);
                        let mut lines = vec![j];
                        if used < rest.height {
                            lines.push(Line::styled(
                                format!(
                                    "{} {} more words of the statement {} z",
                                    t.g.ellipsis,
                                    hidden_words(item, 3),
                                    t.g.dot
                                ),
                                t.key(),
                            ));
                        }
                        lines
                    }
                    _ => item.lines.clone(),
                };
                // Its rows below are counted as rows, in words: a bare
                // count would end its sentence (`waits for A to …1 more`);
                // where the story above tells it whole, the sign says so
                // (trial 33: `…1 more line`, and no key read it).
                let signs = if told > i {
                    overflow::told_above_signs
                } else {
                    overflow::row_signs
                };
                overflow::show_signed(t, lines, true, rest, buf, signs);
                return;
            }
            None => break,
        }
    }
    let mut lines: Vec<Line<'static>> = Vec::new();
    if older > 0 {
        lines.push(fold_sign(t, older, told, unit, w));
    }
    lines.extend(kept.into_iter().rev().flatten());
    overflow::show(t, lines, true, area, buf);
}

/// How many of `items`, the newest, `show` draws whole in `area`: every
/// one where all fit, else those kept under the count of the older ones.
/// None where the newest alone does not fit under the count (`show` then
/// cuts it or sets the count beside it): the story leans on the events a
/// reader sees whole, and this never says more of them than are.
pub fn shown_whole(t: &Theme, items: &[Item], unit: Unit, area: Rect) -> usize {
    if area.is_empty() {
        return 0;
    }
    let w = area.width;
    let all: Vec<Line<'static>> = items.iter().flat_map(|i| i.lines.clone()).collect();
    if measure::rows(&all, w, false) <= area.height {
        return items.len();
    }
    // `show`'s walk from the newest back, where no item is squeezed.
    let mut used = 0u16;
    let mut whole = 0;
    for (i, item) in items.iter().enumerate().rev() {
        let sign = if i > 0 {
            measure::rows(&[above(t, i, unit)], w, false)
        } else {
            0
        };
        let rows = measure::rows(&item.lines, w, false);
        if rows > area.height.saturating_sub(used + sign) {
            break;
        }
        used += rows;
        whole += 1;
        if used + sign >= area.height {
            break;
        }
    }
    whole
}

/// A panel one row tall with older lines hidden: the count of them leads
/// the row (`↑ 4 more · ✓ consumer A gets 201 Created`), and the newest
/// line follows, cut with an ellipsis where it does not fit: a count on a
/// row of its own would leave no room for the lesson, and the newest alone
/// would hide that anything came before it. Of a statement and its
/// answer, the statement's start is shown: an answer alone (`→ 1 row
/// inserted`) says nothing of which statement gave it (a teacher trial
/// read one under a count that left its statement out). The count is of
/// the older items, in the panel's own word for them.
fn one_row(t: &Theme, items: &[Item], unit: Unit, told: usize, area: Rect, buf: &mut Buffer) {
    let Some((item, older)) = items.split_last() else {
        return;
    };
    let Some(first) = item.lines.first() else {
        return;
    };
    let newest = joined(t, item, 0).unwrap_or_else(|| first.clone());
    // The count in its fewest words where the whole one leaves the
    // statement no room for its head (`↑ 1 more statement · A> INSERT INTO
    // payme…` named no table, tour-1 naive at a reveal, 100x30): the row
    // is cut at its end, in the answer, never in the head.
    let leads = [
        count_lead(t, older.len(), told, unit, first),
        count_lead(t, older.len(), told, ("", ""), first).replace("  ", " "),
    ];
    let line = |lead: &String| {
        let mut spans = vec![Span::styled(lead.clone(), t.key())];
        spans.extend(newest.spans.iter().cloned());
        Line::from(spans)
    };
    let fits = |l: &Line<'static>| l.width() <= usize::from(area.width);
    let row = leads
        .iter()
        .map(line)
        .find(fits)
        .unwrap_or_else(|| line(&leads[1]));
    overflow::show(t, vec![row], false, area, buf);
}

/// How many of a statement's words a line that keeps its first `kept`
/// leaves out.
fn hidden_words(item: &Item, kept: usize) -> usize {
    item.squeezable.map_or(0, |s| {
        let (_, text, _) = parts(&item.lines[s]);
        text.split_whitespace().count().saturating_sub(kept)
    })
}

/// The count of `lost` older items that leads the newest item's first
/// row, `first` (`↑ 2 more events · ✓ …`). An item whose own mark is the
/// dot (an observer's event, `· …`) needs no second one to part it from
/// the count.
pub(super) fn count_lead(
    t: &Theme,
    lost: usize,
    told: usize,
    unit: Unit,
    first: &Line<'static>,
) -> String {
    let what = if lost == 1 { unit.0 } else { unit.1 };
    let dotted = first
        .spans
        .iter()
        .map(|s| s.content.trim_start())
        .find(|c| !c.is_empty())
        .is_some_and(|c| c.starts_with(t.g.dot));
    // Those the story tells are said to be there, in its fewest words:
    // the lead takes the newest item's room.
    let (in_story, rest) = (told.min(lost), lost - told.min(lost));
    let count = match (in_story, rest) {
        (0, _) => format!("{lost} more {what}"),
        (_, 0) => format!("{in_story} in story"),
        // The count after `more` names its unit: bare, it read as part
        // of the event beside it (`events_cut_in_words`).
        _ => {
            let rest_what = if rest == 1 { unit.0 } else { unit.1 };
            format!("{in_story} in story, {rest} more {rest_what}")
        }
    };
    if t.ascii() {
        format!("({count} above) ")
    } else if dotted {
        format!("↑ {count} ")
    } else {
        format!("↑ {count} {} ", t.g.dot)
    }
}

/// A statement and its answer on one line, for a panel with no rows for
/// both: the speaker and the statement's first words (what and where,
/// `A> INSERT INTO order_status …`), then the answer (`→ 0 rows: the row
/// already has a newer version`). Neither alone says what happened: the
/// answer without its statement names nothing, the statement without its
/// answer hides the lesson. With `end` of the statement's last words
/// (its clause) after the ellipsis. None for an item that is not a
/// statement with an answer, or one too short to need it.
fn joined(t: &Theme, item: &Item, end: usize) -> Option<Line<'static>> {
    let s = item.squeezable?;
    let answer = item.lines.get(s + 1..).filter(|a| !a.is_empty())?;
    let (head, text, style) = parts(&item.lines[s]);
    let words: Vec<&str> = text.split_whitespace().collect();
    let start = words.len().min(3);
    if start + end >= words.len() && end > 0 {
        return None;
    }
    let clause = words[words.len() - end..].join(" ");
    let mut spans = head;
    spans.push(Span::styled(
        format!("{} {} {clause}", words[..start].join(" "), t.g.ellipsis)
            .trim_end()
            .to_string()
            + " ",
        style,
    ));
    // Each answer line's indent goes; the spaces inside it stay.
    for line in answer {
        let mut indent = true;
        for span in &line.spans {
            let text = if indent {
                span.content.trim_start()
            } else {
                span.content.as_ref()
            };
            indent &= text.is_empty();
            if !text.is_empty() {
                spans.push(Span::styled(text.to_string(), span.style));
            }
        }
    }
    Some(Line::from(spans))
}

/// Where the newest item fits the panel whole but not under a row of its
/// own for the count of the older ones (a reveal's events panel, three
/// rows tall, and an event that wraps to three): the count goes beside
/// the newest instead, leading its first row (`↑ 2 more events · ✓ …`),
/// and where the item then runs out of rows it ends in an ellipsis
/// (`cut_after_count`). A count on a row of its own would cut the newest
/// and count its rows again at the bottom: two signs, and less of the
/// item. (A count at the end of its last row read as part of the event.)
/// False, drawing nothing, in a panel one row tall.
fn count_beside(
    t: &Theme,
    items: &[Item],
    unit: Unit,
    told: usize,
    w: u16,
    area: Rect,
    buf: &mut Buffer,
) -> bool {
    let Some((item, older)) = items.split_last() else {
        return false;
    };
    let Some(first) = item.lines.first() else {
        return false;
    };
    let lead = count_lead(t, older.len(), told, unit, first);
    let mut led = item.lines.clone();
    let mut spans = vec![Span::styled(lead, t.key())];
    spans.extend(first.spans.iter().cloned());
    led[0] = Line::from(spans);
    if measure::rows(&led, w, false) <= area.height {
        overflow::show(t, led, true, area, buf);
        return true;
    }
    cut_after_count(t, led, area, buf)
}

/// The newest item led by the count, too long for the panel even alone:
/// its first rows, the last ending in an ellipsis where the cut is (after
/// a whole word). A count of the rows cut below would be a second count,
/// of another thing, beside the first. False where the panel has one row
/// (`one_row` draws that).
fn cut_after_count(t: &Theme, led: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) -> bool {
    if area.height < 2 {
        return false;
    }
    let rows = measure::rows(&led, area.width, false).max(area.height);
    let tall = Rect {
        height: rows,
        ..area
    };
    let mut probe = Buffer::empty(tall);
    Paragraph::new(led)
        .wrap(Wrap { trim: false })
        .render(tall, &mut probe);
    let y = area.bottom() - 1;
    let blank = |b: &Buffer, x: u16| b[(x, y)].symbol().trim().is_empty();
    let end = (area.left()..area.right())
        .rev()
        .find(|&x| !blank(&probe, x))
        .map_or(area.left(), |x| x + 1);
    // Room for ` …` after the row's last word; else the last word gives
    // way to it (a row that is one word keeps its start).
    let at = if end + 2 <= area.right() {
        end + 1
    } else {
        match (area.left()..end.saturating_sub(1))
            .rev()
            .find(|&x| blank(&probe, x))
        {
            Some(space) if space > area.left() => {
                for x in space..area.right() {
                    probe[(x, y)].set_symbol(" ");
                }
                space + 1
            }
            _ => area.right() - 1,
        }
    };
    let at = at.min(area.right() - 1);
    probe[(at, y)].set_symbol(t.g.ellipsis).set_style(t.key());
    for yy in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            buf[(x, yy)] = probe[(x, yy)].clone();
        }
    }
    true
}

/// The fewest rows the SQL panel's `lines` (statements and answers, in
/// pairs, as `sql::lines` makes them) take in `w` columns with nothing
/// hidden: every answer whole, a statement squeezed to half its rows.
pub fn least_rows(lines: &[Line<'static>], w: u16) -> u16 {
    lines
        .chunks(2)
        .map(|pair| match pair {
            [statement, answer] => {
                let rows = measure::rows(std::slice::from_ref(statement), w, false);
                // Half its rows at least: a statement squeezed harder
                // reads as its first and last words only.
                rows.min(rows.div_ceil(2).max(2))
                    + measure::rows(std::slice::from_ref(answer), w, false)
            }
            other => measure::rows(other, w, false),
        })
        .sum()
}

/// The rows the SQL panel's `lines` take in `w` columns where each
/// statement keeps at least its values and its clause: squeezed no
/// further than its first words and the last two thirds of the others
/// (`INSERT INTO processed_messages … VALUES ('m-7f3', 3000 /* ms */) ON
/// CONFLICT DO NOTHING`), every answer whole. A split that gives this
/// reads what the statement wrote, not only which statement it was.
pub fn values_rows(lines: &[Line<'static>], w: u16) -> u16 {
    let t = Theme::new(false, false);
    lines
        .chunks(2)
        .map(|pair| match pair {
            [statement, answer] => {
                let whole = measure::rows(std::slice::from_ref(statement), w, false);
                let (head, text, style) = parts(statement);
                let words: Vec<&str> = text.split(' ').collect();
                let want = (words.len() * 2).div_ceil(3);
                let least = (2..words.len())
                    .filter_map(|keep| cut(&t, &head, &words, keep, style, false))
                    .find(|(_, end)| *end >= want)
                    .map_or(whole, |(line, _)| {
                        measure::rows(std::slice::from_ref(&line), w, false)
                    });
                whole.min(least) + measure::rows(std::slice::from_ref(answer), w, false)
            }
            other => measure::rows(other, w, false),
        })
        .sum()
}

/// The sign that `n` older items are not shown, on the top row.
/// No arrow in ASCII: its stand-in would read as a key.
pub fn above(t: &Theme, n: usize, unit: Unit) -> Line<'static> {
    let what = if n == 1 { unit.0 } else { unit.1 };
    let text = if t.ascii() {
        format!("({n} more {what} above)")
    } else {
        format!("↑ {n} more {what} above")
    };
    Line::from(Span::styled(text, t.key()))
}

/// The sign that `n` older items are not shown, where the story panel
/// tells the `told` oldest of all items whole: those it hides are said to
/// be in the story, the rest counted as more above (a class read `↑ 4
/// more events above` as lost, with the four whole in the story). The
/// longest wording that takes no more rows at `w` than `above` does: the
/// story leaned on the events shown under that sign (`shown_whole`).
pub(super) fn fold_sign(t: &Theme, n: usize, told: usize, unit: Unit, w: u16) -> Line<'static> {
    let plain = above(t, n, unit);
    let (in_story, rest) = (told.min(n), n - told.min(n));
    if in_story == 0 {
        return plain;
    }
    let what = if in_story == 1 { unit.0 } else { unit.1 };
    let forms: Vec<String> = if rest == 0 {
        vec![
            format!("{in_story} {what}, told in the story above"),
            format!("{in_story} told in the story above"),
            format!("{in_story} in the story above"),
            format!("{in_story} in story above"),
        ]
    } else {
        let rest_what = if rest == 1 { unit.0 } else { unit.1 };
        vec![
            format!("{in_story} {what} told in the story, {rest} more {rest_what} above"),
            format!("{in_story} told in the story, {rest} more {rest_what} above"),
            format!("{in_story} in story, {rest} more {rest_what} above"),
        ]
    };
    let rows = measure::rows(std::slice::from_ref(&plain), w, false);
    forms
        .into_iter()
        .map(|form| {
            let text = if t.ascii() {
                format!("({form})")
            } else {
                format!("↑ {form}")
            };
            Line::from(Span::styled(text, t.key()))
        })
        .find(|l| measure::rows(std::slice::from_ref(l), w, false) <= rows)
        .unwrap_or(plain)
}

/// `lines` with line `s` shortened in its middle until all fit `rows`
/// rows of `w` columns; `None` where even its ends cannot.
fn squeeze(
    t: &Theme,
    lines: &[Line<'static>],
    s: usize,
    w: u16,
    rows: u16,
) -> Option<Vec<Line<'static>>> {
    let others: u16 = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != s)
        .map(|(_, l)| measure::rows(std::slice::from_ref(l), w, false))
        .sum();
    let room = rows.checked_sub(others).filter(|r| *r > 0)?;
    // The first span is the speaker (`A> `), kept; the rest is the text.
    let (head, text, style) = parts(&lines[s]);
    let words: Vec<&str> = text.split(' ').collect();
    // The head whole where any cut keeps it, else the old start.
    for whole_head in [true, false] {
        for keep in (2..words.len()).rev() {
            let Some((squeezed, _)) = cut(t, &head, &words, keep, style, whole_head) else {
                continue;
            };
            if measure::rows(std::slice::from_ref(&squeezed), w, false) <= room {
                let mut out = lines.to_vec();
                out[s] = squeezed;
                return Some(out);
            }
        }
    }
    None
}

/// A statement's line in parts: the speaker (`A> `), the statement's
/// text, and its style.
fn parts(line: &Line<'static>) -> (Vec<Span<'static>>, String, ratatui::style::Style) {
    let (head, text): (Vec<Span<'static>>, String) = match line.spans.split_first() {
        Some((first, rest)) if !rest.is_empty() => (
            vec![first.clone()],
            rest.iter().map(|s| s.content.as_ref()).collect(),
        ),
        _ => (
            Vec::new(),
            line.spans.iter().map(|s| s.content.as_ref()).collect(),
        ),
    };
    let style = line.spans.last().map(|s| s.style).unwrap_or_default();
    (head, text, style)
}
