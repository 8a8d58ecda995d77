//! The level screen, full screen: the goal and the level's condition, the
//! learner's handler beside the building blocks they can add, and the
//! prover's verdict on it.

use super::{keybar, level_bounds};
use crate::check::further;
use crate::check::{StrategyReport, num};
use crate::levels::{Attempt, Fault, Verdict};
use crate::sim::Op;
use crate::tui::app::App;
use crate::tui::levels::{LevelPlay, Proving};
use crate::tui::measure;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let play = &app.levels;
    let level = play.level();
    let [header_area, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    header(t, play, header_area, buf);
    keybar::render(app, keys, buf);
    // The hint, when asked for, comes first: on a short screen the goal's
    // end may be cut (with a sign), and the hint is what was just asked for.
    let mut goal: Vec<Line<'static>> = Vec::new();
    if play.hint {
        goal.push(Line::from(vec![
            Span::styled("Hint: ", t.info()),
            Span::raw(t.text(&level.hint).into_owned()),
        ]));
        // Every key, in the bar's words: the bar counts the ones it has
        // no room for (`? hint +3`), and this is where they are.
        let mut keys = vec![Span::styled("Keys:", t.info())];
        for (key, what, _) in keybar::LEVEL_KEYS {
            keys.push(Span::styled(format!(" {}", t.text(key)), t.key()));
            keys.push(Span::raw(format!(" {what} ")));
        }
        goal.push(Line::from(keys));
    }
    // The condition next: one short line that decides whether a level is
    // won, never the part of the box that is cut.
    if let Some(rule) = &level.rule {
        goal.push(Line::from(vec![
            Span::styled("Condition: ", t.warn()),
            Span::raw(t.text(rule).into_owned()),
        ]));
    }
    goal.push(Line::raw(t.text(&flow(&level.goal)).into_owned()));
    let inner_width = body.width.saturating_sub(2).max(1);
    let goal_rows = measure::rows(&goal, inner_width, false);
    let goal_title = format!(" Goal {} {} ", t.g.dot, t.text(&level.title));
    // `w`: the goal and the prover's words whole, in the body's height, the
    // handler out of the way.
    if play.whole {
        let verdict = verdict_lines(t, play, usize::from(inner_width));
        let verdict_rows = measure::rows(&verdict, inner_width, false);
        let h = body.height;
        let verdict_h = (verdict_rows + 2)
            .min(h.saturating_sub((goal_rows + 2).min(h / 2)))
            .max(3);
        let [goal_area, verdict_area] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(verdict_h)]).areas(body);
        let block = boxed(t, goal_title);
        let inner = block.inner(goal_area);
        block.render(goal_area, buf);
        super::wrap(t, goal, inner, buf);
        let block = boxed(t, " The prover, whole · w or Esc: back ".into());
        let inner = block.inner(verdict_area);
        block.render(verdict_area, buf);
        super::wrap(t, verdict, inner, buf);
        return;
    }
    let mut verdict = verdict_lines(t, play, usize::from(inner_width));
    let verdict_rows = measure::rows(&verdict, inner_width, false);
    // The handler and the whole palette come first: a learner who cannot
    // see a building block cannot use it. The goal and the verdict share
    // what is left, the goal first; each says when it is cut.
    let middle_need = (play.level().palette.len().min(10) + 1).max(play.program.len()) as u16 + 2;
    let h = body.height;
    let goal_h = (goal_rows + 2)
        .min(h.saturating_sub(middle_need + 3))
        .max(3);
    let mut verdict_h = (verdict_rows + 2)
        .min(h.saturating_sub(goal_h + middle_need))
        .max(3);
    // A verdict cut to one row gets a second from the palette's closing
    // line (`a number adds it after ▶`), the one row of the middle that no
    // block needs: its first row then has the box's whole width for the
    // claim, its bounds and their kinds, and what one bound further broke
    // (at 80x24 the sign took 16 columns of it and `(crashes only)` went).
    let hint_row = play.level().palette.len().min(10) + 1 > play.program.len();
    if verdict_rows > 1 && verdict_h <= 3 && hint_row {
        verdict_h = (verdict_rows + 2)
            .min(h.saturating_sub(goal_h + middle_need - 1))
            .max(3);
    }
    // Where the verdict is cut to its first row (the claim and its
    // bounds), that row leaves room for the sign that names `w`.
    if verdict_rows > 1 && verdict_h <= 3 {
        let room = usize::from(inner_width).saturating_sub(level_bounds::sign_room(t));
        verdict = verdict_lines(t, play, room);
    }
    let [goal_area, middle, verdict_area] = Layout::vertical([
        Constraint::Length(goal_h),
        Constraint::Fill(1),
        Constraint::Length(verdict_h),
    ])
    .areas(body);
    // Each box cut says so, and names `w`, which shows both whole.
    let block = boxed(t, goal_title);
    let inner = block.inner(goal_area);
    block.render(goal_area, buf);
    super::overflow::show_signed(t, goal, true, inner, buf, level_bounds::signs);
    let [list_area, palette_area] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(middle);
    handler(t, play, list_area, buf);
    palette(t, play, palette_area, buf);
    let block = boxed(t, " The prover ".into());
    let inner = block.inner(verdict_area);
    block.render(verdict_area, buf);
    super::overflow::show_signed(t, verdict, true, inner, buf, level_bounds::signs);
}

