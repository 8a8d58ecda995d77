//! Predict mode on the main screen: the question before its action runs,
//! the answer revealed after it (right or wrong, in words and a mark, and
//! the same mark beside the figure in its panel), and the score at the end.

use super::answer_box::{at_end, box_area, clear_of_titles, revealed, score_spans};
use super::wrap;
use crate::scenario::Action;
use crate::scenario::question::Kind;
use crate::sim::step_name::KEY_MARK;
use crate::sim::{Move, format_duration};
use crate::timeline::Asked;
use crate::tui::app::{App, Overlay, Panel};
use crate::tui::layout::Main;
use crate::tui::predict::{Predict, Stage};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Widget};

/// The score is on screen: at the end, answers closed. It covers the SQL
/// and events (in its own place under the story, or in the box over the
/// story), so the story leans on no events panel then. The one rule the
/// main screen and this file both read.
pub(super) fn score_shown(app: &App) -> bool {
    at_end(app)
        && app
            .predict
            .as_ref()
            .is_some_and(|p| p.stage == Stage::Watching)
}

/// A question or its answers are in a box over the story: the story is
/// not read, so no panel may point the class to it.
pub(super) fn story_covered(app: &App) -> bool {
    app.predict
        .as_ref()
        .is_some_and(|p| matches!(p.stage, Stage::Asking { .. } | Stage::Revealed { .. }))
}

pub fn render(app: &App, m: &Main, buf: &mut Buffer) {
    let Some(p) = &app.predict else {
        return;
    };
    let at_end = at_end(app);
    let (title, lines) = match &p.stage {
        Stage::Asking { at, typed } => (
            question_title(app, p, *at),
            // The box's inner width: the choices are laid out for it.
            asking(app, p, *at, typed, m.keybar.width.saturating_sub(2)),
        ),
        Stage::Revealed { from, to } => {
            for i in *from..=*to {
                let right = p.given.get(&i).is_some_and(|g| g.right);
                super::reveal_mark::render(app, m, &p.asked[i], right, buf);
            }
            // The title judges these answers, never the score so far.
            let all = |right: bool| {
                (*from..=*to).all(|i| p.given.get(&i).is_some_and(|g| g.right == right))
            };
            let title = if all(true) {
                format!(" Predict {} right ", app.theme.g.dot)
            } else if all(false) {
                format!(" Predict {} wrong ", app.theme.g.dot)
            } else {
                format!(" Predict {} answers ", app.theme.g.dot)
            };
            (title, revealed(app, p, *from, *to, at_end, m.around_box()))
        }
        Stage::Watching if score_shown(app) => (
            format!(" Predict {} your score ", app.theme.g.dot),
            score(app, p),
        ),
        Stage::Watching => return tag(app, p, m.keybar, buf),
    };
    let t = &app.theme;
    let rows = crate::tui::measure::rows(&lines, m.keybar.width.saturating_sub(2), false);
    // The score at the end has a place of its own, under the story: the
    // story's closing words say how the run ended and why, and stay.
    let end = matches!(p.stage, Stage::Watching)
        .then(|| end_area(m))
        .flatten();
    let (area, borders) = match end {
        Some(area) => (area, Borders::TOP),
        None => {
            let around = m.around_box();
            (
                clear_of_titles(around, box_area(around, rows + 2)),
                Borders::ALL,
            )
        }
    };
    Clear.render(area, buf);
    let block = Block::default()
        .borders(borders)
        .border_set(t.g.border)
        .border_style(t.border(true))
        .title(Span::styled(t.text(&title).into_owned(), t.title()));
    let inner = block.inner(area);
    block.render(area, buf);
    // Where the score's list of wrong answers, one a line, runs out of
    // rows (80x24 has two), the list flows on as one paragraph: every
    // wrong answer is seen, with no key to learn for it.
    let fits = |lines: &Vec<Line>| {
        end.is_none() || crate::tui::measure::rows(lines, inner.width, false) <= inner.height
    };
    let lines = [Named::Whole, Named::Short, Named::ShortNoChapter]
        .into_iter()
        .map(|named| score_compact(app, p, named))
        .fold(lines, |lines, next| if fits(&lines) { lines } else { next });
    wrap(t, lines, inner, buf);
    if borders == Borders::ALL {
        under_the_box(app, m, area, buf);
    }
    if app.status.is_none() {
        Clear.render(m.keybar, buf);
        // Whole keys where the bar is narrow, the rest counted.
        keys(app, p, at_end, usize::from(m.keybar.width)).render(m.keybar, buf);
    }
}

