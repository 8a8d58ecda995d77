//! The explorer's lower pane: for the selected design, its shortest
//! counterexamples with their cause chains, or, where no schedule broke
//! it, what was proved and within which bounds.

use super::hanging::hanging;
use super::rule;
use crate::check::{Bounds, StrategyReport};
use crate::tui::explorer::{self, num, summary};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

pub(super) fn render(
    t: &Theme,
    s: &StrategyReport,
    bounds: &Bounds,
    sel: crate::tui::explorer::Selection,
    l: &layout::Explorer,
    buf: &mut Buffer,
) {
    let block = rule(t, title(t, s, sel.whole, l));
    let inner = block.inner(l.detail);
    block.render(l.detail, buf);
    // Whole, every property wraps. In the table's pane a cut property
    // row is kept only where the detail runs past the pane anyway, so
    // the fold note offers `z`, which shows it whole (at 80x24 the cut
    // keeps the claim's other properties in view).
    let (rows, run_from) = if sel.whole {
        rows(t, s, bounds, sel, l, inner, true)
    } else {
        let cut = rows(t, s, bounds, sel, l, inner, false);
        if cut.0.len() > usize::from(inner.height) {
            cut
        } else {
            rows(t, s, bounds, sel, l, inner, true)
        }
    };
    draw(t, rows, run_from, s, sel, l, inner, buf);
}

/// The design's name, its promise and its summary, where the rule has
/// room for them all (see [`summary::title`]).
fn title(t: &Theme, s: &StrategyReport, whole: bool, l: &layout::Explorer) -> String {
    summary::title(t, s, whole, l.detail)
}

/// The rest of the summary the whole detail's title has no room for, on
/// rows of its own (see [`summary::rest`]).
fn summary_rows(t: &Theme, s: &StrategyReport, l: &layout::Explorer) -> Vec<Line<'static>> {
    summary::rest(t, s, l.detail)
        .into_iter()
        .map(|row| Line::styled(row, t.dim()))
        .collect()
}

/// The furthest PgDn pages the whole detail (`z`) of design `s`: where its
/// last row comes into view. PgDn stores its offset no further, so a press
/// past the end costs no PgUp later (teacher trial: each extra PgDn at the
/// end had to be paid back by one PgUp that moved nothing).
pub(crate) fn last_scroll(
    t: &Theme,
    s: &StrategyReport,
    bounds: &Bounds,
    sel: crate::tui::explorer::Selection,
    l: &layout::Explorer,
) -> usize {
    let inner = rule(t, String::new()).inner(l.detail);
    let (rows, _) = rows(t, s, bounds, sel, l, inner, true);
    most(rows.len(), inner.height)
}

/// The most rows of `rows` a pane `height` rows tall scrolls past: its
/// last row in view, under the note that counts the rows above.
fn most(rows: usize, height: u16) -> usize {
    let h = usize::from(height);
    if rows > h { rows + 1 - h } else { 0 }
}

