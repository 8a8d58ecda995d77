//! The refused insert of a message ID had four names (teacher trial):
//! `key taken` on the handler's step, `duplicate key` in the database
//! panel, `(duplicate key hit)` in the transcript, `hits the unique key`
//! in the events. The handler only knows its key was taken; whether the
//! message was a duplicate only the observer knows. So the consumer's
//! side says `key taken` (`the unique key is taken`) everywhere, and
//! `duplicate` stays in the observer's (◇) lines.

use crate::common::sweep::{SIZES, each_step, none_wrong};
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;

const OTHER_NAMES: [&str; 3] = ["duplicate key", "hits the unique key", "key hit"];

#[test]
fn no_screen_names_the_taken_key_another_way() {
    for size in SIZES {
        let mut seen = 0;
        let mut wrong = Vec::new();
        each_step(size, |step| {
            let rows = step.rows();
            if rows.iter().any(|r| r.contains("key taken")) {
                seen += 1;
            }
            for row in rows {
                if OTHER_NAMES.iter().any(|n| row.contains(n)) {
                    wrong.push(format!(
                        "{} {} step {}: {}",
                        step.app.timeline.scenario,
                        step.app.timeline.strategy,
                        step.app.pos,
                        row.trim_end()
                    ));
                }
            }
        });
        none_wrong("screens naming the taken key", seen, 10, &wrong, size);
    }
}

#[test]
fn no_transcript_names_the_taken_key_another_way() {
    let mut seen = 0;
    for script in builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let text = idem::report::transcript(&timeline, script.expect.get(design.as_str()));
            seen += usize::from(text.contains("key taken"));
            for name in OTHER_NAMES {
                assert!(
                    !text.contains(name),
                    "{} {design}: `{name}` in {}",
                    script.name,
                    text.lines().find(|l| l.contains(name)).unwrap()
                );
            }
        }
    }
    assert!(seen > 3, "the transcripts say key taken: {seen}");
}
