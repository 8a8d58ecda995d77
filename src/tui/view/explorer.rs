//! The explorer, full screen: the checker's table (one row per design, its
//! schedules by how they end, and whether it held to its claim), then the
//! selected design's shortest counterexamples with their cause chains.

use super::{explorer_detail, keybar, rule};
use crate::check::{Bounds, CheckReport, StrategyReport};
use crate::tui::app::App;
use crate::tui::explorer::{Column, Exploration, Selection, Standing, num};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub fn render(app: &App, sel: Selection, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let report = app.exploration.report();
    let designs = report.map_or(0, |r| r.strategies.len());
    let cxs = report
        .and_then(|r| r.strategies.get(sel.row))
        .map_or(0, |s| crate::tui::explorer::runs(s).len());
    let legend_h = legend_rows(t, report, area.width);
    let l = layout::explorer(area, designs, sel.row, cxs, sel.cx, legend_h);
    header(t, report, l.header, buf);
    keybar::render(app, l.keybar, buf);
    let Some(report) = report else {
        waiting(app, l.table.union(l.detail), buf);
        return;
    };
    let indented = Rect {
        x: l.bounds.x + 1,
        width: l.bounds.width.saturating_sub(2),
        ..l.bounds
    };
    bounds(t, report, indented, buf);
    let legend = table(t, report, sel.row, &l, buf);
    Paragraph::new(legend).render(l.legend, buf);
    if let Some(s) = report.strategies.get(sel.row) {
        explorer_detail::render(t, s, &report.bounds, sel.cx, &l, buf);
    }
}

