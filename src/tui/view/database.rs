//! The Payments database: the payments rows with the total, and the
//! processed_messages table that makes the handler idempotent.

use super::db_record::{self, Fields};
use super::marks;
use crate::sim::Frame;
use crate::sim::change::{Change, Place};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The panel's lines for `f` alone, with no run behind it: the tests
/// below read one frame so; every screen draws its run's form.
#[cfg(test)]
fn lines(t: &Theme, f: &Frame, width: usize, height: usize) -> Vec<Line<'static>> {
    run_lines(t, &[], f, width, height)
}

/// The panel's lines for `f`, a step of the run `frames`: an uncommitted
/// payment row's mark takes one form for the whole run at this width.
pub fn run_lines(
    t: &Theme,
    frames: &[Frame],
    f: &Frame,
    width: usize,
    height: usize,
) -> Vec<Line<'static>> {
    run_lines_noting(
        t,
        frames,
        f,
        (width, height),
        &mut marks::Shortened::default(),
    )
}

/// As `run_lines`, the meanings of the marks its rows on screen drew
/// short added to `short`, for the panel's border to name.
pub fn run_lines_noting(
    t: &Theme,
    frames: &[Frame],
    f: &Frame,
    (width, height): (usize, usize),
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let form = TxnForm::of(t, frames, f, width);
    let records = db_record::form(t, frames, f, width);
    drawn_in(t, f, (width, width, height), (form, records), short).0
}

/// The form an uncommitted row's mark takes in payments and
/// processed_messages, once for the run at a width (`run_form`):
/// `uncommitted (A)` at one step and `in txn A` at the next read as two
/// states (teacher trial, tour-1 idempotent at 100x30: the message ID's
/// row said the one at step 3, the other at step 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TxnForm {
    /// `  uncommitted (A)`, the change mark's word beside it.
    Whole,
    /// ` in txn A`, which still says both, the change mark's word beside it.
    Short,
    /// ` in txn A`, the change mark's sign alone beside it: the word gives
    /// way before the mark's words do (`uncommitted (A) +` read as a row
    /// whose `new` was cut).
    Signed,
    /// ` in txn A` where even that leaves a row no room at some step (a
    /// long content hash at 80x24): the row's text gives way, visibly.
    Cut,
}

impl TxnForm {
    /// The widest form that fits every uncommitted payment and processed
    /// row of the run (`frames`, and `f` with them) whole, beside its
    /// change mark.
    fn of(t: &Theme, frames: &[Frame], f: &Frame, width: usize) -> TxnForm {
        let steps: Vec<&Frame> = frames.iter().chain(std::iter::once(f)).collect();
        let fits = |form: TxnForm, f: &&Frame| {
            let payments = f.db.payments.iter().enumerate().all(|(i, p)| {
                let Some(by) = &p.uncommitted_by else {
                    return true;
                };
                let change = f.changes.of(Place::Payments, &i.to_string());
                form.fits(t, payment_row(p, width).chars().count(), by, change, width)
            });
            let processed = f.db.processed.iter().all(|p| {
                let Some(by) = &p.uncommitted_by else {
                    return true;
                };
                let change = f.changes.of(Place::Processed, &p.message_id);
                form.fits(t, processed_row(p).chars().count(), by, change, width)
            });
            payments && processed
        };
        let forms = [TxnForm::Whole, TxnForm::Short, TxnForm::Signed];
        super::run_form::widest(forms, &steps, fits).unwrap_or(TxnForm::Cut)
    }

    /// Whether a row `row` cells wide has room in `width` for this form's
    /// mark and for its change mark, with its word or its sign as the form
    /// says.
    fn fits(self, t: &Theme, row: usize, by: &str, change: Option<Change>, width: usize) -> bool {
        let tag = match self {
            TxnForm::Whole | TxnForm::Short => tag_width(change),
            TxnForm::Signed | TxnForm::Cut => {
                change.map_or(0, |c| 1 + marks::symbol(t, c).chars().count())
            }
        };
        row + self.mark(t, by).width() + tag <= width
    }

    fn mark(self, t: &Theme, by: &str) -> Span<'static> {
        let m = not_committed(t, by);
        match self {
            TxnForm::Whole => m.whole,
            TxnForm::Short | TxnForm::Signed | TxnForm::Cut => m.short,
        }
    }

    /// An uncommitted row `row` with this form's mark and its change mark:
    /// the row whole where the form fits it, else its end gives way.
    fn line(
        self,
        t: &Theme,
        row: String,
        by: &str,
        change: Option<Change>,
        width: usize,
    ) -> marks::Fitted {
        let row_w = row.chars().count();
        let mark = self.mark(t, by);
        if self.fits(t, row_w, by, change, width) {
            return marks::tagged_keeping(t, Line::raw(row), vec![mark], change, width, row_w);
        }
        let parts = marks::Parts {
            essential: Line::raw(row),
            rest: Line::default(),
        };
        marks::fit_parts(t, parts, vec![marks::Mark::whole(mark)], change, width)
    }
}

/// A processed_messages row: its message ID.
fn processed_row(p: &crate::sim::frame::ProcessedView) -> String {
    format!(" {}", p.message_id)
}

/// A payment's order, amount and message: in their columns where the
/// panel is `PAYMENT_COLUMNS` wide.
fn payment_row(p: &crate::sim::frame::PaymentView, width: usize) -> String {
    if width >= PAYMENT_COLUMNS {
        format!(
            " {:<6} {:<7} {}",
            p.order,
            format!("${}", p.amount),
            p.message_id
        )
    } else {
        format!(" {} ${} {}", p.order, p.amount, p.message_id)
    }
}

/// The line of the panel that heads `processed_messages`, which predict
/// mode marks when a question was about it (the payments' heading, with
/// their total, is always the first line).
pub fn processed_line(t: &Theme, f: &Frame, width: usize, height: usize) -> usize {
    drawn(t, f, width, width, height).1
}

/// The panel's lines, and where the `processed_messages` heading is (0
/// where it is folded away); the heading's words are those of a panel
/// `panel` wide.
fn drawn(
    t: &Theme,
    f: &Frame,
    width: usize,
    panel: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let records = db_record::form(t, &[], f, width);
    drawn_in(
        t,
        f,
        (width, panel, height),
        (TxnForm::of(t, &[], f, width), records),
        &mut marks::Shortened::default(),
    )
}

/// The lines the panel takes at `f` where nothing is folded and no row
/// goes on beyond its two-line form (`db_record::Form::Wrapped`): the
/// heading, and every table's lines. The layout sizes the panel for the
/// most any step of a run needs; a record too long for one line takes
/// two at every size a class meets (its one-line form is wider than the
/// panel at 120x40), and at 80x24 a row that goes on further is folded
/// and counted.
pub fn rows_needed(f: &Frame) -> usize {
    let t = Theme::new(false, false);
    // Wide enough that no row is cut or goes on beyond its form.
    let wide = 1000;
    let mut sheet = Sheet::default();
    tables(
        &t,
        f,
        wide,
        TxnForm::Whole,
        db_record::Form::Wrapped,
        &mut sheet,
    );
    1 + sheet.len()
}

