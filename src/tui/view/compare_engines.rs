//! One design on SQLite and on PostgreSQL side by side, in lockstep. Each
//! side leads with its step and what that step did, then who waits on
//! whom and in which statement, so the different lock points are seen at
//! one glance; where they differ, the header and both titles say so in
//! words and with a mark.

use super::compare::counted;
use super::wrap_words::words;
use super::{database, provider, service, sql, verdict};
use crate::sim::Frame;
use crate::sim::db::Engine;
use crate::timeline::Timeline;
use crate::tui::app::App;
use crate::tui::compare::Compare;
use crate::tui::compare_engines::{Wait, waiting_statement, waits, waits_differ};
use crate::tui::layout;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

pub fn render(app: &App, c: &Compare, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    // The header is as tall as the longest contrast of the run at this
    // width needs, at every step: the sides do not jump as one steps.
    let rows = (0..c.pairs.len())
        .map(|at| contrast(t, c, at, area.width as usize).len())
        .max()
        .unwrap_or(1)
        .clamp(1, CONTRAST_ROWS);
    let (header, left, right, keybar) =
        layout::compare_under(area, 1 + u16::try_from(rows).unwrap_or(1));
    let (lf, rf) = c.frames(app.pos);
    let here = waits_differ(lf, rf);
    let last = |tl: &Timeline| tl.frames.len() - 1;
    let (chapter, of) = (rf.chapter, app.script.steps.len());
    let top = Line::from(vec![
        Span::styled(" Compare engines ", t.title()),
        Span::styled(format!("{} ", t.g.dot), t.dim()),
        Span::styled(
            format!(
                "{} step {}/{}, {} step {}/{}",
                lf.engine.name(),
                lf.index,
                last(&c.left),
                rf.engine.name(),
                rf.index,
                last(&c.right)
            ),
            t.info(),
        ),
        Span::styled(
            format!(" {} design {}", t.g.dot, c.right.strategy),
            t.info(),
        ),
        Span::styled(format!(" {} ", t.g.dot), t.dim()),
        // The design's own title, as the main screen gives it.
        Span::styled(super::header::title_of(app, &c.right.strategy), t.title()),
        Span::styled(
            if (1..=of).contains(&chapter) {
                format!(" {} chapter {chapter}/{of}", t.g.dot)
            } else {
                String::new()
            },
            t.dim(),
        ),
    ]);
    super::fit(t, top, header.width as usize)
        .render(Rect::new(header.x, header.y, header.width, 1), buf);
    let mut second = contrast(t, c, app.pos, header.width as usize);
    second.truncate(rows);
    for (i, line) in second.into_iter().enumerate() {
        let y = header.y + 1 + u16::try_from(i).unwrap_or(0);
        super::fit(t, line, header.width as usize)
            .render(Rect::new(header.x, y, header.width, 1), buf);
    }
    sides(app, c, here, left, right, buf);
    super::keybar::render(app, keybar, buf);
}

/// The most rows the header's contrast wraps to; past them it is cut.
const CONTRAST_ROWS: usize = 3;