fn header(t: &Theme, report: Option<&CheckReport>, area: Rect, buf: &mut Buffer) {
    let mut left = Line::from(vec![
        Span::styled(" idem ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
        Span::styled("Explorer", t.info()),
        // SQLite whatever engine the story runs on: the checker on
        // PostgreSQL takes minutes (`idem check --db` runs it there).
        Span::styled(
            format!(
                " {} every schedule of every design, on real SQLite",
                t.g.dot
            ),
            t.title(),
        ),
    ]);
    let Some(report) = report else {
        left.render(area, buf);
        return;
    };
    let standings: Vec<Standing> = report.strategies.iter().map(Standing::of).collect();
    let count = |which: Standing| standings.iter().filter(|s| **s == which).count();
    // A design that holds only within the bounds, and breaks one bound
    // further, is counted apart: "holds" alone would read as safe.
    let only_within = report
        .strategies
        .iter()
        .filter(|s| Mark::of(s) == Mark::OnlyWithin)
        .count();
    // Each count with its mark, as in the table's rows and its legend;
    // the long words, or the short ones where those do not fit.
    let tally: [(&str, Style, usize, &str, &str); 5] = [
        (
            t.g.done,
            t.good(),
            count(Standing::Holds) - only_within,
            "hold within bounds",
            // Never a bare "hold": every design is checked within bounds.
            // Nor a bare "within" (teacher trial, issue 18: `✓ 3 hold
            // within` at 80 columns): the short form keeps its object.
            "hold within bounds",
        ),
        (
            t.g.warning,
            t.warn(),
            only_within,
            "only within them",
            "only within them",
        ),
        (
            t.g.failed,
            t.dim(),
            count(Standing::BrokenAsExpected),
            "broken, as expected",
            "broken",
        ),
        (
            t.g.failed,
            t.bad(),
            count(Standing::Contradiction),
            // `idem check`'s words for it, here as on its row.
            "CONTRADICTS ITS CLAIM",
            "CONTRADICTS",
        ),
        (
            t.g.vacuous,
            t.bad(),
            count(Standing::Vacuous),
            "proving nothing",
            "vacuous",
        ),
    ];
    let right = |long: bool| {
        let mut spans = Vec::new();
        // The safe count always shows, zero too; the others when nonzero.
        for (i, (mark, style, n, l, s)) in tally.iter().enumerate() {
            if *n == 0 && i > 0 {
                continue;
            }
            if !spans.is_empty() {
                let sep = if long { "  ·  " } else { " · " };
                spans.push(Span::styled(sep.replace('·', t.g.dot), t.dim()));
            }
            let words = if long { l } else { s };
            spans.push(Span::styled(format!("{mark} {n} {words}"), *style));
        }
        spans.push(Span::raw(" "));
        Line::from(spans)
    };
    let room = area.width as usize;
    let long = right(true);
    let right = if left.width() + long.width() <= room || {
        left.spans.truncate(3);
        left.width() + long.width() <= room
    } {
        long
    } else {
        right(false)
    };
    (&left).render(area, buf);
    if left.width() + right.width() <= room {
        right.right_aligned().render(area, buf);
    }
}

fn waiting(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let lines = match &app.exploration {
        Exploration::Failed(e) => vec![
            Line::styled(format!(" {} the check stopped: {e}", t.g.failed), t.bad()),
            Line::raw(""),
            Line::styled(" Esc goes back; x here again tries once more.", t.dim()),
        ],
        Exploration::Running { ms, watch } => {
            let seen = watch.seen();
            let spin = if t.ascii() {
                ["|", "/", "-", "\\"]
            } else {
                ["◐", "◓", "◑", "◒"]
            };
            let frame = spin[(*ms / 150) as usize % spin.len()];
            vec![
                Line::styled(
                    format!(
                        " {frame} exploring every schedule {} every crash point, lost ack, lost response and interleaving {} of every design{}",
                        t.text("—"),
                        t.text("—"),
                        t.g.ellipsis
                    ),
                    t.info(),
                ),
                Line::raw(""),
                // A count that moves, so a class sees it working: every
                // search's states, the tries one bound further too.
                Line::styled(
                    format!(
                        " {} of {} designs done, {} states so far",
                        seen.designs_done,
                        if seen.designs == 0 {
                            "the".to_string()
                        } else {
                            seen.designs.to_string()
                        },
                        num(seen.states)
                    ),
                    t.info(),
                ),
                now_line(t, &seen),
                // No time promised: how long it takes depends on the
                // build and on what else shares the cores; the count
                // moving is what shows it works.
                Line::styled(
                    " It runs once: the table then stays for the session. The count of states moves while it works; Esc goes back meanwhile, and the check goes on.",
                    t.dim(),
                ),
            ]
        }
        _ => vec![],
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(rule(t, " The checker ".into()))
        .render(area, buf);
}

/// What runs now: the designs whose own search goes on, or the tries one
/// bound further, which come after the searches and can take longer (the
/// tries running, how many are done, and how many of the states above
/// they found). Blank when nothing has started.
fn now_line(t: &Theme, seen: &crate::check::Seen) -> Line<'static> {
    if !seen.searching.is_empty() {
        return Line::styled(
            format!(" searching now: {}", seen.searching.join(" and ")),
            t.info(),
        );
    }
    let Some(f) = &seen.further else {
        // The blank line this one would have been: a row moving up would
        // make the screen jump.
        return Line::raw("");
    };
    let counts = format!(
        "{} of {} tries done, {} of the states found in them",
        f.done,
        f.tries,
        num(f.states)
    );
    let text = if f.running.is_empty() {
        format!(" one bound further (a fault more, or a producer retry): {counts}")
    } else {
        format!(
            " trying one bound further now (a fault more, or a producer retry): {}; {counts}",
            f.running.join(" and ")
        )
    };
    Line::styled(text, t.info())
}

/// How many words the result column has room for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Words {
    Long,
    Short,
    Fewest,
}

/// A design's result in the table. A design that holds says within which
/// bounds, and what the try one bound further broke, read off the way
/// most of its schedules there end: never a bare "safe", and never a bound
/// dropped for room (the fewest words keep both).
fn result_words(s: &StrategyReport, requested: &Bounds, words: Words) -> String {
    let standing = Standing::of(s);
    if standing != Standing::Holds {
        return if words == Words::Long {
            standing.long()
        } else {
            standing.short()
        }
        .to_string();
    }
    // Every figure with what it counts (`within 2 faults`): a bare `2`
    // beside the table's counts of runs reads as a count of anything.
    let faults = crate::check::further::faults;
    let n = faults(s.bounds.as_ref().unwrap_or(requested).max_faults);
    let Some(f) = breaks_further(s) else {
        // The fewest words keep the bound and drop the verb, as the
        // legend's fewest do (`✓ within bounds`).
        return match words {
            Words::Fewest => format!("within {n}"),
            _ => format!("holds within {n}"),
        };
    };
    let at = faults(f.bounds.max_faults);
    let how = |short| {
        f.ways()
            .first()
            .map(|(_, cx)| crate::check::further::end_words(cx, short))
    };
    match (words, how(words != Words::Long)) {
        (Words::Long, Some(how)) => format!("holds within {n}; at {at}: {how}"),
        // Fewer words, each figure still counting faults: `within 2
        // faults, not 3` says the unit once for both.
        (Words::Short, Some(how)) => format!("within {n}, not {}: {how}", f.bounds.max_faults),
        // Broken only where no run ends (an always-property on the way).
        (Words::Long, None) => format!("holds within {n}, breaks at {at}"),
        _ => format!("within {n}, not {}", f.bounds.max_faults),
    }
}

