//! The explorer, full screen: the checker's table (one row per design, its
//! schedules by how they end, and whether it held to its claim), then the
//! selected design's shortest counterexamples with their cause chains.

use super::{explorer_detail, keybar, rule};
use crate::check::{Bounds, CheckReport};
use crate::sim::db::Engine;
use crate::tui::app::App;
use crate::tui::explorer::table::{Mark, legend_rows, mark, name_width, result_words, titled};
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
    let l = layout::explorer(area, designs, sel.row, cxs, sel.cx, legend_h)
        .whole(sel.whole, cxs, sel.cx);
    let l = crate::tui::explorer::summary::below(t, report, sel, l);
    header(t, report, app.engine(), l.header, buf);
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
    // With the detail whole (`z`), its title names the design: the
    // table is a key away.
    if !sel.whole {
        let legend = table(t, report, sel.row, &l, buf);
        Paragraph::new(legend).render(l.legend, buf);
    }
    if let Some(s) = report.strategies.get(sel.row) {
        explorer_detail::render(t, s, &report.bounds, sel, &l, buf);
    }
}

fn header(t: &Theme, report: Option<&CheckReport>, session: Engine, area: Rect, buf: &mut Buffer) {
    // A column between the two parts at least (teacher trial 22:
    // ` idem · Explorer✓ 3 hold` ran the title into the tally).
    let room = (area.width as usize).saturating_sub(1);
    let titles = titles(t, session);
    let Some(report) = report else {
        let fits = titles.iter().find(|l| l.width() <= room);
        fits.unwrap_or(&titles[titles.len() - 1]).render(area, buf);
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
            // What sets it apart from a ✓, which holds within the same
            // bounds (teacher trial 21: "only within them" read as what
            // every ✓ also is): the try one bound further broke it.
            "broken one bound further",
            "broken one further",
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
            crate::check::promise::BROKEN,
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
    // The tally in its long words where any title fits beside it, with
    // the longest title that does; else in its short words.
    let fits = [right(true), right(false)].into_iter().find_map(|right| {
        titles
            .iter()
            .find(|left| left.width() + right.width() <= room)
            .map(|left| (left, right))
    });
    match fits {
        Some((left, right)) => {
            left.render(area, buf);
            right.right_aligned().render(area, buf);
        }
        None => (&titles[titles.len() - 1]).render(area, buf),
    }
}

/// The explorer's title in its forms, longest first, each whole. The
/// table is SQLite's whatever engine the story runs on (the checker on
/// PostgreSQL takes minutes; `idem check --db` runs it there): where the
/// session is on a server, every form says so (teacher trial: from a
/// PostgreSQL session no form named the engine, at any size), giving up
/// `idem`, then `Explorer`, before it gives up `on SQLite`.
fn titles(t: &Theme, session: Engine) -> Vec<Line<'static>> {
    let title = |words: Option<String>| {
        let mut spans = vec![
            Span::styled(" idem ", t.title()),
            Span::styled(format!("{} ", t.g.dot), t.dim()),
            Span::styled("Explorer", t.info()),
        ];
        if let Some(words) = words {
            spans.push(Span::styled(format!(" {} {words}", t.g.dot), t.title()));
        }
        Line::from(spans)
    };
    if session.is_sqlite() {
        return vec![
            title(Some(
                "every schedule within bounds, every design, on real SQLite".into(),
            )),
            title(None),
        ];
    }
    let not = session.name();
    vec![
        title(Some(format!(
            "every schedule within bounds, every design, on real SQLite, not {not}"
        ))),
        title(Some(format!("checked on SQLite, not {not}"))),
        title(Some(format!("on SQLite, not {not}"))),
        title(Some("on SQLite".into())),
        Line::styled(" Explorer on SQLite", t.info()),
        // The screen is the explorer whatever its title: the engine and
        // the tally are what it could not be told apart without.
        Line::styled(" on SQLite", t.title()),
    ]
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
            // "Every schedule" with its bounds in the same line: the wait
            // said it with none (teacher trial 44), where `idem check`
            // says "every schedule within the bounds".
            let asked = Bounds::default();
            vec![
                Line::styled(
                    format!(
                        " {frame} exploring every schedule {} every crash point, lost ack, lost response, early lease expiry and interleaving {} of every design {} ({}){}, then each design that holds one bound further{}",
                        t.text("—"),
                        t.text("—"),
                        crate::check::further::within_bounds(&asked),
                        asked.caps_alone(),
                        own_bounds_asked(&asked),
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
    // Where the caps per kind have no row of their own, they go in short
    // into the bounds asked for, each beside what it caps (the trial: at
    // 80x24 they were gone).
    let words = |ids: bool, per: bool, own_words: bool, caps: bool, assumed: bool| {
        // Caps that differ per kind are listed whole after the set they
        // bound, before any design's own.
        let capped = caps.then(|| b.searched_capped(per, ids));
        let searched = capped.clone().flatten();
        let mut line = format!(
            "bounds: {}, ",
            searched.unwrap_or_else(|| b.searched(per, ids))
        );
        line.push_str(&if ids {
            b.consumers_line()
        } else {
            b.consumers_short()
        });
        if capped == Some(None) {
            line.push_str("; ");
            line.push_str(&b.kinds_line());
        }
        if let Some(own) = own_bounds(report, per, ids, own_words, assumed) {
            line.push_str("; ");
            line.push_str(&own);
        }
        line
    };
    // The assumption a design rests on (one ordered partition) goes
    // last, after every bound: a bound left out reads as no bound.
    let tiers: Vec<Vec<Line>> = [true, false]
        .into_iter()
        .flat_map(|assumed| {
            [
                vec![
                    Line::raw(words(true, true, true, false, assumed)),
                    kinds.clone(),
                ],
                vec![
                    Line::raw(words(false, true, true, false, assumed)),
                    kinds.clone(),
                ],
                vec![Line::raw(words(true, true, true, true, assumed))],
                vec![Line::raw(words(false, true, true, true, assumed))],
                vec![Line::raw(words(false, false, true, true, assumed))],
            ]
        })
        .chain([vec![Line::raw(words(false, false, false, true, false))]])
        .collect();
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

/// Before the check is done, the designs it will run under bounds of their
/// own, and those bounds (`; row-version, offset, versioned within 1
/// fault, 2 messages (offset on one ordered partition)`):
/// the wait said every design was searched within the bounds asked for
/// (teacher trial 46), beside its own line trying `offset at 2 faults`.
fn own_bounds_asked(asked: &Bounds) -> String {
    let own: Vec<(String, Bounds)> = crate::sim::Strategy::all()
        .into_iter()
        .map(|s| {
            let b = asked.for_strategy(&s);
            (s.name.to_string(), b)
        })
        .filter(|(_, b)| b != asked)
        .collect();
    let own: Vec<(&str, &Bounds)> = own.iter().map(|(n, b)| (n.as_str(), b)).collect();
    let Some(g) = OwnBounds::of(&own) else {
        return String::new();
    };
    let ordered = if g.ordered.is_empty() {
        String::new()
    } else {
        format!(" ({} on one ordered partition)", g.ordered.join(", "))
    };
    if g.same {
        format!(
            "; {} within {}{ordered}",
            g.names.join(", "),
            g.first.searched(false, false)
        )
    } else {
        format!(
            "; {} within bounds of their own{ordered}",
            g.names.join(", ")
        )
    }
}

/// The designs checked under bounds of their own, as the explorer says
/// them before the check (the wait) and after (the bounds line).
struct OwnBounds<'a> {
    names: Vec<&'a str>,
    first: &'a Bounds,
    /// Their faults and messages are the same: one set of words says all.
    same: bool,
    /// Those that hold only on one ordered partition.
    ordered: Vec<&'a str>,
}

impl<'a> OwnBounds<'a> {
    fn of(own: &[(&'a str, &'a Bounds)]) -> Option<OwnBounds<'a>> {
        let (_, first) = own.first()?;
        Some(OwnBounds {
            names: own.iter().map(|(n, _)| *n).collect(),
            first,
            same: own
                .iter()
                .all(|(_, b)| b.max_faults == first.max_faults && b.messages == first.messages),
            // A design that holds only on one ordered partition says so
            // beside its bounds: a class reading `offset … ✓ within 1
            // fault` alone took it for safe on any queue (teacher trial
            // 30; offset-on-a-queue shows it is not).
            ordered: own
                .iter()
                .filter(|(_, b)| b.ordered)
                .map(|(n, _)| *n)
                .collect(),
        })
    }
}

/// The designs checked under bounds of their own, and those bounds in the
/// words [`Bounds::searched`] gives the others' (`row-version, offset,
/// versioned: 1 fault per schedule, 2 messages`); without `words`, or
/// where their bounds differ, only named (`…: their own, see each`).
fn own_bounds(
    report: &CheckReport,
    per: bool,
    ids: bool,
    words: bool,
    assumed: bool,
) -> Option<String> {
    let own: Vec<(&str, &Bounds)> = report
        .strategies
        .iter()
        .filter_map(|s| s.bounds.as_ref().map(|b| (s.strategy.as_str(), b)))
        .collect();
    let OwnBounds {
        names,
        first,
        same,
        ordered,
    } = OwnBounds::of(&own)?;
    let ordered = if ordered.is_empty() || !assumed {
        String::new()
    } else {
        format!("; {} on one ordered partition", ordered.join(", "))
    };
    Some(if same && words {
        format!(
            "{}: {}{ordered}",
            names.join(", "),
            first.searched(per, ids)
        )
    } else if same {
        format!("{}: own bounds{ordered}", names.join(", "))
    } else {
        format!("{}: their own, see each{ordered}", names.join(", "))
    })
}

/// The table; what it returns is the columns it had no room for.
fn table(
    t: &Theme,
    report: &CheckReport,
    selected: usize,
    l: &layout::Explorer,
    buf: &mut Buffer,
) -> Vec<Line<'static>> {
    let said = titled(t, report, l.table.width);
    let (fit, legend) = (said.fit, said.legend);
    let block = rule(t, said.title);
    block.render(l.table, buf);
    let name_w = name_width(report);
    let (cols, words, gap) = (&fit.cols, fit.words, " ".repeat(fit.gap));
    let mut heading = format!("  {:<name_w$}", "design");
    for (c, w) in cols {
        heading.push_str(&format!("{gap}{:>w$}", c.heading()));
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
    // Each row cut to the width with a sign, as every line drawn.
    let width = usize::from(l.legend.width);
    legend
        .into_iter()
        .map(|row| super::fit(t, row, width))
        .collect()
}