/// The header's rows under the title at position `at`, for `width`
/// columns: where the lock points differ, the mark and each engine's
/// fact, packed into rows and broken between them rather than cut inside
/// one (at 80 columns `PostgreSQ…` lost the server's half); else one line.
fn contrast(t: &Theme, c: &Compare, at: usize, width: usize) -> Vec<Line<'static>> {
    let (lf, rf) = c.frames(at);
    let here = waits_differ(lf, rf);
    if here && waits(lf) == waits(rf) {
        // The same waits, different outcome classes: one side has gone
        // wrong a step earlier (each side's verdict leads it).
        return vec![Line::from(vec![
            Span::styled(format!(" {} the engines differ here", t.g.token), t.flash()),
            Span::styled(
                " · one run has gone wrong and the other has not yet",
                t.warn(),
            ),
        ])];
    }
    if here {
        let mark = format!(" {} lock points differ here", t.g.token);
        let facts = [lf, rf].map(|f| format!("{}: {}", f.engine.name(), who_waits(&waits(f))));
        let sep = format!(" {} ", t.g.dot);
        let mut rows: Vec<Vec<Span<'static>>> = vec![vec![Span::styled(mark.clone(), t.flash())]];
        let mut used = mark.chars().count();
        for fact in facts {
            let n = fact.chars().count();
            if used + sep.chars().count() + n <= width {
                let row = rows.last_mut().expect("a row");
                row.push(Span::styled(format!("{sep}{fact}"), t.warn()));
                used += sep.chars().count() + n;
                continue;
            }
            // A fact of its own row, wrapped at words where even that is
            // too narrow for it.
            for piece in words(&fact, width.saturating_sub(1).max(8)) {
                used = 1 + piece.chars().count();
                rows.push(vec![Span::styled(format!(" {piece}"), t.warn())]);
            }
        }
        return rows.into_iter().map(Line::from).collect();
    }
    if let Some(d) = c.diverge {
        let (a, b) = c.frames(d);
        return vec![Line::from(vec![
            Span::styled(
                format!(
                    " {} the engines differ first at {} step {}, {} step {}",
                    t.g.token,
                    a.engine.name(),
                    a.index,
                    b.engine.name(),
                    b.index
                ),
                t.warn(),
            ),
            Span::styled(" (v jumps there)", t.dim()),
        ])];
    }
    vec![Line::styled(
        " both engines make the same consumers wait at the same steps in this run",
        t.dim(),
    )]
}

/// `B at "insert message ID"`, or that nobody waits: the header's words.
fn who_waits(waits: &[Wait]) -> String {
    if waits.is_empty() {
        return "nobody waits".into();
    }
    let each: Vec<String> = waits
        .iter()
        .map(|w| format!("{} waits at \"{}\"", w.consumer, w.step))
        .collect();
    each.join(", ")
}

fn sides(app: &App, c: &Compare, here: bool, left: Rect, right: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let (li, ri) = c.pairs[app.pos.min(c.pairs.len() - 1)];
    // Where the lock points differ the borders turn the failure colour and
    // the titles say so in words: colour is never the only sign.
    let border = if here {
        t.bad().add_modifier(Modifier::BOLD)
    } else {
        t.border(false)
    };
    let block = |f: &Frame, width: u16| {
        let mark = if here {
            format!(" {} differs here", t.g.token)
        } else {
            String::new()
        };
        // The design is in the header too: it is what a narrow side drops
        // first, so the engine and the mark are never cut.
        let full = format!(
            " {} {} {}{mark} ",
            f.engine.name(),
            t.g.dot,
            c.right.strategy
        );
        let title = if full.chars().count() + 2 <= usize::from(width) {
            full
        } else {
            format!(" {}{mark} ", f.engine.name())
        };
        Block::bordered()
            .border_set(t.g.border)
            .border_style(border)
            .title(Span::styled(title, t.title()))
    };
    let (lf, rf) = (&c.left.frames[li], &c.right.frames[ri]);
    let (lb, rb) = (block(lf, left.width), block(rf, right.width));
    let (l_in, r_in) = (lb.inner(left), rb.inner(right));
    lb.render(left, buf);
    rb.render(right, buf);
    let story = usize::from(l_in.height / 5).max(2);
    let (mut lshort, mut rshort) = Default::default();
    // One design on two engines: both sides take one form for a
    // consumer's heading, the one both runs fit (trial: `consumer A idle`
    // beside `A: idle`).
    let watch = super::Watch::of_runs(&[&c.left.frames, &c.right.frames]);
    let ls = sections(
        t,
        (&c.left, li),
        &watch,
        usize::from(l_in.width),
        story,
        &mut lshort,
    );
    let rs = sections(
        t,
        (&c.right, ri),
        &watch,
        usize::from(r_in.width),
        story,
        &mut rshort,
    );
    // The sections with a row in view (the side is not scrolled) name
    // their marks drawn short; one cut off below names none.
    let starts: Vec<usize> = ls
        .iter()
        .zip(&rs)
        .scan(0, |at, (a, b)| {
            let start = *at;
            *at += a.len().max(b.len());
            Some(start)
        })
        .collect();
    for (short, side, rows) in [(lshort, left, l_in.height), (rshort, right, r_in.height)] {
        let mut named = super::marks::Shortened::default();
        for (s, start) in short.into_iter().zip(&starts[SERVICE..]) {
            if *start < usize::from(rows) {
                named.extend(s.into_spans());
            }
        }
        super::mark_legend::on_border(t, &named, side, buf);
    }
    let (lines_l, lines_r) = super::compare::side_by_side(ls, rs);
    for (lines, area) in [(lines_l, l_in), (lines_r, r_in)] {
        super::overflow::show(t, counted(t, lines, area), false, area, buf);
    }
}

