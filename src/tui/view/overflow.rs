//! Nothing is cut without a sign. A panel's lines are drawn off screen at
//! their full height first; when they do not all fit, the last row that
//! fits says how many more there are (after an ellipsis: its row may end
//! mid-sentence), and a line too wide for a panel that does not wrap ends
//! in an ellipsis (`fit`).

use super::fit;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The most rows a panel's content is drawn at off screen: far more than
/// any frame holds, and a bound on the work.
const PROBE_ROWS: u16 = 400;

/// Draws `lines` into `area`, wrapped at word boundaries (prose) or cut at
/// the edge with an ellipsis (tables, step lists). Returns how many rows
/// did not fit; when some did not, the last row says so.
pub fn show(t: &Theme, lines: Vec<Line<'static>>, wrap: bool, area: Rect, buf: &mut Buffer) -> u16 {
    show_signed(t, lines, wrap, area, buf, signs)
}

/// `show` with the sign `signs` makes for the rows that do not fit.
pub fn show_signed(
    t: &Theme,
    lines: Vec<Line<'static>>,
    wrap: bool,
    area: Rect,
    buf: &mut Buffer,
    signs: fn(&Theme, u16) -> (String, String),
) -> u16 {
    show_placed(t, lines, wrap, area, buf, signs, false)
}

/// Prose as `show` wraps it, with the sign `signs` makes one space after
/// the last word the row keeps rather than at the row's end: a sign that
/// ends a sentence cut short (the verdict's) reads as its end, where a
/// gap before it read as a slip (`lost on the  …2 more`, teacher trial).
pub fn show_after_words(
    t: &Theme,
    lines: Vec<Line<'static>>,
    area: Rect,
    buf: &mut Buffer,
    signs: fn(&Theme, u16) -> (String, String),
) -> u16 {
    show_placed(t, lines, true, area, buf, signs, true)
}

/// [`show_signed`], the sign at the row's end or, `after_words`, one
/// space after its last word.
fn show_placed(
    t: &Theme,
    lines: Vec<Line<'static>>,
    wrap: bool,
    area: Rect,
    buf: &mut Buffer,
    signs: fn(&Theme, u16) -> (String, String),
    after_words: bool,
) -> u16 {
    if area.is_empty() {
        return 0;
    }
    let width = usize::from(area.width);
    let used = if wrap {
        wrapped(lines, area, buf)
    } else {
        // One row a line: no need to draw off screen to count them.
        let lines: Vec<Line<'static>> = lines.into_iter().map(|l| fit(t, l, width)).collect();
        let used = lines
            .iter()
            .rposition(|l| l.spans.iter().any(|s| !s.content.trim().is_empty()))
            .map_or(0, |i| i + 1);
        Paragraph::new(lines).render(area, buf);
        u16::try_from(used).unwrap_or(u16::MAX)
    };
    let hidden = used.saturating_sub(area.height);
    if hidden == 0 {
        return 0;
    }
    // The sign takes the end of the last row: the row keeps what it can.
    // Both signs start with an ellipsis: the row they end may be cut
    // mid-sentence, and a count alone does not say so.
    let (long, short) = signs(t, hidden);
    let y = area.bottom() - 1;
    let blank = |buf: &Buffer, x: u16| buf[(x, y)].symbol().trim().is_empty();
    let width_of = |text: &str| (text.chars().count() as u16).min(area.width);
    // Would the sign land inside a word or a number? `ch_82 order 104 …`
    // reads as another order: the row must lose whole words, never part.
    let splits = |buf: &Buffer, w: u16| {
        let start = area.right() - w;
        start > area.left() && !blank(buf, start - 1) && !blank(buf, start)
    };
    // The long sign where it splits nothing; else the short one, which
    // takes back the least of the row when both would split a word.
    let text = if area.width >= 24 && !splits(buf, width_of(&long)) {
        long
    } else {
        short
    };
    let w = width_of(&text);
    let start = area.right() - w;
    if splits(buf, w) {
        // Take back the rest of the cut word, where the row has a space
        // to stop at; a row that is one long word keeps its cut.
        if let Some(space) = (area.left()..start).rev().find(|&x| blank(buf, x)) {
            for x in space..start {
                buf[(x, y)].set_symbol(" ");
            }
        }
    }
    // After the words: the sign's own space parts it from the last word
    // kept, and the columns it leaves at the row's end are blank.
    let start = if after_words {
        let at = (area.left()..start)
            .rev()
            .find(|&x| !blank(buf, x))
            .map_or(area.left(), |x| x + 1);
        for x in at..area.right() {
            buf[(x, y)].set_symbol(" ");
        }
        at
    } else {
        start
    };
    let line = fit(t, Line::styled(text, t.key()), usize::from(w));
    buf.set_line(start, y, &line, w);
    hidden
}

