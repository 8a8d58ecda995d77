//! The same frames the TUI shows, as a linear transcript: plain text (also
//! the screen-reader path) or JSON.

mod closing;
mod questions;
mod state;
pub mod stream;
mod text;

pub(crate) use closing::not_duplicates;
pub use state::{consumer_line, message_line};

use crate::scenario::Expectation;
use crate::timeline::Timeline;
use serde::Serialize;

#[derive(Serialize)]
struct JsonRun<'a> {
    #[serde(flatten)]
    timeline: &'a Timeline,
    expectation_misses: Option<Vec<String>>,
}

/// The run as text (see `text::transcript`), with any control character
/// escaped: a transcript goes to a terminal, and scenario text is not
/// trusted to be free of them even after validation (a script can be built
/// in code).
pub fn transcript(timeline: &Timeline, expect: Option<&Expectation>) -> String {
    crate::terminal_text::escape(&text::transcript(timeline, expect)).into_owned()
}

/// The questions the run asks and the answers it computes, escaped like
/// the transcript (see `questions::questions`).
pub fn questions(timeline: &Timeline, script: &crate::scenario::Script) -> String {
    crate::terminal_text::escape(&questions::questions(timeline, script)).into_owned()
}

/// The whole run as JSON: every frame, plus how it compares with the
/// scenario's expectation when it has one for this strategy.
pub fn json(timeline: &Timeline, expect: Option<&Expectation>) -> String {
    let run = JsonRun {
        timeline,
        expectation_misses: expect.map(|e| timeline.misses(e)),
    };
    serde_json::to_string_pretty(&run).expect("frames are plain data")
}

/// One order's outcome in a run's report: a correct one bounded as the
/// run's verdict is (`correct in this run`): one run is one schedule, and
/// the order's ledgers agreeing in it says nothing of the others.
fn fact_words(words: &str, outcome: crate::sim::Outcome) -> String {
    if outcome == crate::sim::Outcome::Correct {
        format!("{words}{}", crate::sim::verdict::IN_THIS_RUN)
    } else {
        words.to_string()
    }
}
