//! A handler's skip says what the handler knows (it found the key already
//! recorded), not that the message was a duplicate: whether it was is the
//! observer's knowledge, marked as such wherever skips are counted (issue
//! 18: content-hash and reused-id counted a genuine second payment under
//! "duplicates skipped").

use crate::common;
use idem::scenario;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use idem::tui::{Action, update};

fn transcript(name: &str) -> String {
    let script = scenario::find(name).unwrap();
    let t = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
    idem::report::transcript(&t, None)
}

/// The screen at the last step of `name` under the idempotent design.
fn last_screen(name: &str, w: u16, h: u16) -> String {
    let mut a = common::app(name, "idempotent");
    for _ in 1..a.timeline.frames.len() {
        update(&mut a, Action::Next);
    }
    common::draw(&mut a, w, h)
}

#[test]
fn a_skip_of_a_new_payment_is_not_told_as_a_duplicate() {
    for name in ["content-hash", "reused-id"] {
        let text = transcript(name);
        let closing = text
            .lines()
            .find(|l| l.trim_start().starts_with("delivered "))
            .expect("the counters line");
        assert!(!closing.contains("duplicates skipped"), "{name}: {closing}");
        assert!(
            closing.contains("skipped: key taken 1"),
            "{name}: {closing}"
        );
        assert!(
            closing.contains("observer: 1 not a duplicate"),
            "{name}: {closing}"
        );
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let screen = last_screen(name, w, h);
            assert!(
                !screen.contains("skipped as duplicates"),
                "{name} {w}x{h}\n{screen}"
            );
            assert!(
                screen.contains("skipped: key taken 1"),
                "{name} {w}x{h}\n{screen}"
            );
            // The observer's count under its mark, its words cut only
            // as far as `not a dup.` where the panel is narrow.
            assert!(
                screen
                    .lines()
                    .any(|l| l.contains("◇ 1 ") && l.contains("not a dup")),
                "{name} {w}x{h}\n{screen}"
            );
        }
    }
}

#[test]
fn a_skip_of_a_real_duplicate_has_no_observer_mark() {
    let text = transcript("tour-1");
    let closing = text
        .lines()
        .find(|l| l.trim_start().starts_with("delivered "))
        .expect("the counters line");
    assert!(closing.contains("skipped: key taken 1"), "{closing}");
    assert!(!closing.contains("not a duplicate"), "{closing}");
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let screen = last_screen("tour-1", w, h);
        assert!(screen.contains("skipped: key taken 1"), "{w}x{h}\n{screen}");
        assert!(!screen.contains("not a dup"), "{w}x{h}\n{screen}");
    }
}

/// The row of the step that hit the unique key, at the step it did: the
/// handler knows the key was taken, not that the message was a duplicate
/// (in content-hash and reused-id it is a genuine second payment).
#[test]
fn the_refused_insert_says_the_key_was_taken_not_duplicate() {
    for name in ["content-hash", "reused-id"] {
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let mut a = common::app(name, "idempotent");
            let refused = (0..a.timeline.frames.len())
                .find(|&i| {
                    a.timeline.frames[i].consumers.iter().any(|c| {
                        c.steps
                            .iter()
                            .any(|s| s.mark == idem::sim::consumer::Mark::Conflict)
                    })
                })
                .expect("a refused insert");
            for _ in 0..refused {
                update(&mut a, Action::Next);
            }
            let screen = common::draw(&mut a, w, h);
            // The step's row, up to the service panel's border.
            let rows: Vec<&str> = screen
                .lines()
                .filter_map(|l| l.split_once("insert message ID").map(|(_, r)| r))
                .map(|r| r.split('│').next().unwrap_or(r))
                .collect();
            assert!(!rows.is_empty(), "{name} {w}x{h}: no row\n{screen}");
            for row in &rows {
                assert!(
                    !row.contains("duplicate"),
                    "{name} {w}x{h}: {row:?}\n{screen}"
                );
            }
            // What the handler does know is said, where the row has room
            // for the word (at 80 columns it may fold to its sign).
            if w > 80 {
                assert!(
                    rows.iter().any(|r| r.contains("key taken")),
                    "{name} {w}x{h}: {rows:?}\n{screen}"
                );
            }
        }
    }
}
