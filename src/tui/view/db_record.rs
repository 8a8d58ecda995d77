//! A row of idempotency_records in the database panel. Its fields are the
//! lesson of the in-progress design: whose record it is (message ID,
//! status, owner), until when it binds (the deadline a second consumer
//! waits out before it takes over) and the result kept for a repeat. A row
//! too long for the panel goes on to an indented line at a field's end,
//! rather than losing its owner and deadline to an ellipsis (teacher trial,
//! in-progress at 100x30: `m-7f3 in_progress owner …` in the chapter whose
//! lesson is that A's record is past its deadline).

use super::marks;
use crate::sim::Frame;
use crate::sim::change::Change;
use crate::sim::db::RecordRow;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// How the run's record rows are drawn at a width: one form for the whole
/// run, so a row does not jump from one line to two as the steps go by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// Every record row of the run fits one line.
    OneLine,
    /// Who holds the record on its first line, until when and with what
    /// result on an indented line under it; each line goes on again at a
    /// field's end where even that is too wide (80x24).
    Wrapped,
}

/// The indent of a line a row goes on to: under its fields, past the
/// one-space indent of a row and the two of a version's mark.
const GOES_ON: &str = "    ";

/// A record row's parts: how it starts (its message ID, or an open
/// transaction's mark over the committed row), who holds it, until when
/// and with what result, and a mark of its own after them.
pub(super) struct Fields {
    lead: Span<'static>,
    head: Vec<String>,
    tail: Vec<String>,
    mark: Option<Span<'static>>,
}

impl Fields {
    /// A committed row, or one an open transaction wrote (`by`).
    pub fn row(t: &Theme, r: &RecordRow, by: Option<&str>) -> Fields {
        Fields {
            lead: Span::raw(format!(" {}", r.message_id)),
            head: vec![r.status.clone(), format!("owner {}", r.owner)],
            tail: tail(r),
            mark: by.map(|by| Span::styled(format!("uncommitted ({by})"), t.warn())),
        }
    }

    /// An open transaction's version of the committed row `was`, drawn
    /// under it: the fields that differ (all of them when none of those
    /// shown does).
    pub fn version(t: &Theme, by: &str, was: &RecordRow, now: &RecordRow) -> Fields {
        let (mut head, mut tail_now) = differing(was, now);
        if head.is_empty() && tail_now.is_empty() {
            head = vec![now.status.clone(), format!("owner {}", now.owner)];
            tail_now = tail(now);
        }
        Fields {
            lead: Span::styled(format!("  uncommitted ({by}):"), t.warn()),
            head,
            tail: tail_now,
            mark: None,
        }
    }

    /// [`Fields::version`] drawn where its table's heading has no room:
    /// the row it is a version of named in its lead (`record m-7f3 in txn
    /// B:`). Without a form of its own it stood folded under `…1 other
    /// row` while the committed row it changes was drawn unmarked (teacher
    /// trial, in-progress at 80x24: B's takeover of A's record).
    pub fn version_alone(t: &Theme, by: &str, was: &RecordRow, now: &RecordRow) -> Fields {
        let mut v = Fields::version(t, by, was, now);
        v.lead = Span::styled(format!("record {} in txn {by}:", was.message_id), t.warn());
        v
    }

    /// An open transaction's version of a committed row of another table
    /// (`PAID v2`, `offset 3`), drawn under it.
    pub fn version_of(t: &Theme, by: &str, fields: String) -> Fields {
        Fields {
            lead: Span::styled(format!("  uncommitted ({by}):"), t.warn()),
            head: vec![fields],
            tail: Vec::new(),
            mark: None,
        }
    }

    /// A row of another table only an open transaction (`by`) wrote:
    /// its key, its fields and whose it is.
    pub fn uncommitted(t: &Theme, key: String, fields: String, by: &str) -> Fields {
        Fields {
            lead: Span::raw(format!(" {key}")),
            head: vec![fields],
            tail: Vec::new(),
            mark: Some(Span::styled(format!("uncommitted ({by})"), t.warn())),
        }
    }