/// The SQL and events under a box that took their top rows, drawn again
/// in the rows left, with their titles.
fn under_the_box(app: &App, m: &Main, area: Rect, buf: &mut Buffer) {
    let shown = app.shown_frame();
    for panel in [Panel::Sql, Panel::Events] {
        let r = m.rect(panel);
        if area.bottom() > r.y && area.bottom() < r.bottom() {
            let rest = Rect::new(r.x, area.bottom(), r.width, r.bottom() - area.bottom());
            Clear.render(rest, buf);
            super::draw_panel(app, &shown, panel, rest, false, None, 0, buf);
        }
    }
}

/// At the end of the run, the score's place: from under the story (whose
/// bottom border carries the step and what to press at the end) down to
/// the verdict, over the last step's SQL and events, under a rule of its
/// own like the verdict's. `None` where the story panel is not on screen
/// (a panel enlarged), or there is no row for the score under it.
fn end_area(m: &Main) -> Option<Rect> {
    let story = m.rect(Panel::Narration);
    let verdict = m.rect(Panel::Verdict);
    if story.height == 0 || verdict.height == 0 {
        return None;
    }
    let top = story.bottom();
    // A rule and one line at least: the score itself.
    (verdict.y >= top + 2).then(|| Rect::new(m.keybar.x, top, m.keybar.width, verdict.y - top))
}

fn question_title(app: &App, p: &Predict, at: usize) -> String {
    let t = &app.theme;
    // The questions still to come before this action runs, in the title:
    // a row of the box saved for the question itself.
    let asked = &p.asked[at];
    let more = p.next_on_same_action(at).map_or(0, |next| {
        p.asked[next..]
            .iter()
            .take_while(|b| (b.chapter, b.action) == (asked.chapter, asked.action))
            .count()
    });
    let then = if more > 0 {
        format!(" {} then {more} more before this action runs", t.g.dot)
    } else {
        String::new()
    };
    format!(
        " Predict {} question {} of {}{then} ",
        t.g.dot,
        at + 1,
        p.asked.len()
    )
}

/// The action about to run, in plain words, with the status line's words
/// (`run A to before charge the card`, as the story's border shows
/// each of its steps), never the file's keyword.
pub fn action_words(app: &App, asked: &Asked) -> String {
    let Some(action) = app
        .script
        .steps
        .get(asked.chapter - 1)
        .and_then(|s| s.actions.get(asked.action))
    else {
        return String::new();
    };
    let d = |ms: &u64| format_duration(*ms);
    let words = match action {
        Action::Run { consumer, to: None } => {
            format!("{consumer} runs on, until it is done with its message or blocked")
        }
        Action::Run { to: Some(_), .. } => {
            // The status line's words say it whole, where the run stops
            // included, the step named as the step list names it (`run A
            // to before charge the card`).
            return format!("Next: {}.", action.words());
        }
        Action::Move(mv) => match mv {
            // The step it will take, as its step list names it: `step A`
            // alone named nothing (trial 34, asked before a charge and
            // again before its retry).
            Move::Step { consumer } => {
                let next = app
                    .timeline
                    .frames
                    .get(asked.ask_at)
                    .and_then(|f| f.consumers.iter().find(|c| &c.name == consumer))
                    .map(|c| match c.next {
                        Some(n) => c.steps[n].label.trim_end_matches(KEY_MARK).to_string(),
                        None => "receive".to_string(),
                    });
                // The file's `step A` in brackets after it is a word the
                // screen shows nowhere else (its step line names the step).
                return match next {
                    Some(step) => format!("Next: {consumer} takes one step: {step}."),
                    None => format!("Next: {consumer} takes one step ({}).", action.words()),
                };
            }
            Move::Crash { consumer } => format!("{consumer} crashes"),
            Move::LoseAck { consumer } => format!("{consumer}'s next ack will be lost"),
            Move::LoseResponse { consumer } => {
                format!("the provider's next reply to {consumer} will be lost")
            }
            Move::Slow { consumer, ms } => format!("{consumer}'s next step takes {} longer", d(ms)),
            Move::ExpireLease { message } => format!("the lease on {message} runs out"),
            Move::Wait { ms } => format!("the clock advances {}", d(ms)),
            Move::Publish { message } => format!("the producer publishes {message} again"),
            Move::Produce { message } => format!("the producer publishes {}", message.id),
            Move::Prune { age_ms } => {
                format!("processed IDs older than {} are deleted", d(age_ms))
            }
        },
    };
    format!("Next: {words} ({}).", action.words())
}