/// The lines of `rows_needed` that are the run's evidence: every table's
/// rows and headings, but not the one line that says a design does not
/// use processed_messages. That line holds no row; where the panel is
/// short it folds first, uncounted (`Sheet::fold`), and the panels above
/// do not keep rows from the verdict's chain or the story for it (100x30,
/// offset-on-a-queue: the chain's last two causes gave way to it).
/// `rows` is `rows_needed(f)`, which the layout has already counted.
pub fn evidence_rows(f: &Frame, rows: usize) -> usize {
    rows - usize::from(!f.db.uses_processed)
}

/// As `drawn`, `(width, panel, height)`, with the uncommitted payments'
/// mark in `form` and the record rows in `records`; the meanings of the
/// marks drawn short on the lines kept (not those folded away) go to
/// `short`.
fn drawn_in(
    t: &Theme,
    f: &Frame,
    (width, panel, height): (usize, usize, usize),
    (form, records): (TxnForm, db_record::Form),
    short: &mut marks::Shortened,
) -> (Vec<Line<'static>>, usize) {
    let mut sheet = Sheet::default();
    let processed = tables(t, f, width, form, records, &mut sheet);
    let hidden = sheet.fold(t, width, height.saturating_sub(1));
    let mut hidden = sheet.hidden_by_table(hidden);
    sheet.count_under_own_headings(t, &mut hidden, width);
    let twice = f.db.payments.iter().any(|p| p.repeat);
    let mut out = vec![heading(t, f, twice, width, panel, hidden)];
    let mut heading = 0;
    for (i, (line, noted)) in sheet.lines.into_iter().zip(sheet.short).enumerate() {
        if i == processed {
            heading = out.len();
        }
        if let Some(line) = line {
            short.extend(noted.into_spans());
            out.push(line);
        }
    }
    // The column names only where the rows are drawn in their columns
    // (`PAYMENT_COLUMNS` wide), and every line of every table still fits
    // below them: the rows are the evidence, the names are not.
    if width >= PAYMENT_COLUMNS && out.len() < height {
        out.insert(1, Line::styled(" order  amount  message", t.dim()));
        if heading > 0 {
            heading += 1;
        }
    }
    (out, heading)
}

/// The tables' lines under the payments heading, before any are folded
/// away to fit a short panel.
#[derive(Default)]
struct Sheet {
    /// `None` once folded away.
    lines: Vec<Option<Line<'static>>>,
    /// What this step changed, or the evidence of what it did (a refused
    /// insert): never folded away.
    now: Vec<bool>,
    /// Heads a table: kept wherever a row of its table is.
    title: Vec<bool>,
    /// A heading's table name (empty for other lines).
    names: Vec<String>,
    /// Goes on from the line above: a row too long for one line (a
    /// record's deadline and result under its owner), kept or folded with
    /// it and counted with it as one row.
    goes_on: Vec<bool>,
    /// Says a table has no rows (` (no rows)`): no row of it, so never
    /// counted as one where it is folded away.
    nothing: Vec<bool>,
    /// Says a table is not used by the design: no row of anything, and
    /// the first line to go, uncounted, where the panel folds (a design
    /// shows no other table it does not use).
    note: Vec<bool>,
    /// A row's lines as drawn without its table's heading, the table named
    /// on its first (`record m-7f3 in_progress`), where they fit as many
    /// lines: a short panel keeps the row whole in the line its heading
    /// would take.
    alone: Vec<Option<Line<'static>>>,
    /// A line of a row whose `alone` form is shorter: drawn as none
    /// where the row is drawn alone.
    alone_gone: Vec<bool>,
    /// The payments table has no rows: its one line says so.
    empty_payments: bool,
    /// What the marks a line drew short mean, for the panel's border: a
    /// line folded away names none.
    short: Vec<marks::Shortened>,
    /// As `short`, for the line `alone`.
    alone_short: Vec<marks::Shortened>,
    /// A table's line that counts its own folded rows already (a table
    /// folded whole: `processed_messages …2 rows`).
    counts_own: Vec<bool>,
}

/// The lines the panel folded away, by table: the heading's count sits
/// beside the payments total, so a bare count there reads as hidden
/// payments; lines of another table say whose they are.
#[derive(Default)]
struct Hidden {
    payments: usize,
    others: Vec<(String, usize)>,
}

impl Hidden {
    /// The heading's signs for these lines, roomiest first (`[""]` where
    /// nothing is folded).
    fn signs(&self, t: &Theme) -> Vec<String> {
        let e = t.g.ellipsis;
        let other: usize = self.others.iter().map(|(_, n)| n).sum();
        if other == 0 {
            if self.payments == 0 {
                return vec![String::new()];
            }
            let (long, short) =
                super::overflow::heading_signs(t, u16::try_from(self.payments).unwrap_or(u16::MAX));
            return vec![long, short];
        }
        let rows = |n: usize| if n == 1 { "row" } else { "rows" };
        let mut parts = Vec::new();
        if self.payments > 0 {
            parts.push(format!("{} payment {}", self.payments, rows(self.payments)));
        }
        for (name, n) in &self.others {
            parts.push(format!("{n} {name} {}", rows(*n)));
        }
        let all = self.payments + other;
        let mut out = vec![format!(" {e} {} not shown", parts.join(", "))];
        // Beside the payments total a bare count reads as payment rows
        // (teacher trial 22: `payments · total $0 …2 rows` over no payment
        // at all, the two rows being idempotency_records'): with none of
        // them folded, every form says the rows are other tables'. With
        // some folded, the fewest form counts both (`…3 rows, 2 other`
        // took the heading's label from a reveal's row at 80x24).
        if self.payments == 0 {
            out.push(format!(" {e}{other} other {}", rows(other)));
            out.push(format!(" {e}{other} other"));
        } else {
            out.push(format!(" {e}{all} {}, {other} other", rows(all)));
            out.push(format!(" {e}{all} {}", rows(all)));
        }
        out
    }
}

impl Sheet {
    /// A line that says its table has no rows.
    fn nothing(&mut self, line: Line<'static>) {
        self.add(line, false, false);
        if let Some(last) = self.nothing.last_mut() {
            *last = true;
        }
    }

    /// The line that says a table is not used (`processed_messages: not
    /// used`).
    fn note(&mut self, line: Line<'static>) {
        self.add(line, false, true);
        if let Some(last) = self.note.last_mut() {
            *last = true;
        }
    }

    fn changed(&mut self, line: Line<'static>, now: bool) {
        self.add(line, now, false);
    }

    /// A line fitted with its marks (`marks::Fitted`), as `changed`.
    fn fitted(&mut self, fitted: marks::Fitted, now: bool) {
        self.add(fitted.line, now, false);
        if let Some(last) = self.short.last_mut() {
            *last = fitted.shortened;
        }
    }

