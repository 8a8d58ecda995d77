//! The words that explain an effect are told at the step that makes it.
//! Teacher trial: race-rollback, idempotent, said only "A opens a
//! transaction." at the BEGIN (step 2) and "A has opened a transaction,
//! which takes the write lock" at the claim a step later, while naive said
//! it at the BEGIN. The rule checked here: a sentence that says, in the
//! present, that a consumer's transaction *takes* the write lock is shown
//! at a step whose SQL is that consumer's `BEGIN` (on SQLite, where BEGIN
//! IMMEDIATE is what takes it). A later step may only speak of it in the
//! past ("has taken", "holds"). Before the fix: 1 of 4 such sentences, in
//! every scenario and design, came a step late.

use idem::scenario::{self, load::builtins};
use idem::sim::{Frame, Strategy};
use idem::timeline::Timeline;

fn words_at(f: &Frame) -> Option<&str> {
    f.said
        .as_deref()
        .or_else(|| f.borrowed.as_ref().and_then(|b| b.said.as_deref()))
}

/// Whether `f` runs `consumer`'s BEGIN.
fn begins(f: &Frame, consumer: &str) -> bool {
    f.sql
        .iter()
        .any(|r| r.consumer == consumer && r.sql.trim_start().starts_with("BEGIN"))
}

#[test]
fn the_write_lock_is_explained_at_the_begin_that_takes_it() {
    let (mut seen, mut bad) = (0, Vec::new());
    for script in builtins() {
        let script = scenario::find(&script.name).unwrap();
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for f in &t.frames {
                let Some(said) = words_at(f) else { continue };
                let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
                for sentence in crate::common::sentences(&said) {
                    // "takes the write lock", "takes the database's write lock".
                    let takes = sentence
                        .find("takes the ")
                        .is_some_and(|at| sentence[at..].contains("write lock"));
                    if !takes {
                        continue;
                    }
                    seen += 1;
                    let subject = sentence.split([' ', '\'']).next().unwrap_or_default();
                    if !begins(f, subject) {
                        bad.push(format!(
                            "{} {design} step {}: {sentence:?}",
                            script.name, f.index
                        ));
                    }
                }
            }
        }
    }
    assert!(
        seen > 0,
        "no sentence says a transaction takes the write lock"
    );
    assert!(
        bad.is_empty(),
        "{} of {seen} sentences not at their consumer's BEGIN:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
