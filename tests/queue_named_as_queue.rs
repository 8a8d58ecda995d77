//! Where a message goes into or out of the queue, the words say "queue":
//! the queue and the table are both called `payments`, so "the broker
//! removes m-7f3 from payments" read as a row deleted (teacher trial).
//! Every event and every story of every built-in run is read.

use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;

/// `from payments` or `to payments` not followed by "queue".
fn bare(text: &str, queue: &str) -> bool {
    ["from ", "to "].iter().any(|before| {
        let needle = format!("{before}{queue}");
        text.match_indices(&needle).any(|(at, _)| {
            let after = &text[at + needle.len()..];
            // `payments_rows` is another word; `payments queue` is right.
            let longer = after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
            !(longer || after.starts_with(" queue"))
        })
    })
}

#[test]
fn a_message_moved_in_or_out_is_moved_in_or_out_of_a_queue() {
    let (mut read, mut wrong) = (0, Vec::new());
    for script in builtins() {
        let queue = script.setup.queue.clone();
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for f in &timeline.frames {
                let texts = f.events.iter().map(|e| e.text.as_str());
                for text in texts.chain([f.narration.as_str()]) {
                    read += 1;
                    if bare(text, &queue) {
                        wrong.push(format!("{} {design} step {}: {text}", script.name, f.index));
                    }
                }
            }
        }
    }
    assert!(read > 0);
    assert!(
        wrong.is_empty(),
        "{} of {read} texts name the queue as the table would be named:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(8)].join("\n")
    );
}