/// The detail's rows, every one in the pane's width, and the index of
/// the first that belongs to the selected run (its chain and moves, which
/// Enter replays): the rows before it only `z` shows whole.
fn rows(
    t: &Theme,
    s: &StrategyReport,
    bounds: &Bounds,
    sel: crate::tui::explorer::Selection,
    l: &layout::Explorer,
    inner: Rect,
    wrap: bool,
) -> (Vec<Line<'static>>, usize) {
    let cx_sel = sel.cx;
    let width = l.detail.width as usize;
    // Every line is made into rows here, wrapped where it is longer than
    // the pane (a move's continuation under its words, the chain's under
    // its first word), so that nothing is cut and the last row can count
    // exactly the rows below it. Only the list keeps a row a run: a click
    // picks a run by its row.
    let inner_w = usize::from(inner.width);
    // Whole, the rest of a summary the rule has no room for goes on
    // right under it (the list of runs below it, as `list_below` says).
    let mut rows: Vec<Line<'static>> = if sel.whole {
        summary_rows(t, s, l)
    } else {
        Vec::new()
    };
    let runs = explorer::runs(s);
    let n = runs.len();
    let number_w = n.to_string().len();
    let class_w = runs.iter().map(|r| r.title().len()).max().unwrap_or(0);
    let beyond = |run: &explorer::Run| {
        run.further
            .map(|f| format!("  at {}:", f.bound()))
            .unwrap_or_default()
    };
    // The widest words every listed run's row has room for: the ending (what
    // the database and the provider hold) is the run's proof, kept whole.
    let lead_w = 6 + number_w - 1 + class_w;
    let ending = Ending::ALL.into_iter().find(|e| {
        runs.iter().all(|r| {
            lead_w + beyond(r).chars().count() + e.words(t, r.cx).chars().count() <= inner_w
        })
    });
    let shown = l.cx_offset..l.cx_offset + usize::from(l.list.height);
    for (i, run) in runs.iter().enumerate() {
        if !shown.contains(&i) {
            continue;
        }
        let here = i == cx_sel;
        let mut line = Line::from(vec![
            Span::styled(
                format!(
                    " {} {:>number_w$}. ",
                    if here { t.g.next } else { " " },
                    i + 1,
                ),
                t.key(),
            ),
            Span::styled(format!("{:<class_w$}", run.title()), t.bad()),
            // A run one bound further names its bound first: the design
            // held within the bounds asked for.
            Span::styled(beyond(run), t.warn()),
            Span::raw(ending.unwrap_or(Ending::Bare).words(t, run.cx)),
        ]);
        if here {
            line = line.style(t.highlight());
        }
        rows.push(super::fit(t, line, inner_w));
    }
    // Too narrow for any list row to keep its ending: the selected run's,
    // whole, right under the list.
    if let (None, Some(run)) = (ending, runs.get(cx_sel)) {
        rows.extend(hanging(
            &[Span::styled(
                format!(" {}", Ending::Long.words(t, run.cx).trim_start()),
                t.dim(),
            )],
            inner_w,
            3,
        ));
    }
    if s.counterexamples.is_empty() {
        // The claim with its bounds wraps: it is the point, never cut.
        // So does each property: its words are the claim's bounds (a
        // teacher trial at 80x24 read `each fact charged exactly once
        // (dead-lettered only if the provi…` above empty rows), each row
        // after its first under its words.
        for (line, indent, always) in properties(t, s, bounds) {
            if wrap || always {
                rows.extend(hanging(&line.spans, inner_w, indent));
            } else {
                rows.push(super::fit(t, line, inner_w));
            }
        }
    }
    let run_from = rows.len();
    if let Some(run) = runs.get(cx_sel) {
        let cx = run.cx;
        let chain = cx.verdict.chain_at(t.arrow(), &crate::check::move_words);
        let chain = t.text(&chain).into_owned();
        let why = |chain: String| {
            hanging(
                &[
                    Span::styled(" why: ", t.dim()),
                    Span::styled(chain, t.warn()),
                ],
                inner_w,
                6,
            )
        };
        let whole = why(chain.clone());
        // The rows left above the last one, which counts the rest. Where
        // the chain is longer (80x24, issue 18: its last link, the cause,
        // was behind "↓ 23 more lines"), its first and last links in one
        // row: the cause is what a learner reads the chain for.
        let room = usize::from(inner.height).saturating_sub(rows.len() + 1);
        // The whole chain follows, among the lines counted below it.
        if whole.len() > room && room > 0 {
            let arrow = format!(" {} ", t.arrow().as_str());
            rows.extend(why(ends_of(&chain, &arrow, inner_w - 6)));
        }
        rows.extend(whole);
        // Said only where it fits whole: a cut sentence would hide the
        // reason it gives.
        let why_shortest = " found breadth-first: the shortest run to each end; a tour may tell another, to teach one fault at a time";
        if why_shortest.chars().count() < width {
            rows.push(Line::styled(why_shortest, t.dim()));
        }
        // Where the run breaks the design another way than its tour tells
        // (naive's shortest double charge is no lost ack), one line says so.
        if run.further.is_none()
            && let Some(unlike) = super::unlike_tour::line(cx)
        {
            rows.extend(hanging(&[Span::styled(unlike, t.info())], inner_w, 2));
        }
        if let Some(f) = run.further {
            rows.extend(hanging(
                &[Span::styled(
                    format!(
                        " (found one bound further, with {}: within the bounds asked for, the design held)",
                        f.bound()
                    ),
                    t.dim(),
                )],
                inner_w,
                2,
            ));
        } else if let Some(b) = &s.bounds {
            rows.extend(hanging(
                &[Span::styled(
                    format!(
                        " (checked with a second message for the same order and at most {} fault{} per schedule)",
                        b.max_faults,
                        if b.max_faults == 1 { "" } else { "s" }
                    ),
                    t.dim(),
                )],
                inner_w,
                2,
            ));
        }
        rows.extend(moves(t, cx, inner_w));
    }
    (rows, run_from)
}

