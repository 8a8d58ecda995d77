//! What happens in this step: the scenario's narration for the chapter, led
//! by the action this frame belongs to, the words the step itself added in
//! bold, and the end of the story in view when it is longer than the panel.

use super::sentences::{sentence_starts, sentences_past_byte};
use super::story_gap;
use super::story_line::{self, StoryLine, rows_needed, run_on, story_lines, story_rows};
use crate::sim::frame::Told;
use crate::sim::{Frame, format_duration};
use crate::tui::app::{App, Panel};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// `events` is the inside of the events panel on the same screen, where
/// there is one: where it shows all of this step's events, the step's own
/// line may give the scenario's words a row. Returns how many of the
/// step's events, the oldest first, the own line drawn tells whole: the
/// events panel's fold names the story for those (`told_whole`).
pub fn render(app: &App, f: &Frame, area: Rect, events: Option<Rect>, buf: &mut Buffer) -> usize {
    let t = &app.theme;
    let last = app.timeline.frames.len() - 1;
    let who = if f.yours { t.warn() } else { t.info() };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!(
                "{} {} {}/{last}",
                t.g.next,
                app.script.origin.step(),
                f.index
            ),
            t.title(),
        ),
        Span::styled(
            format!(" {} t={} {} ", t.g.dot, format_duration(f.time_ms), t.g.dot),
            t.dim(),
        ),
        Span::styled(t.text(&super::step_line::said(f)).into_owned(), who),
    ])];
    // What to press next, long where there is room and short where not.
    // The page names its own keys above the screen: none here.
    let hint: Option<(String, String)> = if f.index == 0 && !t.terminal_keys() {
        None
    } else if f.index == 0 {
        let right = t.text("→").into_owned();
        Some((
            format!("press {right} to take the first step, ? for help"),
            format!("{right} first step, ? help"),
        ))
    } else {
        app.end_hint().map(|h| {
            let short = h
                .replace("end of scenario: ", "end: ")
                .replace("end of the tour: ", "tour done: ");
            (t.text(&h).into_owned(), t.text(&short).into_owned())
        })
    };
    if let Some((long, _)) = &hint {
        lines[0]
            .spans
            .push(Span::styled(format!("   {long}"), t.key()));
    }
    let mut text = Vec::new();
    // What this step's action said is the newest text: set apart in bold,
    // after what the chapter had said before it.
    let (before, said) = (f.opening(), f.said.as_deref());
    // A chapter with no words of its own for this run opens on nothing:
    // the step's line, then what was said or borrowed, with no blank row.
    // Words an earlier step of the chapter said read as earlier: dim,
    // each group under the step it was told at, so that a sentence true
    // then (`the card has not been charged`) is not read as now.
    let told_before = crate::sim::frame::told_before(&app.timeline.frames, f);
    if !before.trim().is_empty() {
        text.extend(story_lines(
            t,
            &f.narration,
            0..before.trim_end().len(),
            &told_before,
        ));
    }
    // On a row of its own, so that a panel scrolled to the end shows it
    // from its first word.
    // Words the step's own line already says (a saved run tells each step
    // in the engine's words) are not said a second time.
    let told_text = super::told::own_events(f);
    let said = said.filter(|s| s.trim() != told_text.trim());
    if let Some(said) = said {
        text.push(StoryLine::plain(Line::styled(t.words(said), t.title())));
    }
    // Words written for another run come last, under their mark.
    let borrowed: Vec<StoryLine> = super::told::borrowed_lines(t, f)
        .into_iter()
        .map(StoryLine::plain)
        .collect();
    text.extend(borrowed.iter().cloned());
    let body_rows = |width: u16| story_rows(&text, width);
    // What this step did comes first and never scrolls away: the story
    // around it may be long, but these words are about the screen shown.
    let told_line = Line::styled(t.text(&told_text).into_owned(), t.info());
    let told_rows = rows_needed(std::slice::from_ref(&told_line), area.width);
    let told = Paragraph::new(told_line.clone()).wrap(Wrap { trim: true });
    let story_total = told_rows + body_rows(area.width);
    let mut header_rows = rows_needed(&lines, area.width).min(area.height);
    // Where the step line on the border ends: the "more" note starts after.
    let mut step_end = area.x;
    let header = Paragraph::new(lines.clone()).wrap(Wrap { trim: true });
    let border = area.bottom();
    // The step line sits on the bottom border wherever there is one, at
    // every step alike: it does not jump between the top row and the
    // border as the story grows, and the words get every row inside.
    let on_border = border < buf.area.bottom() && area.width > 20;
    if on_border {
        // Drawn once the fold note is counted: its digits set the room.
        header_rows = 0;
    } else {
        header.render(
            Rect {
                height: header_rows,
                ..area
            },
            buf,
        );
    }
    // The step's own line first and whole: it is what the screen shows
    // now, the key event among its sentences (the lease ran out, the card
    // charged). The chapter's earlier story and the words the scenario
    // wrote for the step give way to it, counted; it is cut only where it
    // alone is taller than the panel.
    let room = area.height - header_rows;
    // Where the own line would fill every row, the words the scenario
    // wrote for this step (why it matters) would be read only at the next
    // step, under `At step N:` (issue 18, 80x24). The events panel below
    // says the same facts, one event a line, the newest last: the own line
    // keeps whole the sentences of the events that panel does not show
    // whole, is cut and counted after them, and the why takes the rows
    // after it. Where that panel shows every event, that is one row.
    // Where the line does not fit, it is told in fewer words before it is
    // cut: the events the events panel shows whole lose the order and
    // amount that panel gives (teacher trial: tour-4 naive step 7 at 80x24
    // cut `… (order 1042, $40) with no …`, dropping the very key the step
    // is about), and a cut falls at a sentence's end where one fits.
    let whole_events = events.map_or(0, |r| {
        super::newest::shown_whole(t, &super::events::items(t, f), super::newest::EVENTS, r)
    });
    let brief_text = super::told::own_events_brief(f, whole_events);
    // Where the events panel shows every event of the step whole, what a
    // cut leaves out of the own line is read there, and its sign says so.
    // `told_from`: where in the own line the events shown whole begin.
    let told_from = (events.is_some() && whole_events > 0)
        .then(|| {
            let n = f.events.len();
            let kept = crate::sim::event::step_told(&f.events[..n.saturating_sub(whole_events)]);
            brief_text.starts_with(&kept).then(|| kept.trim_end().len())
        })
        .flatten();
    let cut_sign = if told_from == Some(0) {
        rest_in_events(t)
    } else {
        t.g.ellipsis.to_string()
    };
    let lean = if said.is_some() && room >= 2 && told_rows >= room {
        (whole_events > 0)
            .then(|| leaned(t, f, &brief_text, whole_events, area.width, room))
            .flatten()
    } else {
        None
    };
    // At the last step the words the step said are the lesson's
    // conclusion (`So: owed $40, paid $80. Press m …`): trial at 80x24,
    // the own line took one of the story's two rows and the conclusion was
    // folded away. Where the events panel below shows every event of the
    // step whole (the own line's facts, one a line) and the said words do
    // not fit after the own line, the own line gives its rows to them,
    // counted above them: every event is still read whole, in that panel.
    // With no events panel under the story (predict mode's score covers
    // it at the end), the own line's facts are read in no panel either
    // way, and the conclusion is the lesson: it keeps its rows as it does
    // beside the events (trial, tour-1 naive at 80x24: the own line took
    // both rows over the score and `So: owed $40, paid $80.` was folded).
    let at_end = f.index == last;
    let ending = at_end.then(|| ending(t, app, f, said)).flatten();
    let own_gives_way = at_end
        && !f.events.is_empty()
        && (events.is_none() || whole_events >= f.events.len())
        && ending
            .as_ref()
            .is_some_and(|(_, lines)| told_rows + story_rows(&lines(0), area.width) > room);
    // The rows the closing words leave are the own line's again: its
    // first whole sentences, what the step did, read first (trial:
    // ordering versioned at its end, 80x24, read a blank row under `The
    // order stays SHIPPED.` while the own line was folded).
    let own_fit = own_gives_way
        .then(|| {
            let (text, lines) = ending.as_ref()?;
            let (closing, skipped) = closing_words(text, room, area.width, lines)?;
            // The rows left go to the step's said words first
            // (`own_words_first`): the events panel shows every event whole.
            if said.is_some() && skipped > 0 {
                return None;
            }
            let spare = room.checked_sub(story_rows(&closing, area.width))?;
            (spare > 0)
                .then(|| fit_sentences(t, &brief_text, (spare, area.width), &cut_sign))
                .flatten()
        })
        .flatten();
    let own_above = match &own_fit {
        Some((_, _, cut)) => sentences_past_byte(&brief_text, *cut),
        None if own_gives_way => sentence_starts(told_text.trim()).len(),
        None => 0,
    };
    // Nothing but earlier words after the own line: where the line is cut,
    // those give way first, and the rows a cut at a sentence's end leaves
    // would be blank (trial: ordering versioned step 19 at 80x24 read one
    // sentence of the own line over a blank row).
    let nothing_after = text
        .iter()
        .all(|l| l.earlier() || l.text().trim().is_empty());
    // What gives way is counted in sentences, as a reader counts them.
    // `shown_to`: how much of the own line (bytes of it) is read whole.
    let (told, told_shown, told_hidden, shown_to) = if let Some((line, rows, cut)) = own_fit {
        (Paragraph::new(line).wrap(Wrap { trim: true }), rows, 0, cut)
    } else if own_gives_way {
        (told, 0, 0, 0)
    } else if let Some((line, rows, cut)) = lean {
        (
            Paragraph::new(line).wrap(Wrap { trim: true }),
            rows,
            sentences_past_byte(&brief_text, cut),
            // Bytes of the brief line: its older events, the ones the events
            // panel folds, keep their whole form and so their offsets.
            cut,
        )
    } else if told_rows > room {
        // Cut past the events shown whole, the rest is read there.
        let in_events = told_from
            .and_then(|from| {
                fit_rows(t, &brief_text, (room, area.width), &rest_in_events(t))
                    .filter(|fit| fit.2 >= from)
            })
            .map(|_| rest_in_events(t));
        let cut_sign = in_events.unwrap_or_else(|| cut_sign.clone());
        let fit = fit_rows(t, &brief_text, (room, area.width), &cut_sign).map(|fit| {
            let fills = |(_, rows, _): &(Line<'static>, u16, usize)| *rows == room;
            if nothing_after && !fills(&fit) {
                shortened(t, &brief_text, (room, area.width), &cut_sign)
                    .filter(|cut| cut.2 > fit.2)
                    .unwrap_or(fit)
            } else {
                fit
            }
        });
        match fit {
            Some((line, rows, cut)) => (
                Paragraph::new(line).wrap(Wrap { trim: true }),
                rows,
                sentences_past_byte(&brief_text, cut),
                // Bytes of the brief line: its older events, the ones the events
                // panel folds, keep their whole form and so their offsets.
                cut,
            ),
            None => {
                let own = [StoryLine::plain(told_line.clone())];
                let left_out = sentences_past(&own, area.width, room);
                (told, room, left_out, 0)
            }
        }
    } else {
        (told, told_rows, 0, told_text.len())
    };
    let whole = if told_shown == 0 {
        0
    } else {
        told_whole(f, shown_to)
    };
    told.render(
        Rect {
            y: area.y + header_rows,
            height: told_shown,
            ..area
        },
        buf,
    );
    let body_area = Rect {
        y: area.y + header_rows + told_shown,
        height: room - told_shown,
        ..area
    };
    let mut above = own_above;
    // Sentences cut in the middle of the story, under an ellipsis
    // (`story_gap`): hidden after it.
    let mut gap_below = 0;
    // When the story is longer than the panel, its end is what this step
    // just told: show it from its first word, and above it as many of the
    // chapter's last whole sentences as fit, counting the rows left out.
    // It never opens on a row in mid-sentence; a said text longer still is
    // counted below. A step with no words of its own leads the same way
    // with the chapter's newest words (the action it belongs to, told at
    // an earlier step), in plain type: the chapter's opening never takes
    // their place.
    let total = body_rows(body_area.width);
    let newest = match said {
        Some(said) => Some((
            StoryLine::plain(Line::styled(t.words(said), t.title())),
            before,
        )),
        None => newest_from(app, f).map(|(at, _)| {
            let (opening, newest) = f.narration.split_at(at);
            (StoryLine::plain(Line::raw(t.words(newest.trim()))), opening)
        }),
    };
    // At the last step, words that do not fit end on their closing
    // sentences, the earlier ones counted above them: the conclusion is
    // the end of the lesson, not the first of its words. Where they fit
    // whole, the chapter's earlier words fill the rows above them as at
    // any step.
    // The words the step said lead with what it did (`The ack reaches
    // the broker, …`): where the closing words leave rows, that first
    // sentence takes them, whole or cut at a word under an ellipsis, the
    // sentences between counted (trial: tour-4 naive at 80x24, the
    // conclusion filled the story and the step's own words were gone).
    let closing = ending
        .filter(|(_, lines)| story_rows(&lines(0), body_area.width) > body_area.height)
        .and_then(|(text, lines)| {
            let (shown, skipped) = closing_words(&text, body_area.height, body_area.width, &lines)?;
            let lead = said
                .filter(|_| skipped > 0)
                .and_then(|_| own_words_first(t, &text, &shown, body_area));
            Some(match lead {
                Some((mut first, hidden)) => {
                    first.extend(shown);
                    (first, skipped - 1 + hidden)
                }
                None => (shown, skipped),
            })
        });
    let body = match newest {
        Some((_, before)) if closing.is_some() => {
            let (mut shown, skipped) = closing.expect("closing words");
            let opening = before.trim();
            let opening_sentences = if opening.is_empty() {
                0
            } else {
                sentence_starts(opening).len()
            };
            above += opening_sentences + skipped;
            shown.extend(borrowed.iter().cloned());
            shown
        }
        Some((newest_line, before)) if total > body_area.height => {
            let opening = before.trim_end();
            // The newest words, when an earlier step said them, are dim
            // too, and marked as well: on a row of their own they start a
            // paragraph, and with no colour (NO_COLOR, a projector) dim is
            // not seen, so a mark on the tail above alone read them as new.
            let newest_lines = match (said, newest_from(app, f)) {
                (None, Some((at, step))) => {
                    let end = f.narration.trim_end().len();
                    let told = [Told {
                        step,
                        range: at..end,
                    }];
                    story_lines(t, &f.narration, at..end, &told)
                }
                _ => vec![newest_line.clone()],
            };
            let newest_rows = story_rows(&newest_lines, body_area.width);
            let spare = body_area.height.saturating_sub(newest_rows);
            // A tail starts at a sentence, or where a step's words begin
            // (a paragraph of their own, after their mark).
            let mut starts = sentence_starts(opening);
            starts.extend(
                told_before
                    .iter()
                    .map(|g| g.range.start)
                    .filter(|&at| at > 0 && at < opening.len()),
            );
            starts.sort_unstable();
            starts.dedup();
            let tail = starts
                .iter()
                .enumerate()
                .map(|(i, &at)| {
                    let tail = story_lines(t, &f.narration, at..opening.len(), &told_before);
                    (i, run_on(tail, &newest_lines))
                })
                // A step's own line cut leaves no room for earlier words:
                // they give way first.
                .find(|(_, l)| {
                    told_hidden == 0
                        && spare > 0
                        && story_rows(l, body_area.width) <= body_area.height
                });
            // Counted in sentences, as a reader counts them: the tail
            // starts at a sentence, so the ones before it are left out.
            let opening_sentences = if opening.trim().is_empty() {
                0
            } else {
                starts.len()
            };
            let (mut shown, mut left_out) = match tail {
                Some((i, l)) => (l, i),
                None => (newest_lines.clone(), opening_sentences),
            };
            shown.extend(borrowed.iter().cloned());
            // Rows the whole sentences leave blank hold the start of the
            // newest one left out, cut under an ellipsis, counted below it.
            if told_hidden == 0
                && left_out > 0
                && story_rows(&shown, body_area.width) < body_area.height
            {
                let opening = story_gap::Opening {
                    narration: &f.narration,
                    starts: &starts,
                    end: opening.len(),
                    told: &told_before,
                };
                if let Some(lines) = story_gap::cut_sentence(
                    t,
                    &opening,
                    left_out - 1,
                    &newest_lines,
                    &borrowed,
                    body_area.width,
                    body_area.height,
                ) {
                    shown = lines;
                    left_out -= 1;
                    gap_below += 1;
                }
            }
            above += left_out;
            shown
        }
        _ => text,
    };
    // The step's own line cut: the earlier words give way first, counted,
    // and the words new at this step keep their rows.
    let body: Vec<StoryLine> = if told_hidden > 0 {
        for line in body.iter().filter(|l| l.earlier()) {
            above += line.earlier_sentences();
        }
        body.into_iter().filter(|l| !l.earlier()).collect()
    } else {
        body
    };
    let mut below = sentences_past(&body, body_area.width, body_area.height);
    // A story longer than its rows ends on a whole sentence or on an
    // ellipsis, never a word cut off silently; a sentence cut counts.
    let body = if below > 0 {
        let (cut, hidden) = cut_to_rows(t, &body, body_area.width, body_area.height);
        below = hidden;
        cut
    } else {
        body
    };
    below += gap_below;
    // Earlier words are above only the words shown after them: where
    // none of the story after the step's line is shown, all of it is
    // below that line.
    let blank = |l: &StoryLine| l.line.spans.iter().all(|s| s.content.trim().is_empty());
    if body_area.height == 0 || body.iter().all(blank) {
        below += above;
        above = 0;
    }
    if body_area.height > 0 {
        Paragraph::new(story_line::lines(&body))
            .wrap(Wrap { trim: true })
            .render(body_area, buf);
    }
    let hidden = above + told_hidden + below;
    if on_border {
        // The border also carries the "more" note on its right: room for
        // its count both ways, in as many digits as each count has, and
        // the key to read the rest, before the action the step is part of
        // (teacher trial 25: `↑ 3 ↓ 1 more sentences` lost its `· z` to
        // `part of: run A to before…`).
        let note = if story_total > area.height {
            note_room(
                t,
                app.focus == Panel::Narration,
                area,
                above,
                told_hidden + below,
            )
        } else {
            0
        };
        let room = usize::from(area.width)
            .saturating_sub(2 + note)
            .max(area.width as usize / 2);
        let first = lines.swap_remove(0);
        let step_line = super::step_line::fitted(t, f, first, hint.as_ref(), room);
        let w = (step_line.width() as u16).min(area.width.saturating_sub(2));
        step_end = area.x + 1 + w;
        let at = Rect::new(area.x + 1, border, w, 1);
        Paragraph::new(step_line).render(at, buf);
    }
    if hidden > 0 {
        // The arrow points where the hidden sentences are: up for the
        // earlier words left out above what is shown, down for words cut
        // after an ellipsis; both counted apart where both are hidden
        // (teacher trial at 80x24: `↓ 8` where seven were above).
        let more = super::story_fold::count(t, above, told_hidden + below);
        // The page tells the whole narration beside the screen: the count
        // alone, with no key to read it by.
        // On the panel's bottom border, where it covers no text nor the
        // step line: the keys in their long words, then their short ones,
        // and the count alone only where neither fits beside it.
        let fits = |h: &String| area.right() >= step_end + h.chars().count() as u16 + 2;
        let hint = note_keys(t, app.focus == Panel::Narration, area)
            .into_iter()
            .map(|keys| format!(" {more} {keys}"))
            .find(fits)
            .unwrap_or_else(|| format!(" {more} "));
        let w = hint.chars().count() as u16;
        let border = area.bottom();
        if w + 4 <= area.width && border < buf.area.bottom() {
            buf.set_string(
                area.right() - w - 1,
                border,
                hint,
                t.key().patch(t.highlight()),
            );
        }
    }
    whole
}