    /// The row drawn where its table's heading has no room: in the
    /// heading's place, the table named before its key (`record m-7f3
    /// in_progress`, `orders 1042`), as the provider's folded key store
    /// names a key's row (`key m-7f3`).
    pub fn alone(mut self, table: &str) -> Fields {
        let lead = format!("{table}{}", self.lead.content);
        self.lead = Span::styled(lead, self.lead.style);
        self
    }

    /// The cells the row takes on one line, with room for a change's sign.
    fn one_line_width(&self) -> usize {
        let fields: usize = self
            .head
            .iter()
            .chain(&self.tail)
            .map(|f| 1 + f.chars().count())
            .sum();
        self.lead.width() + fields + self.mark.as_ref().map_or(0, |m| 2 + m.width()) + 2
    }

    /// The row's lines in `form`, `width` wide, with this step's change
    /// mark on its last line.
    pub fn lines(
        self,
        t: &Theme,
        form: Form,
        change: Option<Change>,
        width: usize,
    ) -> Vec<Line<'static>> {
        self.lines_noting(t, form, change, width).0
    }

    /// As `lines`, with what its change mark means where drawn short.
    pub fn lines_noting(
        self,
        t: &Theme,
        form: Form,
        change: Option<Change>,
        width: usize,
    ) -> (Vec<Line<'static>>, super::marks::Shortened) {
        let mark = self.mark.clone();
        let spans = |v: &[String]| v.iter().map(|f| Span::raw(f.clone())).collect::<Vec<_>>();
        let mut lines = match form {
            Form::OneLine => {
                let all = [spans(&self.head), spans(&self.tail)].concat();
                laid(self.lead.clone(), all, width)
            }
            Form::Wrapped => {
                let mut lines = laid(self.lead.clone(), spans(&self.head), width);
                if !self.tail.is_empty() {
                    lines.extend(laid(Span::raw(GOES_ON), spans(&self.tail), width));
                }
                lines
            }
        };
        if let Some(mark) = mark {
            let last = lines.pop().unwrap_or_default();
            let w = last.width();
            let mut with: Vec<Span<'static>> = last.spans.clone();
            with.push(Span::raw(" "));
            with.push(mark.clone());
            if w + 1 + mark.width() <= width {
                lines.push(Line::from(with));
            } else {
                lines.push(last);
                lines.push(Line::from(vec![Span::raw(GOES_ON), mark]));
            }
        }
        let last = lines.pop().unwrap_or_default();
        let essential = last.width();
        let fitted = marks::tagged_keeping(t, last, Vec::new(), change, width, essential);
        lines.push(fitted.line);
        let lines = lines.into_iter().map(|l| super::fit(t, l, width)).collect();
        (lines, fitted.shortened)
    }
}

/// A row only an open transaction (`by`) wrote, drawn where its table's
/// heading has no room, its fields packed on three lines (`record m-7f3
/// in_progress`, `  owner A/rh-3b6c in txn A`, `  until 33s no result`);
/// `None` where they do not fit `width`. In its four-line form it fit no
/// 80x24 panel, and the step that wrote it showed only
/// `idempotency_records …1 row` over a blank row (teacher trial).
pub(super) fn pending_alone(
    t: &Theme,
    r: &RecordRow,
    by: &str,
    width: usize,
) -> Option<Vec<Line<'static>>> {
    let lines = vec![
        Line::raw(format!("record {} {}", r.message_id, r.status)),
        Line::from(vec![
            Span::raw(format!("  owner {} ", r.owner)),
            Span::styled(format!("in txn {by}"), t.warn()),
        ]),
        Line::raw(format!("  {}", tail(r).join(" "))),
    ];
    lines.iter().all(|l| l.width() <= width).then_some(lines)
}