/// Where the sections with marks begin in `sections`: the service, then
/// the database and the provider.
const SERVICE: usize = 4;

/// One engine's side, as sections in a fixed order: the step and what it
/// did (at 80x24 the story under the waits fell below the fold, and the
/// step line alone, `run A to before acknowledge`, did not say it),
/// then who
/// waits: the same section starts on the same row on both sides. What the marks
/// drawn short mean goes to `short`, a section each from `SERVICE` on,
/// for the side's border.
fn sections(
    t: &Theme,
    (tl, at): (&Timeline, usize),
    watch: &super::Watch,
    w: usize,
    story_rows: usize,
    short: &mut [super::marks::Shortened; 3],
) -> Vec<Vec<Line<'static>>> {
    let f = &tl.frames[at];
    let (head, style) = verdict::bounded_headline(t, &f.verdict, None);
    // The step line wraps: a handler step's name is never cut.
    let step = format!("step {} {} {}", f.index, t.g.dot, t.text(&action_said(f)));
    let mut outcome = vec![Line::styled(head, style)];
    outcome.extend(
        words(&step, w)
            .into_iter()
            .map(|l| Line::styled(l, t.info())),
    );
    let mut sql_lines = vec![Line::styled(format!("SQL in step {}", f.index), t.title())];
    sql_lines.extend(sql::lines(t, f));
    // What this step did on this engine, told as compare tells a side:
    // the step's own events first, then the words.
    let mut story = vec![Line::styled("what happens", t.title())];
    story.extend(super::compare::story_lines(
        t,
        f,
        &tl.frames,
        &crate::sim::cause::plain_step,
        w,
        story_rows,
    ));
    let mut service_lines = vec![Line::styled("service", t.title())];
    // 99 rows: no list folds, so who is watched does not matter.
    service_lines.extend(service::lines_noting(t, f, watch, w, 99, &mut short[0]));
    vec![
        outcome,
        story,
        waiting(t, tl, at, w),
        sql_lines,
        service_lines,
        database::run_lines_noting(t, &tl.frames, f, (w, 99), &mut short[1]),
        provider::run_lines_noting(t, &tl.frames, f, (w, usize::MAX), &mut short[2]),
    ]
}

/// What the side's step did, named as the main screen's step line names
/// it: the handler step that ran first (`provider response (A) · part of:
/// run A to before acknowledge`), or the consumer's turn where it ran none (a
/// restart, a poll that found nothing). The scripted action alone read
/// as the step that ran (trial 34: `run B up to begin transaction` at B's
/// receive, read as "B began"); `step 16 · step A` read as a stutter
/// (trial 26).
fn action_said(f: &Frame) -> String {
    match &f.stepped {
        Some(who) if super::ran::step_ran(f).is_none() && f.action == format!("step {who}") => {
            format!("{who}'s turn: no handler step")
        }
        _ => super::step_line::said(f),
    }
}