/// The lines a story's ending is drawn in, from a byte of its words on.
type EndLines<'a> = Box<dyn Fn(usize) -> Vec<StoryLine> + 'a>;

/// The words a run ends on at its last step, and how the story draws
/// them from a byte of them on: what the step said, in bold; or where it
/// said nothing, the chapter's newest words, under the mark of the step
/// that told them (`newest_from`).
fn ending<'a>(
    t: &'a Theme,
    app: &App,
    f: &'a Frame,
    said: Option<&'a str>,
) -> Option<(String, EndLines<'a>)> {
    if let Some(said) = said {
        let said = said.trim();
        let lines = move |from: usize| {
            vec![StoryLine::plain(Line::styled(
                t.words(&said[from..]),
                t.title(),
            ))]
        };
        return Some((said.to_string(), Box::new(lines)));
    }
    let (at, step) = newest_from(app, f)?;
    let end = f.narration.trim_end().len();
    let words = f.narration.get(at..end)?;
    let lead = at + (words.len() - words.trim_start().len());
    let told = [Told {
        step,
        range: at..end,
    }];
    let lines = move |from: usize| story_lines(t, &f.narration, lead + from..end, &told);
    Some((f.narration[lead..end].to_string(), Box::new(lines)))
}

/// The closing sentences of `text` that `rows` rows at `width` hold, drawn
/// by `lines` (from a byte of `text` on), and how many sentences before
/// them it leaves out; `None` where not even the last sentence fits.
fn closing_words(
    text: &str,
    rows: u16,
    width: u16,
    lines: &EndLines<'_>,
) -> Option<(Vec<StoryLine>, usize)> {
    sentence_starts(text)
        .into_iter()
        .enumerate()
        .map(|(i, at)| (lines(at), i))
        .find(|(shown, _)| story_rows(shown, width) <= rows)
}

