//! Draws a replayed schedule: a header with the program, the schedule, the
//! step and how the run ends; a strip of every step with the faults marked;
//! the broker's queue, the provider's charges and keys and the program's
//! tables after the step (their lines: `panels`); what happened in the
//! step (the fault, which only the observer sees, marked ◇); the program's
//! stderr up to the step; the verdict. Panels cut nothing silently
//! (`overflow`), and a panel's name too long for its border gives way to
//! a short one.

use super::Replay;
use super::panels::own;
use crate::harness::names::Names;
use crate::harness::run::Step;
use crate::harness::table_moves;
use crate::sim::cause::plain_step;
use crate::tui::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::tui::measure;
use crate::tui::theme::{Theme, ascii_cell};
use crate::tui::view::keybar;
use crate::tui::view::{fit, mark_legend, marks, overflow, verdict};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

impl Widget for &Replay {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            too_small(t, area, buf);
        } else if let Some(step) = self.step() {
            self.screen(step, area, buf);
        } else {
            Paragraph::new(Line::styled(
                "the replay recorded no step: the program ended before idem could note one",
                t.bad(),
            ))
            .wrap(Wrap { trim: false })
            .render(area, buf);
        }
        if t.ascii() {
            // The program's own words may hold any character.
            for cell in &mut buf.content {
                if !cell.symbol().is_ascii() {
                    let s = ascii_cell(cell.symbol());
                    cell.set_symbol(s);
                }
            }
        }
    }
}

fn too_small(t: &Theme, area: Rect, buf: &mut Buffer) {
    Paragraph::new(vec![
        Line::styled(
            format!("terminal too small: need {MIN_WIDTH}x{MIN_HEIGHT}"),
            t.bad(),
        ),
        Line::raw(format!("this one is {}x{}", area.width, area.height)),
        Line::styled("enlarge the window, or q to quit", t.dim()),
    ])
    .centered()
    .wrap(Wrap { trim: true })
    .render(area, buf);
}

/// A bordered panel named `name`, or `short` where the name would not
/// fit on the border; a name that does not fit even so ends in `…`.
fn block(t: &Theme, name: &str, short: &str, width: u16) -> Block<'static> {
    let room = usize::from(width).saturating_sub(4);
    let name = if name.chars().count() <= room {
        name
    } else {
        short
    };
    let title = fit(t, Line::styled(t.text(name).into_owned(), t.title()), room);
    let mut spans = vec![Span::raw(" ")];
    spans.extend(title.spans);
    spans.push(Span::raw(" "));
    Block::bordered()
        .border_set(t.g.border)
        .border_style(t.border(false))
        .title(Line::from(spans))
}

/// The fewest step cells the strip keeps before its legend gives way.
const STRIP_LEAST: usize = 20;

/// The spaces between the strip's last cell and its legend, the
/// legend's own leading space among them.
const LEGEND_GAP: usize = 3;

