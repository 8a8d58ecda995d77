//! Two designs side by side on the same script, in lockstep, with the
//! point where they part ways called out.

use super::wrap_words::words;
use super::{broker, compare_told, database, events, marks, provider, service, verdict};
use crate::sim::cause::StepWords;
use crate::sim::{Frame, Outcome};
use crate::tui::app::App;
use crate::tui::compare::{Compare, handled, short_times, times};
use crate::tui::compare_section::{Section, first_row};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

pub fn render(app: &App, c: &Compare, area: Rect, buf: &mut Buffer) {
    let at_split = c.diverge == Some(app.pos);
    let parting = parting_rows(app, c, at_split, area.width);
    let rows = u16::try_from(parting.len()).unwrap_or(1);
    // The sides' widths do not depend on the header's height: their
    // borders' form, and so whether they say each side's step, is known
    // before the header is laid out.
    let (_, left, right, _) = layout::compare_under(area, 1 + rows);
    let steps_on_borders = border_titles(app, c, at_split, left, right).2 < STEPLESS;
    let top = header_rows(app, c, steps_on_borders, area);
    let head = u16::try_from(top.len()).unwrap_or(1);
    let (header, left, right, keybar) = layout::compare_under(area, head + rows);
    for (i, line) in top.into_iter().enumerate() {
        let y = header.y + u16::try_from(i).unwrap_or(0);
        line.render(Rect::new(header.x, y, header.width, 1), buf);
    }
    for (i, line) in parting.into_iter().enumerate() {
        let y = header.y + head + u16::try_from(i).unwrap_or(0);
        if y < header.bottom() {
            line.render(Rect::new(header.x, y, header.width, 1), buf);
        }
    }
    sides(app, c, at_split, left, right, buf);
    super::keybar::render(app, keybar, buf);
}

/// The index of the border titles' form that says only the design, not
/// where it is (`Place::titles`).
const STEPLESS: usize = 3;

/// The least height at which the header takes a second row for the
/// titles rather than cut one (100x30 and up); at 80x24 the sides keep
/// that row.
const TITLE_ROWS_FROM: u16 = 30;

/// The header's rows: `Compare`, each side's step where its border does
/// not say it, each design's title, the chapter. Where the line is too
/// long for one row on a tall enough screen, it breaks between the two
/// titles, so that both are read whole; else a cut ends in an ellipsis.
fn header_rows(app: &App, c: &Compare, steps_on_borders: bool, area: Rect) -> Vec<Line<'static>> {
    let t = &app.theme;
    let (lf, rf) = c.frames(app.pos);
    let chapter = lf.chapter;
    let (ln, rn) = (c.left.strategy.as_str(), c.right.strategy.as_str());
    let script = &app.script;
    let mut lead = vec![
        Span::styled(" Compare ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
    ];
    // Each side's border says where it is (`design: naive · step 5/16`):
    // said again here, it took the room of the titles (teacher trial).
    // Only where the borders are too narrow to say it does the header.
    if !steps_on_borders {
        lead.push(Span::styled(
            steps_of_each(app, c, lf.index, rf.index),
            t.info(),
        ));
        lead.push(Span::styled(format!(" {} ", t.g.dot), t.dim()));
    }
    // Both designs are on screen: each one's title, where the scenario
    // tells it its own way.
    let (lt, rt) = (t.text(script.title_for(ln)), t.text(script.title_for(rn)));
    let titles = each(ln, &lt, rn, &rt);
    // The chapter, longest first: where a form does not fit whole the
    // next is tried, and none is left rather than a bare `chapter …`
    // (teacher trial: tour-3 at 100x30).
    let tails: Vec<Span<'static>> = chapter_forms(app, c, chapter, lf)
        .into_iter()
        .map(|form| Span::styled(format!(" {} {form}", t.g.dot), t.dim()))
        .collect();
    let width = usize::from(area.width);
    // `spans` with the longest chapter form that fits whole after them,
    // else with none.
    let with_tail = |spans: Vec<Span<'static>>| -> Line<'static> {
        let base = Line::from(spans.clone()).width();
        let mut line = spans;
        if let Some(tail) = tails.iter().find(|tail| base + tail.width() <= width) {
            line.push(tail.clone());
        }
        Line::from(line)
    };
    let mut one = lead.clone();
    one.push(Span::styled(titles, t.title()));
    let whole_titles = Line::from(one.clone()).width();
    if lt == rt || whole_titles <= width || area.height < TITLE_ROWS_FROM {
        return vec![super::fit(t, with_tail(one), width)];
    }
    // Two rows: the second design's title under the first's, lined up.
    let indent: usize = lead.iter().map(Span::width).sum();
    let mut first = lead;
    first.push(Span::styled(format!("{ln}: {lt} /"), t.title()));
    let second = vec![
        Span::raw(" ".repeat(indent)),
        Span::styled(format!("{rn}: {rt}"), t.title()),
    ];
    vec![
        super::fit(t, Line::from(first), width),
        super::fit(t, with_tail(second), width),
    ]
}

/// Where the story is, in the header's forms from longest to shortest:
/// `chapter 2/5: Title`, `chapter 2/5`, `ch. 2/5`. The user's own run is
/// no chapter of the script, and its title is the scenario's; the setup
/// is none either, and is named as the sides name it.
fn chapter_forms(app: &App, c: &Compare, chapter: usize, lf: &Frame) -> Vec<String> {
    let t = &app.theme;
    let script = &app.script;
    let of = script.steps.len();
    if !(1..=of).contains(&chapter) {
        // The setup in the words each side's step row names it with
        // (`step 0/16: setup`): the header said `before the first step`
        // over them, two wordings for one moment (teacher trial).
        return vec![if chapter == 0 {
            t.text(&did(lf)).into_owned()
        } else {
            t.text(&lf.chapter_title).into_owned()
        }];
    }
    let part = script.origin.part();
    let number = format!("{part} {chapter}/{of}");
    let mut forms = Vec::new();
    // Told alike, the title is here; else each side heads its story with
    // its own (`chapter_titles`). A story left out has no titles.
    if chapter_titles(app, c, chapter).is_none() {
        let title = script.chapter_title(&script.steps[chapter - 1], &c.left.strategy);
        if !title.is_empty() {
            forms.push(format!("{number}: {}", t.text(title)));
        }
    }
    forms.push(number);
    if part == "chapter" {
        forms.push(format!("ch. {chapter}/{of}"));
    }
    forms
}

/// A title as each side's design has it: once when they tell it alike,
/// else each under its design's name (`ack-first: Ack before commit /
/// idempotent: Ack after commit`).
fn each(ln: &str, left: &str, rn: &str, right: &str) -> String {
    if left == right {
        left.to_string()
    } else {
        format!("{ln}: {left} / {rn}: {right}")
    }
}

/// The chapter's title as each side's design has it, when they differ:
/// each side then heads its story with its own.
fn chapter_titles(app: &App, c: &Compare, chapter: usize) -> Option<(String, String)> {
    let step = app.script.steps.get(chapter.checked_sub(1)?)?;
    let (l, r) = (
        app.script.chapter_title(step, &c.left.strategy),
        app.script.chapter_title(step, &c.right.strategy),
    );
    (l != r).then(|| (l.to_string(), r.to_string()))
}

/// The most rows the parting line wraps to: past them it is cut, with an
/// ellipsis.
const PARTING_ROWS: usize = 3;

