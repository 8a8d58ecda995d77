//! Which step of a chapter told which of the words a frame's story
//! repeats: the story panel, compare and the lesson page mark each group
//! of earlier words with the step it was told at, so that a sentence true
//! then (`the card has not been charged`) reads as history, not as now.

use super::Frame;
use std::ops::Range;

/// Words of a frame's story told at an earlier step: `range` (bytes of
/// the frame's `narration`, trimmed of spaces at both ends) and `step`,
/// the index of the frame that first showed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    pub step: usize,
    pub range: Range<usize>,
}

/// The words of `f`'s story that earlier steps of its chapter told, in
/// order, one group per step: the steps before `f` in `frames` whose
/// stories `f`'s goes on from, each one's group the words it added to
/// the story of the step before it. Empty where `f` opens its chapter or
/// its story does not go on from the step before (a fork).
pub fn told_before(frames: &[Frame], f: &Frame) -> Vec<Told> {
    let before = frames.get(..f.index.min(frames.len())).unwrap_or_default();
    // The steps `f`'s story goes on from, newest first.
    let chain: Vec<&Frame> = before
        .iter()
        .rev()
        .take_while(|g| {
            let told = g.narration.trim_end();
            g.chapter == f.chapter && !told.is_empty() && f.narration.starts_with(told)
        })
        .collect();
    let mut out: Vec<Told> = Vec::new();
    let mut from = 0;
    for g in chain.into_iter().rev() {
        let end = g.narration.trim_end().len();
        if end <= from {
            continue;
        }
        let words = &f.narration[from..end];
        let start = from + (words.len() - words.trim_start().len());
        if start < end {
            out.push(Told {
                step: g.index,
                range: start..end,
            });
        }
        from = end;
    }
    out
}
