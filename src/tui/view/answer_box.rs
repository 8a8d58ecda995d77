//! Where predict mode's box stands over the main screen, and the
//! answer's words that size it at a reveal: the box is drawn from here
//! (`predict::render`), and the layout weighs the rows it leaves the SQL
//! and events (`layout::reveal_split`). Apart from the drawing, which
//! takes the whole layout, so that the layout can ask it.

use crate::scenario::Subject;
use crate::tui::app::App;
use crate::tui::predict::{Predict, Stage};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The main screen's rects the box is placed by: the story it stands on,
/// the verdict it never covers, the key bar (its width), and the SQL
/// panel (the top of the row under the story).
#[derive(Clone, Copy, Debug)]
pub struct Around {
    /// The header: never covered, the story or not on screen.
    pub header: Rect,
    pub story: Rect,
    pub verdict: Rect,
    pub keybar: Rect,
    pub lower: Rect,
}

/// At the end of a predict run that asked questions: its answers are
/// judged, and the score is what the run ends on.
pub(super) fn at_end(app: &App) -> bool {
    app.predict
        .as_ref()
        .is_some_and(|p| app.pos >= app.last_pos() && !p.asked.is_empty())
}

/// The answer's box at a reveal, where `predict::render` draws it: the
/// layout weighs what the SQL and events read in the rows left under it
/// (`layout::reveal_split`). None at any other time.
pub fn reveal_box(app: &App, around: Around) -> Option<Rect> {
    let p = app.predict.as_ref()?;
    let Stage::Revealed { from, to } = p.stage else {
        return None;
    };
    let lines = revealed(app, p, from, to, at_end(app), around);
    let rows = crate::tui::measure::rows(&lines, around.keybar.width.saturating_sub(2), false);
    Some(clear_of_titles(around, box_area(around, rows + 2)))
}

/// In place of the story panel: the question is about what happens next,
/// so it covers the story so far and leaves the evidence in view (the four
/// panels above, the SQL and events of the step shown, the verdict). A box
/// that needs more rows than the story has takes them from the SQL and
/// events below it, never the verdict's, and never goes above the story.
pub(super) fn box_area(around: Around, needed: u16) -> Rect {
    let Around {
        header,
        story,
        verdict,
        keybar,
        ..
    } = around;
    let floor = if verdict.height > 0 {
        verdict.y
    } else {
        keybar.y
    };
    // With no story on screen (`w` enlarged the verdict), the box stands
    // under the header: teacher trial at 80x24, `w` on the end's score
    // drew the score over the header, as `w` does nowhere else.
    let top = if story.height > 0 {
        story.y
    } else {
        header.bottom()
    };
    let bottom = top.saturating_add(needed.max(story.height)).min(floor);
    Rect::new(keybar.x, top, keybar.width, bottom.saturating_sub(top))
}

/// A box that reaches into the SQL and events takes their title row: it
/// stops above them, or leaves them room to be drawn again under it (a
/// title, a line, a border), or covers them whole. A panel is never seen
/// without the title that says which step it is about.
pub(super) fn clear_of_titles(around: Around, area: Rect) -> Rect {
    let lower = around.lower;
    let bottom = area.bottom();
    if lower.height == 0 || bottom <= lower.y || bottom >= lower.bottom() {
        return area;
    }
    if lower.bottom() - bottom >= 3 {
        area
    } else {
        Rect::new(area.x, area.y, area.width, lower.bottom() - area.y)
    }
}

pub(super) fn revealed(
    app: &App,
    p: &Predict,
    from: usize,
    to: usize,
    at_end: bool,
    around: Around,
) -> Vec<Line<'static>> {
    let t = &app.theme;
    let design = app.strategy.name.as_ref();
    let on_postgres = !app.frame().engine.is_sqlite();
    // The box stands where the story is: what the action's steps said
    // comes first, so the answer never hides the step's own words (nor
    // those of a step the action ran through without stopping).
    let said: Vec<Line<'static>> = p.asked.get(from).map_or(Vec::new(), |asked| {
        let frames = &app.timeline.frames;
        let steps = asked.ask_at + 1..=asked.answer_at.min(frames.len() - 1);
        frames[steps]
            .iter()
            .filter_map(|f| f.said.as_deref())
            .map(|said| Line::styled(t.words(said.trim()), t.title()))
            .collect()
    });
    let mut lines = Vec::new();
    for i in from..=to {
        let asked = &p.asked[i];
        let Some(given) = p.given.get(&i) else {
            continue;
        };
        let (mark, word, style) = if given.right {
            (t.g.done, "right", t.good())
        } else {
            (t.g.failed, "wrong", t.bad())
        };
        let was = if matches!(
            asked.question.subject,
            Subject::ChargesAgain | Subject::ProviderAnswer
        ) {
            String::new()
        } else if asked.was == asked.answer {
            " (unchanged)".to_string()
        } else {
            format!(" (was {})", asked.show(asked.was))
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark} {word}"), style),
            Span::raw(format!(
                "  {}: {}{was}",
                t.text(&asked.question.subject.figure()),
                asked.show(asked.answer)
            )),
            Span::styled(
                format!(" {} you said {}. ", t.g.dot, asked.show(given.said)),
                t.dim(),
            ),
            Span::raw(t.text(asked.question.why(design, on_postgres)).into_owned()),
        ]));
    }
    // The box's most rows inside its border: down to the verdict.
    let room = box_area(around, u16::MAX).height.saturating_sub(2);
    let width = around.keybar.width.saturating_sub(2);
    if at_end || p.finished() {
        let mut scored = lines.clone();
        scored.push(Line::from(score_spans(app, p)));
        let folded = super::reveal_fold::fold(t, said.clone(), scored, width, room);
        // The score gives way before the action's words go whole: it is
        // the end's own line once the answers close (80x24, tour-1
        // idempotent's last reveal: its closing words read nowhere).
        if said.is_empty() || folded.len() > lines.len() + 1 {
            return folded;
        }
    }
    super::reveal_fold::fold(t, said, lines, width, room)
}

pub(super) fn score_spans(app: &App, p: &Predict) -> Vec<Span<'static>> {
    let t = &app.theme;
    let (right, answered) = p.score();
    let total = p.asked.len();
    let mut spans = vec![Span::styled(
        format!(
            "{} ({}): {right} of {total} right",
            app.script.name, app.strategy.name
        ),
        t.title(),
    )];
    if answered < total {
        spans.push(Span::styled(
            format!(", {} not answered", total - answered),
            t.dim(),
        ));
    }
    if let Some(best) = app.progress.best_score(&app.script.name) {
        spans.push(Span::styled(
            format!(
                "   {} your best: {} of {} ({})",
                t.g.dot, best.right, best.asked, best.design
            ),
            t.dim(),
        ));
    }
    spans
}