/// The first sentence of `said` (what the step did) in the rows of `area`
/// that the closing words `closing` leave: whole, or cut at a word under
/// an ellipsis; with how many sentences that cut leaves out. `None` where
/// no row is left, or not a word fits.
fn own_words_first(
    t: &Theme,
    said: &str,
    closing: &[StoryLine],
    area: Rect,
) -> Option<(Vec<StoryLine>, usize)> {
    let spare = area
        .height
        .checked_sub(story_rows(closing, area.width))
        .filter(|&n| n > 0)?;
    let end = sentence_starts(said)
        .get(1)
        .map_or(said.len(), |&at| said[..at].trim_end().len());
    let line = |text: String| [StoryLine::plain(Line::styled(t.words(&text), t.title()))];
    let first = line(said[..end].to_string());
    if story_rows(&first, area.width) <= spare {
        return Some((first.to_vec(), 0));
    }
    // Too long for its rows: cut where a clause ends, as a story's gap is
    // (`story_gap`), the rest of the sentence counted as hidden.
    let sentence = &said[..end];
    sentence
        .match_indices(' ')
        .map(|(at, _)| at)
        .filter(|&at| super::story_gap::keeps_a_clause(sentence, at))
        .rev()
        .map(|at| line(format!("{} {}", sentence[..at].trim_end(), t.g.ellipsis)))
        .find(|cut| story_rows(cut, area.width) <= spare)
        .map(|cut| (cut.to_vec(), 1))
}

