//! The story panel's step line, on its bottom border: the step, its time
//! and what the step did, in as many of those as the columns left beside
//! the fold note hold, with the hint of what to press next where it fits.

use super::ran;
use crate::sim::{Frame, format_duration};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The step line `first` (step, time, what was done; built by the story
/// panel) in at most `room` columns, a space each side, with `hint`'s long
/// or short words where they fit.
pub(super) fn fitted(
    t: &Theme,
    f: &Frame,
    first: Line<'static>,
    hint: Option<&(String, String)>,
    room: usize,
) -> Line<'static> {
    let mut full = first.spans;
    full.truncate(3);
    // The step line from longest to shortest: step, time, the handler
    // step that ran and the action it is part of; without the time;
    // without that action; the step that ran alone; the step number
    // and time; the step number alone.
    let mut untimed = full.clone();
    if let Some(time) = untimed.get_mut(1) {
        *time = Span::styled(format!(" {} ", t.g.dot), t.dim());
    }
    // A consumer that found nothing ran no step: its short form is that
    // fact (`B has nothing to receive`), which the action's name alone
    // would leave out.
    let ran_alone = |mut spans: Vec<Span<'static>>| {
        let short = match ran::step_ran(f) {
            Some((who, name)) => Some(format!("{name} ({who})")),
            None => f.nothing_told(),
        };
        if let (Some(short), Some(action)) = (short, spans.get_mut(2)) {
            action.content = t.text(&short).into_owned().into();
        }
        spans
    };
    let timed_ran = ran_alone(full.clone());
    let ran_only = ran_alone(untimed.clone());
    let step_only = full[..1].to_vec();
    let timed_step = vec![
        full[0].clone(),
        Span::styled(
            format!(" {} t={}", t.g.dot, format_duration(f.time_ms)),
            t.dim(),
        ),
    ];
    let with = |base: &[Span<'static>], extra: Option<&String>| {
        let mut spans = vec![Span::raw(" ")];
        spans.extend(base.iter().cloned());
        if let Some(extra) = extra {
            spans.push(Span::styled(format!("  {extra}"), t.key()));
        }
        spans.push(Span::raw(" "));
        Line::from(spans)
    };
    let fits = |l: &Line| l.width() <= room;
    // The shortest hint names the first way on alone (`end: ] next
    // tour`): tried before the step's name gives way, which says what
    // the screen shows (teacher trial 29: `t=55s  end of scenario: ]
    // next tour / s scenarios` at 100x30, tour-3's last step unnamed).
    let first_way = hint
        .map(|(_, short)| short.split(" / ").next().unwrap_or(short).to_string())
        .filter(|first| hint.is_some_and(|(_, short)| first != short));
    // At a run's end, the first way on without its `end: ` label, for the
    // line that names the step that ran instead of the time.
    let at_end = f.index > 0 && hint.is_some();
    let bare_way = first_way
        .as_ref()
        .and_then(|w| w.split_once(": ").map(|(_, way)| way.to_string()))
        .filter(|_| at_end);
    let hints: Vec<&String> = [
        hint.as_ref().map(|(long, _)| long),
        hint.as_ref().map(|(_, short)| short),
        first_way.as_ref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    // A line with the time and the long hint, then with the short one,
    // before any line without the time: the hint's short words say the
    // same, the time is said nowhere else in the panel.
    let timed: [&Vec<Span<'static>>; 2] = [&full, &timed_ran];
    // Then the step and time alone with a hint, before the step that
    // ran without the time: the time is on the step line at every
    // step of a run alike (teacher trial 13), the end's hint names
    // keys the key bar may not.
    let timed_alone: [&Vec<Span<'static>>; 1] = [&timed_step];
    let shorter: [&Vec<Span<'static>>; 2] = [&ran_only, &step_only];
    // At a run's last step the step that ran, with the way on in its
    // fewest words, comes before the time: there the story gives its rows
    // to the closing words, and a line of `t=44s  end: ] next tour` left
    // only the events panel to say A acked (trials 40, 41, 80x24; the
    // end's time may go, tests/hints_steady.rs).
    let ran_at_end = bare_way
        .as_ref()
        .map(|way| with(&ran_only, Some(way)))
        .filter(fits);
    // The first line that fits of `bases` with each hint in turn, the
    // long hint beside every base before the short one: a line keeps the
    // time as long as some hint fits beside it.
    let first_fit = |bases: &[&Vec<Span<'static>>]| {
        hints
            .iter()
            .flat_map(|h| bases.iter().map(move |b| with(b, Some(h))))
            .find(fits)
    };
    first_fit(&timed)
        .or(ran_at_end)
        .or_else(|| first_fit(&timed_alone))
        .or_else(|| first_fit(&shorter))
        .or_else(|| {
            // No room for the hint (the key bar still lists the keys).
            // The time stays at every step of the run alike (teacher
            // trial 13: it went missing at the steps whose action was
            // long, and read as a clock that stopped): the action the
            // step is part of is cut first, signed, while enough of
            // it is left to say where in the script the class is;
            // then it goes; then the time, before nothing.
            // Never a cut that keeps the action and drops the fact
            // that it ran nothing (`run B to before commit: B…`).
            let cut = said_cut(t, &full, room).filter(|_| !f.found_nothing);
            let ran_cut = said_cut(t, &timed_ran, room);
            [
                Some(&full),
                cut.as_ref(),
                Some(&timed_ran),
                ran_cut.as_ref(),
                // The step and its time, before the step's name
                // without it: the time holds at every step of a run.
                Some(&timed_step),
                Some(&untimed),
                Some(&ran_only),
            ]
            .into_iter()
            .flatten()
            .map(|b| with(b, None))
            .find(fits)
        })
        .unwrap_or_else(|| {
            // The step that ran, cut with an ellipsis.
            let mut line = with(&ran_only, None);
            let over = line.width().saturating_sub(room);
            if over > 0
                && let Some(action) = line.spans.get_mut(3)
            {
                let keep = action.content.chars().count().saturating_sub(over + 1);
                let cut: String = action.content.chars().take(keep).collect();
                action.content = format!("{cut}{}", t.g.ellipsis).into();
            }
            line
        })
}

/// What the step line names: the handler step this step ran and its
/// consumer first, then the scripted action it is one step of; the action
/// alone where no handler ran. A reader takes the first words as what
/// just happened.
pub(super) fn said(f: &Frame) -> String {
    if let Some(named) = ran::one_step(f) {
        return named;
    }
    match ran::step_ran(f) {
        Some((who, name)) if f.action != crate::scenario::action::run_to_words(&who, &name) => {
            format!("{name} ({who}) · part of: {}", f.action)
        }
        // A move that ran no handler step (a fault, the clock) in a
        // reader's words, not the file's `lose-ack A`.
        _ => f.move_told().unwrap_or_else(|| f.action_told()),
    }
}

/// The step line `line` (step, time and what was done) in `room` columns,
/// what was done cut with an ellipsis: only where enough of it is left to
/// read, and the step that ran is whole before the action it is part of
/// (`charge the card (A) · part of: run A to before co…`); else
/// nothing.
fn said_cut(t: &Theme, line: &[Span<'static>], room: usize) -> Option<Vec<Span<'static>>> {
    const PART_OF: &str = "part of: ";
    /// The fewest of the words' characters worth keeping after the cut.
    const LEAST: usize = 6;
    let said = line.get(2)?.content.to_string();
    let least = match said.find(PART_OF) {
        Some(at) => said[..at].chars().count() + PART_OF.chars().count() + LEAST,
        None => 2 * LEAST,
    };
    // The line as `with` draws it: a space each side.
    let width = 2 + line.iter().map(Span::width).sum::<usize>();
    let over = width.checked_sub(room)?;
    let keep = said
        .chars()
        .count()
        .checked_sub(over + t.g.ellipsis.chars().count())?;
    if keep < least {
        return None;
    }
    // At a word end: `run A to before c…` read as `charge` and as
    // `commit` alike (teacher trial 17); `run A to before…` claims
    // neither.
    // The fewest characters a cut keeps: all before the action's first
    // word (or a word's worth where the line names no action).
    let floor = least - LEAST + 1;
    let cut: String = said.chars().take(keep + 1).collect();
    let cut = match cut.rfind(' ') {
        Some(end) if cut[..end].trim_end().chars().count() >= floor => &cut[..end],
        _ => return None,
    };
    let mut spans = line.to_vec();
    spans[2].content = format!("{}{}", cut.trim_end(), t.g.ellipsis).into();
    Some(spans)
}
