//! Words an earlier step of the chapter said read as earlier in the story
//! panel. Teacher trial, tour-1 naive step 5 at 100x30: after the charge,
//! "Nothing is committed yet: a crash now would leave no trace" (said at
//! step 3) stood on its own row as if true now.

use crate::common::{self, draw};

fn story_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .skip_while(|l| !l.contains("What happens"))
        .skip(1)
        .take_while(|l| !l.contains("step 5/"))
        .map(|l| l.trim_matches('"').trim_matches('│').trim().to_string())
        .collect()
}

#[test]
fn story_earlier_words_are_marked_as_earlier() {
    for (w, h) in [(100u16, 30u16), (120, 40)] {
        let mut app = common::app("tour-1", "naive");
        app.pos = 5;
        let screen = draw(&mut app, w, h);
        let rows = story_rows(&screen);
        assert!(
            rows[0].starts_with("A gets 201 Created"),
            "the step's own words lead at {w}x{h}:\n{screen}"
        );
        assert!(
            rows[1].starts_with("earlier: "),
            "the words told at earlier steps start under a mark at {w}x{h}:\n{screen}"
        );
        assert!(
            !rows
                .iter()
                .any(|r| r.starts_with("Nothing is committed yet")),
            "a sentence of step 3 stands alone unmarked at {w}x{h}:\n{screen}"
        );
    }
}

#[test]
fn story_words_new_at_this_step_are_not_marked() {
    // Step 1 opens the chapter: its opening words are new, not earlier.
    let mut app = common::app("tour-1", "naive");
    app.pos = 1;
    let screen = draw(&mut app, 120, 40);
    assert!(!screen.contains("earlier:"), "{screen}");
}