/// The try one more fault further that broke a design which held within
/// its bounds, if it broke.
fn breaks_further(s: &StrategyReport) -> Option<&crate::check::further::Further> {
    s.further
        .iter()
        .find(|f| f.breaks() && f.widening == crate::check::further::Widening::Fault)
}

/// The bounds every search ran within, in as many rows as `area` has:
/// the bounds asked for, whole, then the designs checked under bounds of
/// their own, in the same words (`1 fault per schedule, 2 messages`), so
/// that neither set is read as the other's; the kinds of fault on a line
/// of their own where there is room. Fewer words where there is not, the
/// names first to go, then `per schedule`; the faults and the messages of
/// every set stay.
fn bounds(t: &Theme, report: &CheckReport, area: Rect, buf: &mut Buffer) {
    let b = &report.bounds;
    let kinds = Line::raw(b.kinds_line());
    let words = |ids: bool, per: bool, own_words: bool| {
        let mut line = format!("bounds: {}, ", b.searched(per, ids));
        line.push_str(&if ids {
            b.consumers_line()
        } else {
            b.consumers_short()
        });
        if let Some(own) = own_bounds(report, per, ids, own_words) {
            line.push_str("; ");
            line.push_str(&own);
        }
        Line::raw(line)
    };
    let tiers: Vec<Vec<Line>> = vec![
        vec![words(true, true, true), kinds.clone()],
        vec![words(false, true, true), kinds],
        vec![words(true, true, true)],
        vec![words(false, true, true)],
        vec![words(false, false, true)],
        vec![words(false, false, false)],
    ];
    let rows = |lines: &Vec<Line>| crate::tui::measure::rows(lines, area.width, true);
    match tiers.iter().find(|l| rows(l) <= area.height) {
        Some(lines) => Paragraph::new(lines.clone())
            .style(t.dim())
            .wrap(Wrap { trim: true })
            .render(area, buf),
        None => super::fit(
            t,
            tiers[tiers.len() - 1][0].clone(),
            usize::from(area.width),
        )
        .style(t.dim())
        .render(area, buf),
    }
}

/// The designs checked under bounds of their own, and those bounds in the
/// words [`Bounds::searched`] gives the others' (`row-version, offset,
/// versioned: 1 fault per schedule, 2 messages`); without `words`, or
/// where their bounds differ, only named (`…: their own, see each`).
fn own_bounds(report: &CheckReport, per: bool, ids: bool, words: bool) -> Option<String> {
    let own: Vec<(&str, &Bounds)> = report
        .strategies
        .iter()
        .filter_map(|s| s.bounds.as_ref().map(|b| (s.strategy.as_str(), b)))
        .collect();
    let (_, first) = own.first()?;
    let names: Vec<&str> = own.iter().map(|(n, _)| *n).collect();
    let same = own
        .iter()
        .all(|(_, b)| b.max_faults == first.max_faults && b.messages == first.messages);
    Some(if same && words {
        format!("{}: {}", names.join(", "), first.searched(per, ids))
    } else if same {
        format!("{}: own bounds", names.join(", "))
    } else {
        format!("{}: their own, see each", names.join(", "))
    })
}

/// How the table is laid out in a given width.
struct Fit {
    /// The count columns shown, in screen order, with their widths.
    cols: Vec<(Column, usize)>,
    /// How many words the result column has.
    words: Words,
    /// Short headings, explained by a legend in the table's title.
    short_heads: bool,
    /// Spaces between columns.
    gap: usize,
    /// Columns there was no room for, most important first: named under
    /// the table, never dropped without a word.
    hidden: Vec<Column>,
}