/// How many of `f`'s events, the oldest first, the own line tells whole
/// when it is shown up to byte `shown_to` of its text: the line is their
/// sentences in order, so an event is whole where its last sentence ends
/// before the cut.
fn told_whole(f: &Frame, shown_to: usize) -> usize {
    (1..=f.events.len())
        .take_while(|&k| {
            crate::sim::event::step_told(&f.events[..k])
                .trim_end()
                .len()
                <= shown_to
        })
        .count()
}

/// Where the chapter's newest words begin in `f`'s story, for a step
/// that said nothing itself: the last step of its chapter that did, while
/// its words are still the end of the story (a step that only moves the
/// handler on, such as taking the provider's answer). With the step
/// that told them.
fn newest_from(app: &App, f: &Frame) -> Option<(usize, usize)> {
    let earlier = app.timeline.frames.get(..f.index)?;
    earlier
        .iter()
        .rev()
        .take_while(|g| g.chapter == f.chapter)
        .find_map(|g| g.said.as_deref().map(|said| (g.said_from, said, g.index)))
        .filter(|(at, said, _)| {
            *at > 0
                && f.narration
                    .get(*at..)
                    .is_some_and(|rest| rest.trim() == said.trim())
        })
        .map(|(at, _, step)| (at, step))
}

/// The step's generated line cut to as many of its first words as `rows`
/// rows at `width` hold, ending in an ellipsis: the line fills the panel
/// it alone overflows, so that its key event, often in a later sentence
/// (the charge after the call), is read as far as it can be. The line, its
/// rows and where in `told` it was cut, or `None` when not even a word
/// fits.
fn shortened(
    t: &Theme,
    told: &str,
    (rows, width): (u16, u16),
    sign: &str,
) -> Option<(Line<'static>, u16, usize)> {
    let cut = |at: usize| {
        let line = Line::styled(
            format!("{} {sign}", t.text(told[..at].trim_end())),
            t.info(),
        );
        let n = rows_needed(std::slice::from_ref(&line), width);
        (line, n, at)
    };
    let words: Vec<usize> = told
        .match_indices(' ')
        .map(|(at, _)| at)
        .filter(|&at| at > 0)
        .collect();
    words
        .into_iter()
        .rev()
        .map(cut)
        .find(|(_, n, _)| *n <= rows)
}

