//! A handler design written as data: a name, a one-line summary and the
//! handler's steps in order, by the keywords scenario files use.
//!
//! ```toml
//! name = "mine"
//! summary = "the ID and the payment in one transaction"
//! steps = ["receive", "begin", "claim", "charge", "provider with key",
//!          "response", "commit", "ack"]
//! ```
//!
//! The line between an error and a wrong design: a list the engine could
//! not run as a handler at all is refused here, at its line and column (an
//! unknown step, a step before `receive`, a transaction that is not
//! balanced, a database step outside one, a provider call without its
//! response, no ack). A list the engine can run is accepted even when it is
//! wrong, because showing *how* it goes wrong is the prover's job: an ack
//! before the work, an ID saved in its own transaction, no Idempotency-Key.

use super::error::{ScenarioError, ScenarioErrors};
use super::load::LoadError;
use crate::sim::{Op, Strategy};
use crate::suggest::did_you_mean;
use serde::Deserialize;
use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use toml::Spanned;

/// Steps in one design: far beyond any sensible handler (the longest
/// built-in has 11), and a bound on what the prover is asked to explore.
pub const MAX_STEPS: usize = 24;
/// Characters in a design's name and in its summary.
pub const MAX_NAME: usize = 40;
pub const MAX_SUMMARY: usize = 200;

/// The words a design file uses for each building block, in `Op::ALL`'s
/// order. The provider call is the one step with a parameter, so it has a
/// word for each value.
pub fn step_words() -> Vec<&'static str> {
    Op::ALL.into_iter().map(step_word).collect()
}

/// The word a design file uses for `op`.
pub fn step_word(op: Op) -> &'static str {
    match op {
        Op::CallProvider { with_key: true } => "provider with key",
        Op::CallProvider { with_key: false } => "provider without key",
        other => other.keyword(),
    }
}

/// The building block a word names, if any.
pub fn op_of(word: &str) -> Option<Op> {
    match word {
        "provider with key" => Some(Op::CallProvider { with_key: true }),
        "provider without key" => Some(Op::CallProvider { with_key: false }),
        "provider" => None,
        other => Op::ALL.into_iter().find(|op| op.keyword() == other),
    }
}

/// Steps that read or write the database: SQLite runs them in the
/// handler's transaction, and the engine keeps no other connection state.
pub fn needs_transaction(op: Op) -> bool {
    matches!(
        op,
        Op::ClaimId
            | Op::CheckId
            | Op::ApplyCharge
            | Op::ClaimInProgress
            | Op::MarkCompleted
            | Op::GuardRow
            | Op::CheckOffset
            | Op::SaveOffset
            | Op::ApplyIfNewer
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDesign {
    name: Spanned<String>,
    summary: Spanned<String>,
    /// The learner's claim; the prover holds the design to it.
    #[serde(default = "yes")]
    claims_safe: bool,
    steps: Spanned<Vec<Spanned<String>>>,
}

fn yes() -> bool {
    true
}

/// Why a list of steps cannot be a handler, and which step (by index; the
/// list itself when `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    pub at: Option<usize>,
    pub message: String,
}

/// The program a list of step words makes, or the first reason it cannot be
/// one. The same rules for a design file, a level and the level screen.
pub fn program<S: AsRef<str>>(words: &[S]) -> Result<Vec<Op>, StepError> {
    let at = |i: usize, message: String| StepError {
        at: Some(i),
        message,
    };
    if words.is_empty() {
        return Err(StepError {
            at: None,
            message: "no steps: a handler starts with `receive`".into(),
        });
    }
    if words.len() > MAX_STEPS {
        return Err(at(
            MAX_STEPS,
            format!("too many steps: a design may have at most {MAX_STEPS}"),
        ));
    }
    let mut ops = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let word = word.as_ref();
        let Some(op) = op_of(word) else {
            return Err(at(i, unknown_step(word)));
        };
        ops.push(op);
    }
    check_order(&ops).map(|()| ops)
}

/// Why a word is not a step, with the word that was probably meant.
fn unknown_step(word: &str) -> String {
    if word == "provider" {
        "say `provider with key` (the message ID as Idempotency-Key) or `provider without key`"
            .to_string()
    } else {
        format!(
            "unknown step `{word}`{}; the steps are {}",
            did_you_mean(word, step_words()),
            step_words().join(", ")
        )
    }
}

/// The rules of a runnable handler, over a program already made of known
/// steps, naming steps with a design file's words.
pub fn check_order(ops: &[Op]) -> Result<(), StepError> {
    check_order_named(ops, step_word)
}