/// The columns that fit in `width`: the longest prefix of `keep_order`
/// (failures, schedules, correct ends, columns of zeros, states) that any
/// way of saying the table has room for; of ways that keep as much, the
/// one with the most words, and the most words that lose only the states. Headings shorten (with a legend), then gaps
/// and the result's words, before a column goes.
fn columns(report: &CheckReport, name_w: usize, width: usize) -> Fit {
    let result_w = |words: Words| {
        report
            .strategies
            .iter()
            .map(|s| result_words(s, &report.bounds, words).chars().count())
            .max()
            .unwrap_or(6)
    };
    let order = crate::tui::explorer::keep_order(report);
    let col_w = |c: Column, short: bool| {
        let head = if short {
            c.short_heading()
        } else {
            c.heading()
        };
        report
            .strategies
            .iter()
            .map(|s| num(c.value(s)).len())
            .chain([head.len()])
            .max()
            .unwrap_or(0)
    };
    let tries = [
        (false, Words::Long, 2),
        (true, Words::Long, 2),
        (true, Words::Long, 1),
        (true, Words::Short, 1),
        (true, Words::Fewest, 1),
    ];
    let mut best: Option<Fit> = None;
    for (short_heads, words, gap) in tries {
        // The marker and name, the columns, then the gap, the symbol and
        // the result's words.
        let mut used_w = 2 + name_w + gap + 2 + result_w(words);
        let mut cols = Vec::new();
        let mut hidden = Vec::new();
        for c in order.iter().copied() {
            let w = col_w(c, short_heads);
            if hidden.is_empty() && used_w + gap + w <= width {
                used_w += gap + w;
                cols.push((c, w));
            } else {
                hidden.push(c);
            }
        }
        cols.sort_by_key(|(c, _)| Column::IN_ORDER.iter().position(|o| o == c));
        let fit = Fit {
            cols,
            words,
            short_heads,
            gap,
            hidden,
        };
        // The states alone may go for the result's words: the way a
        // design breaks one bound further says more than the search's size.
        if fit.hidden.iter().all(|c| *c == Column::States) {
            return fit;
        }
        if best
            .as_ref()
            .is_none_or(|b| fit.hidden.len() < b.hidden.len())
        {
            best = Some(fit);
        }
    }
    best.expect("at least one try")
}

/// Where the line under the table has no room for the note that a run
/// counts under each outcome it ends with (80 columns with a column
/// hidden), the table's title says it, in fewer words.
const OVERLAP_IN_TITLE: &str = " · outcomes overlap";

/// Each heading in use that is a short word, with its meaning
/// (`twice=charged twice`): the same words `idem check` heads with.
fn column_entries(fit: &Fit) -> Vec<String> {
    fit.cols
        .iter()
        .map(|(c, _)| (heading_of(fit, *c), c.meaning()))
        .filter(|(h, m)| h != m)
        .map(|(h, m)| format!("{h}={m}"))
        .collect()
}

/// A column's heading in `fit`: short where the headings are.
fn heading_of(fit: &Fit, c: Column) -> &'static str {
    if fit.short_heads {
        c.short_heading()
    } else {
        c.heading()
    }
}