/// The rows from the scroll on, with a note at the top for the rows
/// scrolled past and one at the foot for the rows below, each naming
/// the key that reads them. `run_from` is the first of the selected
/// run's rows (see [`rows`]).
#[allow(clippy::too_many_arguments)]
fn draw(
    t: &Theme,
    rows: Vec<Line<'static>>,
    run_from: usize,
    s: &StrategyReport,
    sel: crate::tui::explorer::Selection,
    l: &layout::Explorer,
    inner: Rect,
    buf: &mut Buffer,
) {
    let inner_w = usize::from(inner.width);
    let runs = explorer::runs(s);
    let cx_sel = sel.cx;
    // Scrolled only while whole, and never past the last row's coming
    // into view (a screen grown since).
    let most = most(rows.len(), inner.height);
    let scroll = if sel.whole { sel.scroll.min(most) } else { 0 };
    let (up, down) = if t.ascii() {
        ("", "")
    } else {
        ("↑ ", "↓ ")
    };
    let mut top = inner;
    if scroll > 0 && inner.height > 1 {
        Line::styled(format!(" {up}{scroll} lines above: PgUp"), t.key())
            .render(Rect::new(inner.x, inner.y, inner.width, 1), buf);
        top.y += 1;
        top.height -= 1;
    }
    let rows: Vec<Line<'static>> = rows.into_iter().skip(scroll).collect();
    // The list scrolls; what is above or below it says so at its end.
    let (above, below) = (
        l.cx_offset,
        runs.len()
            .saturating_sub(l.cx_offset + usize::from(l.list.height)),
    );
    let total = rows.len();
    for (i, row) in rows.into_iter().enumerate() {
        let y = top.y + u16::try_from(i).unwrap_or(u16::MAX);
        if y >= top.bottom() {
            break;
        }
        // The last row left, with more rows to come, says how many.
        let left = total - i;
        if y + 1 == top.bottom() && left > 1 {
            // Enter is offered only where there is a run to replay; a
            // held design's lines are read with the detail whole (`z`),
            // and whole, PgDn reads on (in-progress's run at 80x24 ran
            // 55 rows past the screen, cut mid-sentence).
            // Enter shows only the run: where the fold also hides the
            // claim, its properties or the tries one bound further, the
            // note names `z` too (teacher trial at 80x24: in-progress's
            // `↓ 72 more lines: Enter replays this run in full`, most of
            // them properties Enter never shows).
            let beyond_run = scroll + i < run_from;
            let replay = match (sel.whole, runs.get(cx_sel).is_some(), beyond_run) {
                (true, true, _) => ": PgDn reads on, Enter replays the run",
                (true, false, _) => ": PgDn reads on",
                (false, true, true) => ": z shows the detail whole, Enter replays the run",
                (false, true, false) => ": Enter replays this run in full",
                (false, false, _) => ": z shows the detail whole",
            };
            Line::styled(format!(" {down}{left} more lines{replay}"), t.key())
                .render(Rect::new(inner.x, y, inner.width, 1), buf);
            break;
        }
        super::fit(t, row, inner_w).render(Rect::new(inner.x, y, inner.width, 1), buf);
    }
    // No arrows in ASCII: their stand-ins would read as letters.
    let note = match (above, below) {
        (0, 0) => None,
        (0, b) => Some(format!(" {down}{b} more ")),
        (a, 0) => Some(format!(" {up}{a} above ")),
        (a, b) => Some(format!(" {up}{a} above, {down}{b} more ")),
    };
    // Scrolled, the list is off the top: its note would sit on other rows.
    if let Some(note) = note.filter(|_| !l.list.is_empty() && scroll == 0) {
        let w = (note.chars().count() as u16).min(l.list.width);
        let at = Rect::new(l.list.right() - w, l.list.bottom() - 1, w, 1);
        Line::styled(note, t.key()).render(at, buf);
    }
}

/// A cause chain in `width` cells by its ends: its first link and its
/// last, the links between counted (`charged twice ← 1 more ← response
/// lost at move 6`). Where the first link is too long, its first parts
/// (`charged twice`, of `charged twice, provider and database disagree`:
/// the list row above says the outcome whole), cut nowhere else; the
/// last link, the cause, is kept whole.
fn ends_of(chain: &str, arrow: &str, width: usize) -> String {
    let links: Vec<&str> = chain.split(arrow).collect();
    let (first, last) = (links[0], links[links.len() - 1]);
    if links.len() < 2 {
        return chain.to_string();
    }
    let tail = match links.len() - 2 {
        0 => format!("{arrow}{last}"),
        n => format!("{arrow}{n} more{arrow}{last}"),
    };
    let parts: Vec<&str> = first.split(", ").collect();
    (1..=parts.len())
        .rev()
        .map(|k| format!("{}{tail}", parts[..k].join(", ")))
        .find(|c| c.chars().count() <= width)
        .unwrap_or_else(|| format!("{}{tail}", parts[0]))
}