/// The step's generated line `told` in `rows` rows at `width`: whole
/// where it fits, else ending on its last whole sentence that fits (a row
/// ending `…key. The …` or `… with no …` left words that say nothing, and
/// dropped the ones that did), else cut at a word as `shortened` cuts it.
/// The line, its rows and where in `told` it ends.
fn fit_rows(
    t: &Theme,
    told: &str,
    (rows, width): (u16, u16),
    sign: &str,
) -> Option<(Line<'static>, u16, usize)> {
    fit_sentences(t, told, (rows, width), sign).or_else(|| shortened(t, told, (rows, width), sign))
}

/// The sign after an own line cut where the events panel below shows
/// every event of the step whole: the cut words are read there, and a
/// bare `…` after a whole sentence (`A acks m-7f3. …`) read as words
/// trailing off (trial 34), not as words told in the next panel.
/// Held together by no-break spaces: wrapped apart, `… rest` ended a row
/// and `in Events` began the next.
fn rest_in_events(t: &Theme) -> String {
    format!("{} rest in Events", t.g.ellipsis).replace(' ', &super::story_line::NBSP.to_string())
}

/// `fit_rows` with no cut at a word: whole, or its first whole sentences.
fn fit_sentences(
    t: &Theme,
    told: &str,
    (rows, width): (u16, u16),
    sign: &str,
) -> Option<(Line<'static>, u16, usize)> {
    let whole = Line::styled(t.text(told).into_owned(), t.info());
    let n = rows_needed(std::slice::from_ref(&whole), width);
    if n <= rows {
        return Some((whole, n, told.len()));
    }
    sentence_starts(told)
        .into_iter()
        .filter(|&at| at > 0)
        .rev()
        .map(|at| {
            let at = told[..at].trim_end().len();
            let line = Line::styled(format!("{} {sign}", t.text(&told[..at])), t.info());
            let n = rows_needed(std::slice::from_ref(&line), width);
            (line, n, at)
        })
        .find(|(_, n, _)| *n <= rows)
}

