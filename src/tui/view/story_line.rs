//! A paragraph of the story panel with what the code that made it knows:
//! which of its spans are the marks before earlier steps' words
//! (`At step 4: `). Counting sentences, cutting and joining paragraphs
//! ask this, never the text: a scenario's own words may read
//! `at step 2: ` too, and are words, not a mark. The story's words are
//! made into such paragraphs here (`story_lines`) and measured here
//! (`story_rows`), for the story panel and for the sentence it cuts to
//! fill its rows (`story_gap`) alike.

use super::sentences::sentence_starts;
use crate::sim::frame::Told;
use crate::tui::theme::Theme;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use std::ops::Range;

#[derive(Clone, Debug)]
pub(super) struct StoryLine {
    pub line: Line<'static>,
    /// The indices of the spans of `line` that are marks, in order.
    pub marks: Vec<usize>,
}

impl StoryLine {
    /// A paragraph with no mark in it: the step's own words, borrowed ones.
    pub fn plain(line: Line<'static>) -> StoryLine {
        StoryLine {
            line,
            marks: Vec::new(),
        }
    }

    /// Whether this is the paragraph of earlier steps' words: it opens on
    /// a mark.
    pub fn earlier(&self) -> bool {
        self.marks.first() == Some(&0)
    }

    /// The paragraph's text, its spans joined.
    pub fn text(&self) -> String {
        self.line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// Where the marks stand in `text()`: bytes.
    pub fn mark_ranges(&self) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut from = 0;
        for (i, span) in self.line.spans.iter().enumerate() {
            let end = from + span.content.len();
            if self.marks.contains(&i) {
                out.push(from..end);
            }
            from = end;
        }
        out
    }

    /// Where each sentence of `text()` starts (bytes, the first at 0): a
    /// mark starts one too, since each step's words are counted apart
    /// (earlier groups run on in one paragraph, and a fold may start at a
    /// mark).
    pub fn sentence_starts(&self) -> Vec<usize> {
        let mut starts = sentence_starts(&self.text());
        starts.extend(self.mark_ranges().into_iter().map(|m| m.start));
        starts.sort_unstable();
        starts.dedup();
        starts
    }

    /// How many sentences the words of an earlier paragraph hold, each
    /// step's words counted apart; the marks are none.
    pub fn earlier_sentences(&self) -> usize {
        self.line
            .spans
            .iter()
            .enumerate()
            .filter(|(i, s)| !self.marks.contains(i) && !s.content.trim().is_empty())
            .map(|(_, s)| sentence_starts(s.content.trim()).len())
            .sum()
    }

    /// `self` and then `next` in one paragraph, a space between: `next`'s
    /// marks stay marks.
    pub fn run_on(&mut self, next: &StoryLine) {
        let gap = self.line.spans.last().map(|s| s.style).unwrap_or_default();
        self.line.spans.push(Span::styled(" ", gap));
        let shift = self.line.spans.len();
        self.marks.extend(next.marks.iter().map(|i| i + shift));
        self.line.spans.extend(next.line.spans.iter().cloned());
    }
}

/// The lines alone, as ratatui lays them out.
pub(super) fn lines(story: &[StoryLine]) -> Vec<Line<'static>> {
    story.iter().map(|s| s.line.clone()).collect()
}

/// The mark before words told at `step`, an earlier step of the chapter:
/// a word, not only dim type, so that it reads with no colour too. Its
/// words are joined by no-break spaces, which ratatui's wrapping never
/// breaks at: `At step` ending a row over `13:` read the number as the
/// next sentence's (teacher trial). The screen draws them as spaces
/// (`view::plain_spaces`).
pub(super) fn earlier_mark(step: usize) -> String {
    format!("At{NBSP}step{NBSP}{step}: ")
}

/// A space that wrapping does not break at (ratatui's `Wrap` keeps words
/// joined by it together).
pub(crate) const NBSP: char = '\u{a0}';

/// The story words `narration[range]` as lines: the words earlier steps
/// told (`told`, bytes of `narration`) dim, in one paragraph, each step's
/// words after a mark naming it (a paragraph for each step cost a row
/// apiece, and folded more steps at 120x40); the rest, new at this step,
/// plain on a row of its own.
pub(super) fn story_lines(
    t: &Theme,
    narration: &str,
    range: Range<usize>,
    told: &[Told],
) -> Vec<StoryLine> {
    story_lines_but(t, narration, range, told, None)
}