/// The same rules, naming every step with `name`: a file's words for a
/// file, the labels on screen for the level screen, so that an error names
/// the blocks the learner sees.
pub fn check_order_named(ops: &[Op], name: fn(Op) -> &'static str) -> Result<(), StepError> {
    let at = |i: usize, message: String| StepError {
        at: Some(i),
        message,
    };
    if ops.first() != Some(&Op::Receive) {
        return Err(at(
            0,
            format!(
                "a handler starts with `{}`: before it there is no message to work on",
                name(Op::Receive)
            ),
        ));
    }
    let mut open: Option<usize> = None;
    let mut acked = false;
    let mut claimed_record = false;
    for (i, &op) in ops.iter().enumerate().skip(1) {
        let word = name(op);
        match op {
            Op::Receive => {
                return Err(at(
                    i,
                    format!("`{word}` twice: a handler handles the one message it received first"),
                ));
            }
            Op::Begin => {
                if let Some(b) = open {
                    return Err(at(
                        i,
                        format!(
                            "`{word}` inside the transaction step {} opened: `{}` it first",
                            b + 1,
                            name(Op::Commit)
                        ),
                    ));
                }
                open = Some(i);
            }
            Op::Commit if open.is_none() => {
                return Err(at(
                    i,
                    format!(
                        "`{word}` without a `{}` before it: there is no transaction to commit",
                        name(Op::Begin)
                    ),
                ));
            }
            Op::Commit => open = None,
            Op::Ack => {
                if acked {
                    return Err(at(
                        i,
                        format!("`{word}` twice: the broker takes one ack for a delivery"),
                    ));
                }
                acked = true;
            }
            Op::AwaitResponse if !matches!(ops[i - 1], Op::CallProvider { .. }) => {
                return Err(at(
                    i,
                    format!(
                        "`{word}` waits for a provider call: put it right after `{}` or `{}`",
                        name(Op::CallProvider { with_key: true }),
                        name(Op::CallProvider { with_key: false })
                    ),
                ));
            }
            Op::ClaimInProgress => claimed_record = true,
            Op::MarkCompleted if !claimed_record => {
                return Err(at(
                    i,
                    format!(
                        "`{word}` marks the in-progress record done: `{}` must come before it",
                        name(Op::ClaimInProgress)
                    ),
                ));
            }
            _ => {}
        }
        if matches!(op, Op::CallProvider { .. }) && ops.get(i + 1) != Some(&Op::AwaitResponse) {
            return Err(at(
                i,
                format!(
                    "`{word}` needs `{}` right after it: the handler waits for the provider's answer (and calls again when it is lost)",
                    name(Op::AwaitResponse)
                ),
            ));
        }
        if needs_transaction(op) && open.is_none() {
            return Err(at(
                i,
                format!(
                    "`{word}` uses the database: put it between `{}` and `{}`",
                    name(Op::Begin),
                    name(Op::Commit)
                ),
            ));
        }
    }
    if let Some(b) = open {
        return Err(at(
            b,
            format!(
                "this transaction is never committed: add `{}` after its last step",
                name(Op::Commit)
            ),
        ));
    }
    if !acked {
        return Err(StepError {
            at: None,
            message: format!(
                "no `{0}`: the broker would deliver the message again and again; add `{0}`",
                name(Op::Ack)
            ),
        });
    }
    Ok(())
}

/// Whether the file at `path` is a design file rather than a scenario:
/// it names a design (`name`) and has no scenario `title`. A file that
/// cannot be read or parsed is left to the scenario reader's errors.
pub fn is_design_file(path: &Path) -> bool {
    let Ok(text) = super::file::read(path) else {
        return false;
    };
    let (root, _) = toml::de::DeTable::parse_recoverable(&text);
    let root = root.get_ref();
    root.contains_key("name") && !root.contains_key("title")
}

/// Reads a design file from a path; one that does not validate gets every
/// error that can be told apart.
pub fn load(path: &Path) -> Result<Strategy, LoadError> {
    let text = super::file::read(path)?;
    Ok(parse_all(&path.display().to_string(), &text)?)
}

/// A design from the text of a file called `file`, or the first error in
/// the file.
pub fn parse(file: &str, text: &str) -> Result<Strategy, ScenarioError> {
    parse_all(file, text).map_err(ScenarioErrors::into_first)
}

/// A design from the text of a file called `file`, or its errors in file
/// order: control characters, else TOML syntax, else types and keys, else
/// whatever is wrong with the name, the summary and the steps, each on its
/// own.
pub fn parse_all(file: &str, text: &str) -> Result<Strategy, ScenarioErrors> {
    let err =
        |span: Option<Range<usize>>, message: String| ScenarioError::at(file, text, span, message);
    // As in a scenario: control characters beside every other error.
    let control = super::control::check(file, text).err();
    let raw: RawDesign = match super::every_error::deserialize_all(text) {
        Ok(raw) => raw,
        Err(all) => {
            let found = super::load::toml_errors(file, text, all).beside(control.as_ref());
            return Err(ScenarioErrors::join(control, found).expect("some"));
        }
    };
    // The rules would only trip again over a control character.
    match control {
        Some(control) => Err(control),
        None => rules(raw, &err),
    }
}