/// `lines` cut to what `rows` rows at `width` hold, the last row ending a
/// sentence or, cut in mid-sentence, with an ellipsis; and how many
/// sentences the cut leaves out, the one it cuts among them.
fn cut_to_rows(t: &Theme, lines: &[StoryLine], width: u16, rows: u16) -> (Vec<StoryLine>, usize) {
    let sentences = |l: &StoryLine| {
        if l.text().trim().is_empty() {
            0
        } else {
            l.sentence_starts().len()
        }
    };
    let Some(over) = (0..lines.len()).find(|&i| story_rows(&lines[..=i], width) > rows) else {
        return (lines.to_vec(), 0);
    };
    let later: usize = lines[over + 1..].iter().map(sentences).sum();
    let story = &lines[over];
    let line = &story.line;
    let text = story.text();
    let ends_sentence = |s: &str| {
        s.trim_end()
            .trim_end_matches([')', '"', '\''])
            .ends_with(['.', '?', '!'])
    };
    // The longest start of the line, at a word's end, that fits.
    let mut cuts: Vec<usize> = text.match_indices(' ').map(|(at, _)| at).collect();
    cuts.retain(|&at| !text[..at].trim().is_empty());
    // Never in a mark nor just after it: a mark names the words after it.
    let marks = story.mark_ranges();
    cuts.retain(|&at| !marks.iter().any(|m| m.start <= at && at < m.end));
    let keep_to = |at: usize| {
        let mut spans = Vec::new();
        let mut from = 0;
        for span in &line.spans {
            let end = from + span.content.len();
            if from < at {
                let keep = &span.content[..at.min(end) - from];
                spans.push(Span::styled(keep.to_string(), span.style));
            }
            from = end;
        }
        // A mark is kept whole or not at all (no cut falls in one).
        let marks = story
            .marks
            .iter()
            .copied()
            .filter(|&i| i < spans.len())
            .collect();
        if !ends_sentence(&text[..at]) {
            let style = line.spans.last().map(|s| s.style).unwrap_or_default();
            spans.push(Span::styled(format!(" {}", t.g.ellipsis), style));
        }
        let mut kept = lines[..over].to_vec();
        kept.push(StoryLine {
            line: Line::from(spans).style(line.style),
            marks,
        });
        kept
    };
    let cuts: Vec<(usize, u16)> = cuts
        .into_iter()
        .rev()
        .map(|at| (at, story_rows(&keep_to(at), width)))
        .filter(|&(_, n)| n <= rows)
        .collect();
    // The longest start that fits, or on the same rows the longest that
    // ends a sentence, where that leaves out no more than a third of a
    // row: a row ending `…order. No …` kept a word that says nothing.
    let best = cuts.first().map(|&(at, n)| {
        cuts.iter()
            .take_while(|&&(_, m)| m == n)
            .find(|&&(end, _)| ends_sentence(&text[..end]))
            .filter(|&&(end, _)| text[end..at].chars().count() <= usize::from(width / 3))
            .map_or(at, |&(end, _)| end)
    });
    if let Some(at) = best {
        let cut = sentences_past_byte(
            text.trim_start(),
            at - (text.len() - text.trim_start().len()),
        );
        return (keep_to(at), later + cut);
    }
    // Not one word of this line fits: it is left out whole, and the
    // lines above end where they end.
    (lines[..over].to_vec(), later + sentences(story))
}

