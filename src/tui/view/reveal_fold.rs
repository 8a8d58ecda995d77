//! The answer's box at a reveal has the rows from the story's top down to
//! the verdict, and no more: at 80x24, six inside its border. The action's
//! own words (what its steps said) come first in it, the answers after;
//! where both do not fit, the action's words give way, never an answer's
//! why (trial, 80x24: 52 of 282 reveals at 80x24 and 100x30 cut a why
//! under `… ↓ 2 more`, mid-sentence, as the words above took its rows).
//! The action's words keep the whole sentences that fit, or the first
//! words of one, and say where the rest is: the `←` key shows each step.

use crate::tui::measure::rows;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The fewest words a cut keeps: fewer say nothing, and their row is as
/// good as blank.
const LEAST_WORDS: usize = 3;

/// The action's words `said` (one a step) above `answers`, in `room`
/// rows of `width` columns: all of them where they fit; else as many of
/// them as the answers leave room for, cut at a sentence's end where one
/// fits (else at a word's end), with the sign of where the rest is read;
/// else none, the answers whole.
pub(super) fn fold(
    t: &Theme,
    said: Vec<Line<'static>>,
    answers: Vec<Line<'static>>,
    width: u16,
    room: u16,
) -> Vec<Line<'static>> {
    let whole: Vec<Line<'static>> = said.iter().cloned().chain(answers.clone()).collect();
    if said.is_empty() || rows(&whole, width, false) <= room {
        return whole;
    }
    let left = room.saturating_sub(rows(&answers, width, false));
    let style = said[0].style;
    let text = said
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ");
    let sign = Span::styled(t.text(" … ← the steps it took").into_owned(), t.dim());
    let cut = |end: usize| {
        Line::from(vec![
            Span::styled(text[..end].trim_end().to_string(), style),
            sign.clone(),
        ])
    };
    let fits = |line: &Line<'static>| left > 0 && rows([line], width, false) <= left;
    // Each word's end, last first; a sentence's end before any other.
    let ends: Vec<usize> = text
        .match_indices(' ')
        .map(|(at, _)| at)
        .filter(|&at| text[..at].split_whitespace().count() >= LEAST_WORDS)
        .rev()
        .collect();
    let sentence = |&at: &usize| text[..at].ends_with(['.', '!', '?', ':']);
    let kept = ends
        .iter()
        .filter(|at| sentence(at))
        .chain(ends.iter().filter(|at| !sentence(at)))
        .map(|&at| cut(at))
        .find(fits);
    kept.into_iter().chain(answers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line<'_>]) -> String {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn the_actions_words_give_way_to_the_answers_at_a_sentences_end() {
        let t = Theme::new(false, false);
        let said = vec![Line::raw(
            "One two three four. Five six seven eight nine ten.",
        )];
        let answers = vec![Line::raw("✓ right  why it is so.")];
        // Room for all.
        assert_eq!(
            rows(&fold(&t, said.clone(), answers.clone(), 80, 3), 80, false),
            2
        );
        // One row for the words at 45 columns: the first sentence, signed.
        let folded = fold(&t, said.clone(), answers.clone(), 45, 2);
        assert_eq!(
            text(&folded),
            "One two three four. … ← the steps it took|✓ right  why it is so."
        );
        // No row: the answer alone, whole.
        let folded = fold(&t, said, answers, 45, 1);
        assert_eq!(text(&folded), "✓ right  why it is so.");
    }
}