/// A level file's goal is wrapped at its own width: joined into one
/// paragraph, for the screen to wrap.
fn flow(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn boxed<'a>(t: &Theme, title: String) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_set(t.g.border)
        .border_style(t.dim())
        .title(Span::styled(title, t.title()))
}

fn header(t: &Theme, play: &LevelPlay, area: Rect, buf: &mut Buffer) {
    let level = play.level();
    let left = Line::from(vec![
        Span::styled(" idem ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
        Span::styled(
            format!("Level {}/{}", level.number, play.levels.len()),
            t.info(),
        ),
        Span::styled(
            format!(" {} build the handler yourself", t.g.dot),
            t.title(),
        ),
    ]);
    // A win the try one fault further broke is marked as the explorer
    // marks a design that holds only within its bounds: `!` and words,
    // not a ✓ in another colour (teacher trial 28).
    let marks: Vec<Span<'static>> = if play.won_only_within(level.number) {
        vec![
            Span::styled(
                format!("{} won, broken one bound further  ", t.g.warning),
                t.warn(),
            ),
            Span::styled(format!("{} won, breaks further  ", t.g.warning), t.warn()),
        ]
    } else if play.won_further_unknown(level.number) {
        // Won in a session whose file kept no word of the try one fault
        // further: a bare ✓ would claim it held there.
        vec![
            Span::styled(
                format!("{} won, one bound further not recorded  ", t.g.done),
                t.good(),
            ),
            Span::styled(
                format!("{} won, further not recorded  ", t.g.done),
                t.good(),
            ),
            Span::styled(format!("{} won  ", t.g.done), t.good()),
        ]
    } else if play.won(level.number) {
        vec![Span::styled(format!("{} won  ", t.g.done), t.good())]
    } else {
        vec![Span::raw("")]
    };
    let count = Span::styled(
        format!("levels won {}/{} ", play.won.len(), play.levels.len()),
        t.dim(),
    );
    // The mark's long words, then its short ones, then the same without
    // the screen's subtitle: the mark goes last.
    let short_left = Line::from(left.spans[..3].to_vec());
    let tries = marks
        .iter()
        .map(|m| (left.clone(), m))
        .chain(marks.iter().map(|m| (short_left.clone(), m)));
    let mut drawn = false;
    for (left, mark) in tries {
        let right = Line::from(vec![mark.clone(), count.clone()]);
        if left.width() + right.width() < area.width as usize {
            left.render(area, buf);
            right.right_aligned().render(area, buf);
            drawn = true;
            break;
        }
    }
    if !drawn {
        left.render(area, buf);
    }
}

/// The learner's handler, one step a line, numbered, indented inside a
/// transaction, with the step the keys act on marked and a step that
/// breaks a rule or the level's condition marked with why.
fn handler(t: &Theme, play: &LevelPlay, area: Rect, buf: &mut Buffer) {
    let block = boxed(t, " Your handler ".into());
    let inner = block.inner(area);
    block.render(area, buf);
    let invalid = play.invalid();
    let mut open = false;
    let lines: Vec<Line<'static>> = play
        .program
        .iter()
        .enumerate()
        .map(|(i, &op)| {
            if op == Op::Commit {
                open = false;
            }
            let indent = if open || op.needs_transaction() {
                "  "
            } else {
                ""
            };
            if op == Op::Begin {
                open = true;
            }
            let here = i == play.selected;
            let pointer = if here {
                Span::styled(format!("{} ", t.g.next), t.key())
            } else {
                Span::raw("  ")
            };
            let label = format!("{:>2} {indent}{}", i + 1, crate::sim::step_name::label(op));
            let style = if here { t.highlight() } else { t.title() };
            let mut spans = vec![pointer, Span::styled(label, style)];
            if play.level().forbid.contains(&op) {
                spans.push(Span::styled(
                    format!(" {} not allowed", t.g.failed),
                    t.bad(),
                ));
            } else if invalid.as_ref().and_then(|e| e.at) == Some(i) {
                spans.push(Span::styled(format!(" {} cannot run", t.g.failed), t.bad()));
            }
            Line::from(spans)
        })
        .collect();
    // Keep the selected step in view on a short screen.
    let h = inner.height as usize;
    let skip = (play.selected + 1).saturating_sub(h);
    super::clip(t, lines.into_iter().skip(skip).collect(), inner, buf);
}

