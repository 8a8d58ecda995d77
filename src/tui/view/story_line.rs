//! A paragraph of the story panel with what the code that made it knows:
//! which of its spans are the marks before earlier steps' words
//! (`at step 4: `). Counting sentences, cutting and joining paragraphs
//! ask this, never the text: a scenario's own words may read
//! `at step 2: ` too, and are words, not a mark.

use super::sentences::sentence_starts;
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
                Span::raw("at step 4: "),
                Span::raw("As told at step 2: x."),
            ]),
            marks: vec![0],
        };
        assert!(earlier.earlier());
        assert_eq!(earlier.earlier_sentences(), 1);
        assert_eq!(earlier.sentence_starts(), [0]);
    }
}