impl Replay {
    fn screen(&self, step: &Step, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let head = self.head(area.width);
        let head_rows = measure::rows(&head, area.width, false).min(4);
        let names = self.names_legend(area.width);
        let names_rows = measure::rows(&names, area.width, false).min(2);
        let happened = self.happened_in(step, false);
        let happened_rows = |happened: &[Line<'static>]| {
            measure::rows(happened, area.width.saturating_sub(2), false)
                .clamp(2, if area.height >= 36 { 6 } else { 4 })
        };
        // The widths the three panels get below, inside their borders:
        // three tenths, four for the tables; but the provider's never
        // under 27 columns, whose 25 inside hold a charge's row whole
        // with its mark (` ch_1 #1042 $40 no key +`) at 80 columns, where
        // the broker's 20 still hold an entry's (`m-1 b-1 #1042 $40 +`).
        let columns = [
            Constraint::Fill(3),
            Constraint::Length((area.width * 3 / 10).max(27)),
            Constraint::Fill(4),
        ];
        let [b, p, d] = Layout::horizontal(columns).areas(Rect::new(0, 0, area.width, 1));
        let mut queue_short = marks::Shortened::default();
        let queue_lines = self.queue(step, b.width.saturating_sub(2), &mut queue_short);
        let mut provider_short = marks::Shortened::default();
        let provider_lines = self.provider(step, p.width.saturating_sub(2), &mut provider_short);
        let mut tables_short = marks::Shortened::default();
        let table_lines = self.tables(
            step,
            usize::from(d.width.saturating_sub(2)),
            &mut tables_short,
        );
        // The three panels as tall as the longest needs, between a floor
        // and half the screen; the rest goes to the log and the verdict.
        let tallest = [queue_lines.len(), provider_lines.len(), table_lines.len()]
            .into_iter()
            .max()
            .unwrap_or(0);
        let top_rows = u16::try_from(tallest + 2)
            .unwrap_or(u16::MAX)
            .clamp(7, area.height / 2);
        // A line's aside (`SQS would answer OK …`) and what the step did
        // to the program's tables each go in only where the verdict below
        // reads the same with them as with the step's fewest words; where
        // they would cost the verdict a row (80x24), the line's short form
        // stands, and the tables' move goes on the box's bottom border.
        let [_, verdict] = Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)])
            .areas(Rect::new(0, 0, area.width, 1));
        let verdict_rows = |happened: &[Line<'static>]| {
            let taken = head_rows + names_rows + 1 + top_rows + happened_rows(happened) + 2 + 1;
            // Inside the verdict's border.
            area.height.saturating_sub(taken).saturating_sub(2)
        };
        let width = verdict.width.saturating_sub(2);
        let fewest = self.happened_in(step, true);
        let costs_nothing = |lines: &[Line<'static>]| {
            verdict_rows(lines) > 0
                && self.ending(width, verdict_rows(lines))
                    == self.ending(width, verdict_rows(&fewest))
        };
        let mut happened = if costs_nothing(&happened) {
            happened
        } else {
            fewest.clone()
        };
        let mut on_border = None;
        if let Some(moved) = self.tables_moved(step) {
            let mut with = happened.clone();
            with.push(Line::styled(
                format!("its database, read by idem: {moved}"),
                t.change(),
            ));
            if costs_nothing(&with) {
                happened = with;
            } else {
                // No row to spare: the box's bottom border says it, in
                // the database panel's short name (80x24, where the step
                // writing the second payment row said nothing of it).
                // Where even that has no room, the tables' own marks
                // (`+`, `(+1)`) are left to tell it.
                let note = format!(" its database: {moved} ");
                if Span::raw(&note).width() + 4 <= usize::from(area.width) {
                    on_border = Some(note);
                }
            }
        }
        let happened_rows = happened_rows(&happened);
        let [header, legend, strip, top, middle, bottom, keys] = Layout::vertical([
            Constraint::Length(head_rows),
            Constraint::Length(names_rows),
            Constraint::Length(1),
            Constraint::Length(top_rows),
            Constraint::Length(happened_rows + 2),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Paragraph::new(head)
            .wrap(Wrap { trim: false })
            .render(header, buf);
        Paragraph::new(names)
            .wrap(Wrap { trim: false })
            .render(legend, buf);
        self.strip(strip, buf);
        if self.why || self.stderr_whole {
            let whole = Rect {
                height: top.height + middle.height + bottom.height,
                ..top
            };
            if self.why {
                self.why(whole, buf);
            } else {
                self.stderr(whole, buf);
            }
            self.keys(keys, buf);
            return;
        }
        let [broker, provider, database] = Layout::horizontal(columns).areas(top);
        self.panel(
            (&format!("Message broker {} payments", t.g.dot), "Broker"),
            queue_lines,
            false,
            broker,
            buf,
        );
        mark_legend::on_border(t, &queue_short, broker, buf);
        self.panel(
            ("Payment provider", "Provider"),
            provider_lines,
            false,
            provider,
            buf,
        );
        mark_legend::on_border(t, &provider_short, provider, buf);
        self.panel(
            ("The program's database, read by idem", "Its database"),
            table_lines,
            false,
            database,
            buf,
        );
        mark_legend::on_border(t, &tables_short, database, buf);
        let mut title = format!("What happened in step {}", self.at + 1);
        let short = title.clone();
        if step.fault_line.is_some() {
            title.push_str(&format!(" ({} only you see the fault)", t.g.observer));
        }
        self.panel((&title, &short), happened, true, middle, buf);
        if let Some(note) = on_border
            && middle.height >= 2
        {
            buf.set_line(
                middle.x + 2,
                middle.bottom() - 1,
                &Line::styled(note, t.change()),
                middle.width.saturating_sub(4),
            );
        }
        let [stderr, verdict] =
            Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)]).areas(bottom);
        self.stderr(stderr, buf);
        let name = (
            &format!("{} The verdict at the end of the run", t.g.observer),
            &format!("{} The verdict at the end", t.g.observer),
        );
        let inner = block(t, name.0, name.1, verdict.width).inner(verdict);
        let ending = self.ending(inner.width, inner.height);
        self.panel(
            (name.0.as_str(), name.1.as_str()),
            ending,
            true,
            verdict,
            buf,
        );
        self.keys(keys, buf);
    }

    /// The bottom line: a note about the last key, or the keys, whole,
    /// the ones a narrow screen leaves out counted (`+2`) as on the
    /// simulator's bar.
    fn keys(&self, area: Rect, buf: &mut Buffer) {
        let keys = self.keys_now();
        keybar::note_or_keys(
            &self.theme,
            self.notice.as_deref(),
            &keys,
            usize::from(area.width),
            (self.asked, keybar::LeftOut::Keys(super::UNLISTED)),
        )
        .render(area, buf);
    }

    fn panel(
        &self,
        (name, short): (&str, &str),
        lines: Vec<Line<'static>>,
        wrap: bool,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let t = &self.theme;
        let b = block(t, name, short, area.width);
        let inner = b.inner(area);
        b.render(area, buf);
        overflow::show(t, lines, wrap, inner, buf);
    }

    /// The header: what is replayed, at which step, and how it ends. Its
    /// first row is one row at any width: the program's path gives way
    /// first, cut in its middle, and is left out where even that has no
    /// room (a long path wrapped over three rows and took them from the
    /// program's stderr at 80x24).
    fn head(&self, width: u16) -> Vec<Line<'static>> {
        let t = &self.theme;
        let n = self.steps.len();
        let place = format!("step {}/{n}", self.at + 1);
        let mut first = Line::from(vec![
            Span::styled(t.text(" idem test · replay · ").into_owned(), t.title()),
            Span::styled(place, t.info()),
        ]);
        let sep = t.text(" · ").into_owned();
        let room = usize::from(width).saturating_sub(first.width() + Span::raw(&sep).width());
        if let Some(program) =
            crate::cut_middle::cut_middle(&own(&self.program), room, t.g.ellipsis)
        {
            first.spans.push(Span::raw(sep));
            first.spans.push(Span::raw(program));
        }
        let ends: Vec<&str> = self.verdict.outcomes().iter().map(|o| o.text()).collect();
        let bad = !self.verdict.failures.is_empty();
        let second = Line::from(vec![
            Span::raw(t.text(" faults: ").into_owned()),
            Span::styled(t.text(&self.schedule).into_owned(), t.warn()),
            Span::raw(t.text(" · the run ends ").into_owned()),
            Span::styled(
                t.text(&format!(
                    "{} {}",
                    if bad { t.g.failed } else { t.g.done },
                    ends.join(", ")
                ))
                .into_owned(),
                if bad { t.bad() } else { t.good() },
            ),
        ]);
        vec![first, second]
    }

    /// What the names the screens show mean (`A (start 1)`, `r-1`, `copy
    /// 2`), under the header, as the broker's ID is named where it is
    /// shown: in fuller words where they fit one row, else in the fewest,
    /// a row broken between two names, never inside one's meaning.
    fn names_legend(&self, width: u16) -> Vec<Line<'static>> {
        let t = &self.theme;
        let names = Names::of(&self.steps);
        let sep = t.text(" · ").into_owned();
        let width = usize::from(width);
        let line = |text: String| Line::styled(t.text(&text).into_owned(), t.dim());
        let cells = |text: &str| Span::raw(text).width();
        let fuller = format!(" {}", names.legend(false).join(&sep));
        if cells(&fuller) <= width {
            return vec![line(fuller)];
        }
        let mut rows: Vec<String> = Vec::new();
        for part in names.legend(true) {
            match rows.last_mut() {
                Some(row) if cells(row) + cells(&sep) + cells(&part) <= width => {
                    row.push_str(&sep);
                    row.push_str(&part);
                }
                _ => rows.push(format!(" {part}")),
            }
        }
        rows.into_iter().map(line).collect()
    }

    /// One cell a step: the fault steps marked, the step on screen lit.
    /// A run too long for the row shows the stretch around the step.
    /// After the cells, the words for the symbols among them (`· no
    /// fault, ✕ a fault fell`), by the rule of a panel's border legend
    /// (`marks::Shortened`): each once, whole or not at all. The strip
    /// gives the legend its room down to `STRIP_LEAST` cells.
    fn strip(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let label = " steps ";
        let n = self.steps.len();
        let avail = usize::from(area.width).saturating_sub(label.len() + 2);
        let mut both = marks::Shortened::default();
        both.extend([
            self.step_meaning(false),
            self.step_meaning(true),
            self.here_meaning(),
        ]);
        let legend_w = both.legend(usize::MAX).map_or(0, |l| l.width()) + LEGEND_GAP;
        // The step on screen stands in brackets, two columns of its own:
        // lit alone, it read the same at steps 3 and 6 in a capture, on a
        // monochrome projector or to a screen reader (teacher trial 30).
        let avail = avail.saturating_sub(2);
        let room = avail
            .saturating_sub(legend_w)
            .max(avail.min(STRIP_LEAST))
            .max(1);
        let from = if n <= room {
            0
        } else {
            self.at.saturating_sub(room / 2).min(n - room)
        };
        let to = (from + room).min(n);
        let mut spans = vec![Span::styled(label, t.dim())];
        spans.push(Span::styled(
            if from > 0 { t.g.ellipsis } else { " " },
            t.dim(),
        ));
        let mut seen = marks::Shortened::default();
        for (i, s) in self.steps.iter().enumerate().take(to).skip(from) {
            let fault = s.fault.is_some();
            let (glyph, style) = if fault {
                (t.g.failed, t.bad())
            } else {
                (t.g.dot, t.dim())
            };
            seen.extend([self.step_meaning(fault)]);
            if i == self.at {
                let lit = style.patch(t.highlight()).add_modifier(Modifier::REVERSED);
                spans.push(Span::styled("[", t.highlight()));
                spans.push(Span::styled(glyph, lit));
                spans.push(Span::styled("]", t.highlight()));
            } else {
                spans.push(Span::styled(glyph, style));
            }
        }
        if to < n {
            spans.push(Span::styled(t.g.ellipsis, t.dim()));
        }
        // The brackets are a sign like the others, and said as one
        // (teacher trial 31: `[·]` was never explained).
        seen.extend([self.here_meaning()]);
        let used: usize = spans.iter().map(Span::width).sum();
        let left = usize::from(area.width).saturating_sub(used + LEGEND_GAP - 1);
        if let Some(legend) = seen.legend(left) {
            spans.push(Span::raw(" ".repeat(LEGEND_GAP - 1)));
            spans.extend(legend.spans);
        }
        Paragraph::new(Line::from(spans)).render(area, buf);
    }

    /// What the brackets around a cell mean.
    fn here_meaning(&self) -> Span<'static> {
        Span::styled("[ ] this step", self.theme.highlight())
    }

    /// What a cell of the strip means, in the cell's own style.
    fn step_meaning(&self, fault: bool) -> Span<'static> {
        let t = &self.theme;
        if fault {
            Span::styled(format!("{} a fault fell", t.g.failed), t.bad())
        } else {
            Span::styled(format!("{} no fault", t.g.dot), t.dim())
        }
    }

    /// The step's lines; with `short`, each in its short form where it
    /// has one (`Step::short`).
    fn happened_in(&self, step: &Step, short: bool) -> Vec<Line<'static>> {
        let t = &self.theme;
        step.lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let l = step
                    .short
                    .iter()
                    .find(|(at, _)| short && *at == i)
                    .map_or(l, |(_, s)| s);
                if step.fault_line == Some(i) {
                    Line::styled(
                        format!("{} {}", t.g.observer, own(l)),
                        t.bad().add_modifier(Modifier::ITALIC),
                    )
                } else {
                    Line::raw(own(l))
                }
            })
            .collect()
    }

    /// What the step did to the program's tables, as idem read them after
    /// it (`payments 1 → 2 rows`; `harness::table_moves`): the program
    /// writes between its requests, so no line of the step tells it.
    fn tables_moved(&self, step: &Step) -> Option<String> {
        let moves = table_moves::moved(self.before(), step);
        table_moves::said(&moves, self.theme.g.arrow.trim(), own)
    }

    /// The verdict's headline and its links (`← lease expired`, `; and ←
    /// …`), as the simulator's verdict panel reads them.
    fn verdict_parts(&self) -> (String, Vec<String>, Style) {
        let t = &self.theme;
        let v = &self.verdict;
        let style = if v.failures.is_empty() {
            t.good()
        } else {
            t.bad()
        };
        let head = t
            .text(&format!("{}{}", v.headline(), v.unsettled_text()))
            .into_owned();
        let links = verdict::told_links(t, v, &plain_step, &plain_step);
        (head, links, style)
    }

    /// The verdict in `rows` rows of `width`: whole where it fits; else
    /// its headline and as many whole links as fit, in causal order, and
    /// on a row of its own the count of the rest with the key that reads
    /// them (`← why: 3 more · w`), as the simulator's verdict is folded.
    /// Never a link cut mid-word (`← A (start …` read as another cause).
    fn ending(&self, width: u16, rows: u16) -> Vec<Line<'static>> {
        let t = &self.theme;
        let (head, links, style) = self.verdict_parts();
        let fits = |lines: &[Line<'static>]| measure::rows(lines, width, false) <= rows;
        let whole = vec![Line::styled(format!("{head}{}", links.concat()), style)];
        if fits(&whole) {
            return whole;
        }
        (0..links.len())
            .rev()
            .map(|shown| {
                vec![
                    Line::styled(format!("{head}{}", links[..shown].concat()), style),
                    Line::styled(verdict::more_tail(t, links.len() - shown), t.key()),
                ]
            })
            .find(|lines| fits(lines))
            .unwrap_or_else(|| {
                vec![
                    Line::styled(head.clone(), style),
                    Line::styled(verdict::fewest_tail(t, links.len()), t.key()),
                ]
            })
    }

    /// `w`: the verdict whole in `area`, its headline and then each link
    /// on rows of its own, a wrapped link continued under its words.
    fn why(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let (head, links, style) = self.verdict_parts();
        let mut lines = vec![Line::styled(head, style)];
        lines.extend(
            links
                .iter()
                .map(|l| Line::styled(format!("  {}", l.trim_start()), style)),
        );
        let b = block(
            t,
            &format!(
                "{} The verdict at the end of the run, every cause (w: back)",
                t.g.observer
            ),
            &format!("{} The verdict, every cause", t.g.observer),
            area.width,
        );
        let inner = b.inner(area);
        b.render(area, buf);
        let rows = verdict::why_rows(&lines, inner.width);
        overflow::show(t, rows, false, inner, buf);
    }

    /// The program's stderr up to this step, newest last: the lines of
    /// this step bright, earlier ones dim; where they do not all fit, the
    /// newest stay and the first row counts the rest and says how to read
    /// them: `e` shows them on the whole screen, and where even that has
    /// no room, `--text` prints every line.
    fn stderr(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let whole = self.stderr_whole;
        let b = block(
            t,
            &format!(
                "The program's stderr, up to step {}{}",
                self.at + 1,
                if whole { " (e: back)" } else { "" }
            ),
            &format!("Its stderr to step {}", self.at + 1),
            area.width,
        );
        let inner = b.inner(area);
        b.render(area, buf);
        let mut lines: Vec<Line<'static>> = Vec::new();
        for (i, s) in self.steps.iter().enumerate().take(self.at + 1) {
            let style = if i == self.at { t.title() } else { t.dim() };
            lines.extend(s.stderr.iter().map(|l| Line::styled(own(l), style)));
        }
        if lines.is_empty() {
            lines.push(Line::styled("(nothing yet)", t.dim()));
        }
        // Each line wrapped at its words: a panel with rows to spare shows
        // a long line whole (teacher trial: `leaving the message for re…`
        // above blank rows). Where they do not all fit, the newest lines
        // that do stay whole, under the count of the rest.
        let rows = usize::from(inner.height);
        let tall = |l: &Line<'static>| usize::from(measure::rows([l], inner.width, false));
        let needed: usize = lines.iter().map(tall).sum();
        if needed > rows && rows > 0 {
            let mut room = rows - 1;
            let mut keep = 0;
            for l in lines.iter().rev() {
                if tall(l) > room {
                    break;
                }
                room -= tall(l);
                keep += 1;
            }
            // The newest line stays even taller than the panel: its
            // rows past the bottom are counted there (`overflow`).
            let earlier = lines.len() - keep.max(1);
            let how = if whole {
                ": --text prints every line".to_string()
            } else {
                format!(" {} e", t.g.dot)
            };
            let mut shown = vec![Line::styled(
                format!(
                    "{} {earlier} earlier {}{how}",
                    if t.ascii() { "^" } else { "↑" },
                    if earlier == 1 { "line" } else { "lines" }
                ),
                t.dim(),
            )];
            shown.extend(lines.split_off(earlier));
            lines = shown;
        }
        overflow::show(t, lines, true, inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::replay::panels::tests::replay_of;

    #[test]
    fn a_step_that_writes_rows_says_so() {
        let mut replay = replay_of(&[0, 1, 2, 2]);
        let told = |replay: &Replay| replay.tables_moved(&replay.steps[replay.at].clone());
        replay.at = 2;
        assert_eq!(told(&replay).as_deref(), Some("payments 1 → 2 rows"));
        replay.at = 3;
        assert_eq!(told(&replay), None);
    }
}