/// The table's title: what it shows, or the legend of its short headings;
/// with `overlap`, the note that the outcome columns overlap, where the
/// title has room for it.
fn table_title(t: &Theme, fit: &Fit, width: usize, overlap: bool) -> String {
    let room = width.saturating_sub(2);
    let note = t.text(OVERLAP_IN_TITLE).into_owned();
    let mut title = format!(" Designs {} ", t.g.dot);
    // The headings in use, each named in full where it is a short word
    // (`twice=charged twice`): the same words `idem check` heads with.
    let heading = |c: Column| {
        if fit.short_heads {
            c.short_heading()
        } else {
            c.heading()
        }
    };
    let legend: Vec<String> = fit
        .cols
        .iter()
        .filter(|(c, _)| heading(*c) != c.meaning())
        .map(|(c, _)| format!("{}={}", heading(*c), c.meaning()))
        .collect();
    if legend.is_empty() {
        title.push_str("how every schedule ends, and whether the design held to its claim");
        if overlap && title.chars().count() + note.chars().count() < room {
            title.push_str(&note);
        }
    } else {
        let full = format!("{title}{} ", legend.join(", "));
        // Every heading explained on the narrowest screen too: the legend
        // alone, spaced, where the title's first words do not fit.
        if full.chars().count() + 4 <= width {
            title.push_str(&legend.join(", "));
        } else {
            title = format!(" {}", legend.join(" "));
        }
        // The note where it fits beside every heading's entry.
        if overlap && title.chars().count() + note.chars().count() < room {
            title.push_str(&note);
        }
    }
    title.push(' ');
    // Never cut without a sign.
    if title.chars().count() > room {
        let keep = room.saturating_sub(t.g.ellipsis.chars().count() + 1);
        title = format!(
            "{}{} ",
            title.chars().take(keep).collect::<String>(),
            t.g.ellipsis
        );
    }
    title
}

/// What the table has no room for, longest words first: each hidden
/// column by name, and a column of zeros with its zero (`dlq=0`), so that
/// "nothing ended dead-lettered" is still read.
fn hidden_words(report: &CheckReport, hidden: &[Column]) -> [String; 2] {
    let zero = |c: &Column| report.strategies.iter().all(|s| c.value(s) == 0);
    let name = |c: &Column, long: bool| match (zero(c), long) {
        (true, true) => format!("{} (0 in every design)", c.meaning()),
        (true, false) => format!("{}=0", c.short_heading()),
        (false, true) => c.meaning().to_string(),
        (false, false) => c.short_heading().to_string(),
    };
    let names = |long: bool| {
        hidden
            .iter()
            .map(|c| name(c, long))
            .collect::<Vec<_>>()
            .join(", ")
    };
    [
        format!("hidden: {} (widen)", names(true)),
        format!("hidden: {}", names(false)),
    ]
}

/// The table; what it returns is the columns it had no room for.
fn table(
    t: &Theme,
    report: &CheckReport,
    selected: usize,
    l: &layout::Explorer,
    buf: &mut Buffer,
) -> Vec<Line<'static>> {
    let (fit, title, legend) = titled(t, report, l.table.width);
    let block = rule(t, title);
    block.render(l.table, buf);
    let name_w = name_width(report);
    let (cols, words, gap) = (&fit.cols, fit.words, " ".repeat(fit.gap));
    let mut heading = format!("  {:<name_w$}", "design");
    for (c, w) in cols {
        let head = if fit.short_heads {
            c.short_heading()
        } else {
            c.heading()
        };
        heading.push_str(&format!("{gap}{head:>w$}"));
    }
    heading.push_str(&format!("{gap}result"));
    Line::styled(heading, t.dim())
        .render(Rect::new(l.table.x, l.table.y + 1, l.table.width, 1), buf);
    for (i, s) in report.strategies.iter().enumerate().skip(l.offset) {
        let y = l.rows.y + (i - l.offset) as u16;
        if y >= l.rows.bottom() {
            break;
        }
        let here = i == selected;
        let (symbol, style) = mark(t, Mark::of(s));
        let name_style = if s.claims_safe {
            t.title()
        } else {
            Style::new()
        };
        let mut spans = vec![
            Span::styled(format!("{} ", if here { t.g.next } else { " " }), t.key()),
            Span::styled(format!("{:<name_w$}", s.strategy), name_style),
        ];
        for (c, w) in cols {
            let v = c.value(s);
            let cell_style = match c {
                Column::Outcome(class) if class.is_failure() && v > 0 => t.bad(),
                _ => Style::new(),
            };
            spans.push(Span::styled(format!("{gap}{:>w$}", num(v)), cell_style));
        }
        spans.push(Span::styled(
            format!("{gap}{symbol} {}", result_words(s, &report.bounds, words)),
            style,
        ));
        let mut line = Line::from(spans);
        if here {
            line = line.style(t.highlight());
        }
        line.render(Rect::new(l.rows.x, y, l.rows.width, 1), buf);
    }
    legend
}

/// The design column's width: the longest name, or its heading.
fn name_width(report: &CheckReport) -> usize {
    report
        .strategies
        .iter()
        .map(|s| s.strategy.len())
        .chain(["design".len()])
        .max()
        .unwrap_or(6)
}