/// The line where the sides part, wrapped to `width` rather than cut: a
/// class reads the whole sentence, the outcome at its end above all. Its
/// clauses (`they part at …`, `then naive ✕ charged twice`) break between
/// them before any breaks inside one.
fn parting_rows(app: &App, c: &Compare, at_split: bool, width: u16) -> Vec<Line<'static>> {
    let t = &app.theme;
    let Some(d) = c.diverge else {
        return vec![Line::styled(
            " the two designs do not part ways in this scenario",
            t.dim(),
        )];
    };
    let style = if at_split { t.flash() } else { t.warn() };
    let lead = format!(" {} ", t.g.token);
    let indent = " ".repeat(lead.chars().count());
    let room = usize::from(width)
        .saturating_sub(lead.chars().count())
        .max(1);
    let sep = format!(" {} ", t.g.dot);
    let mut rows: Vec<String> = Vec::new();
    let (line, later) = parting_line(app, c, d);
    for clause in line.split(sep.as_str()) {
        let len = |s: &str| s.chars().count();
        match rows.last_mut() {
            Some(row) if len(row) + len(&sep) + len(clause) <= room => {
                row.push_str(&sep);
                row.push_str(clause);
            }
            _ => rows.extend(words(clause, room)),
        }
    }
    // The hint only whole, on the last row: the side titles and the key
    // bar say it too, and a cut `h…` says nothing.
    // Where a side goes wrong at a later step, `here` at the end of the
    // line would read as about that clause (teacher trial: `then naive ✕
    // charged twice  here` over a side still in progress): the line says
    // `they part here` instead. Elsewhere `there` after `at step 13` would
    // read as that step: the hint names the parting.
    let hint = match (at_split, later) {
        (true, false) => "  here",
        (true, true) => "",
        (false, false) => "  (v jumps there)",
        (false, true) => "  (v: where they part)",
    };
    let hint_fits = rows
        .last()
        .is_some_and(|r| r.chars().count() + hint.chars().count() <= room);
    let cut = rows.len() > PARTING_ROWS;
    rows.truncate(PARTING_ROWS);
    if cut && let Some(row) = rows.last_mut() {
        // A sentence past the rows ends in an ellipsis: never cut silently.
        let keep = room.saturating_sub(t.g.ellipsis.chars().count() + 1);
        *row = format!(
            "{} {}",
            row.chars().take(keep).collect::<String>(),
            t.g.ellipsis
        );
    }
    let last = rows.len().saturating_sub(1);
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| {
            let mut spans = vec![Span::styled(
                format!("{}{row}", if i == 0 { &lead } else { &indent }),
                style,
            )];
            if i == last && hint_fits && !cut {
                spans.push(Span::styled(hint, if at_split { t.bad() } else { t.dim() }));
            }
            super::fit(t, Line::from(spans), usize::from(width))
        })
        .collect()
}

/// A moment of the compare in words, each side's step in its own count,
/// as the header says them: `naive step 12 / idempotent step 13`. A
/// schedule's sides stand at the same move: `move 3`.
fn moment(c: &Compare, schedule: bool, p: usize) -> String {
    let (ln, rn) = (&c.left.strategy, &c.right.strategy);
    let (a, b) = c.frames(p);
    match (schedule, a.index == b.index) {
        (true, true) => format!("move {}", a.index),
        (true, false) => format!("{ln} move {} / {rn} move {}", a.index, b.index),
        (false, _) => format!("{ln} step {} / {rn} step {}", a.index, b.index),
    }
}

/// How a side names a step of its own run (an ack lost, a crash): as the
/// moment of the compare where it first stands at that step, so that the
/// same event reads the same on both sides, though each counts its own
/// steps (naive's step 8 is the idempotent design's step 9).
fn side_steps(c: &Compare, schedule: bool, left: bool) -> impl Fn(usize) -> String + '_ {
    move |step| {
        let at = c
            .pairs
            .iter()
            .position(|&(l, r)| if left { l } else { r } == step);
        match at {
            Some(p) => moment(c, schedule, p),
            // A step the compare never shows: the side's own count, named.
            None => own_steps(c, schedule, left)(step),
        }
    }
}

/// How a side names a step only it took (a skip, a replayed charge): in
/// its own count, named (`idempotent step 13`). The moment of the compare
/// would also name the other side's step there, which did something else.
fn own_steps(c: &Compare, schedule: bool, left: bool) -> impl Fn(usize) -> String + '_ {
    move |step| {
        let side = if left { &c.left } else { &c.right };
        let unit = if schedule { "move" } else { "step" };
        format!("{} {unit} {step}", side.strategy)
    }
}

/// Where the sides part and what differs there, then the side that goes
/// wrong from there: `they part at naive step 12 / idempotent step 13:
/// m-7f3 payment rows 1 + 1 uncommitted vs 1 · then naive ✕ charged twice
/// at step 13`, the moment as the line above says it (`move 3` in a
/// schedule both sides replay). A later step is named in the failing
/// side's own count, and called `here` only while it is on screen: the
/// line is read at every step, and said `here` where the side was still
/// in progress. With the line, whether the side goes wrong later than
/// they part.
fn parting_line(app: &App, c: &Compare, d: usize) -> (String, bool) {
    let t = &app.theme;
    let (ln, rn) = (&c.left.strategy, &c.right.strategy);
    let schedule = crate::tui::compare::is_schedule(&app.script);
    let (a, b) = c.frames(d);
    let mut text = format!("they part at {}", moment(c, schedule, d));
    if let Some(apart) = crate::tui::parting::apart(a, b) {
        text.push_str(&format!(": {}", super::parting::words(t, &apart)));
        if matches!(apart, crate::tui::parting::Apart::Outcome { .. }) {
            return (text, false);
        }
    }
    // The first pair where one side has gone wrong (or wrong otherwise).
    let wrong = (d..c.pairs.len())
        .map(|p| (p, c.frames(p)))
        .find(|(_, (a, b))| crate::tui::parting::outcome(a, b).is_some());
    if let Some((p, (a, b))) = wrong {
        let (who, f) = if a.verdict.outcome.is_failure() {
            (ln, a)
        } else {
            (rn, b)
        };
        let (what, _) = verdict::headline(t, f.verdict.outcome);
        if p == d {
            text.push_str(&format!(" {} {who} {what}", t.g.dot));
            return (text, false);
        }
        let unit = if schedule { "move" } else { "step" };
        let here = if app.pos == p { " here," } else { "" };
        text.push_str(&format!(
            " {} then {who} {what}{here} at {unit} {}",
            t.g.dot, f.index
        ));
        if app.pos == d {
            text = text.replacen("they part at", "they part here, at", 1);
        }
        return (text, true);
    }
    (text, false)
}

/// Where each side is, in its own steps (the designs take different
/// numbers of steps to the same moment): `naive step 13/16, idempotent
/// step 13/17`; in the moves of a schedule both replay: `naive move 7/10`.
fn steps_of_each(app: &App, c: &Compare, left: usize, right: usize) -> String {
    let last = |t: &crate::timeline::Timeline| t.frames.len() - 1;
    let unit = if crate::tui::compare::is_schedule(&app.script) {
        "move"
    } else {
        "step"
    };
    format!(
        "{} {unit} {left}/{}, {} {unit} {right}/{}",
        c.left.strategy,
        last(&c.left),
        c.right.strategy,
        last(&c.right)
    )
}

/// The rows a side gives its sections that can take fewer or more.
#[derive(Clone, Copy)]
struct Rows {
    /// The narration's rows; a cut one ends in an ellipsis.
    story: usize,
    /// The verdict's rows, wrapped.
    verdict: usize,
    /// The rows the database and the service fold their tables into.
    tables: usize,
}

impl Rows {
    fn for_side(height: u16, zoom: bool) -> Rows {
        let h = usize::from(height);
        if zoom {
            // One section fills the side: all of its rows but one, for
            // the title that goes on top of a titled section's rows.
            let all = h.saturating_sub(1).max(1);
            return Rows {
                story: all,
                verdict: all,
                tables: all,
            };
        }
        Rows {
            story: (h / 4).max(2),
            // The verdict wraps to more rows where the sides are tall
            // enough (three at 100x30, four at 120x40: a chain that leads
            // with what a delivery did again is long); at 80x24 those rows
            // go to the money.
            verdict: if h < 20 { 1 } else { (h / 8).clamp(2, 4) },
            // Scrolled, never folded: Tab brings any row into view.
            tables: 99,
        }
    }
}