/// Who waits on whom at frame `at`: the statement each one waits in,
/// with the engine's answer to it (the evidence, never cut), then where
/// this engine makes a second writer wait.
fn waiting(t: &Theme, tl: &Timeline, at: usize, w: usize) -> Vec<Line<'static>> {
    let f = &tl.frames[at];
    let mut out = vec![Line::styled("who waits", t.title())];
    let found = waits(f);
    if found.is_empty() {
        out.push(Line::styled("nobody waits", t.dim()));
    }
    let inner = w.saturating_sub(2).max(8);
    let indent = |text: &str, style| -> Vec<Line<'static>> {
        words(text, inner)
            .into_iter()
            .map(|l| Line::styled(format!("  {l}"), style))
            .collect()
    };
    for wait in &found {
        let who = format!(
            "{} {} waits for {}, at \"{}\"",
            t.g.waiting, wait.consumer, wait.by, wait.step
        );
        out.extend(
            words(&who, w)
                .into_iter()
                .map(|l| Line::styled(l, t.warn())),
        );
        if let Some(r) = waiting_statement(tl, at, &wait.consumer) {
            let sql = Line::raw(format!("  {}", r.sql));
            out.push(super::fit(t, sql, w));
            out.extend(indent(
                &format!("{} {}", t.g.arrow, t.text(&r.result)),
                t.warn(),
            ));
        }
        out.extend(indent(
            &match f.engine {
                Engine::Sqlite => format!(
                    "refused: {} holds the write lock; {} tries again",
                    wait.by, wait.consumer
                ),
                Engine::Postgres => format!(
                    "held inside the server until {} commits or rolls back",
                    wait.by
                ),
            },
            t.dim(),
        ));
    }
    // SQLite turns away any second writer while a transaction holds the
    // write lock (every consumer begins with BEGIN IMMEDIATE), said only
    // then: with none open it read as a wait at a step where none can be
    // (teacher trial 26). PostgreSQL holds only a writer of a key an open
    // transaction has written, so its rule too is said only while one is
    // open (trial 29: beside `nobody waits` after both had committed);
    // a design that records no key (naive) never makes anyone wait: then
    // the rule is said with what it means here.
    let ever_waits = tl.frames.iter().any(|f| !waits(f).is_empty());
    let holder = f.consumers.iter().find(|c| c.in_txn);
    let rule = match (f.engine, holder) {
        (_, None) => return out,
        (Engine::Sqlite, Some(h)) => format!(
            "{}'s transaction holds the write lock, so any second writer waits {}",
            h.name,
            f.engine.lock_point()
        ),
        (Engine::Postgres, _) if !ever_waits => "only a second writer of the same key would wait \
             here, and in this run no two consumers write the same key: nobody waits"
            .to_string(),
        (Engine::Postgres, _) => format!(
            "a second writer of the same key waits {}",
            f.engine.lock_point()
        ),
    };
    out.extend(
        words(&rule, w)
            .into_iter()
            .map(|l| Line::styled(l, t.dim())),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Every built-in run on SQLite (the left side), frame by frame.
    fn each_sqlite_frame(mut check: impl FnMut(&Timeline, usize)) {
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let s = crate::sim::Strategy::by_name(&design).unwrap();
                let tl = Timeline::build(&script, &s, 0, &[]).unwrap();
                for at in 0..tl.frames.len() {
                    check(&tl, at);
                }
            }
        }
    }

    /// Teacher trial 26: tour-2 at step 16 said "any second writer waits
    /// at BEGIN IMMEDIATE" with no transaction open. SQLite's lock rule
    /// is said while a transaction of the side holds the write lock, and
    /// only then.
    #[test]
    fn sqlites_lock_is_said_only_while_a_transaction_holds_it() {
        let t = Theme::new(false, false);
        let (mut wrong, mut frames) = (Vec::new(), 0);
        each_sqlite_frame(|tl, at| {
            let f = &tl.frames[at];
            frames += 1;
            let said = text(&waiting(&t, tl, at, 200)).contains("second writer waits");
            let held = f.consumers.iter().any(|c| c.in_txn);
            if said != held {
                wrong.push(format!(
                    "{} {} step {}: said {said}, a transaction open {held}",
                    tl.scenario, tl.strategy, f.index
                ));
            }
        });
        assert!(wrong.is_empty(), "{} of {frames}: {wrong:#?}", wrong.len());
    }

    /// The step line names the action as the main screen does: `step 16
    /// · step A` read as a stutter; a one-step action is the handler step
    /// that ran (`charge the card (A)`).
    #[test]
    fn the_step_line_names_a_one_step_action_by_its_step() {
        let t = Theme::new(false, false);
        let (mut wrong, mut frames) = (Vec::new(), 0);
        each_sqlite_frame(|tl, at| {
            frames += 1;
            let mut short = Default::default();
            let watch = super::super::Watch::of_run(&tl.frames);
            let line = text(&sections(&t, (tl, at), &watch, 80, 2, &mut short)[0][1..2]);
            if line.contains(&format!("{} step ", t.g.dot)) {
                wrong.push(format!("{} {}: {line}", tl.scenario, tl.strategy));
            }
        });
        wrong.dedup();
        assert!(wrong.is_empty(), "{} of {frames}: {wrong:#?}", wrong.len());
    }
}