/// The table's columns, its title, and the legend under it: the marks,
/// then, where the title has no room for every column's meaning and the
/// note that outcomes overlap, a row with the rest of them (the trial: at
/// 80 columns `disagree` had no meaning on screen).
fn titled(t: &Theme, report: &CheckReport, width: u16) -> (Fit, String, Vec<Line<'static>>) {
    let fit = columns(report, name_width(report), usize::from(width));
    let (marks, told) = legend(t, report, &fit.hidden, width);
    let overlap = !told;
    let title = table_title(t, &fit, usize::from(width), overlap);
    let entries = column_entries(&fit);
    let note = t.text(OVERLAP_IN_TITLE).into_owned();
    let cut = title.contains(t.g.ellipsis);
    let missing: Vec<String> = entries
        .iter()
        .filter(|e| cut || !title.contains(e.as_str()))
        .cloned()
        .collect();
    let noted = !overlap || (!cut && title.contains(note.trim()));
    if missing.is_empty() && noted {
        return (fit, title, vec![marks]);
    }
    // The title keeps the entries that fit whole, spaced, the first
    // ones first; the rest and the note go on the row under the marks.
    let room = usize::from(width).saturating_sub(2);
    let mut kept = Vec::new();
    let mut rest = Vec::new();
    for e in entries {
        let line = format!(" {} {e} ", kept.join(" "));
        if line.chars().count() <= room {
            kept.push(e);
        } else {
            rest.push(e);
        }
    }
    let title = if kept.is_empty() {
        format!(" Designs {} ", t.g.dot)
    } else {
        format!(" {} ", kept.join(" "))
    };
    let mut spans = vec![Span::styled(format!(" {}", rest.join(" ")), t.dim())];
    if overlap {
        let said = rest.join(" ").chars().count() + 1;
        let long = [
            " · a run counts under each outcome it ends with",
            " · runs count under each outcome",
            OVERLAP_IN_TITLE,
        ]
        .into_iter()
        .map(|n| {
            t.text(if rest.is_empty() { &n[3..] } else { n })
                .into_owned()
        })
        .find(|n| said + n.chars().count() <= usize::from(width))
        .unwrap_or(note);
        spans.push(Span::styled(long, t.dim()));
    }
    let row = super::fit(t, Line::from(spans), usize::from(width));
    (fit, title, vec![marks, row])
}

/// How many rows the legend under the table takes at `width`: one, or
/// two where the title has no room for every column's meaning.
pub fn legend_rows(t: &Theme, report: Option<&CheckReport>, width: u16) -> u16 {
    report.map_or(1, |r| titled(t, r, width).2.len() as u16)
}

/// What a row's result mark says: one meaning each, the same as on every
/// other screen (`!` is a risk, nothing wrong yet; `✕` is broken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Holds,
    /// Holds, but only within the bounds: one bound further breaks it.
    OnlyWithin,
    Broken,
    Vacuous,
    NoFailure,
}

impl Mark {
    const ALL: [Mark; 5] = [
        Mark::Holds,
        Mark::OnlyWithin,
        Mark::Broken,
        Mark::Vacuous,
        Mark::NoFailure,
    ];

    fn of(s: &StrategyReport) -> Mark {
        match Standing::of(s) {
            Standing::Holds if breaks_further(s).is_some() => Mark::OnlyWithin,
            Standing::Holds => Mark::Holds,
            // Against its claim or as expected, it is broken: the words
            // say which, the colour that one matters more.
            Standing::BrokenAsExpected | Standing::Contradiction => Mark::Broken,
            Standing::Vacuous => Mark::Vacuous,
            Standing::NoFailureFound => Mark::NoFailure,
        }
    }