    /// As `row_alone`, the meanings of the marks each form drew short
    /// (`short` for `lines`, `alone_short` for `alone`) on its last line.
    fn row_alone_noted(
        &mut self,
        (lines, short): (Vec<Line<'static>>, marks::Shortened),
        (alone, alone_short): (Vec<Line<'static>>, marks::Shortened),
        now: bool,
    ) {
        self.row_alone(lines, alone, now);
        if let Some(last) = self.short.last_mut() {
            *last = short;
        }
        if let Some(last) = self.alone_short.last_mut() {
            *last = alone_short;
        }
    }

    fn title(&mut self, line: Line<'static>) {
        self.add(line, false, true);
    }

    /// A row on `lines`, the first its own and the others going on from
    /// it.
    fn row(&mut self, lines: Vec<Line<'static>>, now: bool) {
        self.row_alone(lines, Vec::new(), now);
    }

    /// A row as `row`, with its lines `alone` as drawn without its table's
    /// heading (kept only where they are no more: a row whose alone form
    /// packs its fields tighter takes fewer lines there, and the lines it
    /// no longer needs are drawn as none, not as blanks).
    fn row_alone(&mut self, lines: Vec<Line<'static>>, alone: Vec<Line<'static>>, now: bool) {
        let fits = !alone.is_empty() && alone.len() <= lines.len();
        let mut alone = fits.then_some(alone.into_iter());
        for (i, line) in lines.into_iter().enumerate() {
            self.add(line, now, false);
            if let Some(last) = self.goes_on.last_mut() {
                *last = i > 0;
            }
            if let (Some(last), Some(a)) = (self.alone.last_mut(), alone.as_mut()) {
                *last = a.next();
                if last.is_none() {
                    // Not a line of the alone form: drawn as none.
                    *self.alone_gone.last_mut().unwrap_or(&mut false) = true;
                }
            }
        }
    }

    fn add(&mut self, line: Line<'static>, now: bool, title: bool) {
        // A table's name is its heading's first word (`processed_messages`).
        let name = line
            .spans
            .first()
            .map(|s| s.content.trim().to_string())
            .unwrap_or_default();
        self.names.push(if title { name } else { String::new() });
        self.lines.push(Some(line));
        self.now.push(now);
        self.title.push(title);
        self.goes_on.push(false);
        self.nothing.push(false);
        self.note.push(false);
        self.alone.push(None);
        self.alone_gone.push(false);
        self.short.push(marks::Shortened::default());
        self.alone_short.push(marks::Shortened::default());
        self.counts_own.push(false);
    }

    fn len(&self) -> usize {
        self.lines.len()
    }

    /// The table heading a line is under, if any (the payments rows are
    /// under the panel's own heading, always drawn).
    fn title_of(&self, i: usize) -> Option<usize> {
        (0..=i).rev().find(|&k| self.title[k])
    }

    /// The folded lines by the table they belong to: payment rows (under
    /// the panel's own heading), then each other table's rows by its name
    /// (`processed_messages`), a folded heading with them. `total` is what
    /// `fold` returned.
    fn hidden_by_table(&self, total: usize) -> Hidden {
        let mut hidden = Hidden::default();
        if total == 0 {
            return hidden;
        }
        for (i, line) in self.lines.iter().enumerate() {
            // A row is counted once, not a line of it; a folded heading is
            // counted only where it is its table's one line (`not used`),
            // else its rows are what is hidden (`…3 rows` read as three
            // where a heading and two rows were folded).
            let heads_rows = self.title[i] && self.title.get(i + 1).is_some_and(|t| !t);
            if line.is_some() || self.goes_on[i] || heads_rows || self.nothing[i] || self.note[i] {
                continue;
            }
            match self.title_of(i) {
                None => hidden.payments += 1,
                Some(h) => {
                    let name = self.names[h].clone();
                    match hidden.others.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, count)) => *count += 1,
                        None => hidden.others.push((name, 1)),
                    }
                }
            }
        }
        hidden
    }

    /// Where a table's heading stands, its folded rows are counted beside
    /// it (`idempotency_records …1 row`), not beside the payments total
    /// (teacher trial 48, in-progress at 100x30: `payments · total $0 …1
    /// other row` above `(no rows)`, the row A's record under the heading
    /// below it; at 80x24 a table folded whole was counted on both lines).
    /// What is counted there leaves `hidden`; where the sign does not fit
    /// beside the heading, the panel's heading counts it as before.
    fn count_under_own_headings(&mut self, t: &Theme, hidden: &mut Hidden, width: usize) {
        hidden.others.retain(|(name, n)| {
            let Some(h) = (0..self.len())
                .find(|&h| self.title[h] && self.names[h] == *name && self.lines[h].is_some())
            else {
                return true;
            };
            if self.counts_own[h] {
                return false;
            }
            let sign = format!(
                " {}{n} {}",
                t.g.ellipsis,
                if *n == 1 { "row" } else { "rows" }
            );
            let Some(line) = self.lines[h].as_mut() else {
                return true;
            };
            if line.width() + sign.chars().count() > width {
                return true;
            }
            line.spans.push(Span::styled(sign, t.dim()));
            false
        });
    }

    /// Keeps at most `slots` lines, as the provider's panel does: every
    /// line this step changed with its table's heading, then the others
    /// in their order, each with its heading. Returns how many were folded
    /// away; the panel's heading counts them, so the change is on screen
    /// and nothing is dropped without a sign. No row is left blank while
    /// a row is folded: a row that fits only without its heading is drawn
    /// alone, its table named on it (`record m-7f3`), and a table whose
    /// rows are all folded says so in a row left over (`processed_messages
    /// …2 rows`).
    fn fold(&mut self, t: &Theme, width: usize, slots: usize) -> usize {
        let n = self.len();
        if n <= slots {
            return 0;
        }
        // A heading is kept only with a row of its table, so the line that
        // a table is not used goes first, uncounted: it holds no row, and
        // the rows this design writes need the room (teacher trial,
        // in-progress at 80x24: it stood while A's record was folded).
        let mut keep = vec![false; n];
        let mut alone = vec![false; n];
        let mut room = slots;
        // A row, every line of it, with its heading, if both (or the
        // heading already kept) fit in the room left; else the row alone,
        // where it has a form without its heading.
        let mut take = |i: usize, keep: &mut Vec<bool>, alone: &mut Vec<bool>| {
            if self.goes_on[i] || self.title[i] || keep[i] {
                return;
            }
            let lines = 1 + (i + 1..n).take_while(|&k| self.goes_on[k]).count();
            let head = self.title_of(i).filter(|&h| !keep[h]);
            let cost = lines + usize::from(head.is_some());
            if cost <= room {
                keep[i..i + lines].fill(true);
                if let Some(h) = head {
                    keep[h] = true;
                }
                room -= cost;
            } else if head.is_some() && self.alone[i].is_some() {
                let alone_lines = (i..i + lines).filter(|&k| !self.alone_gone[k]).count();
                if alone_lines <= room {
                    keep[i..i + lines].fill(true);
                    alone[i..i + lines].fill(true);
                    room -= alone_lines;
                }
            }
        };
        for i in (0..n).filter(|&i| self.now[i]) {
            take(i, &mut keep, &mut alone);
        }
        // An empty payments table's `(no rows)` last: the total beside the
        // heading ($0) says it too, and a record under its owner and
        // deadline says what no other line does.
        let spare = |i: usize| self.empty_payments && i == 0;
        for i in (0..n)
            .filter(|&i| !spare(i))
            .chain((0..n).filter(|&i| spare(i)))
        {
            take(i, &mut keep, &mut alone);
        }
        // A row drawn alone whose heading was kept after all (for another
        // row of its table) stands under it as the others do.
        for (i, a) in alone.iter_mut().enumerate() {
            if self.title_of(i).is_some_and(|h| keep[h]) {
                *a = false;
            }
        }
        // A table with every row folded away, in a row left over: its name
        // and how many of its rows are not shown, which the panel's heading
        // counts too. A heading alone would read as an empty table.
        for h in 0..n {
            let under: Vec<usize> = (h + 1..n).take_while(|&k| !self.title[k]).collect();
            let folded = self.title[h] && !self.note[h] && !keep[h];
            if !folded || room == 0 || under.iter().any(|&k| keep[k]) {
                continue;
            }
            let rows = under
                .iter()
                .filter(|&&k| !self.goes_on[k] && !self.nothing[k])
                .count();
            if let Some(line) = folded_table(t, &self.names[h], rows, width) {
                self.lines[h] = Some(line);
                self.counts_own[h] = true;
                keep[h] = true;
                room -= 1;
            }
        }
        for i in (0..n).filter(|&i| alone[i]) {
            self.lines[i] = self.alone[i].take();
            self.short[i] = std::mem::take(&mut self.alone_short[i]);
        }
        let mut hidden = 0;
        for (line, kept) in self.lines.iter_mut().zip(keep) {
            if !kept {
                *line = None;
                hidden += 1;
            }
        }
        hidden
    }
}