/// A run's moves, numbered, each with the step's title and what happened
/// in it; a move longer than its row goes on in the rows below, under its
/// words, so that the end of a sentence ("The provider charges the card")
/// is never what the edge takes.
fn moves(t: &Theme, cx: &crate::check::Counterexample, width: usize) -> Vec<Line<'static>> {
    let title_w = cx
        .steps
        .iter()
        .map(|st| st.title.chars().count())
        .max()
        .unwrap_or(0)
        .min(28);
    let n_w = cx.steps.len().to_string().len();
    let lead_w = 2 + n_w + 2;
    let said_w = width.saturating_sub(lead_w + title_w + 2).max(12);
    let mut rows = Vec::new();
    for (i, step) in cx.steps.iter().enumerate() {
        let said = super::wrap_words::words(&t.text(&step.happened.join(" ")), said_w);
        // A title longer than its column goes on below it too.
        let title = super::wrap_words::words(&t.text(&step.title), title_w.max(1));
        for k in 0..said.len().max(title.len()).max(1) {
            let number = if k == 0 {
                format!("  {:>n_w$}. ", i + 1)
            } else {
                " ".repeat(lead_w)
            };
            rows.push(Line::from(vec![
                Span::styled(number, t.dim()),
                Span::styled(
                    format!("{:<title_w$}  ", title.get(k).map_or("", String::as_str)),
                    t.info(),
                ),
                Span::raw(said.get(k).cloned().unwrap_or_default()),
            ]));
        }
    }
    rows
}

/// How many words a listed run's row gives its length and its ending:
/// the most that fits every listed run's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    Long,
    /// Without "the shortest": the line under the chain says why.
    Plain,
    Short,
    Fewest,
    /// The ending alone: the moves are counted in the run's list below.
    Bare,
}

impl Ending {
    const ALL: [Ending; 5] = [
        Ending::Long,
        Ending::Plain,
        Ending::Short,
        Ending::Fewest,
        Ending::Bare,
    ];

    fn words(self, t: &Theme, cx: &crate::check::Counterexample) -> String {
        let long = matches!(self, Ending::Long | Ending::Plain);
        let paid = if long {
            format!("ends with ${} in payments", cx.total)
        } else {
            // What the database recorded, not what the customer paid: a
            // double charge pays more than it records.
            format!("${} in db", cx.total)
        };
        let charge = if long { "provider charge" } else { "charge" };
        let plural = if cx.charges == 1 { "" } else { "s" };
        // Found breadth-first: the shortest run to this end, which is why
        // it can be shorter than a tour's story.
        let shortest = match self {
            Ending::Long => ", the shortest",
            Ending::Short => ", shortest",
            Ending::Plain | Ending::Fewest | Ending::Bare => "",
        };
        if self == Ending::Bare {
            return format!("  {paid}, {} {charge}{plural}", cx.charges);
        }
        format!(
            "  {} moves{shortest} {} {paid}, {} {charge}{plural}",
            cx.moves.len(),
            t.g.dot,
            cx.charges
        )
    }
}

