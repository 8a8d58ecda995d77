//! A scenario's own words are true for the design and engine they are
//! shown under: words without a version for a design are shown as that
//! design's own (`say` beside `say_for`), so they must hold there too.
//! Teacher trial: race-rollback under naive, step 8, said "B opens its
//! transaction, and its insert into processed_messages succeeds", where
//! naive has no processed_messages; tour-4 naive step 6 called a retry
//! without a key "the only reasonable thing", the retry that charges
//! twice; race-rollback said "B has recorded the payment" of a row still
//! in B's open transaction; and on PostgreSQL its naive chapter 3 was
//! titled "B does the work" while B had finished in chapter 1. Read off
//! every built-in under every design it lists, on SQLite and (where a
//! server answers) on PostgreSQL; borrowed words, marked as written for
//! another run, are not the run's own and are left out.

use crate::common::pg_runs::pg_runs;
use idem::scenario::Script;
use idem::scenario::load::builtins;
use idem::sim::strategy::Op;
use idem::sim::{Frame, Strategy};
use idem::timeline::Timeline;

/// One run to read: the scenario as run, its design and its frames.
struct Run<'a> {
    script: &'a Script,
    design: &'a str,
    engine: &'static str,
    frames: &'a [Frame],
}

fn each_run(mut check: impl FnMut(&Run)) -> usize {
    let mut runs = 0;
    for script in builtins() {
        for design in script.expect.keys() {
            let strategy = Strategy::by_name(design).unwrap();
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            runs += 1;
            check(&Run {
                script: &script,
                design,
                engine: "sqlite",
                frames: &t.frames,
            });
        }
    }
    for run in pg_runs().unwrap_or_default() {
        runs += 1;
        check(&Run {
            script: &run.script,
            design: &run.design,
            engine: "postgres",
            frames: &run.timeline.frames,
        });
    }
    runs
}

/// The sentences of a text, lower case. A sentence that points at the
/// other design (`Press {key:switch-design} to see…`) or says what would
/// have happened tells no fact of this run.
fn sentences(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split_terminator(['.', '?', '!'])
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.contains("{key:") && !s.contains("would"))
        .collect()
}

/// A frame's own words: its chapter's title and its chapter's words so
/// far (what the actions said is part of them).
fn own_words(f: &Frame) -> String {
    format!("{}. {}", f.chapter_title, f.narration)
}

/// What a design does not do, and the words that would say it does.
fn untrue_for(strategy: &Strategy) -> Vec<&'static str> {
    let mut words = Vec::new();
    if !strategy.uses(Op::ClaimId) {
        words.extend([
            "into processed_messages",
            "in processed_messages",
            "processed_messages row",
            "claims the id",
            "claimed the id",
        ]);
    }
    if !strategy.checks_duplicates() {
        words.extend(["skips", "is skipped", "finds the id"]);
    }
    if !strategy.uses(Op::CallProvider { with_key: true }) {
        words.extend(["under the key", "same key", "as idempotency-key"]);
    }
    words
}