/// One design's side, as sections in a fixed order. Each section is padded
/// to the taller of the two sides, so the same section starts on the same
/// row on both: the eye can go straight across.
/// `f` is the side's frame and `frames` its own timeline (what its step
/// before told).
/// `story` caps the narration's rows, so the money below stays on screen;
/// a cut narration ends in an ellipsis.
/// `step` names the steps a cause names, as the moment of the compare;
/// `chapter` is the side's own title for the chapter, where the two
/// designs' titles differ.
fn sections(
    t: &Theme,
    (f, frames): (&Frame, &[Frame]),
    place: &Place,
    (step, own): (StepWords<'_>, StepWords<'_>),
    chapter: Option<&str>,
    w: usize,
    (rows, fewest): (Rows, bool),
) -> (Vec<Vec<Line<'static>>>, Vec<marks::Shortened>) {
    let (mut outcome, _) = verdict_lines(t, f, (step, own), w, (rows.verdict, fewest));
    // A tick would say "fine": one row is fine only once the verdict is
    // settled correct. Before that it is a plain fact "so far" (at the
    // step where the designs part, the side about to charge twice still
    // has one row: a tick there told the class it was safe); after a
    // failure the verdict above says what went wrong. Never `!`, which
    // means "at risk, nothing wrong yet".
    let correct = f.verdict.outcome == Outcome::Correct && !f.verdict.undecided();
    let ended = f.index == place.last;
    for h in handled(f) {
        let (id, n) = (&h.name, h.rows);
        let over = ended || f.verdict.outcome.is_failure();
        let (glyph, style, so_far) = match n {
            // `○` is "in progress": once the run is over, or has failed,
            // no row is a plain fact (teacher trial: `○` at the end).
            0 if over => (t.g.dot, t.dim(), ""),
            0 => (t.g.pending, t.dim(), ""),
            n if n > h.expected => (t.g.failed, t.bad(), ""),
            n if n == h.expected && correct => (t.g.done, t.good(), ""),
            _ if over => (t.g.dot, t.info(), ""),
            _ => (t.g.dot, t.info(), " so far"),
        };
        // "so far" stays whole: where the row is too wide, the words of
        // the count give way (`1 row committed so far`).
        let mut row = format!("{glyph} {id} {}{so_far}", times(n));
        if row.chars().count() > w {
            row = format!("{glyph} {id} {}{so_far}", short_times(n));
        }
        outcome.push(Line::styled(row, style));
    }
    outcome.push(Line::styled(t.text(&place.row(f)).into_owned(), t.info()));
    if let Some(words) = &place.holding {
        outcome.push(Line::styled(words.clone(), t.key()));
    }
    let story = story_section(t, (f, frames), step, chapter, w, rows.story);
    let mut queue = vec![Line::styled(
        format!("queue {} {}", t.g.dot, f.queue.name),
        t.title(),
    )];
    // What the marks each section drew short mean: the side's border
    // names those of the sections in view.
    let mut short: [marks::Shortened; 4] = Default::default();
    // The side's own run names its counters one way at every step.
    let form = broker::Form::of(t, frames, f, w, 0);
    queue.extend(broker::lines_noting(t, f, &form, w, 0, &mut short[2]));
    let mut service_lines = vec![Line::styled("service", t.title())];
    // Compare folds only when a section is shrunk to fit; then the lists
    // fold in order, as no side has a consumer the class is watching.
    service_lines.extend(service::lines_noting(
        t,
        f,
        &super::Watch::of_run(frames),
        w,
        rows.tables,
        &mut short[3],
    ));
    let mut step = vec![Line::styled("this step", t.title())];
    // Each event whole, wrapped at spaces: cut at the pane's edge, the
    // end of the step's event went with no count above a blank row
    // (teacher trial 45, tour-4 at 120x40).
    for line in events::lines(t, f) {
        let glyph = line.spans.first().map(|s| (s.content.to_string(), s.style));
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        for (i, row) in words(&text, w).into_iter().enumerate() {
            match &glyph {
                Some((mark, style)) if i == 0 && row.starts_with(mark.trim_end()) => {
                    let cut = mark.trim_end().len();
                    step.push(Line::from(vec![
                        Span::styled(row[..cut].to_string(), *style),
                        Span::raw(row[cut..].to_string()),
                    ]));
                }
                _ => step.push(Line::raw(row)),
            }
        }
    }
    let sections = vec![
        outcome,
        story,
        database::run_lines_noting(t, frames, f, (w, rows.tables), &mut short[0]),
        provider::run_lines_noting(t, frames, f, (w, usize::MAX), &mut short[1]),
        queue,
        service_lines,
        step,
    ];
    let [database, provider, queue, service] = short;
    let none = marks::Shortened::default;
    let short = vec![none(), none(), database, provider, queue, service, none()];
    (sections, short)
}

/// The story's section: its heading (with the side's own chapter title
/// where the designs' titles differ), then at most `rows` rows of it
/// (`story_lines`).
fn story_section(
    t: &Theme,
    (f, frames): (&Frame, &[Frame]),
    step: StepWords<'_>,
    chapter: Option<&str>,
    w: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    let mut story = vec![match chapter.filter(|title| !title.is_empty()) {
        Some(title) => Line::from(vec![
            Span::styled("what happens", t.title()),
            Span::styled(format!(" {} {}", t.g.dot, t.text(title)), t.dim()),
        ]),
        None => Line::styled("what happens", t.title()),
    }];
    // Both designs are on screen: words that send the class to the other
    // one with a key are left out here (`Medium::Compare`).
    let in_compare = Theme {
        medium: crate::scenario::key_word::Medium::Compare,
        ..*t
    };
    story.extend(story_lines(&in_compare, f, frames, step, w, rows));
    story
}

/// The side's story, again in the rows the other side's taller story
/// lines up with: a side that folds sentences over the blank rows that
/// pad it to the other's height wastes them (trial at 80x24, tour-4 naive
/// step 7: `↓ 3 more sentences` over two blank rows). Kept only where it
/// takes no more rows than that.
fn story_to(
    t: &Theme,
    side: (&Frame, &[Frame]),
    step: StepWords<'_>,
    chapter: Option<&str>,
    w: usize,
    (story, height): (&mut Vec<Line<'static>>, usize),
) {
    if story.len() >= height {
        return;
    }
    let taller = story_section(t, side, step, chapter, w, height.saturating_sub(1));
    if taller.len() <= height {
        *story = taller;
    }
}

/// The side's verdict and its causes, wrapped at spaces into at most
/// `rows` rows; a cut ends in an ellipsis. The outcome keeps its colour,
/// the causes are dim. With `fewest`, a fold counts what it leaves out in
/// its fewest words (`← 4 more · w`) whether or not the long ones fit; and
/// with the rows, whether the fold took its fewest words, so the other
/// side can fold in the same ones (`fold_in_fewest`).
fn verdict_lines(
    t: &Theme,
    f: &Frame,
    (step, own): (StepWords<'_>, StepWords<'_>),
    w: usize,
    (rows, fewest): (usize, bool),
) -> (Vec<Line<'static>>, bool) {
    let (head, style) = verdict::bounded_headline(t, &f.verdict, None);
    // A side that held says why as the main screen does: each repeat
    // stopped, and why it came.
    let chain = verdict::chain_at(t, &f.verdict, step)
        + &verdict::held_links(t, &f.verdict, step, own).concat();
    let rows = rows.max(1);
    let w = w.max(1);
    let mut lines = words(&format!("{head}{chain}"), w);
    let mut head_len = head.chars().count();
    let mut in_fewest = false;
    if lines.len() > rows {
        (lines, head_len, in_fewest) = folded(t, f, (step, own), &head, w, (rows, fewest));
    }
    let lines = lines
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            if i > 0 {
                return Line::styled(text, t.dim());
            }
            let cut = text
                .char_indices()
                .nth(head_len)
                .map_or(text.len(), |(at, _)| at);
            Line::from(vec![
                Span::styled(text[..cut].to_string(), style),
                Span::styled(text[cut..].to_string(), t.dim()),
            ])
        })
        .collect();
    (lines, in_fewest)
}