/// `story_lines`, less the words in `gap` (bytes of `narration`, from a
/// word's end to a sentence's end): an ellipsis stands where they are,
/// in the paragraph they were in (`story_gap`).
pub(super) fn story_lines_but(
    t: &Theme,
    narration: &str,
    range: Range<usize>,
    told: &[Told],
    gap: Option<Range<usize>>,
) -> Vec<StoryLine> {
    // The words from `from` to `to`, trimmed, the gap's in them left out.
    let words = |from: usize, to: usize| -> String {
        let text = |a: usize, b: usize| narration.get(a..b).unwrap_or_default().trim();
        match &gap {
            Some(g) if g.start < to && g.end > from => {
                let (head, tail) = (text(from, g.start.max(from)), text(g.end.min(to), to));
                let cut = narration.get(g.start.max(from)..g.end.min(to));
                let closed = format!("{}{}", t.g.ellipsis, closers(cut.unwrap_or_default()));
                [t.words(head), closed, t.words(tail)]
                    .into_iter()
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            _ => t.words(text(from, to)),
        }
    };
    let mut lines = Vec::new();
    let mut earlier: Vec<Span<'static>> = Vec::new();
    // The marks are known here, where they are made: which spans they are.
    let mut marks = Vec::new();
    let mut new_from = range.start;
    for group in told {
        let (from, to) = (
            group.range.start.max(range.start),
            group.range.end.min(range.end),
        );
        if from >= to {
            continue;
        }
        new_from = new_from.max(to);
        if narration.get(from..to).is_none_or(|w| w.trim().is_empty()) {
            continue;
        }
        if !earlier.is_empty() {
            earlier.push(Span::styled(" ", t.dim()));
        }
        marks.push(earlier.len());
        earlier.push(Span::styled(
            earlier_mark(group.step),
            t.dim().add_modifier(Modifier::ITALIC),
        ));
        earlier.push(Span::styled(words(from, to), t.dim()));
    }
    if !earlier.is_empty() {
        lines.push(StoryLine {
            line: Line::from(earlier),
            marks,
        });
    }
    let new = narration.get(new_from..range.end).unwrap_or_default();
    if !new.trim().is_empty() {
        lines.push(StoryLine::plain(Line::raw(words(new_from, range.end))));
    }
    lines
}

/// The brackets `left_out` closes that it did not open: a gap cut inside
/// `(You, the observer, arm a fault: …` closes them after its ellipsis,
/// so the words after it do not read as still in brackets (trial 31,
/// tour-4 naive at 100x30, step 6).
fn closers(left_out: &str) -> String {
    let mut open: Vec<char> = Vec::new();
    let mut closed = String::new();
    for c in left_out.chars() {
        match c {
            '(' | '[' => open.push(c),
            // A closer with no opener in the gap closes one before it.
            ')' | ']' if open.is_empty() => closed.push(c),
            ')' | ']' => {
                open.pop();
            }
            _ => {}
        }
    }
    closed
}

/// `tail` and then `newest`: earlier words told at a step of their own
/// run on in the tail's earlier paragraph, after their mark, as they do
/// where the story is shown whole; words new at this step keep their row.
pub(super) fn run_on(mut tail: Vec<StoryLine>, newest: &[StoryLine]) -> Vec<StoryLine> {
    match (tail.last_mut(), newest.split_first()) {
        (Some(last), Some((first, rest))) if last.earlier() && first.earlier() => {
            last.run_on(first);
            tail.extend(rest.iter().cloned());
        }
        _ => tail.extend(newest.iter().cloned()),
    }
    tail
}

/// The rows a story's paragraphs take, as `rows_needed` counts them.
pub(super) fn story_rows(story: &[StoryLine], width: u16) -> u16 {
    rows_needed(&lines(story), width)
}

/// The rows these lines take wrapped (trimmed) at this width, up to the
/// last one with a word on it: a blank line at the end draws nothing.
pub(super) fn rows_needed(lines: &[Line<'_>], width: u16) -> u16 {
    let blank = |l: &Line<'_>| l.spans.iter().all(|s| s.content.trim().is_empty());
    let end = lines.iter().rposition(|l| !blank(l)).map_or(0, |i| i + 1);
    crate::tui::measure::rows(&lines[..end], width, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_like_a_mark_are_no_mark() {
        let words = StoryLine::plain(Line::raw("Told at step 2: the lease. It ran."));
        assert!(!words.earlier());
        assert_eq!(words.sentence_starts(), [0, 27]);
        let earlier = StoryLine {
            line: Line::from(vec![
                Span::raw("At step 4: "),
                Span::raw("As told at step 2: x."),
            ]),
            marks: vec![0],
        };
        assert!(earlier.earlier());
        assert_eq!(earlier.earlier_sentences(), 1);
        assert_eq!(earlier.sentence_starts(), [0]);
    }

    #[test]
    fn a_gap_inside_brackets_closes_them() {
        let t = Theme::new(false, false);
        let story = "(You arm a fault: the network drops A's ack.) B waits.";
        let cut = story.find(" the network").unwrap();
        let gap = cut..story.find(" B waits").unwrap();
        let lines = story_lines_but(&t, story, 0..story.len(), &[], Some(gap));
        let text: Vec<String> = lines.iter().map(|l| l.line.to_string()).collect();
        assert_eq!(text, ["(You arm a fault: …) B waits."]);
    }
}