/// The step's own line `told` cut above the scenario's words, in fewer
/// than `room` rows at `width`: it keeps whole the sentences of the
/// events the events panel does not show whole (all but the `whole`
/// newest, `newest::shown_whole`), then as many more whole sentences as
/// its rows hold; where that panel shows every event, one row (or the rows
/// its first sentence needs, `fit_rows`). Every event is then read whole on screen, in one panel or
/// the other. `told` is the line's brief form (`told::own_events_brief`).
/// The line, its rows and where in `told` it was cut; `None` where the
/// sentences kept fill the room.
fn leaned(
    t: &Theme,
    f: &Frame,
    told: &str,
    whole: usize,
    width: u16,
    room: u16,
) -> Option<(Line<'static>, u16, usize)> {
    let n = f.events.len();
    if whole >= n {
        // One row, or as many as its first sentence needs while a row is
        // left for the why: a first sentence cut ended `… so it waits for
        // A to commit or roll …`.
        let first = sentence_starts(told)
            .get(1)
            .map_or(told.len(), |&at| told[..at].trim_end().len());
        let line = Line::raw(format!("{} {}", &told[..first], rest_in_events(t)));
        let rows = rows_needed(std::slice::from_ref(&line), width).clamp(1, room - 1);
        return fit_rows(t, told, (rows, width), &rest_in_events(t));
    }
    let kept = crate::sim::event::step_told(&f.events[..n - whole]);
    if !told.starts_with(&kept) {
        return None;
    }
    let line_to = |at: usize| {
        Line::styled(
            format!("{} {}", t.text(told[..at].trim_end()), rest_in_events(t)),
            t.info(),
        )
    };
    let rows_to = |at: usize| rows_needed(std::slice::from_ref(&line_to(at)), width);
    let must = kept.trim_end().len();
    let rows = rows_to(must);
    if rows >= room {
        return None;
    }
    // The rows those sentences take hold a few more whole ones.
    let at = sentence_starts(told)
        .into_iter()
        .map(|at| told[..at].trim_end().len())
        .filter(|&at| at > must && rows_to(at) <= rows)
        .max()
        .unwrap_or(must);
    Some((line_to(at), rows, at))
}