/// The sign that `hidden` rows are not shown, long (` … ↓ 2 more`) and
/// short (` …2 more`), each with a space before it. Both carry the word
/// "more" after an ellipsis: the sign often ends a heading beside a figure,
/// and a bare `↓1` there read as the figure going down by one
/// (`charges 2 ($80) ↓1`). No arrow in ASCII: its stand-in would be `v`,
/// a key; and no `(+2)`, the mark of a counter that moved.
pub fn signs(t: &Theme, hidden: u16) -> (String, String) {
    let arrow = if t.ascii() { "" } else { "↓ " };
    let long = format!(" {} {arrow}{hidden} more", t.g.ellipsis);
    let short = format!(" {}{hidden} more", t.g.ellipsis);
    (long, short)
}

/// The sign for a panel that counts its items on top (events,
/// statements, `newest`), where its newest is cut at the bottom: it says
/// lines of text (` … ↓ 1 more line`, ` …1 more line`). A bare `…1 more`
/// there ended the event's sentence (`waits for A to …1 more`, teacher
/// trial 17) and could be read as one more event; `1 more row` beside the
/// SQL's `0 rows: conflict` read as a database row (trial 19).
pub fn row_signs(t: &Theme, hidden: u16) -> (String, String) {
    let rows = if hidden == 1 { "line" } else { "lines" };
    let arrow = if t.ascii() { "" } else { "↓ " };
    let long = format!(" {} {arrow}{hidden} more {rows}", t.g.ellipsis);
    let short = format!(" {}{hidden} more {rows}", t.g.ellipsis);
    (long, short)
}

/// The sign for rows left out of words the story above tells whole:
/// where they are read, not only how many (` … the rest in the story`).
pub fn told_above_signs(t: &Theme, _hidden: u16) -> (String, String) {
    (
        format!(" {} the rest in the story", t.g.ellipsis),
        format!(" {}in the story", t.g.ellipsis),
    )
}

/// The sign for a panel whose heading ends in a count (`charges 2 $80`):
/// there even `…1 more` read as one more charge (trial 6). It says rows,
/// and that they are not shown: long (` … 1 row not shown`) and short
/// (` …1 hidden`).
pub fn heading_signs(t: &Theme, hidden: u16) -> (String, String) {
    let rows = if hidden == 1 { "row" } else { "rows" };
    let long = format!(" {} {hidden} {rows} not shown", t.g.ellipsis);
    let short = format!(" {}{hidden} hidden", t.g.ellipsis);
    (long, short)
}

