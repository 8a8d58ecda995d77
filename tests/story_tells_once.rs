//! The story panel tells each receive once. Teacher trial 36: at 80x24,
//! tour-1's step 10 read "A receives m-7f3, lease 30s; delivery 2, flagged
//! redelivered." and then, in the chapter's authored words, "A receives
//! m-7f3 again, with the redelivered flag set.": the same step twice, where
//! the authored words had room to say what the step means instead.

use crate::common::sweep::{SIZES, each_step, none_wrong};
use idem::tui::app::Panel;

/// Each `<consumer> receives <message>` the words hold, in order.
fn receives(words: &str) -> Vec<(String, String)> {
    let w: Vec<&str> = words.split_whitespace().collect();
    w.windows(3)
        .filter(|t| t[1] == "receives" && t[2].starts_with("m-"))
        .map(|t| {
            let id = t[2].trim_end_matches(|c: char| !c.is_alphanumeric());
            (t[0].to_string(), id.to_string())
        })
        .collect()
}

#[test]
fn the_story_tells_each_receive_once() {
    let (mut wrong, mut seen) = (Vec::new(), 0);
    for size in SIZES {
        each_step(size, |step| {
            let told = receives(&step.words_in(Panel::Narration));
            if told.is_empty() {
                return;
            }
            seen += 1;
            let twice = told.iter().enumerate().any(|(i, r)| told[..i].contains(r));
            if twice {
                wrong.push(format!("{}: {told:?}\n{}", step.at(), step.screen()));
            }
        });
    }
    none_wrong("stories that tell a receive", seen, 100, &wrong, SIZES[0]);
}

#[test]
fn a_receive_is_found_in_words_as_the_story_has_them() {
    assert_eq!(
        receives("A receives m-7f3, lease 30s. A receives m-7f3 again."),
        vec![
            ("A".to_string(), "m-7f3".to_string()),
            ("A".to_string(), "m-7f3".to_string())
        ]
    );
}