fn palette(t: &Theme, play: &LevelPlay, area: Rect, buf: &mut Buffer) {
    let block = boxed(t, " Building blocks ".into());
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines: Vec<Line<'static>> = play
        .level()
        .palette
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, op)| {
            Line::from(vec![
                Span::styled(format!(" {} ", (i + 1) % 10), t.key()),
                Span::raw(crate::sim::step_name::label(*op)),
            ])
        })
        .collect();
    if lines.len() < inner.height as usize {
        lines.push(Line::styled(
            format!(" a number adds it after {}", t.g.next),
            t.dim(),
        ));
    }
    super::clip(t, lines, inner, buf);
}

/// The prover's words; the first row of a verdict, its claim and bounds,
/// in at most `room` columns.
fn verdict_lines(t: &Theme, play: &LevelPlay, room: usize) -> Vec<Line<'static>> {
    if let Some(e) = play.invalid() {
        let at = e.at.map_or(String::new(), |i| format!("step {}: ", i + 1));
        return vec![Line::styled(
            format!("{} cannot run yet: {at}{}", t.g.failed, t.text(&e.message)),
            t.bad(),
        )];
    }
    match &play.proving {
        Proving::Idle => vec![Line::styled(
            format!(
                "Enter runs the prover: every interleaving of two consumers and every {} this level throws at it, within its bounds.",
                fault_words(&play.level().faults)
            ),
            t.dim(),
        )],
        Proving::Running { ms } => vec![Line::styled(
            format!(
                "{} the prover is exploring every schedule of your handler{} {:.1}s",
                t.g.pending,
                t.g.ellipsis,
                *ms as f64 / 1000.0
            ),
            t.info(),
        )],
        Proving::Failed(e) => vec![Line::styled(
            format!("{} the prover stopped: {}", t.g.failed, t.text(e)),
            t.bad(),
        )],
        Proving::Done(attempt) => done(t, attempt, play, room),
    }
}

/// One bound further, after a claim's bounds: `; also at 3`, `; breaks
/// at 3: see the shortest run (v)`, and what the design's assumptions
/// leave out.
fn further_words(r: &StrategyReport) -> String {
    let mut out = String::new();
    for f in &r.further {
        out.push_str("; ");
        // With the cause of its failure and how these bounds differ from
        // `idem check`'s: a win that breaks at 3 faults beside `idem
        // check`'s "also holds at 3 faults" read as a contradiction.
        out.push_str(&f.words_told(true));
        if f.fails() {
            out.push_str(" (v)");
        }
        if let Some(differs) = further::beyond_check(f) {
            out.push_str("; ");
            out.push_str(&differs);
        }
    }
    if let Some(why) = further::left_out(r) {
        out.push_str("; ");
        out.push_str(&why);
    }
    out
}