/// Prose drawn off screen at full height first, then copied: how many rows
/// it wraps to is only known once it is drawn. Returns the rows used.
fn wrapped(lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) -> u16 {
    // Tall enough for every row the text wraps to.
    let rows = crate::tui::measure::rows(&lines, area.width, false);
    let probe_rows = rows.clamp(area.height + 1, PROBE_ROWS.max(area.height + 1));
    let probe_area = Rect::new(0, 0, area.width, probe_rows);
    let mut probe = Buffer::empty(probe_area);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(probe_area, &mut probe);
    let blank = |y: u16| (0..area.width).all(|x| probe[(x, y)].symbol() == " ");
    let used = (0..probe_rows)
        .rposition(|y| !blank(y))
        .map_or(0, |y| y + 1) as u16;
    for y in 0..area.height {
        for x in 0..area.width {
            buf[(area.x + x, area.y + y)] = probe[(x, y)].clone();
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(lines: Vec<Line<'static>>, wrap: bool, w: u16, h: u16) -> (u16, Vec<String>) {
        let t = Theme::new(false, false);
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        let hidden = show(&t, lines, wrap, area, &mut buf);
        let rows = (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect();
        (hidden, rows)
    }

    #[test]
    fn the_sign_never_leaves_part_of_a_word_or_number() {
        let lines = vec![
            Line::from("charges made 2 ($80)"),
            Line::from(" ch_81 order 1042 $40"),
            Line::from(" ch_82 order 1042 $40 +"),
            Line::from("keys: none"),
        ];
        let (hidden, rows) = screen(lines.clone(), false, 31, 3);
        assert_eq!(hidden, 1);
        // The short sign fits beside the whole row.
        assert_eq!(rows[2], " ch_82 order 1042 $40 + …1 more");
        // Narrower, the row gives way by whole words, never `$4`.
        let (_, rows) = screen(lines, false, 27, 3);
        assert_eq!(rows[2], " ch_82 order 1042   …1 more");
        let lines = vec![
            Line::from("a"),
            Line::from("b"),
            Line::from("order 1042 amount 40 message m-7f3"),
        ];
        let (_, rows) = screen(lines, false, 26, 2);
        assert!(
            !rows[1].contains("104 ") && !rows[1].contains("m-7"),
            "{}",
            rows[1]
        );
    }

    #[test]
    fn rows_that_do_not_fit_are_counted_on_the_last_row() {
        let lines = (1..=5).map(|i| Line::raw(format!("row {i}"))).collect();
        let (hidden, rows) = screen(lines, false, 20, 3);
        assert_eq!(hidden, 2);
        assert_eq!(rows[0].trim(), "row 1");
        assert_eq!(
            rows[2].trim(),
            "row 3        …2 more",
            "the last row keeps its start"
        );
        let lines = (1..=5).map(|i| Line::raw(format!("row {i}"))).collect();
        let (_, rows) = screen(lines, false, 30, 3);
        assert_eq!(rows[2].trim(), "row 3               … ↓ 2 more");
    }

    /// A count of hidden rows says "more" in both its forms, in Unicode
    /// and in ASCII: beside a figure, a bare `↓1` read as the figure going
    /// down, and ASCII's `(+1)` is the mark of a counter that moved.
    #[test]
    fn both_signs_say_more_and_neither_reads_as_a_change() {
        for ascii in [false, true] {
            let t = Theme::new(false, ascii);
            let (long, short) = signs(&t, 3);
            for sign in [&long, &short] {
                assert!(sign.ends_with("3 more"), "{sign:?}");
                assert!(sign.starts_with(&format!(" {}", t.g.ellipsis)), "{sign:?}");
                assert!(!sign.contains('+') && !sign.contains("↓3"), "{sign:?}");
            }
            assert!(short.chars().count() < long.chars().count());
        }
    }

    #[test]
    fn a_wide_line_ends_in_an_ellipsis_and_prose_wraps() {
        let (hidden, rows) = screen(vec![Line::raw("abcdefghij")], false, 6, 2);
        assert_eq!(hidden, 0);
        assert_eq!(rows[0], "abcde…");
        let (hidden, rows) = screen(vec![Line::raw("one two three")], true, 8, 2);
        assert_eq!(hidden, 0);
        assert_eq!(rows[1].trim(), "three");
        let (hidden, _) = screen(vec![Line::raw("one two three four")], true, 8, 2);
        assert_eq!(hidden, 1);
    }

    #[test]
    fn blank_rows_at_the_end_are_not_content() {
        let lines = vec![Line::raw("a"), Line::raw(""), Line::raw("")];
        let (hidden, _) = screen(lines, false, 5, 1);
        assert_eq!(hidden, 0);
    }
}
