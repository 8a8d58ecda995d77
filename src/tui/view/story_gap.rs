//! A story that folds its earlier words, where the sentences it keeps
//! leave rows blank: the newest sentence it folds gives those rows the
//! start of its words, an ellipsis where the rest of it is left out, in
//! the paragraph it stands in. Trial: tour-2 naive at its last step,
//! 100x30, read a blank row under the story's end while `↑ 2 more
//! sentences` were folded above it.

use super::story_line::{StoryLine, run_on, story_lines_but, story_rows};
use crate::sim::frame::Told;
use crate::tui::theme::Theme;
use std::ops::Range;

/// The chapter's earlier words before `newest`, with a sentence cut.
pub(super) struct Opening<'a> {
    pub narration: &'a str,
    /// Where each sentence (or step's words) of the opening starts, bytes
    /// of `narration`, in order.
    pub starts: &'a [usize],
    /// Where the opening ends.
    pub end: usize,
    /// Which earlier step told which words.
    pub told: &'a [Told],
}

/// The fewest words a cut keeps of its sentence: fewer say nothing
/// (`At step 3: The …`), and the row they take is as good as blank.
const LEAST_WORDS: usize = 3;

/// Words that open a clause: a cut just before one ends the clause before
/// it (`A's lease runs out, and …`).
const OPENERS: [&str; 22] = [
    "and", "but", "so", "or", "while", "because", "until", "when", "where", "which", "who",
    "whose", "then", "since", "as", "if", "before", "after", "though", "unless", "nor", "yet",
];

/// Whether a cut of `sentence` at byte `at` (a space) falls where a
/// clause ends: after `,` `;` `:` or a dash, or before a word that opens
/// the next clause. A cut inside a clause (`A for 30 seconds and hides …`,
/// 100x30 trial: 22 of 29 gaps) reads as a slip, not as a sentence that
/// goes on.
fn ends_clause(sentence: &str, at: usize) -> bool {
    let before = sentence[..at].trim_end();
    let next = sentence[at..].split_whitespace().next().unwrap_or_default();
    before.ends_with([',', ';', ':', '—'])
        || OPENERS.contains(&next.trim_matches(|c: char| !c.is_alphanumeric()))
}

/// Whether a cut of `sentence` at byte `at` keeps a whole clause of at
/// least the fewest words: the rule of every cut the story makes inside a
/// sentence.
pub(super) fn keeps_a_clause(sentence: &str, at: usize) -> bool {
    sentence[..at].split_whitespace().count() >= LEAST_WORDS && ends_clause(sentence, at)
}

/// The story from sentence `k` of `opening` on, then `newest` and
/// `after`, in `rows` rows at `width`, sentence `k` cut at the last
/// clause's end that fits, the rest of it left out under an ellipsis; or
/// `None` where not even its first clause fits.
pub(super) fn cut_sentence(
    t: &Theme,
    opening: &Opening<'_>,
    k: usize,
    newest: &[StoryLine],
    after: &[StoryLine],
    width: u16,
    rows: u16,
) -> Option<Vec<StoryLine>> {
    let from = *opening.starts.get(k)?;
    let to = opening
        .starts
        .get(k + 1)
        .copied()
        .unwrap_or(opening.end)
        .min(opening.end);
    let sentence = opening.narration.get(from..to)?;
    let sentence_end = from + sentence.trim_end().len();
    let cuts: Vec<usize> = sentence
        .match_indices(' ')
        .map(|(at, _)| at)
        .filter(|&at| keeps_a_clause(sentence, at))
        .map(|at| from + at)
        .filter(|&at| at < sentence_end)
        .collect();
    cuts.into_iter().rev().find_map(|at| {
        let gap: Range<usize> = at..sentence_end;
        let tail = story_lines_but(
            t,
            opening.narration,
            from..opening.end,
            opening.told,
            Some(gap),
        );
        let mut lines = run_on(tail, newest);
        lines.extend(after.iter().cloned());
        (story_rows(&lines, width) <= rows).then_some(lines)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gap_falls_where_a_clause_ends() {
        let s = "The lease on m-7f3 runs out, and it is visible again to B.";
        let cuts: Vec<&str> = s
            .match_indices(' ')
            .map(|(at, _)| at)
            .filter(|&at| ends_clause(s, at))
            .map(|at| &s[..at])
            .collect();
        assert_eq!(cuts, ["The lease on m-7f3 runs out,"]);
    }
}