/// What is wrong with the name, the summary and the steps of a design that
/// reads as TOML, each at its place.
fn rules(
    raw: RawDesign,
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
) -> Result<Strategy, ScenarioErrors> {
    let mut errors = Vec::new();
    let name = raw.name.get_ref();
    if name.is_empty()
        || name.chars().count() > MAX_NAME
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        errors.push(err(
            Some(raw.name.span()),
            format!("a design's name is 1 to {MAX_NAME} of a-z, 0-9 and `-`, like `my-handler`"),
        ));
    } else if Strategy::by_name(name).is_some() {
        errors.push(err(
            Some(raw.name.span()),
            format!("`{name}` is a built-in design's name: give yours another"),
        ));
    }
    let summary = raw.summary.get_ref();
    if summary.contains('\n') || summary.chars().count() > MAX_SUMMARY {
        errors.push(err(
            Some(raw.summary.span()),
            format!("the summary is one line of at most {MAX_SUMMARY} characters"),
        ));
    }
    let words: Vec<&str> = raw
        .steps
        .get_ref()
        .iter()
        .map(|s| s.get_ref().as_str())
        .collect();
    // Every word that is no step, each at its place: the order rules can
    // only be judged once all are known.
    let spans = raw.steps.get_ref();
    let unknown: Vec<ScenarioError> = words
        .iter()
        .zip(spans)
        .filter(|(word, _)| op_of(word).is_none())
        .map(|(word, at)| err(Some(at.span()), unknown_step(word)))
        .collect();
    if !unknown.is_empty() && words.len() <= MAX_STEPS {
        errors.extend(unknown);
        return Err(ScenarioErrors::new(errors));
    }
    let program = program(&words).map_err(|e| {
        let span = match e.at {
            Some(i) => raw.steps.get_ref()[i].span(),
            None => raw.steps.span(),
        };
        err(Some(span), e.message)
    });
    match program {
        Ok(program) if errors.is_empty() => Ok(Strategy {
            name: Cow::Owned(name.clone()),
            summary: Cow::Owned(summary.clone()),
            claims_safe: raw.claims_safe,
            program,
        }),
        Ok(_) => Err(ScenarioErrors::new(errors)),
        Err(e) => {
            errors.push(e);
            Err(ScenarioErrors::new(errors))
        }
    }
}

/// A design as a file `parse` reads back: how the level screen and the
/// levels' tests write one down.
pub fn to_toml(strategy: &Strategy) -> String {
    let steps: Vec<String> = strategy
        .program
        .iter()
        .map(|&op| format!("    {:?},", step_word(op)))
        .collect();
    format!(
        "name = {:?}\nsummary = {:?}\nsteps = [\n{}\n]\n",
        strategy.name.as_ref(),
        strategy.summary.as_ref(),
        steps.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_design_is_a_valid_program_and_round_trips() {
        for s in Strategy::all() {
            let words: Vec<&str> = s.program.iter().map(|&op| step_word(op)).collect();
            assert_eq!(program(&words).as_ref(), Ok(&s.program), "{}", s.name);
            let mine = Strategy {
                name: Cow::Owned(format!("my-{}", s.name)),
                ..s.clone()
            };
            let back = parse("d.toml", &to_toml(&mine)).unwrap();
            assert_eq!(
                back,
                Strategy {
                    claims_safe: true,
                    ..mine
                }
            );
        }
    }

    #[test]
    fn every_word_names_its_own_step() {
        let words = step_words();
        for (word, op) in words.iter().zip(Op::ALL) {
            assert_eq!(op_of(word), Some(op), "{word}");
        }
        for (i, word) in words.iter().enumerate() {
            assert!(!words[i + 1..].contains(word), "{word} names two steps");
        }
    }

    #[test]
    fn wrong_designs_are_accepted_for_the_prover_to_break() {
        // Acks before the work: at-most-once, a design to be proven wrong.
        let ok = ["receive", "ack", "begin", "charge", "commit"];
        assert!(program(&ok).is_ok());
        // No database at all: runnable, and it loses every charge.
        assert!(program(&["receive", "ack"]).is_ok());
    }

    #[test]
    fn what_cannot_run_is_refused_at_its_step() {
        let cases: [(&[&str], Option<usize>, &str); 9] = [
            (
                &["begin", "receive", "ack"],
                Some(0),
                "starts with `receive`",
            ),
            (&["receive", "commit", "ack"], Some(1), "without a `begin`"),
            (
                &["receive", "begin", "begin"],
                Some(2),
                "inside the transaction step 2",
            ),
            (
                &["receive", "charge", "ack"],
                Some(1),
                "between `begin` and `commit`",
            ),
            (
                &["receive", "begin", "charge", "ack"],
                Some(1),
                "never committed",
            ),
            (
                &["receive", "response", "ack"],
                Some(1),
                "waits for a provider call",
            ),
            (
                &["receive", "provider with key", "ack"],
                Some(1),
                "needs `response`",
            ),
            (&["receive", "ack", "ack"], Some(2), "`ack` twice"),
            (&["receive"], None, "no `ack`"),
        ];
        for (words, at, words_in) in cases {
            let e = program(words).unwrap_err();
            assert_eq!(e.at, at, "{words:?}: {}", e.message);
            assert!(e.message.contains(words_in), "{words:?}: {}", e.message);
        }
        let e = program(&["receive", "clam"]).unwrap_err();
        assert!(e.message.contains("did you mean `claim`?"), "{}", e.message);
    }
}