/// The line that stands for a table whose every row is folded away: its
/// name and how many rows (`processed_messages …2 rows`), or that it has
/// none (`order_status: no rows`); `None` where even its shortest form is
/// wider than `width`.
fn folded_table(t: &Theme, name: &str, rows: usize, width: usize) -> Option<Line<'static>> {
    let e = t.g.ellipsis;
    let said = match rows {
        0 => vec![": no rows".to_string()],
        1 => vec![format!(" {e}1 row"), format!(" {e}1")],
        n => vec![format!(" {e}{n} rows"), format!(" {e}{n}")],
    };
    // The name to its first word where it is too long (`cache (outside
    // the database)` at 80x24): still the table the heading would name.
    let short = name.split_whitespace().next().unwrap_or(name);
    let (name, said) = [name, short]
        .into_iter()
        .flat_map(|n| said.iter().map(move |s| (n, s.clone())))
        .find(|(n, s)| n.chars().count() + s.chars().count() <= width)?;
    let style = if rows == 0 { t.dim() } else { t.key() };
    Some(Line::from(vec![
        Span::styled(name.to_string(), t.title()),
        Span::styled(said, style),
    ]))
}

/// The panel width from which a payment's order, amount and message are
/// drawn in columns under their names.
const PAYMENT_COLUMNS: usize = 36;

/// Every table's lines under the payments heading; returns where the
/// `processed_messages` heading is among them.
fn tables(
    t: &Theme,
    f: &Frame,
    width: usize,
    form: TxnForm,
    records: db_record::Form,
    out: &mut Sheet,
) -> usize {
    let g = &t.g;
    let db = &f.db;
    let ch = &f.changes;
    if db.payments.is_empty() && ch.gone(Place::Payments).next().is_none() {
        out.nothing(Line::styled(" (no rows)", t.dim()));
        // Folded, it is no payment hidden: the total beside the heading
        // ($0) already says there is none.
        out.empty_payments = true;
    }
    for (i, p) in db.payments.iter().enumerate() {
        let row = payment_row(p, width);
        let change = ch.of(Place::Payments, &i.to_string());
        if let Some(by) = &p.uncommitted_by {
            // Which payment, for which message, is the evidence: the order,
            // the amount and the message ID stay whole, in their columns;
            // the marks shorten first (`uncommitted (A)` to `in txn A`), in
            // the run's form (`TxnForm`), one for every such row.
            out.fitted(form.line(t, row, by, change, width), change.is_some());
            continue;
        }
        let kept = match () {
            _ if p.repeat && change == Some(Change::Committed) => {
                out.fitted(committed_again(t, row, width), true);
                continue;
            }
            _ if p.repeat => vec![Span::styled(format!(" {} again", g.failed), t.bad())],
            _ => Vec::new(),
        };
        // The order, the amount and the message ID are the evidence (two
        // rows with one ID are the duplicate): the marks' words fold to
        // their signs before any of them is cut.
        let essential = row.chars().count();
        let line = marks::tagged_keeping(t, Line::raw(row), kept, change, width, essential);
        out.fitted(line, change.is_some());
    }
    for gone in ch.gone(Place::Payments) {
        out.fitted(marks::gone(t, gone, width), true);
    }
    extra_tables(t, f, width, records, out);
    if !db.uses_processed {
        // One row: the rows this design does write need the room.
        let said = [": not used by this design", ": not used", ": unused"]
            .into_iter()
            .find(|said| "processed_messages".len() + said.len() <= width)
            .unwrap_or(": unused");
        let heading = out.len();
        out.note(Line::from(vec![
            Span::styled("processed_messages", t.title()),
            Span::styled(said, t.dim()),
        ]));
        return heading;
    }
    let heading = out.len();
    out.title(Line::styled("processed_messages", t.title()));
    if db.processed.is_empty() && ch.gone(Place::Processed).next().is_none() {
        out.nothing(Line::styled(" (no rows)", t.dim()));
    }
    for p in &db.processed {
        let change = ch.of(Place::Processed, &p.message_id);
        let row = processed_row(p);
        // A committed row is plain, as in payments: a label kept on every
        // later step would read as news; the step that commits it says so
        // with its change mark. An uncommitted one says so in the run's
        // form, as the payments do (`TxnForm`).
        let mut kept: Vec<Span<'static>> =
            p.uncommitted_by.iter().map(|by| form.mark(t, by)).collect();
        // The refused insert is this step's evidence: on the row's own line
        // where it fits (a short panel keeps it in view), else under it.
        let refused = [
            format!("  {} key taken: 0 rows inserted", g.conflict),
            format!("  {} key taken", g.conflict),
        ];
        let used = row.chars().count() + kept.iter().map(Span::width).sum::<usize>();
        let tag = if change.is_some() { 2 } else { 0 };
        let inline = refused
            .iter()
            .find(|r| p.conflict && used + r.chars().count() + tag <= width);
        if let Some(r) = inline {
            kept.push(Span::styled(r.clone(), t.bad()));
        }
        let line = marks::tagged_with(t, Line::raw(row), kept, change, width);
        out.fitted(line, change.is_some() || p.conflict);
        if p.conflict && inline.is_none() {
            out.changed(
                Line::styled(
                    format!("   {} key taken: 0 rows inserted", g.conflict),
                    t.bad(),
                ),
                true,
            );
        }
    }
    for gone in ch.gone(Place::Processed) {
        out.fitted(marks::gone(t, gone, width), true);
    }
    heading
}