    /// Its meaning in the legend: long, short, and fewest (beside the
    /// columns the table hides, on a narrow screen).
    /// `contradicts`: some row contradicts its design's claim, and the
    /// broken mark names that too, in `idem check`'s words.
    fn words(self, contradicts: bool) -> (&'static str, &'static str, &'static str) {
        match self {
            Mark::Broken if contradicts => (
                "a schedule breaks it (as expected, or it contradicts its claim)",
                "broken or contradicts its claim",
                "broken",
            ),
            // Bounded in every form, as its rows are (`holds within 1`):
            // a bare "holds" reads as safe for good. Fewest, the verb goes
            // and the bound stays, so the hidden columns keep their names.
            Mark::Holds => (
                "holds within the bounds",
                "holds within bounds",
                "within bounds",
            ),
            Mark::OnlyWithin => (
                "holds only within the bounds: breaks one bound further",
                "only within the bounds",
                "only within",
            ),
            Mark::Broken => ("a schedule breaks it", "broken", "broken"),
            Mark::Vacuous => ("proves nothing: no duplicate", "proves nothing", "vacuous"),
            Mark::NoFailure => ("no failure found", "no failure", "no failure"),
        }
    }
}

fn mark(t: &Theme, m: Mark) -> (&'static str, Style) {
    match m {
        Mark::Holds => (t.g.done, t.good()),
        Mark::OnlyWithin => (t.g.warning, t.warn()),
        Mark::Broken => (t.g.failed, t.bad()),
        Mark::Vacuous => (t.g.vacuous, t.bad()),
        Mark::NoFailure => (t.g.pending, t.dim()),
    }
}

/// The legend of the result marks the table shows, in one line, and after
/// it the columns the table had no room for: the long words where they
/// fit, fewer where not; the hidden columns are named in every try. With
/// whether it says that a run counts under each of its outcomes (where
/// it does not, the table's title does).
fn legend(t: &Theme, report: &CheckReport, hidden: &[Column], width: u16) -> (Line<'static>, bool) {
    let shown: Vec<Mark> = Mark::ALL
        .into_iter()
        .filter(|m| report.strategies.iter().any(|s| Mark::of(s) == *m))
        .collect();
    let notes = hidden_words(report, hidden);
    let contradicts = report
        .strategies
        .iter()
        .any(|s| Standing::of(s) == Standing::Contradiction);
    // 0: long words, 1: short, 2: fewest, 3: fewest but `holds`.
    // The outcome columns overlap: one run can end charged twice and with
    // the provider and the database disagreeing, and counts under both, so
    // a row's outcomes can add up to more than its runs (as `idem check`
    // says under its table). Said where the row has room for it.
    let overlaps = [
        " · a run counts under each outcome it ends with",
        " · runs count under each outcome",
    ];
    let line = |words: u8, note: Option<&String>, overlap: Option<&str>| {
        let mut spans = vec![Span::styled(" marks:", t.dim())];
        for m in &shown {
            let (symbol, style) = mark(t, *m);
            let (l, s, f) = m.words(contradicts);
            spans.push(Span::raw(if words == 0 { "  " } else { " " }));
            spans.push(Span::styled(symbol, style));
            // 3: the fewest words but for `holds within bounds`, whose
            // verb says what a ✓ claims.
            let form = match words {
                3 if *m == Mark::Holds => 1,
                w => usize::from(w.min(2)),
            };
            spans.push(Span::styled(format!(" {}", [l, s, f][form]), t.dim()));
        }
        if let Some(note) = note {
            spans.push(Span::styled(format!(" {} {note}", t.g.dot), t.warn()));
        }
        if let Some(overlap) = overlap {
            spans.push(Span::styled(t.text(overlap).into_owned(), t.dim()));
        }
        Line::from(spans)
    };
    let room = usize::from(width);
    let note = |i: usize| (!hidden.is_empty()).then(|| &notes[i]);
    let [long, short] = overlaps.map(Some);
    // The shortest, as the table's title says it: the bounded `holds`
    // leaves no room for the longer ones at 80 columns.
    let fewest = Some(OVERLAP_IN_TITLE);
    let tries = [
        line(0, note(0), long),
        line(1, note(0), long),
        line(1, note(0), short),
        line(1, note(1), short),
        line(1, note(0), fewest),
        line(1, note(1), fewest),
        line(0, note(0), None),
        line(1, note(0), None),
        line(1, note(1), None),
        line(3, note(1), None),
        line(2, note(1), None),
    ];
    let chosen = tries
        .iter()
        .position(|l| l.width() <= room)
        .unwrap_or(tries.len() - 1);
    // The first six tries carry the note.
    (super::fit(t, tries[chosen].clone(), room), chosen < 6)
}