/// `crash point, lost ack and early lease expiry`: the level's faults, as the
/// prover's idle line names them.
fn fault_words(faults: &[Fault]) -> String {
    let words: Vec<&str> = faults
        .iter()
        .map(|f| match f {
            Fault::Crash => "crash point",
            other => other.shown(),
        })
        .collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

/// What a won level did not try, from the levels' own faults: each kind
/// this level leaves out, with the level that throws it (`Not tried
/// here: crash (level 2), early lease expiry (level 7), lost response (level
/// 9). `). A handler that wins level 1 may still charge with no
/// Idempotency-Key; the line says where that is tested. Nothing where the
/// level throws every kind.
fn untried(play: &LevelPlay) -> String {
    let here = play.level();
    let mut left: Vec<(usize, Fault)> = Fault::ALL
        .into_iter()
        .filter(|f| !here.faults.contains(f))
        .filter_map(|f| {
            // The first level after this one that throws it, else any.
            let throws = |l: &&crate::levels::Level| l.faults.contains(&f);
            let later = play
                .levels
                .iter()
                .filter(|l| l.number > here.number)
                .find(throws);
            later
                .or_else(|| play.levels.iter().find(throws))
                .map(|l| (l.number, f))
        })
        .collect();
    if left.is_empty() {
        return String::new();
    }
    left.sort();
    let named: Vec<String> = left
        .iter()
        .map(|(n, f)| format!("{} (level {n})", f.shown()))
        .collect();
    format!("Not tried here: {}. ", named.join(", "))
}

/// What a count of schedules counts, in `idem check`'s words, beside
/// every count the prover box gives: "2 of 3 schedules" of "every
/// interleaving of two consumers" read as a slip to students (teacher
/// trial 28).
const SCHEDULE: &str =
    "a schedule is a complete run, start to quiet, with identical consumers counted once";

fn done(t: &Theme, a: &Attempt, play: &LevelPlay, room: usize) -> Vec<Line<'static>> {
    let levels = play.levels.len();
    // The bounds in full: consumers, messages, faults and their kinds.
    let bounds = play.level().bounds();
    let r = &a.report;
    let size = format!(
        "{} schedules, {} states; {SCHEDULE}",
        num(r.schedules),
        num(r.states)
    );
    // The first row: the claim with its bounds in as many words as it has
    // room for, so that no size shows a claim without them.
    let used = r.bounds.as_ref().unwrap_or(&bounds);
    let every = Fault::ALL.iter().all(|f| play.level().faults.contains(f));
    let tail = match a.verdict {
        Verdict::Won => level_bounds::breaks_tail(t, r),
        _ => String::new(),
    };
    let won = matches!(a.verdict, Verdict::Won);
    let forms = level_bounds::forms(used, every, won, &tail);
    let head = |leads: &[String]| level_bounds::head(t, leads, &forms, room);
    match &a.verdict {
        // The claim, then what it did not try, where a short screen still
        // shows it, then the bounds whole with the try one further, as one
        // paragraph.
        Verdict::Won => vec![
            Line::styled(
                head(&[
                    format!("{} level won ", t.g.done),
                    format!("{} won ", t.g.done),
                ]),
                t.good(),
            ),
            Line::from(vec![
                Span::styled(untried(play), t.warn()),
                Span::styled(
                    format!(
                        "No schedule breaks your handler {}{} ({size}){}.",
                        further::within_all(r, &bounds),
                        further::trusted_id(r),
                        further_words(r)
                    ),
                    t.good(),
                ),
                Span::styled(
                    if a.level < levels {
                        " ] goes to the next level."
                    } else {
                        " That was the last level."
                    },
                    t.dim(),
                ),
            ]),
        ],
        Verdict::Holds { broken } => vec![
            Line::styled(
                head(&[
                    format!("{} not won; no schedule breaks it ", t.g.warning),
                    format!("{} not won; holds ", t.g.warning),
                ]),
                t.warn(),
            ),
            Line::styled(
                format!(
                    "It {}. No schedule breaks it {}{} ({size}){}.",
                    broken.join("; and it "),
                    further::within_all(r, &bounds),
                    further::trusted_id(r),
                    further_words(r),
                ),
                t.warn(),
            ),
        ],
        Verdict::Vacuous => vec![
            Line::styled(
                head(&[format!("{} nothing broke it ", t.g.vacuous)]),
                t.warn(),
            ),
            Line::styled(
                "but no message was ever delivered twice, so that proves nothing.",
                t.warn(),
            ),
        ],
        Verdict::Broken => {
            let Some(cx) = a.counterexample() else {
                return vec![Line::styled(
                    head(&[format!(
                        "{} broken: a property fails ({size}), ",
                        t.g.failed
                    )]),
                    t.bad(),
                )];
            };
            let bad = r.failing();
            // The chain with the screen's arrow (`<-` only under --ascii).
            let chain = cx.verdict.chain_at(t.arrow(), &crate::check::move_words);
            vec![
                Line::styled(
                    head(&[
                        format!(
                            "{} broken: {} in {} moves, ",
                            t.g.failed,
                            cx.class.text(),
                            cx.moves.len(),
                        ),
                        format!("{} broken: {}, ", t.g.failed, cx.class.text()),
                        format!("{} {} ", t.g.failed, cx.class.text()),
                    ]),
                    t.bad(),
                ),
                Line::styled("v watches it break on the main screen.", t.dim()),
                // The count with the bounds it was counted in, as the win
                // states them (teacher trial 18).
                Line::raw(format!(
                    "{} of {} schedules {} go wrong ({SCHEDULE}). {}",
                    num(bad),
                    num(r.schedules),
                    further::within_all(r, &bounds),
                    t.text(&chain)
                )),
            ]
        }
    }
}