fn asking(app: &App, p: &Predict, at: usize, typed: &str, width: u16) -> Vec<Line<'static>> {
    let t = &app.theme;
    let asked = &p.asked[at];
    let mut lines = vec![
        Line::from(Span::styled(
            t.text(&action_words(app, asked)).into_owned(),
            t.info(),
        )),
        Line::from(Span::styled(
            t.text(&asked.question.wording()).into_owned(),
            t.title(),
        )),
    ];
    match &asked.kind {
        Kind::Choice(options) => {
            lines.extend(super::choices::choices(t, options, usize::from(width)));
        }
        Kind::Number { money } => {
            let dollar = if *money { "$" } else { "" };
            lines.push(Line::from(vec![
                Span::raw("  your answer: "),
                Span::styled(format!("{dollar}{typed}_"), t.highlight()),
            ]));
        }
    }
    lines
}

fn score(app: &App, p: &Predict) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut lines = vec![Line::from(score_spans(app, p))];
    // Each wrong answer beside the right one: a lone answer after a cross
    // reads as the learner's own answer judged wrong.
    for (asked, given) in wrong_answers(p) {
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", t.g.failed), t.bad()),
            Span::raw(format!(
                "{}: {}",
                t.text(&asked.question.subject.figure()),
                asked.show(asked.answer)
            )),
            Span::styled(
                format!(
                    ", you said {}  {} chapter {}",
                    asked.show(given.said),
                    t.g.dot,
                    asked.chapter
                ),
                t.dim(),
            ),
        ]));
    }
    lines
}

/// The questions answered wrong, in the order they were asked, each with
/// what the learner said.
fn wrong_answers(p: &Predict) -> impl Iterator<Item = (&Asked, &crate::tui::predict::Given)> {
    p.given
        .iter()
        .filter(|(_, g)| !g.right)
        .map(|(i, g)| (&p.asked[*i], g))
}

/// How the score's flowing list names what each wrong answer was about.
#[derive(Clone, Copy)]
enum Named {
    /// The figure as a reveal names it (`payments total: $40`).
    Whole,
    /// In a word or two, after the chapter (`ch 1 total: $40`): a row too
    /// short for the figures keeps what each question asked about, never
    /// the chapter and the answer alone (`ch 3: no one` said nothing of
    /// what is no one).
    Short,
    /// In a word or two, and no chapter (`total: $40`), the last resort
    /// of 80x24 for a run of six wrong answers.
    ShortNoChapter,
}

/// The score, then every wrong answer in one flowing line, each with
/// what it was about, as `named` says, the right answer and the
/// learner's.
fn score_compact(app: &App, p: &Predict, named: Named) -> Vec<Line<'static>> {
    let t = &app.theme;
    // In short, the same miss in several chapters is one entry with its
    // chapters (`ch 1, 2, 3 provider: …`): broker-view naive at 80x24
    // said the provider's answer three times and folded its total away.
    let mut entries: Vec<(String, String, String, Vec<usize>)> = Vec::new();
    for (asked, given) in wrong_answers(p) {
        let subject = &asked.question.subject;
        let name = match named {
            Named::Whole => subject.figure(),
            Named::Short | Named::ShortNoChapter => subject.short(),
        };
        let entry = (
            t.text(&name).into_owned(),
            asked.show(asked.answer),
            asked.show(given.said),
        );
        match entries.iter_mut().find(|e| {
            !matches!(named, Named::Whole) && (&e.0, &e.1, &e.2) == (&entry.0, &entry.1, &entry.2)
        }) {
            Some(e) => e.3.push(asked.chapter),
            None => entries.push((entry.0, entry.1, entry.2, vec![asked.chapter])),
        }
    }
    let mut spans = Vec::new();
    for (name, answer, said, chapters) in entries {
        spans.push(Span::styled(format!("{} ", t.g.failed), t.bad()));
        let chapters = chapters
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        match named {
            Named::Whole => {
                spans.push(Span::raw(format!("{name}: {answer}")));
                spans.push(Span::styled(
                    format!(" (you said {said}; ch {chapters})   "),
                    t.dim(),
                ));
            }
            Named::Short => {
                spans.push(Span::styled(format!("ch {chapters} "), t.dim()));
                spans.push(Span::raw(format!("{name}: {answer}")));
                spans.push(Span::styled(format!(" (you: {said})  "), t.dim()));
            }
            Named::ShortNoChapter => {
                spans.push(Span::raw(format!("{name}: {answer}")));
                spans.push(Span::styled(format!(" (you: {said})  "), t.dim()));
            }
        }
    }
    vec![Line::from(score_spans(app, p)), Line::from(spans)]
}

