//! The lesson's data: what the page's script and its text version both
//! read, every scenario, design and step's words and screen. Plain data,
//! so that the page (`lesson`) and the text (`lesson_text`) each depend on
//! it and not on each other.

use serde::Serialize;

#[derive(Serialize)]
pub(super) struct Step {
    /// The screen, as inline SVG.
    pub(super) svg: String,
    pub(super) chapter: usize,
    pub(super) chapter_title: String,
    /// The step's heading, once it is in a chapter: `Chapter 2: title`,
    /// or for a schedule the checker found, `Move 2/9: title` (each of
    /// its steps is one move, no chapter of a story).
    pub(super) part: String,
    /// Words earlier steps of the chapter told, one group per step, each
    /// under a mark naming it (`at step 4:`): shown after `did`, as the
    /// terminal's story panel shows them, so that a sentence true then is
    /// read as history.
    pub(super) earlier: Vec<EarlierWords>,
    /// What the chapter says before this step's own words that no
    /// earlier step told (its opening, at its first step): after
    /// `earlier` and before `said`.
    pub(super) opening: String,
    /// What this step did, every party's part: the step's first words.
    pub(super) did: String,
    /// The step's own new words, last of the run's own (as the terminal
    /// shows them: after the chapter's earlier text).
    pub(super) said: Option<String>,
    /// Words written for another design or engine, shown below the
    /// step's own, under their mark.
    pub(super) borrowed: Option<BorrowedWords>,
    pub(super) action: String,
    /// The verdict's heading, in the terminal's words at this step.
    pub(super) verdict_title: &'static str,
    pub(super) verdict: String,
    /// For each design of the scenario, in the page's order, the step
    /// that shows this same moment of the story: where the design switch
    /// lands, worked out as the terminal's `m` works it out
    /// ([`Timeline::moment`], then [`Timeline::find`]), so the page only
    /// looks it up. Its own design's entry is this step.
    pub(super) same_moment: Vec<usize>,
    /// The words of the text version, where no key works.
    #[serde(skip)]
    pub(super) keyless: KeylessWords,
}

/// A step's words that may name a key, told with none: the page's text
/// version (`lesson_text`) reads these, the page's script the others.
pub(super) struct KeylessWords {
    pub(super) opening: String,
    pub(super) said: Option<String>,
    pub(super) borrowed: Option<String>,
}

/// Words an earlier step told. The page writes the mark naming `step`
/// (`at step 4:`) itself, so nothing reads a step number back out of text.
#[derive(Serialize)]
pub(super) struct EarlierWords {
    pub(super) step: usize,
    pub(super) text: String,
}

#[derive(Serialize)]
pub(super) struct BorrowedWords {
    pub(super) mark: String,
    pub(super) text: String,
}

#[derive(Serialize)]
pub(super) struct Design {
    pub(super) name: String,
    /// The scenario's title as told for this design (`title_for`): a title
    /// that names one design's outcome is not shown under another.
    pub(super) title: String,
    /// The page's heading while this design is shown, on a page of one
    /// scenario (see [`heading`]).
    pub(super) heading: String,
    pub(super) steps: Vec<Step>,
}

/// One scenario. Its title is per design (`Design::title`): there is no
/// title here that a page could show under the wrong design.
#[derive(Serialize)]
pub(super) struct Lesson {
    pub(super) name: String,
    pub(super) summary: String,
    pub(super) designs: Vec<Design>,
}
