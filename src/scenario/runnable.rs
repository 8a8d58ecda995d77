//! What makes a list of steps a handler the engine can run: it starts with
//! `receive`, its transactions balance, its database steps run inside one,
//! a provider call waits for its response, it acks. A list that runs is
//! accepted even when it is wrong: showing how it goes wrong is the
//! prover's job.

use super::step_words::{op_of, step_word, unknown_step};
use crate::sim::Op;

/// Steps in one design: far beyond any sensible handler (the longest
/// built-in has 11), and a bound on what the prover is asked to explore.
pub const MAX_STEPS: usize = 24;

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
    let ops = program_words(words)?;
    check_order(&ops).map(|()| ops)
}

/// The steps the words name, or why they cannot: none, too many, or a
/// word that is no step (the first).
fn program_words<S: AsRef<str>>(words: &[S]) -> Result<Vec<Op>, StepError> {
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
    words
        .iter()
        .enumerate()
        .map(|(i, word)| op_of(word.as_ref()).ok_or_else(|| at(i, unknown_step(word.as_ref()))))
        .collect()
}

/// The program a list of step words makes, or every reason it cannot be
/// one that can be told apart: all the order rules' slips once every word
/// is a step, else the first unknown word or the length.
pub fn program_all<S: AsRef<str>>(words: &[S]) -> Result<Vec<Op>, Vec<StepError>> {
    let ops = program_words(words).map_err(|e| vec![e])?;
    let errors = every_order_error(&ops, step_word);
    if errors.is_empty() {
        Ok(ops)
    } else {
        Err(errors)
    }
}

/// The rules of a runnable handler, over a program already made of known
/// steps, naming steps with a design file's words.
pub fn check_order(ops: &[Op]) -> Result<(), StepError> {
    check_order_named(ops, step_word)
}

/// The same rules, naming every step with `name`: a file's words for a
/// file, the labels on screen for the level screen, so that an error names
/// the blocks the learner sees. The first reason only.
pub fn check_order_named(ops: &[Op], name: fn(Op) -> &'static str) -> Result<(), StepError> {
    match every_order_error(ops, name).into_iter().next() {
        Some(first) => Err(first),
        None => Ok(()),
    }
}

/// Every reason a program of known steps cannot run, in the order of its
/// steps (those about the list as a whole last). Each slip is judged as if
/// the ones before it were mended: a `receive` out of place is one error,
/// not a second `receive` too, and a step after a stray `commit` is still
/// judged inside or outside the transaction it is in.
pub fn every_order_error(ops: &[Op], name: fn(Op) -> &'static str) -> Vec<StepError> {
    let mut errors = Vec::new();
    let mut at = |i: usize, message: String| {
        errors.push(StepError {
            at: Some(i),
            message,
        })
    };
    if ops.first() != Some(&Op::Receive) {
        at(
            0,
            format!(
                "a handler starts with `{}`: before it there is no message to work on",
                name(Op::Receive)
            ),
        );
    }
    let mut open: Option<usize> = None;
    let mut received = false;
    let mut acked = false;
    let mut claimed_record = false;
    for (i, &op) in ops.iter().enumerate() {
        let word = name(op);
        match op {
            // One out of place was reported above, at the first step.
            Op::Receive if !received => received = true,
            Op::Receive => {
                at(
                    i,
                    format!("`{word}` twice: a handler handles the one message it received first"),
                );
            }
            Op::Begin => {
                if let Some(b) = open {
                    at(
                        i,
                        format!(
                            "`{word}` inside the transaction step {} opened: `{}` it first",
                            b + 1,
                            name(Op::Commit)
                        ),
                    );
                }
                open = Some(i);
            }
            Op::Commit if open.is_none() => {
                at(
                    i,
                    format!(
                        "`{word}` without a `{}` before it: there is no transaction to commit",
                        name(Op::Begin)
                    ),
                );
            }
            Op::Commit => open = None,
            Op::Ack => {
                if acked {
                    at(
                        i,
                        format!("`{word}` twice: the broker takes one ack for a delivery"),
                    );
                }
                acked = true;
            }
            Op::AwaitResponse if i == 0 || !matches!(ops[i - 1], Op::CallProvider { .. }) => {
                at(
                    i,
                    format!(
                        "`{word}` waits for a provider call: put it right after `{}` or `{}`",
                        name(Op::CallProvider { with_key: true }),
                        name(Op::CallProvider { with_key: false })
                    ),
                );
            }
            Op::ClaimInProgress => claimed_record = true,
            Op::MarkCompleted if !claimed_record => {
                at(
                    i,
                    format!(
                        "`{word}` marks the in-progress record done: `{}` must come before it",
                        name(Op::ClaimInProgress)
                    ),
                );
            }
            _ => {}
        }
        if matches!(op, Op::CallProvider { .. }) && ops.get(i + 1) != Some(&Op::AwaitResponse) {
            at(
                i,
                format!(
                    "`{word}` needs `{}` right after it: the handler waits for the provider's answer (and calls again when it is lost)",
                    name(Op::AwaitResponse)
                ),
            );
        }
        if op.needs_transaction() && open.is_none() {
            at(
                i,
                format!(
                    "`{word}` uses the database: put it between `{}` and `{}`",
                    name(Op::Begin),
                    name(Op::Commit)
                ),
            );
        }
    }
    if let Some(b) = open {
        at(
            b,
            format!(
                "this transaction is never committed: add `{}` after its last step",
                name(Op::Commit)
            ),
        );
    }
    if !acked {
        errors.push(StepError {
            at: None,
            message: format!(
                "no `{0}`: the broker would deliver the message again and again; add `{0}`",
                name(Op::Ack)
            ),
        });
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_designs_are_accepted_for_the_prover_to_break() {
        // Acks before the work: at-most-once, a design to be proven wrong.
        let ok = ["receive", "ack", "begin", "payment", "commit"];
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
                &["receive", "payment", "ack"],
                Some(1),
                "between `begin` and `commit`",
            ),
            (
                &["receive", "begin", "payment", "ack"],
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