/// Whether either side's verdict, folded on its own, counts what it
/// leaves out in its fewest words: then both do. One screen tells one
/// kind of fold in one form (trial 23: `← 4 more · w` on one side beside
/// `← why: 4 more · w` on the other read as two different counts).
fn fold_in_fewest(
    sides: [(&Theme, &Frame, (StepWords<'_>, StepWords<'_>), usize); 2],
    rows: usize,
) -> bool {
    sides
        .into_iter()
        .any(|(t, f, steps, w)| verdict_lines(t, f, steps, w, (rows, false)).1)
}

/// A verdict too long for its `rows` rows, as the main screen's one row
/// folds it: as many whole links of its chain as fit, then how many are
/// left and the key that shows them all (`← why: 3 more · w`), so no link
/// is cut in the middle and none is dropped without a count. Where not
/// even the headline fits beside the count, the headline alone is cut,
/// and the count still ends the last row. With the rows, the length of
/// the headline they start with (the one in the outcome's colour), and
/// whether the count took its fewest words. With `fewest` it always does.
fn folded(
    t: &Theme,
    f: &Frame,
    (step, own): (StepWords<'_>, StepWords<'_>),
    head: &str,
    w: usize,
    (rows, fewest): (usize, bool),
) -> (Vec<String>, usize, bool) {
    let v = &f.verdict;
    let links = verdict::told_links(t, v, step, own);
    let unsettled = t.text(&v.unsettled_text()).into_owned();
    let opening = format!("{head}{unsettled}");
    // The tail stays whole: on the last row's end, or on a row of its own.
    // It counts the links past the first `shown`, causes under `why`,
    // notes by what they are, as the main screen's verdict does.
    let with_tail = |text: &str, shown: usize, tail: &dyn Fn(usize) -> String| -> Vec<String> {
        let tail = tail(shown);
        let mut lines = words(text, w);
        match lines.last_mut() {
            Some(last) if last.chars().count() + 2 + tail.chars().count() <= w => {
                last.push_str("  ");
                last.push_str(&tail);
            }
            _ => lines.push(tail),
        }
        lines
    };
    // The headline whole before any link; else in its fewest words
    // (`✕ charged twice + disagree`) before it is cut.
    let short = verdict::short_headline(t, v);
    let long = |shown: usize| verdict::folded_tail(t, v, shown, fewest);
    for lead in std::iter::once(head).chain(short.as_deref()) {
        for shown in (0..links.len()).rev() {
            let text = format!("{lead}{unsettled}{}", links[..shown].concat());
            let lines = with_tail(&text, shown, &long);
            if lines.len() <= rows {
                return (lines, lead.chars().count(), fewest);
            }
        }
    }
    // What is left unsettled waits under `w`, counted with the causes,
    // before the headline is cut (as the main screen's one row does;
    // teacher trial 45: tour-2's end read `○ ends unsettled: m-7f3 is
    // still…  · w` on both sides, its count gone).
    if !unsettled.is_empty() {
        for lead in std::iter::once(head).chain(short.as_deref()) {
            for few in [fewest, true] {
                let waiting = |shown: usize| verdict::folded_tail_waiting(t, v, shown, few, 1);
                let lines = with_tail(lead, 0, &waiting);
                if lines.len() <= rows {
                    return (lines, lead.chars().count(), few);
                }
            }
        }
    }
    // The headline whole with the count in its fewest words (`← 4 more`)
    // before the headline is cut: a correct side's `in this run` is its
    // bound (at 80x24 a side is 38 columns). Its fewest words, then with
    // no key (`✕ charged twice + disagree  ← 2 more`, trial 45: the new
    // outcome was cut to `✕ charged twice, p…`).
    let fewest_tail = |shown: usize| verdict::folded_tail(t, v, shown, true);
    let causes: usize = v.causes.iter().map(Vec::len).sum();
    if !links.is_empty() {
        for lead in std::iter::once(head).chain(short.as_deref()) {
            let lines = with_tail(&format!("{lead}{unsettled}"), 0, &fewest_tail);
            if lines.len() <= rows {
                return (lines, lead.chars().count(), true);
            }
        }
        if causes > 0 {
            let keyless = |_: usize| verdict::keyless_tail(t, causes);
            for lead in std::iter::once(head).chain(short.as_deref()) {
                let lines = with_tail(&format!("{lead}{unsettled}"), 0, &keyless);
                if lines.len() <= rows {
                    return (lines, lead.chars().count(), true);
                }
            }
        }
    }
    // The opening alone is too long: its rows but the last are kept, the
    // last cut to leave room for the count of every link (or, with none,
    // for the key that reads the opening whole).
    let tail = match (links.len(), t.terminal_keys()) {
        (0, true) => format!("{} w", t.g.dot),
        (0, false) => String::new(),
        (_, _) => long(0),
    };
    let mut lines = words(&opening, w);
    lines.truncate(rows);
    let last = lines.pop().unwrap_or_default();
    let room = w.saturating_sub(tail.chars().count() + 2 + t.g.ellipsis.chars().count());
    let cut: String = last.chars().take(room).collect();
    lines.push(format!("{}{}  {tail}", cut.trim_end(), t.g.ellipsis));
    (lines, head.chars().count(), fewest)
}