#[test]
fn no_story_says_a_design_does_what_it_does_not() {
    let mut wrong = Vec::new();
    let mut frames = 0;
    let runs = each_run(|run| {
        let strategy = Strategy::by_name(run.design).unwrap();
        let untrue = untrue_for(&strategy);
        let what = format!("{} --mode {} ({})", run.script.name, run.design, run.engine);
        for s in sentences(run.script.intro_for(run.design)) {
            if let Some(w) = untrue.iter().find(|w| s.contains(*w)) {
                wrong.push(format!("{what}, intro: {w:?} in {s:?}"));
            }
        }
        for f in run.frames {
            frames += 1;
            for s in sentences(&own_words(f)) {
                if let Some(w) = untrue.iter().find(|w| s.contains(*w)) {
                    wrong.push(format!("{what}, step {}: {w:?} in {s:?}", f.index));
                }
            }
        }
    });
    assert!(runs > 40, "only {runs} runs");
    assert!(
        wrong.is_empty(),
        "{} of {frames} steps say a design does what it does not:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Under a design that sends no Idempotency-Key, a sentence that says
/// the handler will call the provider again says what the missing key
/// makes of that call: it is the call that charges twice.
#[test]
fn a_retry_without_a_key_is_never_told_as_if_it_were_safe() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    each_run(|run| {
        let strategy = Strategy::by_name(run.design).unwrap();
        if strategy.uses(Op::CallProvider { with_key: true }) {
            return;
        }
        for f in run.frames {
            for s in sentences(&f.narration) {
                if !["call again", "calls again", "calls the provider again"]
                    .iter()
                    .any(|w| s.contains(w))
                {
                    continue;
                }
                seen += 1;
                if !s.contains("key") {
                    wrong.push(format!(
                        "{} --mode {} ({}), step {}: {s:?}",
                        run.script.name, run.design, run.engine, f.index
                    ));
                }
            }
        }
    });
    assert!(seen > 0, "no retry told under a design without a key");
    assert!(
        wrong.is_empty(),
        "{} of {seen} sentences tell a retry without a key and do not say it charges again:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The consumer a sentence is about, when it opens with one (`B has…`).
fn subject(sentence: &str) -> Option<String> {
    let first = sentence.split_whitespace().next()?;
    (first.len() == 1 && first.chars().all(|c| c.is_ascii_lowercase()))
        .then(|| first.to_uppercase())
}

/// What an action says it has written, at a step where that row is still
/// in the writer's open transaction, says so: "has recorded the payment"
/// reads as saved (the trial met it in race-rollback; 16 scenarios told
/// it so).
#[test]
fn a_payment_still_in_its_transaction_is_not_told_as_recorded() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    each_run(|run| {
        for f in run.frames {
            let Some(said) = &f.said else { continue };
            for s in sentences(said) {
                let Some(who) = subject(&s) else { continue };
                let open =
                    f.db.payments
                        .iter()
                        .any(|p| p.uncommitted_by.as_deref() == Some(who.as_str()));
                if !open || !s.contains("payment") {
                    continue;
                }
                seen += 1;
                let unsaid = [
                    "not committed",
                    "not yet committed",
                    "uncommitted",
                    "open transaction",
                ];
                if s.contains("recorded") && !unsaid.iter().any(|w| s.contains(w)) {
                    wrong.push(format!(
                        "{} --mode {} ({}), step {}: {s:?}",
                        run.script.name, run.design, run.engine, f.index
                    ));
                }
            }
        }
    });
    assert!(seen > 0, "no payment told while it was open");
    assert!(
        wrong.is_empty(),
        "{} of {seen} sentences call a payment in an open transaction recorded:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A chapter titled "X does the work" has X's handler do some of it:
/// on PostgreSQL the naive B of race-rollback finished in chapter 1, and
/// its chapter 3 found nothing to do.
#[test]
fn a_chapter_that_says_a_consumer_does_the_work_has_it_work() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    each_run(|run| {
        let mut chapters: Vec<(usize, &str)> = run
            .frames
            .iter()
            .map(|f| (f.chapter, f.chapter_title.as_str()))
            .collect();
        chapters.dedup();
        for (chapter, title) in chapters {
            let Some(who) = title
                .strip_suffix(" does the work")
                .or_else(|| title.strip_suffix(" does the work again"))
            else {
                continue;
            };
            let who = who.rsplit(' ').next().unwrap_or(who);
            if who.len() != 1 {
                continue;
            }
            seen += 1;
            let works = run.frames.iter().any(|f| {
                f.chapter == chapter && f.stepped.as_deref() == Some(who) && !f.found_nothing
            });
            if !works {
                wrong.push(format!(
                    "{} --mode {} ({}), chapter {chapter}: {title:?}",
                    run.script.name, run.design, run.engine
                ));
            }
        }
    });
    assert!(seen > 0, "no chapter says who does the work");
    assert!(
        wrong.is_empty(),
        "{} of {seen} chapters say a consumer does the work it does not do:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
