//! Teacher trial: the verdict's in-flight note said "the delivery in hand
//! gets the charge back by key" while the provider's key store still held
//! the key as processing (in-progress under its own design, steps 9,
//! 12-15 and 17): a repeat then gets 409 Conflict, not the charge, and at
//! step 9 the delivery in hand had backed off and would call nobody. The
//! note may promise the charge back only while the key stores it; while
//! the key's first request is unanswered it says a repeat gets 409.

use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;

/// What the key store shows for `key` in this frame: a charge ID, or
/// `processing` while the first request is unanswered.
fn stored<'a>(frame: &'a idem::sim::Frame, key: &str) -> Option<&'a str> {
    frame
        .provider
        .keys
        .iter()
        .find(|k| k.key == key)
        .map(|k| k.result.as_str())
}

#[test]
fn the_in_flight_note_promises_only_what_the_key_store_holds() {
    let mut wrong = Vec::new();
    let (mut notes, mut processing_notes) = (0, 0);
    for script in builtins() {
        for name in Strategy::names() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for frame in &timeline.frames {
                for line in &frame.verdict.in_flight {
                    let key = line
                        .split_once("with key ")
                        .and_then(|(_, rest)| rest.split(';').next())
                        .unwrap_or_else(|| panic!("no key named: {line}"));
                    let state = stored(frame, key);
                    let promises_charge = line.contains("charge back");
                    let tells_repeat = promises_charge
                        || line.contains("delivery in hand")
                        || line.contains("delivered again")
                        || line.contains("repeat");
                    notes += 1;
                    let bad = if promises_charge && !state.is_some_and(|s| s.starts_with("ch_")) {
                        Some("promises the charge back")
                    } else if state == Some("processing") && tells_repeat && !line.contains("409") {
                        Some("key still processing, no 409 told")
                    } else {
                        None
                    };
                    if state == Some("processing") && line.contains("409") {
                        processing_notes += 1;
                    }
                    if let Some(why) = bad {
                        wrong.push(format!(
                            "{} under {name} step {}: {why} (key {key} is {state:?}): {line}",
                            script.name, frame.index
                        ));
                    }
                }
            }
        }
    }
    assert!(notes > 100, "only {notes} in-flight notes");
    assert!(
        wrong.is_empty(),
        "{} of {notes} in-flight notes untrue:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // The 409 note is not vacuous: in-progress meets it.
    assert!(processing_notes > 0, "no note told a 409");
}