/// For a design nothing broke: what was proved, within which bounds, and
/// that it was not proved vacuously; each line with the indent of its
/// rows after the first, and whether it wraps even where the detail is
/// cut (a claim, a try one bound further: never the line that is cut).
fn properties(t: &Theme, s: &StrategyReport, bounds: &Bounds) -> Vec<(Line<'static>, usize, bool)> {
    // The claim with its bounds and the try one bound further, in the words
    // `idem check` prints: never a bare "holds".
    let mut lines = vec![(
        Line::styled(
            format!(
                " No schedule within the bounds breaks {}: it {}.",
                s.strategy,
                // The search's figures beside its own bounds; each try
                // one bound further with its own.
                crate::check::further::claim_with(
                    s,
                    bounds,
                    &format!(
                        " ({} schedules, {} states)",
                        num(s.schedules),
                        num(s.states)
                    )
                ),
            ),
            t.good(),
        ),
        1,
        true,
    )];
    // The "see below" of a claim under the design's own bounds: right
    // under it, and wrapped, so it is never the line that is cut.
    if let Some(own) = &s.bounds {
        let assumes: Vec<String> = s
            .assumptions
            .iter()
            .map(|a| format!("{}, as it assumes; ", a.short()))
            .collect();
        let lowered = if own.max_faults != bounds.max_faults {
            format!(
                "; lowered from the {} asked for: the second message makes the space larger, and one fault is all its known failures need",
                bounds.max_faults
            )
        } else {
            String::new()
        };
        lines.push((
            Line::styled(
                format!(
                    " Checked under its own bounds ({}a second message for the same order, since it remembers only the latest): at most {} per schedule{lowered}.",
                    assumes.concat(),
                    crate::check::further::faults(own.max_faults),
                ),
                t.dim(),
            ),
            1,
            true,
        ));
    }
    let mark = |ok: bool| if ok { t.g.done } else { t.g.failed };
    for inv in &s.invariants {
        lines.push((
            Line::raw(format!("   always     {} {}", mark(inv.holds), inv.text)),
            under(mark(inv.holds)),
            false,
        ));
    }
    lines.push((
        Line::raw(format!(
            "   eventually {} {}",
            mark(s.eventually.holds),
            s.eventually.text
        )),
        under(mark(s.eventually.holds)),
        false,
    ));
    for w in &s.witnesses {
        let how = match (w.seen, w.required, w.depth) {
            (true, _, Some(d)) => format!("seen after {d} moves"),
            (true, _, None) => "seen".into(),
            (false, true, _) => "NEVER SEEN: the pass is vacuous".into(),
            (false, false, _) => "not possible within these bounds".into(),
        };
        lines.push((
            Line::raw(format!(
                "   sometimes  {} {} ({how})",
                mark(w.seen || !w.required),
                w.text
            )),
            under(mark(w.seen || !w.required)),
            false,
        ));
    }
    lines.extend(further_lines(t, s));
    lines
}

/// A property's rows after its first start under its words: past the 14
/// columns of its kind (`   eventually `) and its mark (teacher trial at
/// 120x40: a `further` row going on at column 1 read as a new row).
fn under(mark: &str) -> usize {
    14 + mark.chars().count() + 1
}

/// Each try one bound further, and for one that broke the design, what
/// its schedules end with, in plain words read off the check: the way
/// most of them end first, each with its count.
fn further_lines(t: &Theme, s: &StrategyReport) -> Vec<(Line<'static>, usize, bool)> {
    use crate::check::further::{FurtherResult, dead_lettered, end_words};
    s.further
        .iter()
        .map(|f| {
            let mark = match &f.result {
                FurtherResult::Holds { .. } => t.g.done,
                FurtherResult::TooLarge { .. } => t.g.pending,
                // Failures no handler could avoid: no break of the design.
                FurtherResult::Breaks {
                    unfinishable: Some(_),
                    ..
                } => t.g.pending,
                FurtherResult::Breaks { .. } => t.g.failed,
            };
            let text = match &f.result {
                // With the try's bounds: a "holds" says within what.
                FurtherResult::Holds { states } => format!(
                    "   further    {} {}{}: holds too ({} states)",
                    t.g.done,
                    f.place(),
                    f.caps().map(|c| format!(" ({c})")).unwrap_or_default(),
                    num(*states)
                ),
                FurtherResult::TooLarge { .. }
                | FurtherResult::Breaks {
                    unfinishable: Some(_),
                    ..
                } => {
                    format!("   further    {} {}", t.g.pending, f.words())
                }
                FurtherResult::Breaks { schedules, .. } => {
                    let ways: Vec<String> = f
                        .ways()
                        .iter()
                        .enumerate()
                        .map(|(i, (n, cx))| {
                            let of = if i == 0 {
                                format!(" of {}", num(*schedules))
                            } else {
                                String::new()
                            };
                            format!(
                                "{}{of} schedules end {} ({})",
                                num(*n),
                                end_words(cx, false),
                                cx.class.text()
                            )
                        })
                        .collect();
                    // Dead-lettered, and still a failure: the message was
                    // healthy, which the eventually line's exception
                    // (a message the provider refused) does not cover.
                    let healthy = if f.ways().iter().any(|(_, cx)| dead_lettered(cx)) {
                        ". The message was healthy: dead-lettering it is a failure, not the refused case the eventually line allows"
                    } else {
                        ""
                    };
                    format!(
                        "   further    {} {} it breaks: {}{healthy}.",
                        t.g.failed,
                        f.place(),
                        if ways.is_empty() {
                            "an always-property fails on the way".to_string()
                        } else {
                            ways.join("; ")
                        }
                    )
                }
            };
            (Line::raw(text), under(mark), true)
        })
        .collect()
}