/// While stepping: that predict mode is on, and the score so far, at the
/// right end of the bottom line where it has room.
fn tag(app: &App, p: &Predict, bar: Rect, buf: &mut Buffer) {
    if app.overlay != Overlay::None {
        return;
    }
    let t = &app.theme;
    let (right, answered) = p.score();
    let used = (bar.x..bar.right())
        .rev()
        .find(|&x| buf[(x, bar.y)].symbol() != " ")
        .map_or(bar.x, |x| x + 1);
    // Predict mode stays visible while it is on: the long tag where it
    // fits, else a shorter one.
    let texts = [
        format!(
            "predict on {} {right}/{answered} right {} a off ",
            t.g.dot, t.g.dot
        ),
        format!("predict {right}/{answered} "),
    ];
    if let Some(text) = texts
        .iter()
        .find(|text| bar.right() >= used + text.chars().count() as u16 + 2)
    {
        let width = text.chars().count() as u16;
        buf.set_string(bar.right() - width, bar.y, text, t.info());
    }
}

/// The keys that work now, in the bottom line (unless a note is there).
fn keys(app: &App, p: &Predict, at_end: bool, width: usize) -> Line<'static> {
    let t = &app.theme;
    // Ranked: the stage's own keys stay longest, then the way out of
    // predict mode; quit, and the score while stepping (the tag says
    // it), go first.
    let mut keys: Vec<(String, &str, u8)> = match &p.stage {
        Stage::Asking { at, .. } => match &p.asked[*at].kind {
            Kind::Choice(options) => vec![(format!("1-{}", options.len()), "answer", 0)],
            Kind::Number { .. } => vec![("0-9".into(), "type", 0), ("Enter".into(), "answer", 0)],
        },
        Stage::Revealed { .. } => vec![
            ("←".into(), "the steps it took", 3),
            ("→".into(), "go on", 0),
            ("Enter".into(), "close", 1),
        ],
        Stage::Watching => {
            let mut v = vec![("m".into(), "another design", 2)];
            if app.next_in_tour().is_some() {
                v.push(("]".into(), "next tour", 2));
            }
            v.push(("s".into(), "scenarios", 3));
            v
        }
    };
    if matches!(p.stage, Stage::Asking { .. }) {
        // The question covers the step's story; Esc puts it away and the
        // story is back: said so, as that is what a learner wants of Esc.
        keys.push(("Esc".into(), "the step's story", 1));
    } else if !at_end {
        let (right, answered) = p.score();
        // Beside an answer revealed, the score is its news; while
        // stepping, the tag at the right end says it too.
        let rank = if matches!(p.stage, Stage::Revealed { .. }) {
            1
        } else {
            5
        };
        keys.insert(0, (format!("{right}/{answered}"), "right so far", rank));
    }
    keys.push(("a".into(), "leave predict mode", 1));
    keys.push(("q".into(), "quit", 4));
    super::keybar::whole_keys(t, &keys, width, super::keybar::LeftOut::Help)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::{Action, update};

    fn screen(app: &App, w: u16, h: u16) -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        app.render(buf.area, &mut buf);
        buf
    }

    fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
        (r.y..r.bottom())
            .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    /// A question before a one-step move names the handler step that will
    /// run (`A takes one step: charge the card`): trial 34 read `Next: A
    /// takes one step (step A).` before the charge and again before the
    /// retry, with nothing to say which step was asked about.
    #[test]
    fn a_one_step_question_names_the_step_it_asks_about() {
        use crate::scenario::Action as Scripted;
        let (mut wrong, mut seen) = (Vec::new(), 0);
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let mut a = crate::tui::app::tests::app(&script.name, &design);
                update(&mut a, Action::Predict);
                let Some(p) = a.predict.as_ref() else {
                    continue;
                };
                for asked in &p.asked {
                    let scripted = &a.script.steps[asked.chapter - 1].actions[asked.action];
                    let Scripted::Move(Move::Step { consumer }) = scripted else {
                        continue;
                    };
                    let f = &a.timeline.frames[asked.ask_at];
                    let c = f.consumers.iter().find(|c| &c.name == consumer).unwrap();
                    let label = match c.next {
                        Some(n) => c.steps[n].label.trim_end_matches(" (key)"),
                        None => "receive",
                    };
                    seen += 1;
                    let words = action_words(&a, asked);
                    if !words.contains(&format!("one step: {label}")) {
                        wrong.push(format!("{} {design}: {words}", script.name));
                    }
                }
            }
        }
        assert!(seen > 0);
        assert!(wrong.is_empty(), "{} of {seen}: {wrong:#?}", wrong.len());
    }

    /// At the end, the score covers the events panel, and the story over
    /// it is drawn exactly as a story with no events panel beside it (at
    /// the end, the closing words first, the own line in the rows they
    /// leave), what it folds counted on its border. The rest of the
    /// end (the story elsewhere, the verdict) is as without predict mode:
    /// `the_end_keeps_the_storys_closing_words_beside_the_score`.
    #[test]
    fn the_story_over_the_score_is_drawn_as_with_no_events_panel() {
        for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
            for design in ["naive", "idempotent"] {
                let mut a = crate::tui::app::tests::app(name, design);
                update(&mut a, Action::Predict);
                let p = a.predict.as_mut().unwrap();
                for (i, q) in p.asked.iter().enumerate() {
                    let said = q.answer;
                    p.given
                        .insert(i, crate::tui::predict::Given { said, right: false });
                }
                update(&mut a, Action::Last);
                assert!(score_shown(&a), "{name} {design}");
                for (w, h) in [(80, 24), (100, 30), (120, 40), (160, 48)] {
                    update(
                        &mut a,
                        Action::Resize {
                            width: w,
                            height: h,
                        },
                    );
                    let with = screen(&a, w, h);
                    let m = crate::tui::layout::on_screen(&a, with.area);
                    let r = m.rect(Panel::Narration);
                    let mut alone = Buffer::empty(with.area);
                    let f = a.shown_frame();
                    super::super::draw_panel(
                        &a,
                        &f,
                        Panel::Narration,
                        r,
                        false,
                        None,
                        0,
                        &mut alone,
                    );
                    let story = rows(&with, r);
                    // The screen draws the story's no-break spaces as
                    // spaces (`view::plain_spaces`); a panel drawn alone
                    // keeps them.
                    let alone: Vec<String> = rows(&alone, r)
                        .into_iter()
                        .map(|row| row.replace('\u{a0}', " "))
                        .collect();
                    assert_eq!(story, alone, "{name} {design} at {w}x{h}");
                    let kept = a.predict.take();
                    let plain = rows(&screen(&a, w, h), r);
                    a.predict = kept;
                    if story != plain {
                        let border = story.last().unwrap();
                        assert!(
                            border.contains(" more sentence"),
                            "{name} {design} at {w}x{h}: no fold count: {border}"
                        );
                    }
                }
            }
        }
        // (No end now needs to differ: at the end the own line gives its
        // rows to the closing words with or without an events panel,
        // `predict_end_keeps_words`.)
    }

    /// At the end of a predict run that asked no questions there is no
    /// score, so nothing covers the events panel: the story beside it
    /// reads as without predict mode (it once kept the step's own line
    /// whole, as if the score were over the events).
    #[test]
    fn no_score_without_questions_leaves_the_story_as_it_was() {
        let mut checked = 0;
        // Every built-in asks (the provider's call, at least); a file of
        // the user's may ask nothing: predict mode is on with no questions.
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let mut a = crate::tui::app::tests::app(&script.name, &design);
                update(&mut a, Action::Predict);
                a.predict.as_mut().unwrap().asked.clear();
                update(&mut a, Action::Last);
                for (w, h) in [(80, 24), (100, 30), (120, 40), (160, 48)] {
                    update(
                        &mut a,
                        Action::Resize {
                            width: w,
                            height: h,
                        },
                    );
                    let with = screen(&a, w, h);
                    let kept = a.predict.take();
                    let without = screen(&a, w, h);
                    a.predict = kept;
                    let m = crate::tui::layout::on_screen(&a, with.area);
                    let r = m.rect(Panel::Narration);
                    assert_eq!(
                        rows(&with, r),
                        rows(&without, r),
                        "{} {design} at {w}x{h}",
                        script.name
                    );
                    checked += 1;
                }
                assert!(!score_shown(&a), "{} {design}", script.name);
            }
        }
        assert!(checked > 0, "a run with no questions");
    }

    #[test]
    fn the_box_takes_the_story_panel_and_never_covers_the_verdict() {
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let m = crate::tui::layout::main(Rect::new(0, 0, w, h), None);
            let story = m.rect(Panel::Narration);
            let verdict = m.rect(Panel::Verdict);
            for needed in [0, 7, 12, 40] {
                let area = box_area(m.around_box(), needed);
                assert_eq!(area.y, story.y, "{w}x{h} {needed}");
                assert!(area.height >= story.height, "{w}x{h} {needed}");
                assert!(!area.intersects(verdict), "{w}x{h} {needed}: {area:?}");
                for p in [
                    Panel::Broker,
                    Panel::Service,
                    Panel::Database,
                    Panel::Provider,
                ] {
                    assert!(!area.intersects(m.rect(p)), "{w}x{h} {needed}: {p:?}");
                }
            }
        }
    }
}