/// What happens on one side, at most `rows` rows (or as many as the step's
/// own events and one row of its new words take): the step's own events first (each side tells its own
/// run), then this run's own words, then words written for another design
/// under their mark. A cut ends in an ellipsis, and every sentence not
/// shown is counted. `step` names the steps
/// the events' causes name. `frames` is the side's own timeline: words
/// its earlier steps had told read as earlier, dim, each group after a
/// mark naming the step that told it (`At step 4:`), as in the story
/// panel, and give way first.
pub(super) fn story_lines(
    t: &Theme,
    f: &Frame,
    frames: &[Frame],
    step: StepWords<'_>,
    w: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    let events = crate::sim::event::step_told_at(&f.events, step);
    let mut parts = vec![(events.clone(), t.info(), false)];
    // Each earlier sentence, in the screen's words, with the step that
    // told it.
    let mut old_sentences: Vec<(usize, String)> = Vec::new();
    if f.narration.trim() != events.trim() {
        let told = crate::sim::frame::told_before(frames, f);
        let cut = told.last().map_or(0, |g| g.range.end);
        // One paragraph for all of them, each step's words after its mark:
        // a paragraph a step cost a row apiece.
        let mut earlier: Vec<String> = Vec::new();
        for group in &told {
            let words = t.words(f.narration[group.range.clone()].trim());
            let starts = super::sentences::sentence_starts(&words);
            let ends = starts.iter().skip(1).copied().chain([words.len()]);
            for (&from, to) in starts.iter().zip(ends) {
                old_sentences.push((group.step, words[from..to].trim().to_string()));
            }
            earlier.push(format!(
                "{}{words}",
                super::story_line::earlier_mark(group.step)
            ));
        }
        if !earlier.is_empty() {
            parts.push((earlier.join(" "), t.dim(), true));
        }
        let new = &f.narration[cut..];
        if !new.trim().is_empty() {
            parts.push((t.words(new.trim()), Style::default(), false));
        }
    }
    for line in super::told::borrowed_lines(t, f) {
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        parts.push((text, line.style, false));
    }
    // The step's own events are what differs from the other side: they
    // are shown whole even where that takes more than `rows`. The words
    // new at this step come next in weight (teacher trial at 80x24: an
    // earlier count's `…` hid them, uncounted): earlier words give way to
    // them first, and where they are cut too, a count of every sentence
    // not shown ends the story.
    let event_rows = words(&events, w).len();
    let wrapped = |parts: Vec<(String, Style, bool)>| -> Vec<(String, Style, bool)> {
        parts
            .into_iter()
            .flat_map(|(text, style, old)| {
                words(&text, w).into_iter().map(move |l| (l, style, old))
            })
            .collect()
    };
    let (events_part, rest) = parts.split_at(1);
    let (old_part, own_part): (Vec<_>, Vec<_>) = rest.iter().cloned().partition(|p| p.2);
    let old_rows = wrapped(old_part).len();
    let own = wrapped(own_part.clone());
    let mut out = wrapped(events_part.to_vec());
    let room = rows.saturating_sub(event_rows);
    let n_old = old_sentences.len();
    // A row cut at a word's end where it has more than one word: half a
    // word read as a word.
    let ellipsis = |last: &mut String| {
        let keep = w.saturating_sub(t.g.ellipsis.chars().count() + 1);
        let fits = last.chars().count() <= keep;
        let mut cut: String = last.chars().take(keep).collect();
        if !fits && let Some(at) = cut.trim_end().rfind(' ') {
            let next = last.chars().nth(keep);
            if next.is_some_and(|c| c != ' ') {
                cut.truncate(at);
            }
        }
        *last = format!("{} {}", cut.trim_end(), t.g.ellipsis);
    };
    // The mark over borrowed words names them; it is no sentence.
    let borrowed_mark = f
        .borrowed
        .as_ref()
        .map(|b| format!("{} {}", t.g.dot, b.written_for.mark()));
    if old_rows + own.len() <= room {
        out.extend(wrapped(rest.to_vec()));
    } else if n_old > 0 && own.len() < room {
        // The newest earlier sentences that fit whole above the new
        // words, after a count of the ones before them; else the count
        // of them all alone. A sentence cut in half would go uncounted.
        let keep = room - own.len();
        // The earlier sentences from the `i`th on, after a count of the
        // ones before it: one paragraph, each step's words led by its
        // mark.
        let tail = |i: usize| {
            let mut paragraphs: Vec<(usize, String)> = Vec::new();
            for (step, sentence) in &old_sentences[i..] {
                match paragraphs.last_mut() {
                    Some((at, text)) if at == step => {
                        text.push(' ');
                        text.push_str(sentence);
                    }
                    _ => paragraphs.push((*step, sentence.clone())),
                }
            }
            let mut paragraph = format!("{} {} ", super::story_fold::count(t, i, 0), t.g.dot);
            for (k, (step, text)) in paragraphs.into_iter().enumerate() {
                if k > 0 {
                    paragraph.push(' ');
                }
                paragraph.push_str(&super::story_line::earlier_mark(step));
                paragraph.push_str(&text);
            }
            words(&paragraph, w)
        };
        let kept = (1..n_old)
            .map(tail)
            .find(|l| l.len() <= keep)
            .unwrap_or_else(|| vec![super::story_fold::count(t, n_old, 0)]);
        out.extend(kept.into_iter().map(|l| (l, t.dim(), true)));
        out.extend(own);
    } else {
        // The new words cut: as many of their rows as fit above a row
        // that counts what is not shown, theirs and the earlier ones.
        let keep = room.max(2) - 1;
        let mut kept: Vec<(String, Style, bool)> = own.iter().take(keep).cloned().collect();
        if kept.len() < own.len()
            && let Some((last, _, _)) = kept.last_mut()
            && !last.trim_end().ends_with(['.', '?', '!'])
        {
            ellipsis(last);
        }
        // Each part's words in the rows kept: the rows are its words in
        // order, so their start is what is read of it.
        let mut shown: Vec<String> = Vec::new();
        let mut row = 0;
        for (text, _, _) in &own_part {
            let n = words(text, w).len();
            let rows_of: Vec<String> = kept
                .iter()
                .skip(row)
                .take(n.min(kept.len().saturating_sub(row)))
                .map(|(l, _, _)| l.trim_end_matches(t.g.ellipsis).trim_end().to_string())
                .collect();
            row += n;
            shown.push(rows_of.join(" "));
        }
        let below: usize = own_part
            .iter()
            .zip(&shown)
            .filter(|((text, _, _), _)| borrowed_mark.as_deref() != Some(text.as_str()))
            .map(|((text, _, _), seen)| {
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                super::sentences::sentences_past_byte(&text, seen.len())
            })
            .sum();
        // One count for the fold: the earlier sentences above the new
        // words, the rest of the new words below them.
        let count = super::story_fold::count(t, n_old, below);
        out.extend(kept);
        out.push((count, t.dim(), true));
    }
    out.into_iter()
        .map(|(text, style, _)| Line::styled(text, style))
        .collect()
}