/// The tables (and the cache) that only some designs of the catalogue use,
/// each shown only when the design on screen uses it.
fn extra_tables(t: &Theme, f: &Frame, width: usize, records: db_record::Form, out: &mut Sheet) {
    let db = &f.db;
    let ch = &f.changes;
    // A row's fields are the evidence: its change mark folds to its sign
    // before they are cut (`last applied offse…  + new` at 80x24).
    let row = |out: &mut Sheet, place: Place, key: String, line: Line<'static>| {
        let change = ch.of(place, &key);
        let essential = line.width();
        let line = marks::tagged_keeping(t, line, Vec::new(), change, width, essential);
        out.fitted(line, change.is_some());
    };
    let gone = |out: &mut Sheet, place: Place| {
        for g in ch.gone(place) {
            out.fitted(marks::gone(t, g, width), true);
        }
    };
    let pending = &db.uncommitted;
    // What an open transaction wrote, as its own connection reads it: a
    // row of its own, or a change to a committed row, drawn just under
    // that row as the writer's version of it. Two lines with one key are
    // one row seen two ways, never two rows.
    // Each goes on to an indented line at a field's end rather than lose
    // a field to an ellipsis (`uncommitted (A): SHIPPED…` at 80x24).
    let under = |out: &mut Sheet, versions: Vec<(&str, String)>| {
        for (by, v) in versions {
            let lines = Fields::version_of(t, by, v).lines(t, records, None, width);
            out.row(lines, false);
        }
    };
    // Drawn without its table's heading where that has no room, the row
    // names its table (`orders 1042 last m-7f3`).
    let uncommitted = |out: &mut Sheet, table: &str, key: String, fields: String, by: &str| {
        let row = || Fields::uncommitted(t, key.clone(), fields.clone(), by);
        let lines = row().lines(t, records, None, width);
        let alone = row().alone(table).lines(t, records, None, width);
        out.row_alone(lines, alone, false);
    };
    if db.uses_records {
        out.title(Line::styled("idempotency_records", t.title()));
        if db.records.is_empty() && pending.iter().all(|u| u.records.is_empty()) {
            out.nothing(Line::styled(" (no rows)", t.dim()));
        }
        // A row too long for the panel goes on to an indented line, in
        // the run's form (`db_record`): its owner and deadline are the
        // evidence a takeover is judged on.
        for r in &db.records {
            let change = ch.of(Place::Records, &r.message_id);
            let lines = Fields::row(t, r, None).lines_noting(t, records, change, width);
            let alone = Fields::row(t, r, None)
                .alone("record")
                .lines_noting(t, records, change, width);
            out.row_alone_noted(lines, alone, change.is_some());
            for u in pending {
                // What an open transaction is doing to the record is the
                // evidence of the moment (B taking A's record over): kept
                // in view first, as a change is.
                for p in u.records.iter().filter(|p| p.message_id == r.message_id) {
                    let v = Fields::version(t, &u.by, r, p);
                    let alone = Fields::version_alone(t, &u.by, r, p);
                    out.row_alone(
                        v.lines(t, records, None, width),
                        alone.lines(t, records, None, width),
                        true,
                    );
                }
            }
        }
        for u in pending {
            for r in &u.records {
                if !db.records.iter().any(|c| c.message_id == r.message_id) {
                    // What an open transaction wrote is the evidence of
                    // the moment, kept in view first as its version of a
                    // committed row is.
                    let row = || Fields::row(t, r, Some(&u.by));
                    let lines = row().lines(t, records, None, width);
                    let alone = db_record::pending_alone(t, r, &u.by, width)
                        .unwrap_or_else(|| row().alone("record").lines(t, records, None, width));
                    out.row_alone(lines, alone, true);
                }
            }
        }
        gone(out, Place::Records);
    }
    if db.uses_statuses {
        out.title(Line::styled("order_status", t.title()));
        if db.statuses.is_empty() && pending.iter().all(|u| u.statuses.is_empty()) {
            out.nothing(Line::styled(" (no rows)", t.dim()));
        }
        let fields = |r: &crate::sim::db::StatusRow| format!("{} v{}", r.status, r.version);
        for r in &db.statuses {
            row(
                out,
                Place::Statuses,
                r.order.to_string(),
                Line::raw(format!(" {} {}", r.order, fields(r))),
            );
            let mine = pending.iter().flat_map(|u| {
                u.statuses
                    .iter()
                    .filter(|p| p.order == r.order)
                    .map(|p| (u.by.as_str(), fields(p)))
            });
            under(out, mine.collect());
        }
        for u in pending {
            for r in &u.statuses {
                if !db.statuses.iter().any(|c| c.order == r.order) {
                    uncommitted(out, "order_status", r.order.to_string(), fields(r), &u.by);
                }
            }
        }
    }
    if db.uses_orders {
        out.title(Line::styled("orders", t.title()));
        for r in &db.orders {
            row(
                out,
                Place::Orders,
                r.order.to_string(),
                Line::raw(format!(" {} last {}", r.order, r.last_message_id)),
            );
            let mine = pending.iter().flat_map(|u| {
                u.orders
                    .iter()
                    .filter(|p| p.order == r.order)
                    .map(|p| (u.by.as_str(), format!("last {}", p.last_message_id)))
            });
            under(out, mine.collect());
        }
        for u in pending {
            for r in &u.orders {
                if !db.orders.iter().any(|c| c.order == r.order) {
                    let last = format!("last {}", r.last_message_id);
                    uncommitted(out, "orders", r.order.to_string(), last, &u.by);
                }
            }
        }
    }
    if db.uses_offsets {
        let text = match db.last_offset {
            // Under its table's heading (`consumer offset`), `offset`
            // again is no evidence: without it the row and its change
            // mark fit whole at 80x24 (` last applied 0  + new`).
            Some(n) => format!(" last applied {n}"),
            None => " no offset applied yet".to_string(),
        };
        out.title(Line::styled("consumer offset", t.title()));
        row(out, Place::Offset, "offset".into(), Line::raw(text));
        for (n, by) in pending
            .iter()
            .filter_map(|u| u.last_offset.map(|n| (n, u.by.as_str())))
        {
            under(out, vec![(by, format!("offset {n}"))]);
        }
    }
    if f.cache.used {
        out.title(Line::styled("cache (outside the database)", t.title()));
        if f.cache.entries.is_empty() {
            out.nothing(Line::styled(" (empty)", t.dim()));
        }
        for e in &f.cache.entries {
            row(
                out,
                Place::Cache,
                e.key.clone(),
                Line::raw(format!(
                    " {} ttl {}",
                    e.key,
                    crate::sim::format_duration(e.ttl_left_ms)
                )),
            );
        }
        gone(out, Place::Cache);
    }
}