/// A narrow panel says "more" in few words, to leave the border room
/// for the step and what to press next.
fn compact_note(area: Rect) -> bool {
    area.width < 100
}

/// The keys that read the hidden sentences, longest words first: `z`
/// enlarges the story once it is the selected panel. The page tells the
/// whole narration beside the screen: no key there.
fn note_keys(t: &Theme, focused: bool, area: Rect) -> Vec<String> {
    let dot = t.g.dot;
    // The page has no `z`: its count says where the rest is told (a
    // teacher trial read `↑ 4 more sentences` on a page with nothing to
    // open them), or stands alone where that has no room.
    if !t.terminal_keys() {
        return vec![
            format!("{dot} in the page's text "),
            format!("{dot} see text "),
        ];
    }
    let short = if focused {
        format!("{dot} z ")
    } else {
        format!("{dot} click, z ")
    };
    let long = if focused {
        format!("{dot} z: read all ")
    } else {
        format!("{dot} click, then z ")
    };
    if compact_note(area) {
        vec![short]
    } else {
        vec![long, short]
    }
}

/// The columns the step line leaves for the note: a count both ways
/// (`↑ 3 ↓ 1 more sentences`) with the keys' short words, the border's
/// corner beside it; on a wide panel, the long words' usual room too.
/// Each way is reserved in the digits of its real count (`above`,
/// `below`), one at least: the step line keeps the same room at every
/// step of one-digit counts, and a count of ten or more keeps its key.
fn note_room(t: &Theme, focused: bool, area: Rect, above: usize, below: usize) -> usize {
    let keys = note_keys(t, focused, area);
    let short = keys.last().map_or(0, |k| k.chars().count());
    // The widest count of as many digits: nines.
    let nines = |n: usize| 10usize.pow(n.max(1).ilog10() + 1) - 1;
    let count = super::story_fold::count(t, nines(above), nines(below))
        .chars()
        .count();
    // As the note is drawn: a space each side of the count and one dash
    // before it (`room` above leaves out both corners already).
    let room = 3 + count + short;
    if compact_note(area) {
        room
    } else {
        room.max(36)
    }
}

/// How many sentences of `lines` (wrapped, trimmed, at `width`) end below
/// the first `rows` rows: the ones a reader does not see the end of.
fn sentences_past(lines: &[StoryLine], width: u16, rows: u16) -> usize {
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        let text = line.text();
        if text.trim().is_empty() {
            continue;
        }
        let starts = line.sentence_starts();
        let ends = starts.iter().skip(1).copied().chain([text.len()]);
        // A greedy wrap lays out a line's start as it lays out the whole.
        for end in ends {
            let mut upto = story_line::lines(&lines[..i]);
            upto.push(Line::raw(text[..end].trim_end().to_string()));
            if rows_needed(&upto, width) > rows {
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns the step line leaves hold the note as it is drawn,
    /// key and all, whatever the digits of its counts: `↑ 12 ↓ 3 more
    /// sentences · z` needs a column more than `↑ 9 ↓ 3`.
    #[test]
    fn the_note_room_holds_two_digit_counts_with_their_key() {
        let t = Theme::new(false, false);
        for width in [40, 78, 98, 118] {
            let area = Rect::new(0, 0, width, 6);
            for focused in [true, false] {
                for (above, below) in [(12, 3), (3, 10), (10, 10), (0, 11), (123, 0)] {
                    let more = super::super::story_fold::count(&t, above, below);
                    let keys = note_keys(&t, focused, area);
                    let short = keys.last().expect("a short form of the keys");
                    // ` {more} {keys}` and the dash before it.
                    let drawn = format!(" {more} {short}").chars().count() + 1;
                    let room = note_room(&t, focused, area, above, below);
                    assert!(
                        room >= drawn,
                        "width {width}, {above}/{below}: {room} columns left for {drawn}"
                    );
                }
            }
        }
    }
}
