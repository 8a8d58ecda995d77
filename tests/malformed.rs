//! A corpus of broken scenario files, each starting with the errors it
//! must get (the format is in tests/corpus/mod.rs).

use crate::corpus::{self, expectations, mismatch};
use idem::scenario::{parse, parse_all};
use idem::sim::{Outcome, Strategy};
use idem::timeline::Timeline;
use std::time::{Duration, Instant};

/// Far above what any file takes: the limit catches a hang, not a slow run.
const PATIENCE: Duration = Duration::from_secs(5);

#[test]
fn each_malformed_file_gets_its_errors() {
    let files = corpus::files("malformed");
    assert!(files.len() >= 140, "the corpus shrank to {}", files.len());
    let mut failures = Vec::new();
    let mut several = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let expected = expectations(path, &text);
        several += usize::from(expected.errors.len() > 1);
        let name = path.file_name().unwrap().to_str().unwrap();
        let started = Instant::now();
        let parsed = parse_all(name, &text);
        let took = started.elapsed();
        if took > PATIENCE {
            failures.push(format!("{name}: took {took:?} to parse"));
        }
        match parsed {
            Ok(_) => failures.push(format!("{name}: parsed without error")),
            Err(errors) => {
                failures.extend(mismatch(name, &expected, &errors));
                // `parse` gives the first of them, alone.
                let first = parse(name, &text).unwrap_err();
                if first != errors[0] {
                    failures.push(format!("{name}: parse gave another first error: {first}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    assert!(several >= 5, "only {several} files expect several errors");
}

/// A scenario with one payment message `id`, narrated in `narration`.
fn one_payment(id: &str, narration: &str) -> String {
    format!(
        r#"title = "t"
summary = "s"
[setup]
consumers = ["A"]
messages = [{{ id = "{id}", order = 1042, amount = 40 }}]
[[steps]]
title = "go"
narration = "{narration}"
actions = ["run A", {{ do = "publish {id}", say = "{narration}" }}, "run A"]
[expect.idempotent]
total = 40
charges = 1
outcome = "correct"
"#
    )
}

/// SQL in an ID is only text: idem binds every value as a parameter, so the
/// tables hold the ID as written and the run ends as it would with `m-7f3`.
/// (An ID with spaces, like `'; DROP TABLE payments; --`, is refused: see
/// tests/malformed/sql-id-drop.toml.)
#[test]
fn an_id_that_looks_like_sql_is_stored_verbatim() {
    for id in [
        "';DROP/**/TABLE/**/payments;--",
        "m-7f3'OR'1'='1",
        "m-7f3');DELETE/**/FROM/**/processed_messages;--",
        "💳-7f3-ünï-中文",
    ] {
        let text = one_payment(id, "A runs 🚀 — ünïcödé, 中文, עברית");
        let script = parse("hostile-id.toml", &text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(script.setup.messages[0].id, id);
        let timeline = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let end = timeline.last();
        let payments: Vec<&str> = end
            .db
            .payments
            .iter()
            .map(|p| p.message_id.as_str())
            .collect();
        assert_eq!(payments, [id], "{id}");
        let processed: Vec<&str> = end
            .db
            .processed
            .iter()
            .map(|p| p.message_id.as_str())
            .collect();
        assert_eq!(processed, [id], "{id}");
        assert_eq!(end.db.payments_total, 40, "{id}");
        assert_eq!(end.verdict.outcome, Outcome::Correct, "{id}");
        assert!(
            timeline.misses(&script.expect["idempotent"]).is_empty(),
            "{id}"
        );
        assert!(
            timeline
                .frames
                .iter()
                .any(|f| f.narration.contains("ünïcödé, 中文, עברית")),
            "{id}: the narration lost its text"
        );
    }
}

/// A line of 200 000 characters is read, kept and run.
#[test]
fn a_very_long_title_runs() {
    let text = one_payment("m-7f3", "n").replace(
        "title = \"t\"",
        &format!("title = \"{}\"", "x".repeat(200_000)),
    );
    let started = Instant::now();
    let script = parse("long.toml", &text).unwrap();
    assert_eq!(script.title.len(), 200_000);
    Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
    assert!(started.elapsed() < PATIENCE);
}

/// Files one past each count limit, written here rather than kept: at the
/// limits of a long run they would be large. Each error points at the
/// first thing over the limit.
#[test]
fn one_past_each_limit_is_refused_where_it_starts() {
    use idem::scenario::limits::{MAX_ACTIONS, MAX_MESSAGES, MAX_STEPS};
    let head = "title = \"t\"\nsummary = \"s\"\n[setup]\nconsumers = [\"A\"]\n";
    // Messages: one a line after `messages = [` on line 5.
    let mut text = format!("{head}messages = [\n");
    for i in 0..=MAX_MESSAGES {
        text.push_str(&format!(
            "    {{ id = \"m-{i}\", order = {}, amount = 1 }},\n",
            i + 1
        ));
    }
    text.push_str("]\n[[steps]]\ntitle = \"s\"\nnarration = \"n\"\nactions = [\"run A\"]\n");
    let e = parse("many-messages.toml", &text).unwrap_err();
    assert_eq!((e.line, e.column), (6 + MAX_MESSAGES, 12), "{e}");
    assert!(
        e.message.contains(&format!("at most {MAX_MESSAGES}")),
        "{e}"
    );
    // Steps: four lines each, from line 6.
    let mut text = format!("{head}messages = [{{ id = \"m-1\", order = 1, amount = 1 }}]\n");
    for i in 0..=MAX_STEPS {
        text.push_str(&format!(
            "[[steps]]\ntitle = \"s{i}\"\nnarration = \"n\"\nactions = [\"wait 1s\"]\n"
        ));
    }
    let e = parse("many-steps.toml", &text).unwrap_err();
    assert_eq!((e.line, e.column), (9 + 4 * MAX_STEPS, 11), "{e}");
    assert!(e.message.contains(&format!("at most {MAX_STEPS}")), "{e}");
    // Actions: one a line in one step, the first on line 10.
    let mut text = format!(
        "{head}messages = [{{ id = \"m-1\", order = 1, amount = 1 }}]\n[[steps]]\ntitle = \"s\"\nnarration = \"n\"\nactions = [\n"
    );
    for _ in 0..=MAX_ACTIONS {
        text.push_str("    \"wait 1s\",\n");
    }
    text.push_str("]\n");
    let e = parse("many-actions.toml", &text).unwrap_err();
    assert_eq!((e.line, e.column), (10 + MAX_ACTIONS, 5), "{e}");
    assert!(e.message.contains(&format!("at most {MAX_ACTIONS}")), "{e}");
}