/// The fields of an open transaction's version `now` that differ from the
/// committed row `was`, in the row's words: who holds it (`completed`,
/// `owner B/rh-c037`), then until when and with what result. Both empty
/// where no field a row shows differs. The database panel and the
/// presenter both name a version by these, so neither names a field the
/// transaction left as it was (teacher trial: the presenter's "owner
/// B/rh-c037" over B's own record, whose status was what changed).
pub(super) fn differing(was: &RecordRow, now: &RecordRow) -> (Vec<String>, Vec<String>) {
    let mut head = Vec::new();
    if now.status != was.status {
        head.push(now.status.clone());
    }
    if now.owner != was.owner {
        head.push(format!("owner {}", now.owner));
    }
    let mut tail = Vec::new();
    if now.deadline != was.deadline && binds(now) {
        tail.push(until(now));
    }
    if now.result != was.result {
        tail.push(result(now));
    }
    (head, tail)
}

/// Until when the record binds and its result: `until 33s no result`,
/// each field named on the row (an arrow, `→ none`, needed the help to
/// read; a `-` at a line's end read as the rolled-back sign).
fn tail(r: &RecordRow) -> Vec<String> {
    let mut out = Vec::new();
    if binds(r) {
        out.push(until(r));
    }
    out.push(result(r));
    out
}

/// The deadline binds while the record is in progress: once completed,
/// the result is what a repeat gets.
fn binds(r: &RecordRow) -> bool {
    r.status == "in_progress"
}

fn until(r: &RecordRow) -> String {
    format!("until {}", crate::sim::format_duration(r.deadline))
}

/// The result column by its name, as `owner` is (`result ch_81`), or `no
/// result` while nothing is kept yet: short enough that the 80x24 panel's
/// `until 1m12s no result` keeps room for a change's ` *`.
fn result(r: &RecordRow) -> String {
    match &r.result {
        Some(kept) => format!("result {kept}"),
        None => "no result".to_string(),
    }
}

/// `lead` and then `fields`, a space between, on as few lines as hold them
/// `width` wide: a field that does not fit goes on to an indented line,
/// whole.
fn laid(lead: Span<'static>, fields: Vec<Span<'static>>, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut line = Line::from(vec![lead]);
    for f in fields {
        // A line that is only its indent takes the field as it is.
        let bare = line.spans.len() == 1 && line.spans[0].content.trim().is_empty();
        if bare {
            line.spans.push(f);
        } else if line.width() + 1 + f.width() > width {
            let next = Line::from(vec![Span::raw(GOES_ON), f]);
            lines.push(std::mem::replace(&mut line, next));
        } else {
            line.spans.extend([Span::raw(" "), f]);
        }
    }
    lines.push(line);
    lines
}

/// Every record row of a step, as it would be drawn: committed rows, an
/// open transaction's version of one, and rows only an open transaction
/// wrote.
fn rows_of(t: &Theme, f: &Frame) -> Vec<Fields> {
    let db = &f.db;
    let mut out: Vec<Fields> = db.records.iter().map(|r| Fields::row(t, r, None)).collect();
    for u in &db.uncommitted {
        for r in &u.records {
            out.push(
                match db.records.iter().find(|c| c.message_id == r.message_id) {
                    Some(was) => Fields::version(t, &u.by, was, r),
                    None => Fields::row(t, r, Some(&u.by)),
                },
            );
        }
    }
    out
}

/// The form of the run's record rows at `width`: one line where every
/// record row of every step (`frames`, and `f` with them) fits one.
pub(super) fn form(t: &Theme, frames: &[Frame], f: &Frame, width: usize) -> Form {
    let fits = frames
        .iter()
        .chain(std::iter::once(f))
        .flat_map(|f| rows_of(t, f))
        .all(|r| r.one_line_width() <= width);
    if fits { Form::OneLine } else { Form::Wrapped }
}