/// The payments heading with the total recorded, and what it was when
/// this step moved it, and how many lines are folded away (`… ↓ 2 more`):
/// the figure, its mark and the count stay whole, the words around them
/// give way. The words give way last (teacher trial: `total recorded` at
/// one step and `total` at the next read as two figures): the mark of a
/// move takes its tighter forms first, down to the old total before the
/// new (`$0→$40`), then the sign of folded lines, and only then the
/// words, so at one panel width the label stays from step to step. Drawn
/// narrower than its panel (`panel` wide) for a mark beside it, the
/// heading keeps the panel's words while a form of the move that keeps
/// its old total fits: a label is named by the panel, not by the mark,
/// but the old total is evidence and outranks it.
fn heading(
    t: &Theme,
    f: &Frame,
    twice: bool,
    width: usize,
    panel: usize,
    hidden: Hidden,
) -> Line<'static> {
    let total = format!("${}", f.db.payments_total);
    // How a move is shown: nothing, or a mark after the figure in its
    // three widths (`  * was $0`), or the old total before the new, or, as
    // a last resort, the mark's sign alone.
    let moves: Vec<(String, String)> = match f.changes.total_was {
        None => vec![(String::new(), String::new())],
        Some(w) => {
            let mut forms: Vec<(String, String)> = marks::was_forms(t, format!("${w}"))
                .into_iter()
                .map(|s| (String::new(), s.content.into_owned()))
                .collect();
            forms.push((format!("${w}{}", t.g.arrow), String::new()));
            forms
        }
    };
    // The sign alone says the total moved but not from where: only where
    // no form that keeps the old total fits, even without the words.
    let signs: Vec<(String, String)> = match f.changes.total_was {
        None => Vec::new(),
        Some(_) => vec![(String::new(), format!(" {}", t.g.changed))],
    };
    let long = format!(" {} total recorded ", t.g.dot);
    let short = format!(" {} total ", t.g.dot);
    // The word "payments" goes last of all (the rows below are the
    // payments), where a predict mark takes the end of the row; the old
    // total goes only after it.
    let words = [
        ("payments", long.as_str()),
        ("payments", short.as_str()),
        ("payments", " "),
        ("", ""),
    ];
    let mores = hidden.signs(t);
    let fits = |width: usize, label: &str, words: &str, before: &str, after: &str, more: &str| {
        [label, words, before, &total, after, more]
            .map(|s| s.chars().count())
            .iter()
            .sum::<usize>()
            <= width
    };
    // The forms of the heading with these words at `width`, roomiest
    // first. Once the words give way (`roomy` false), the move keeps its
    // narrowest form (`$0→$40`): the one a narrower panel would show, so a
    // row drawn narrower for a mark beside it keeps the same figures.
    let with_words = |width: usize,
                      (label, words): (&'static str, &str),
                      roomy: bool,
                      moves: &[(String, String)]| {
        let moves = if roomy {
            moves
        } else {
            &moves[moves.len().saturating_sub(1)..]
        };
        moves.iter().find_map(|(before, after)| {
            mores
                .iter()
                .find(|more| fits(width, label, words, before, after, more))
                .map(|more| {
                    let words = words.to_string();
                    (label, words, before.clone(), after.clone(), more.clone())
                })
        })
    };
    let choose = |width: usize| {
        [&moves, &signs].into_iter().find_map(|moves| {
            (0..words.len())
                .find_map(|i| with_words(width, words[i], i == 0, moves).map(|c| (i, c)))
        })
    };
    // The words the whole panel shows, kept before they give way to the
    // mark: whole, or without the dot between the table and its total
    // (the same words, one column less), with the move's old total. Never
    // with the sign alone: the old total is what a reveal is judged on
    // (`$0→$40`), so the words give way before it.
    let kept = (width < panel)
        .then(|| choose(panel))
        .flatten()
        .and_then(|(i, _)| {
            let (label, whole) = words[i];
            let dotless = whole.replacen(&format!(" {} ", t.g.dot), " ", 1);
            [&moves].into_iter().find_map(|moves| {
                [whole, dotless.as_str()]
                    .into_iter()
                    .find_map(|w| with_words(width, (label, w), i == 0, moves))
            })
        });
    let chosen = kept.or_else(|| choose(width).map(|(_, c)| c));
    let (label, words, before, after, more) = chosen.unwrap_or_else(|| {
        let (before, after) = signs.last().unwrap_or(&moves[0]).clone();
        (
            "",
            String::new(),
            before,
            after,
            mores[mores.len() - 1].clone(),
        )
    });
    let mut line = Line::from(vec![
        Span::styled(label, t.title()),
        Span::styled(words.to_string(), t.dim()),
    ]);
    if !before.is_empty() {
        line.spans.push(Span::styled(before, t.change()));
    }
    line.spans
        .push(Span::styled(total, if twice { t.bad() } else { t.title() }));
    if !after.is_empty() {
        line.spans.push(Span::styled(after, t.change()));
    }
    if !more.is_empty() {
        line.spans.push(Span::styled(more, t.key()));
    }
    super::fit(t, line, width)
}

/// A payment that repeats one already made, committed in this step: the
/// commit that makes the second charge stick is the news, so its word
/// stays at every width. `✕ again  * committed` where it fits; else the
/// two marks read as one, `✕ again, committed`, and the row gives way (its
/// message ID first, then its end with an ellipsis).
fn committed_again(t: &Theme, row: String, width: usize) -> marks::Fitted {
    let g = &t.g;
    let again = Span::styled(format!(" {} again", g.failed), t.bad());
    let tag = format!("  {} {}", g.changed, marks::word(Change::Committed));
    if row.chars().count() + again.width() + tag.chars().count() <= width {
        let kept = vec![again];
        return marks::tagged_with(t, Line::raw(row), kept, Some(Change::Committed), width);
    }
    // `again` stays beside the message ID it repeats: "committed again"
    // read as one row committed twice, where this is a second row.
    let merged = vec![
        Span::styled(format!(" {} again,", g.failed), t.bad()),
        Span::styled(format!(" {}", marks::word(Change::Committed)), t.change()),
    ];
    let merged_w: usize = merged.iter().map(Span::width).sum();
    if row.chars().count() + merged_w <= width {
        return marks::tagged_with(t, Line::raw(row), merged, None, width);
    }
    // The message ID is the evidence (both rows carry the same one): where
    // it and the merged words do not fit together, `again` stays and the
    // commit keeps its sign, as every change mark folds; a long ID is cut
    // only then, visibly.
    let essential = row.chars().count();
    marks::tagged_keeping(
        t,
        Line::raw(row),
        vec![again],
        Some(Change::Committed),
        width,
        essential,
    )
}

/// The columns a change mark takes after its row.
fn tag_width(change: Option<crate::sim::change::Change>) -> usize {
    // Whole (`  + new`), as `marks::tagged_with` keeps it.
    change.map_or(0, |c| 3 + marks::word(c).chars().count() + 1)
}