fn sides(app: &App, c: &Compare, split: bool, left: Rect, right: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let (lf, rf) = c.frames(app.pos);
    // At the split the borders turn the failure colour and the titles say
    // so in words: no text is drawn on a coloured background.
    let border = if split {
        t.bad().add_modifier(ratatui::style::Modifier::BOLD)
    } else {
        t.border(false)
    };
    let (mut lp, mut rp) = (Place::of(app, &c.left), Place::of(app, &c.right));
    let (lt, rt, form) = border_titles(app, c, split, left, right);
    let block = |title: &String| {
        let title = title.clone();
        Block::bordered()
            .border_set(t.g.border)
            .border_style(border)
            .title(Span::styled(title, t.title()))
    };
    let (lb, rb) = (block(&lt[form]), block(&rt[form]));
    let (li, ri) = (lb.inner(left), rb.inner(right));
    lb.render(left, buf);
    rb.render(right, buf);
    let rows = Rows::for_side(li.height, app.zoom);
    let schedule = crate::tui::compare::is_schedule(&app.script);
    let (lsteps, rsteps) = (
        side_steps(c, schedule, true),
        side_steps(c, schedule, false),
    );
    let (lown, rown) = (own_steps(c, schedule, true), own_steps(c, schedule, false));
    let titles = chapter_titles(app, c, lf.chapter);
    let (lc, rc) = (
        titles.as_ref().map(|(l, _)| l.as_str()),
        titles.as_ref().map(|(_, r)| r.as_str()),
    );
    lp.holding = holding(c, app.pos, true, &lp, usize::from(li.width));
    rp.holding = holding(c, app.pos, false, &rp, usize::from(ri.width));
    let fewest = fold_in_fewest(
        [
            (t, lf, (&lsteps, &lown), usize::from(li.width)),
            (t, rf, (&rsteps, &rown), usize::from(ri.width)),
        ],
        rows.verdict,
    );
    let (mut ls, lshort) = sections(
        t,
        (lf, &c.left.frames),
        &lp,
        (&lsteps, &lown),
        lc,
        usize::from(li.width),
        (rows, fewest),
    );
    let (mut rs, rshort) = sections(
        t,
        (rf, &c.right.frames),
        &rp,
        (&rsteps, &rown),
        rc,
        usize::from(ri.width),
        (rows, fewest),
    );
    // The shorter story takes the rows the taller one pads it to.
    let story_rows = ls[1].len().max(rs[1].len());
    let (lw, rw) = (usize::from(li.width), usize::from(ri.width));
    let (lside, rside) = ((lf, &c.left.frames[..]), (rf, &c.right.frames[..]));
    story_to(t, lside, &lsteps, lc, lw, (&mut ls[1], story_rows));
    story_to(t, rside, &rsteps, rc, rw, (&mut rs[1], story_rows));
    // Zoomed with none picked yet shows the first section (update picks
    // it too, so Tab goes on from there).
    let picked = c.section.or_else(|| app.zoom.then_some(Section::ALL[0]));
    if let Some(s) = picked {
        named(t, &mut ls[s.index()], &mut rs[s.index()], s);
    }
    // Each section's rows once both sides are lined up (the picked one's
    // title row in): where they start.
    let heights: Vec<usize> = ls
        .iter()
        .zip(&rs)
        .map(|(a, b)| a.len().max(b.len()))
        .collect();
    // Each side's own line in at most `rows` rows, both sides as tall.
    let (lholds, rholds) = (lp.holding.is_some(), rp.holding.is_some());
    let kept_told = |rows: usize| -> [Vec<Line<'static>>; 2] {
        let mut l = compare_told::kept(
            t,
            (lf, &c.left.frames),
            &lsteps,
            lholds,
            (usize::from(li.width), rows),
        );
        let mut r = compare_told::kept(
            t,
            (rf, &c.right.frames),
            &rsteps,
            rholds,
            (usize::from(ri.width), rows),
        );
        let n = l.len().max(r.len());
        l.resize(n, Line::raw(""));
        r.resize(n, Line::raw(""));
        [l, r]
    };
    let mut told_lines: [Vec<Line<'static>>; 2] = Default::default();
    // The row the picked section starts on, before any scrolling.
    let height = usize::from(li.height);
    let (start, view, lines_l, lines_r) = match picked {
        Some(s) if app.zoom => {
            let (l, r) = side_by_side(
                vec![ls.swap_remove(s.index())],
                vec![rs.swap_remove(s.index())],
            );
            (0, View::top(), l, r)
        }
        _ => {
            // The verdict stays on top whatever scrolls under it, and the
            // story too where what is to be shown fits under both: the
            // rows a scroll brings up are there to show why the verdict
            // reads as it does, and what the step did is told above them
            // (a side scrolled to its charges hid its verdict, or the
            // step's own words: `the card $40: ch_82.` alone).
            let start: usize = picked.map_or(0, |s| heights[..s.index()].iter().sum());
            // Where the story is not pinned, each side's own line is kept
            // above the rows it scrolls to (`compare_told`): in its rows,
            // else in one.
            let with_story = heights[0] + heights[1];
            let told_rows = kept_told(compare_told::MOST_ROWS)[0].len();
            let fitting = |tries: Vec<(usize, usize)>| -> Vec<(usize, usize)> {
                tries
                    .into_iter()
                    .filter(|&(pin, told)| height >= pin + told + 4)
                    .collect()
            };
            // The verdict stays pinned wherever it can: the last of these
            // that fits is taken whether or not the rows fit under it.
            let mut tries = fitting(vec![
                (with_story, 0),
                (heights[0], told_rows),
                (heights[0], told_rows.min(3)),
                (heights[0], told_rows.min(2)),
                (heights[0], told_rows.min(1)),
            ]);
            if tries.is_empty() {
                tries = fitting(vec![(0, told_rows), (0, told_rows.min(1))]);
            }
            tries.dedup();
            let room = |(pin, told): (usize, usize)| height.saturating_sub(pin + told + 2);
            let mut chosen = None;
            for (i, &fixed) in tries.iter().chain([&(0, 0)]).enumerate() {
                let follow = super::compare_follow::follow(
                    c,
                    app.pos,
                    [&ls, &rs],
                    &heights,
                    room(fixed),
                    t.g.ran,
                );
                // The picked section's rows, once both sides are lined
                // up; with none picked, what the step changed.
                let rows = match picked {
                    Some(s) => Some((start, start + heights[s.index()])),
                    None => follow.rows,
                };
                let fits = rows.is_none_or(|(a, b)| a >= fixed.0 && b - a <= room(fixed));
                if fits || i + 1 >= tries.len() {
                    chosen = Some((fixed, follow, rows));
                    break;
                }
            }
            let ((pin, told), follow, rows) = chosen.expect("the last try is always chosen");
            let (l, r) = side_by_side(ls, rs);
            let total = filled_rows(&l).max(filled_rows(&r));
            let mut view = rows.map_or(View::top(), |(a, b)| {
                View::showing(a, b, total, height, (pin, told))
            });
            // Where the story's own rows are in view after all (the scroll
            // passed only its heading), they are not said twice.
            if !view.scrolled() || view.first <= heights[0] + 1 {
                view.told = 0;
            }
            told_lines = kept_told(view.told);
            // A line that took its shorter form in fewer rows than it
            // was given leaves the rest to the rows it scrolled to: a
            // blank row there sat under its fold (`↓ 2 more sentences`).
            view.told = view.told.min(told_lines[0].len());
            for lines in &mut told_lines {
                lines.resize(view.told, Line::raw(""));
            }
            view.wanted = follow.wanted;
            (start, view, l, r)
        }
    };
    // The sections with a row in view name their marks drawn short: a
    // section scrolled away names none.
    let total = filled_rows(&lines_l).max(filled_rows(&lines_r));
    let in_view = |i: usize| match picked {
        Some(s) if app.zoom => s.index() == i,
        _ => {
            let begin: usize = heights[..i].iter().sum();
            view.shows_any(begin, begin + heights[i], (total, height))
        }
    };
    for (short, side) in [(lshort, left), (rshort, right)] {
        let mut named = marks::Shortened::default();
        for (_, s) in short.into_iter().enumerate().filter(|(i, _)| in_view(*i)) {
            named.extend(s.into_spans());
        }
        super::mark_legend::on_border(t, &named, side, buf);
    }
    for (side, (lines, area)) in [(lines_l, li), (lines_r, ri)].into_iter().enumerate() {
        let told = std::mem::take(&mut told_lines[side]);
        let shown = scrolled(t, lines, (area, side), &view, told);
        super::overflow::show(t, shown, false, area, buf);
        if picked.is_some() {
            mark(t, area, view.row_of(start), buf);
        }
    }
}

/// Which of a side's lined-up rows are on screen: the first `pin` (the
/// verdict, kept on top), then, when scrolled, a sign that counts the
/// rows passed, and the rows from `first` on.
struct View {
    pin: usize,
    /// The rows under the pinned ones that keep each side's own line
    /// (`compare_told`), when scrolled.
    told: usize,
    /// The first row shown under the pinned ones and the sign; 0 when
    /// nothing is scrolled.
    first: usize,
    /// The rows compare was to follow, for the signs to name the
    /// sections of those that are not in view (`compare_follow`).
    wanted: Vec<super::compare_follow::Wanted>,
}

impl View {
    fn top() -> View {
        View {
            pin: 0,
            told: 0,
            first: 0,
            wanted: Vec::new(),
        }
    }

    /// A view of `total` rows in `height` that shows rows `start..end`
    /// (under the `pin` rows, which always show, and once scrolled, the
    /// `told` rows under them).
    fn showing(
        start: usize,
        end: usize,
        total: usize,
        height: usize,
        (pin, told): (usize, usize),
    ) -> View {
        let skip = |rows: usize| first_row(start - pin, end - pin, total.saturating_sub(pin), rows);
        // Scrolled at all only where the rows do not fit unscrolled; then
        // under the kept rows too.
        let skip = if start < pin || skip(height - pin) == 0 {
            0
        } else {
            skip(height.saturating_sub(pin + told))
        };
        View {
            pin,
            told,
            first: if skip > 0 { pin + skip } else { 0 },
            wanted: Vec::new(),
        }
    }

    fn scrolled(&self) -> bool {
        self.first > 0
    }

    /// The rows shown under the pinned ones, of `total` on a side
    /// `height` rows tall: past the sign above, short of the sign below.
    fn window(&self, total: usize, height: usize) -> (usize, usize) {
        let (from, mut rows) = if self.scrolled() {
            (self.first, height.saturating_sub(self.pin + self.told + 1))
        } else {
            (0, height)
        };
        if total > from + rows {
            rows = rows.saturating_sub(1);
        }
        (from, from + rows)
    }

    /// The sections with rows to follow on `side` that are not wholly in
    /// view, above the window and below it, each named once.
    fn hidden(&self, side: usize, total: usize, height: usize) -> [Vec<&'static str>; 2] {
        let (from, to) = self.window(total, height);
        let mut out: [Vec<&'static str>; 2] = Default::default();
        for w in self.wanted.iter().filter(|w| w.side == side) {
            let (section, (a, b)) = (w.section, w.rows);
            let pinned = self.scrolled() && b <= self.pin;
            if pinned || (a >= from && b <= to) {
                continue;
            }
            let names = &mut out[usize::from(a >= from)];
            if !names.contains(&section.name()) {
                names.push(section.name());
            }
        }
        out
    }

    /// Whether any of rows `begin..end` of `total` is on a side `height`
    /// rows tall: pinned, or in the window, and not under the sign that
    /// counts the rows below (a queue whose `*` was under that sign still
    /// had the border name `* changed`: teacher trial, tour-1's last step
    /// at 80x24).
    fn shows_any(&self, begin: usize, end: usize, (total, height): (usize, usize)) -> bool {
        let (from, to) = self.window(total, height);
        let pinned = self.scrolled() && begin < self.pin && end > 0;
        pinned || (begin < to && end > from)
    }

    /// Where row `row` is drawn on the side, if it is.
    fn row_of(&self, row: usize) -> Option<usize> {
        if !self.scrolled() || row < self.pin {
            return Some(row);
        }
        Some(row.checked_sub(self.first)? + self.pin + self.told + 1)
    }
}

/// The picked section's mark: a glyph in the side's left border, beside
/// the section's first row (its title, or a verdict or a table's heading:
/// words either way, never colour alone). In the border it takes neither
/// a row nor a column of the side: a row of its own pushed one more row
/// under the sign below, and the counts changed at each press of Tab with
/// nothing else moved (trial 11); a glyph in front of a row cut the end
/// of a verdict that filled it.
fn mark(t: &Theme, area: Rect, row: Option<usize>, buf: &mut Buffer) {
    let Some(row) = row else {
        return;
    };
    let y = area.y as usize + row;
    if area.x == 0 || y >= usize::from(area.bottom()) {
        return;
    }
    let y = y as u16;
    buf[(area.x - 1, y)].set_symbol(t.g.next).set_style(t.key());
}

/// A picked section with no rows on either side gets one, its name, for
/// the mark to stand beside.
fn named(t: &Theme, left: &mut Vec<Line<'static>>, right: &mut Vec<Line<'static>>, s: Section) {
    if left.is_empty() && right.is_empty() {
        left.push(Line::styled(s.name(), t.title()));
        right.push(Line::styled(s.name(), t.title()));
    }
}

/// What a side is doing while it stands still and the other steps, in
/// words that fit `width`: `holding at step 13 while naive steps` (a step
/// of the other design's that this one does not have), or `finished at
/// step 15; holding while naive steps` (its run is over). The frame alone
/// cannot tell: a side that holds shows the same frame again, and a class
/// took it for a step that did nothing.
fn holding(c: &Compare, pos: usize, left: bool, place: &Place, width: usize) -> Option<String> {
    let now = *c.pairs.get(pos)?;
    let before = *c.pairs.get(pos.checked_sub(1)?)?;
    let (mine, theirs) = if left {
        ((before.0, now.0), (before.1, now.1))
    } else {
        ((before.1, now.1), (before.0, now.0))
    };
    if mine.0 != mine.1 || theirs.0 == theirs.1 {
        return None;
    }
    let other = if left {
        &c.right.strategy
    } else {
        &c.left.strategy
    };
    let unit = if place.schedule { "move" } else { "step" };
    let at = mine.1;
    let forms = if at == place.last {
        [
            format!("finished at {unit} {at}; holding while {other} steps"),
            format!("finished at {unit} {at}; holding"),
            format!("finished at {unit} {at}"),
        ]
    } else {
        [
            format!("holding at {unit} {at} while {other} steps"),
            format!("holding at {unit} {at}; {other} steps"),
            format!("holding at {unit} {at}"),
        ]
    };
    let last = forms[forms.len() - 1].clone();
    Some(
        forms
            .into_iter()
            .find(|f| f.chars().count() <= width)
            .unwrap_or(last),
    )
}

/// How many rows, to the last one with something in it.
fn filled_rows(lines: &[Line]) -> usize {
    lines
        .iter()
        .rposition(|l| l.spans.iter().any(|s| !s.content.trim().is_empty()))
        .map_or(0, |i| i + 1)
}

/// A side's lines as `view` shows them: the pinned rows, then from row
/// `first` on, the rows scrolled past counted under the pinned ones, those
/// below on the last row (`counted`), where Tab is named: it brings them
/// into view. A sign names the sections it hides that `view` was to
/// follow.
fn scrolled(
    t: &Theme,
    mut lines: Vec<Line<'static>>,
    (area, side): (Rect, usize),
    view: &View,
    told: Vec<Line<'static>>,
) -> Vec<Line<'static>> {
    let arrow = |a: &str| {
        if t.ascii() {
            String::new()
        } else {
            format!("{a} ")
        }
    };
    let filled = |l: &Line| l.spans.iter().any(|s| !s.content.trim().is_empty());
    // What the step changed and the rows did not make room for, named on
    // the sign that counts them (`: provider`).
    let total = filled_rows(&lines);
    let [up, down] = view.hidden(side, total, usize::from(area.height));
    let naming = |names: &[&str]| {
        if names.is_empty() {
            String::new()
        } else {
            format!(": {}", names.join(", "))
        }
    };
    let mut out = Vec::new();
    let mut below = area;
    let rest = if view.scrolled() && usize::from(area.height) > view.pin + view.told + 1 {
        let first = view.first.min(lines.len());
        let pin = view.pin.min(first);
        let rest = lines.split_off(first);
        // What the step did, above the rows it scrolled to. Its rows
        // stand for the story's first ones, which the sign above does not
        // count again: a side's counts and rows make one total whichever
        // rows are in view.
        let told_rows = told.len();
        let told_filled = told.iter().filter(|l| filled(l)).count();
        let above = lines[pin..]
            .iter()
            .filter(|l| filled(l))
            .count()
            .saturating_sub(told_filled);
        out.extend(lines.drain(..pin));
        out.extend(told);
        out.push(Line::styled(
            format!(
                "{} {}{above} more rows above{}",
                t.g.ellipsis,
                arrow("↑"),
                naming(&up)
            ),
            t.key(),
        ));
        below.height -= u16::try_from(pin + told_rows + 1).unwrap_or(below.height);
        rest
    } else {
        lines
    };
    let cut = filled_rows(&rest) > usize::from(below.height);
    let mut shown = counted(t, rest, below);
    if cut
        && !down.is_empty()
        && let Some(sign) = shown.last_mut()
    {
        sign.spans.push(Span::styled(naming(&down), t.key()));
    }
    if cut
        && let Some(sign) = shown.last_mut()
        && usize::from(below.width) >= sign.width() + 6
    {
        sign.spans
            .push(Span::styled(format!(" {} Tab", t.g.dot), t.key()));
    }
    out.extend(shown);
    out
}

/// Two sides' sections, each padded to the taller of the pair, so that
/// the same section starts on the same row on both sides.
pub(super) fn side_by_side(
    left: Vec<Vec<Line<'static>>>,
    right: Vec<Vec<Line<'static>>>,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let (mut lines_l, mut lines_r) = (Vec::new(), Vec::new());
    for (mut a, mut b) in left.into_iter().zip(right) {
        let rows = a.len().max(b.len());
        a.resize(rows, Line::raw(""));
        b.resize(rows, Line::raw(""));
        lines_l.append(&mut a);
        lines_r.append(&mut b);
    }
    (lines_l, lines_r)
}

/// Where a side stands: at a move of the schedule both sides replay (a
/// counterexample, a soak's story, a saved run), or at a step of its own
/// run of a scripted scenario.
struct Place {
    /// The script is a schedule of single moves.
    schedule: bool,
    /// The side's last frame: its number of moves or steps.
    last: usize,
    /// What the side does while the other steps and it stands still
    /// (`holding`), where it does.
    holding: Option<String>,
}

impl Place {
    fn of(app: &App, side: &crate::timeline::Timeline) -> Place {
        Place {
            schedule: crate::tui::compare::is_schedule(&app.script),
            last: side.frames.len() - 1,
            holding: None,
        }
    }

    /// `move 7/10` or `step 7/16`.
    fn at(&self, f: &Frame) -> String {
        let unit = if self.schedule { "move" } else { "step" };
        format!("{unit} {}/{}", f.index, self.last)
    }

    /// The row under the verdict: where the side is and what its step did,
    /// named as its own handler names it (`A: charge the card`).
    fn row(&self, f: &Frame) -> String {
        format!("{}: {}", self.at(f), did(f))
    }

    /// The side's title, longest form first: the design always, where it
    /// is, and the split when it is here (which the line above the sides
    /// and their borders also say).
    fn titles(&self, t: &Theme, name: &str, f: &Frame, split: bool) -> Vec<String> {
        let (dot, at) = (t.g.dot, self.at(f));
        let part = |long: bool| match (split, long) {
            (false, _) => String::new(),
            (true, true) => format!(" {dot} they part here"),
            (true, false) => format!(" {dot} part here"),
        };
        vec![
            format!(" design: {name} {dot} {at}{} ", part(true)),
            format!(" design: {name} {dot} {at}{} ", part(false)),
            format!(" design: {name} {dot} {at} "),
            format!(" design: {name} "),
        ]
    }
}

/// Each side's border titles, longest form first, and the form both take:
/// the first that fits on either side.
fn border_titles(
    app: &App,
    c: &Compare,
    split: bool,
    left: Rect,
    right: Rect,
) -> (Vec<String>, Vec<String>, usize) {
    let t = &app.theme;
    let (lf, rf) = c.frames(app.pos);
    let (lp, rp) = (Place::of(app, &c.left), Place::of(app, &c.right));
    let titles = |p: &Place, name: &str, f: &Frame| p.titles(t, name, f, split);
    let (lt, rt) = (
        titles(&lp, &c.left.strategy, lf),
        titles(&rp, &c.right.strategy, rf),
    );
    let fits = |title: &String, area: Rect| title.chars().count() + 2 <= usize::from(area.width);
    let form = (0..lt.len().min(rt.len()))
        .find(|&i| fits(&lt[i], left) && fits(&rt[i], right))
        .unwrap_or(lt.len().min(rt.len()) - 1);
    (lt, rt, form)
}

/// What the frame's step did, in its handler's words: the step the
/// stepping consumer ran, else the move in a reader's words, else the
/// action as the script names it.
fn did(f: &Frame) -> String {
    let ran = f.stepped.as_ref().and_then(|who| {
        let s = f.changes.steps.iter().find(|s| s.consumer == *who)?;
        let c = f.consumers.iter().find(|c| c.name == *who)?;
        Some(format!("{who}: {}", c.steps.get(s.step)?.label))
    });
    ran.or_else(|| f.move_told())
        .unwrap_or_else(|| f.action_told())
}

/// A side's lines for `area`: where they do not all fit, the last row says
/// how many rows with something in them are below, on a row of its own
/// (the blank rows that line the sections up are not counted).
pub(super) fn counted(t: &Theme, mut lines: Vec<Line<'static>>, area: Rect) -> Vec<Line<'static>> {
    let rows = usize::from(area.height);
    let filled = |l: &Line| l.spans.iter().any(|s| !s.content.trim().is_empty());
    while lines.last().is_some_and(|l| !filled(l)) {
        lines.pop();
    }
    if rows == 0 || lines.len() <= rows {
        return lines;
    }
    let hidden = lines[rows - 1..].iter().filter(|l| filled(l)).count();
    lines.truncate(rows - 1);
    let arrow = if t.ascii() { "" } else { "↓ " };
    lines.push(Line::styled(
        format!("{} {arrow}{hidden} more rows below", t.g.ellipsis),
        t.key(),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side's verdict too long for its rows is never cut silently: its
    /// rows hold every link of its chain, or end with how many are left
    /// (causes under `why`, notes by what they are: `! 1 at risk`) and
    /// the key that shows them (`w`, which zooms the verdict), unless the
    /// key would cut the outcome. Each link shown is whole.
    #[test]
    fn a_cut_verdict_counts_the_links_it_leaves_out_and_names_w() {
        let t = Theme::new(false, false);
        let step = &crate::sim::cause::plain_step;
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut cut = 0;
        for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
            for mode in ["naive", "idempotent"] {
                let app = crate::tui::app::tests::app(name, mode);
                for f in &app.timeline.frames {
                    let links = verdict::told_links(&t, &f.verdict, step, step);
                    for (w, rows) in [(38, 1), (48, 3), (58, 4)] {
                        let (lines, _) = verdict_lines(&t, f, (step, step), w, (rows, false));
                        assert!(lines.len() <= rows);
                        let text: Vec<String> = lines
                            .iter()
                            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
                            .collect();
                        for row in &text {
                            assert!(row.chars().count() <= w, "{row:?} wider than {w}");
                        }
                        let shown = norm(&text.join(" "));
                        let missing: Vec<&String> =
                            links.iter().filter(|l| !shown.contains(&norm(l))).collect();
                        if missing.is_empty() {
                            continue;
                        }
                        cut += 1;
                        // In fewer words where the headline would be cut
                        // for them (`verdict::fewest_tail`); causes under
                        // `why`, notes by what they are.
                        let shown = links.len() - missing.len();
                        let tail = verdict::folded_tail(&t, &f.verdict, shown, false);
                        let fewest = verdict::folded_tail(&t, &f.verdict, shown, true);
                        // Or, where even that would cut the outcome, the
                        // count alone (`✕ charged twice + disagree  ← 2
                        // more`): the outcome whole comes first.
                        let causes: usize = f.verdict.causes.iter().map(Vec::len).sum();
                        let keyless = verdict::keyless_tail(&t, causes);
                        let last = text.last().unwrap();
                        assert!(
                            last.ends_with(&tail)
                                || last.ends_with(&fewest)
                                || (shown == 0 && last.ends_with(&keyless)),
                            "{name} {mode} step {} at {w}x{rows}: {text:?} leaves out {missing:?}",
                            f.index
                        );
                    }
                }
            }
        }
        assert!(cut > 0, "no verdict was too long: the test tests nothing");
    }

    #[test]
    fn a_side_counts_the_rows_with_something_in_them_on_a_row_of_its_own() {
        let t = Theme::new(false, false);
        let mut lines: Vec<Line<'static>> =
            (1..=4).map(|i| Line::raw(format!("row {i}"))).collect();
        lines.extend([
            Line::raw(""),
            Line::raw("   "),
            Line::raw("row 5"),
            Line::raw(""),
        ]);
        let shown = counted(&t, lines.clone(), Rect::new(0, 0, 20, 3));
        assert_eq!(shown.len(), 3);
        let last: String = shown[2].spans.iter().map(|s| s.content.as_ref()).collect();
        // Rows 3, 4 and 5 are below; the blank rows between are not counted.
        assert_eq!(last, "… ↓ 3 more rows below");
        // Everything fits once the trailing blank row is dropped.
        assert_eq!(counted(&t, lines, Rect::new(0, 0, 20, 7)).len(), 7);
    }
}