/// The words that say a payment row is not committed, and by whom, as a
/// mark: whole (`  uncommitted (A)`) where the row and its change mark
/// leave room, else its short form, which still says both (`in txn A`:
/// written in A's open transaction).
fn not_committed(t: &Theme, by: &str) -> marks::Mark {
    marks::Mark::new(
        Span::styled(format!("  uncommitted ({by})"), t.warn()),
        Span::styled(format!(" in txn {by}"), t.warn()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// A sheet of one payment row, a table of one three-line row and the
    /// line that processed_messages is not used, folded into `slots`.
    fn folded_sheet(slots: usize) -> (Vec<String>, usize) {
        let t = Theme::new(false, false);
        let mut sheet = Sheet::default();
        sheet.add(Line::raw(" 1042 $40 m-7f3"), true, false);
        sheet.title(Line::raw("idempotency_records"));
        let row = [" m-7f3 in_progress", "    owner B", "    until 9s"];
        let alone = ["record m-7f3 in_progress", "    owner B", "    until 9s"];
        sheet.row_alone(
            row.map(Line::raw).to_vec(),
            alone.map(Line::raw).to_vec(),
            false,
        );
        sheet.note(Line::raw("processed_messages: unused"));
        let hidden = sheet.fold(&t, 27, slots);
        let counted = sheet.hidden_by_table(hidden);
        let rows = counted.others.iter().map(|(_, n)| n).sum::<usize>() + counted.payments;
        let lines = sheet.lines.iter().flatten().map(text).collect();
        (lines, rows)
    }

    /// A short panel spends no row on nothing: the row goes without its
    /// heading where that is what fits, and a table folded whole keeps a
    /// row that names it and counts its rows, as the heading does; the
    /// not-used line goes first and counts as no row.
    #[test]
    fn a_fold_leaves_no_row_blank_where_a_line_can_say_what_is_folded() {
        let (lines, rows) = folded_sheet(4);
        assert_eq!(
            lines,
            [
                " 1042 $40 m-7f3",
                "record m-7f3 in_progress",
                "    owner B",
                "    until 9s"
            ]
        );
        assert_eq!(rows, 0);
        let (lines, rows) = folded_sheet(3);
        assert_eq!(lines, [" 1042 $40 m-7f3", "idempotency_records …1 row"]);
        assert_eq!(rows, 1);
        let (lines, rows) = folded_sheet(5);
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[1], "idempotency_records");
        assert_eq!(rows, 0);
    }

    /// An uncommitted payment row says which transaction holds it in one
    /// wording for the whole run (teacher review, tour-1 naive at 120x40:
    /// `in txn A  + new` at step 12, `uncommitted (A)` at step 13): every
    /// run, at the panel widths from 80x24's up.
    #[test]
    fn an_uncommitted_payment_reads_one_way_a_run() {
        let t = Theme::new(false, false);
        let mut wrong = Vec::new();
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let s = crate::sim::Strategy::by_name(&design).unwrap();
                let tl = crate::timeline::Timeline::build(&script, &s, 0, &[]).unwrap();
                for width in 24..=60 {
                    let mut said = std::collections::BTreeSet::new();
                    for f in &tl.frames {
                        let lines = run_lines(&t, &tl.frames, f, width, 99);
                        for p in f.db.payments.iter().filter(|p| p.uncommitted_by.is_some()) {
                            let by = p.uncommitted_by.as_deref().unwrap();
                            // A duplicate has the same order and message
                            // as the committed row above it: every such row
                            // (another table's row of the order has no `$`).
                            let rows = lines.iter().map(text).filter(|l| {
                                l.starts_with(&format!(" {}", p.order))
                                    && l.contains(&format!("${}", p.amount))
                                    && l.contains(&p.message_id)
                            });
                            for row in rows {
                                if row.contains(&format!("uncommitted ({by})")) {
                                    said.insert("uncommitted");
                                } else if row.contains(&format!("in txn {by}")) {
                                    said.insert("in txn");
                                }
                            }
                        }
                    }
                    if said.len() > 1 {
                        wrong.push(format!("{} {design} at {width}: {said:?}", script.name));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// Predict mode marks the line the panel says heads processed_messages:
    /// it is that heading at every step of every run, at narrow and wide
    /// widths.
    #[test]
    fn a_count_beside_the_total_says_which_rows_are_other_tables() {
        let t = Theme::new(false, false);
        let bare = |signs: &[String], n: usize| {
            signs
                .iter()
                .any(|s| s.trim_end().ends_with(&format!("{n} rows")) && !s.contains("other"))
        };
        let none_paid = Hidden {
            payments: 0,
            others: vec![("idempotency_records".into(), 2)],
        };
        let signs = none_paid.signs(&t);
        assert!(!bare(&signs, 2), "{signs:?}");
        assert!(
            signs
                .iter()
                .all(|s| s.contains("other") || s.contains("idempotency_records"))
        );
        // With payment rows folded too, a form that says so comes before
        // the fewest, which counts both.
        let mixed = Hidden {
            payments: 1,
            others: vec![("order_status".into(), 2)],
        };
        let signs = mixed.signs(&t);
        assert!(
            signs.iter().any(|s| s.contains("3 rows, 2 other")),
            "{signs:?}"
        );
    }

    #[test]
    fn the_processed_line_is_where_its_heading_is_drawn() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            for w in [24, 56] {
                let lines: Vec<String> = lines(&t, f, w, 30).iter().map(text).collect();
                let at = processed_line(&t, f, w, 30);
                assert!(
                    lines[at].starts_with("processed_messages"),
                    "{at_step}: line {at} is {:?}",
                    lines[at]
                );
            }
        });
    }

    /// One key, one row: where an open transaction has changed a committed
    /// row, its version is drawn under that row and says whose and that it
    /// is not committed, whole, at every width; no two lines of a table
    /// start with the same key.
    #[test]
    fn a_row_an_open_transaction_changed_reads_as_one_row() {
        let t = Theme::new(false, false);
        let mut versions = 0;
        super::super::each_builtin_frame(|at_step, f| {
            for w in [27, 34, 41, 56] {
                let lines: Vec<String> = lines(&t, f, w, 40).iter().map(text).collect();
                let mut keys: Vec<&str> = lines
                    .iter()
                    .filter(|l| l.starts_with(" m-") || l.starts_with(" b-"))
                    .filter_map(|l| l.split_whitespace().next())
                    .collect();
                let all = keys.len();
                keys.sort_unstable();
                keys.dedup();
                assert_eq!(keys.len(), all, "{at_step} at {w}: a key twice\n{lines:#?}");
                for u in &f.db.uncommitted {
                    for r in &u.records {
                        let Some(at) = lines
                            .iter()
                            .position(|l| l.starts_with(&format!(" {} ", r.message_id)))
                        else {
                            continue;
                        };
                        if f.db.records.iter().any(|c| c.message_id == r.message_id) {
                            versions += 1;
                            // Past the lines the row goes on to.
                            let under = lines[at + 1..]
                                .iter()
                                .find(|l| !l.starts_with("    "))
                                .unwrap();
                            assert!(
                                under.starts_with(&format!("  uncommitted ({}):", u.by)),
                                "{at_step} at {w}: {under:?}"
                            );
                        }
                    }
                }
            }
        });
        assert!(
            versions > 0,
            "no run has a committed row an open transaction changed"
        );
    }

    /// The column names stand over rows drawn in those columns: at a width
    /// where the rows are drawn tight, no names.
    #[test]
    fn the_column_names_stand_over_rows_in_their_columns() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            for w in [28, 34, 36, 41] {
                let lines: Vec<String> = lines(&t, f, w, 40).iter().map(text).collect();
                let named = lines.iter().any(|l| l.starts_with(" order  amount"));
                for p in &f.db.payments {
                    let aligned = format!(" {:<6} {:<7} ", p.order, format!("${}", p.amount));
                    if named {
                        assert!(
                            lines.iter().any(|l| l.starts_with(&aligned)),
                            "{at_step} at {w}: {lines:#?}"
                        );
                    }
                }
            }
        });
    }

    /// A design without processed_messages says so whole from the width
    /// of the 80x24 panel (27) up; it read `processed_messages: not us…`.
    #[test]
    fn an_unused_table_says_so_whole() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            if f.db.uses_processed {
                return;
            }
            for w in 26..=50 {
                let at = processed_line(&t, f, w, 40);
                let line = &lines(&t, f, w, 40)[at];
                let text = text(line);
                assert!(
                    line.width() <= w && (text.ends_with("used") || text.ends_with("design")),
                    "{at_step} at {w}: {text:?}"
                );
            }
        });
    }

    /// A mark's word drops only where no form of the row leaves it room
    /// (teacher trial, tour-1 naive step 12 at 120x40: `m-7f3  uncommitted
    /// (A) +`, the word `new` dropped): an uncommitted payment row this
    /// step wrote says `new` wherever its short form (`in txn A`) and the
    /// whole mark fit beside the row.
    #[test]
    fn an_uncommitted_rows_mark_keeps_its_word_where_it_can() {
        let t = Theme::new(false, false);
        let mut seen = 0;
        let mut wrong = Vec::new();
        super::super::each_builtin_frame(|at_step, f| {
            for (i, p) in f.db.payments.iter().enumerate() {
                let (Some(by), Some(change)) = (
                    &p.uncommitted_by,
                    f.changes.of(Place::Payments, &i.to_string()),
                ) else {
                    continue;
                };
                for w in 27..=60 {
                    seen += 1;
                    let row = payment_row(p, w);
                    let room = row.chars().count()
                        + format!(" in txn {by}").chars().count()
                        + tag_width(Some(change));
                    if room > w {
                        continue;
                    }
                    let all = lines(&t, f, w, 40);
                    let Some(line) = all.iter().map(text).find(|l| {
                        l.starts_with(&row)
                            && (l.contains(&format!("({by})")) || l.contains(&format!("txn {by}")))
                    }) else {
                        continue;
                    };
                    if !line.contains(marks::word(change)) {
                        wrong.push(format!("{at_step} at {w}: {line:?}"));
                    }
                }
            }
        });
        assert!(seen > 20, "{seen}");
        assert!(
            wrong.is_empty(),
            "{} of {seen}:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// Whose open transaction wrote a row is the point of its mark: from
    /// the 80x24 panel's width (27) up, every uncommitted row says
    /// `uncommitted (A)` whole, and its own fields give way with an
    /// ellipsis. At 27 it read `uncommitted` without the owner.
    #[test]
    fn an_uncommitted_row_names_its_owner_at_every_width() {
        let t = Theme::new(false, false);
        let mut seen = 0;
        super::super::each_builtin_frame(|at_step, f| {
            let owners: Vec<&str> =
                f.db.payments
                    .iter()
                    .filter_map(|p| p.uncommitted_by.as_deref())
                    .chain(
                        f.db.processed
                            .iter()
                            .filter_map(|p| p.uncommitted_by.as_deref()),
                    )
                    .chain(f.db.uncommitted.iter().map(|u| u.by.as_str()))
                    .collect();
            if owners.is_empty() {
                return;
            }
            seen += 1;
            for w in 27..=44 {
                let all = lines(&t, f, w, 40);
                for line in &all {
                    let text = text(line);
                    if text.contains("uncommitted") {
                        assert!(line.width() <= w, "{at_step} at {w}: {text:?}");
                        assert!(
                            owners
                                .iter()
                                .any(|by| text.contains(&format!("uncommitted ({by})"))),
                            "{at_step} at {w}: {text:?}"
                        );
                        // A payment's amount is whole: `$4…` reads as
                        // another sum.
                        for p in &f.db.payments {
                            let cut = format!("${}", p.amount);
                            let cut = &cut[..cut.len() - 1];
                            assert!(
                                !text.contains(&format!("{cut}{}", t.g.ellipsis)),
                                "{at_step} at {w}: amount cut in {text:?}"
                            );
                        }
                    }
                }
            }
        });
        assert!(
            seen > 10,
            "only {seen} frames with an open transaction's rows"
        );
    }

    /// The step that commits a repeated payment says both, whole, at every
    /// width from the 80x24 panel's (27) up: that the row repeats a charge
    /// and that it was committed now, in words wherever they fit beside
    /// the message ID; where they do not (27), the ID stays, since the
    /// lesson is that both rows carry it, and the commit keeps its sign.
    #[test]
    fn a_repeat_committed_now_says_committed_at_every_width() {
        let t = Theme::new(false, false);
        let mut seen = 0;
        super::super::each_builtin_frame(|at_step, f| {
            let now: Vec<usize> = (0..f.db.payments.len())
                .filter(|&i| {
                    f.db.payments[i].repeat
                        && f.changes.of(Place::Payments, &i.to_string()) == Some(Change::Committed)
                })
                .collect();
            if now.is_empty() {
                return;
            }
            seen += 1;
            for w in 27..=44 {
                let all: Vec<Line> = lines(&t, f, w, 40);
                let rows: Vec<String> = all
                    .iter()
                    .filter(|l| text(l).contains(t.g.failed))
                    .map(text)
                    .collect();
                // Where the words do not fit beside the message ID (the
                // evidence: both rows carry it), the commit keeps its sign.
                let said = |r: &&String| {
                    r.contains("committed")
                        || ((r.contains(t.g.ellipsis)
                            || f.db.payments.iter().any(|p| r.contains(&p.message_id)))
                            && r.ends_with(&format!(" {}", t.g.changed)))
                };
                assert!(
                    rows.iter().filter(said).count() >= now.len()
                        && rows.iter().all(|r| r.chars().count() <= w)
                        && rows.iter().all(|r| r.contains("again")),
                    "{at_step} at {w}: {now:?} {:#?}",
                    all.iter().map(text).collect::<Vec<_>>()
                );
            }
        });
        assert!(seen > 3, "only {seen} steps commit a repeat");
    }

    /// A committed row reads alike in every table: plain. Only the step that
    /// commits it marks it, so a label does not stay on as if it were news.
    #[test]
    fn a_committed_row_carries_no_label_after_its_step() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            let lines: Vec<String> = lines(&t, f, 56, 30).iter().map(text).collect();
            for p in f.db.processed.iter().filter(|p| p.uncommitted_by.is_none()) {
                if f.changes.of(Place::Processed, &p.message_id).is_some() {
                    continue;
                }
                let row = lines
                    .iter()
                    .find(|l| l.starts_with(&format!(" {}", p.message_id)))
                    .unwrap();
                assert!(!row.contains("committed"), "{at_step}: {row:?}");
            }
        });
    }
}
