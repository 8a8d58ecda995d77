//! The scenario files' action language: one short command per string.

use crate::sim::step_name;
use crate::sim::{Move, Op, Strategy, parse_duration};
use std::ops::Range;

/// One action of a scenario step: a move of the world as it is, or a `run`,
/// which expands into steps as the world answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Steps until the handler is done with its message, is blocked, or
    /// (with `to`) is about to run that step.
    Run {
        consumer: String,
        to: Option<String>,
    },
    Move(Move),
}

pub const VERBS: [&str; 10] = [
    "step",
    "run",
    "crash",
    "lose-ack",
    "lose-response",
    "slow",
    "expire-lease",
    "wait",
    "publish",
    "prune",
];

/// Why an action's text is no action, and which of its words is wrong:
/// `at` is a byte range of the text, `None` when the fault is the action
/// as a whole (too many words, none at all). A file's error points its
/// caret there, not at the start of the action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slip {
    pub at: Option<Range<usize>>,
    pub message: String,
}

/// The byte range of the text from its word `from` (counted from 0) to the
/// end of its last word; `None` when it has no such word.
pub fn words_from(text: &str, from: usize) -> Option<Range<usize>> {
    let at = |w: &str| w.as_ptr() as usize - text.as_ptr() as usize;
    let first = text.split_whitespace().nth(from)?;
    let last = text.split_whitespace().last()?;
    Some(at(first)..at(last) + last.len())
}

impl Action {
    /// The action a text writes, or why it is none, in words alone.
    pub fn parse(text: &str) -> Result<Action, String> {
        Action::parse_for(text, &[]).map_err(|slip| slip.message)
    }

    /// The action a text writes, or the slip and the word it is in. An
    /// unknown step is told with the steps of `designs`, the designs the
    /// scenario runs (every step when it names none): a list a reader can
    /// take in, of steps that would work there.
    pub fn parse_for(text: &str, designs: &[Strategy]) -> Result<Action, Slip> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&verb, args)) = words.split_first() else {
            return Err(whole("empty action".into()));
        };
        let arity = |n: usize, usage: &str| -> Result<(), Slip> {
            if args.len() == n {
                Ok(())
            } else {
                Err(whole(format!(
                    "`{verb}` takes {usage}, as in `{verb} {}`",
                    example(verb)
                )))
            }
        };
        let duration = |word: &str| {
            parse_duration(word).ok_or_else(|| Slip {
                at: words_from(text, 1),
                message: format!(
                    "`{word}` is not a duration (write 500ms, 30s, 5m, 24h; at most 366d)"
                ),
            })
        };
        let owned = |i: usize| args[i].to_string();
        Ok(match verb {
            "step" => {
                arity(1, "a consumer")?;
                Action::Move(Move::Step { consumer: owned(0) })
            }
            "run" => match args {
                [c] => Action::Run {
                    consumer: c.to_string(),
                    to: None,
                },
                [c, "to", step @ ..] if !step.is_empty() => {
                    // The step's keyword (`provider`) or the name the step
                    // list shows (`charge the card`), or an old keyword
                    // (`charge`, warned of by the validator); kept as
                    // today's keyword, which is what is written back.
                    let step = step.join(" ");
                    let op =
                        step_name::op_named(&step).or_else(|| super::old_keyword::renamed(&step));
                    let Some(op) = op else {
                        return Err(Slip {
                            at: words_from(text, 3),
                            message: unknown_step(&step, designs),
                        });
                    };
                    Action::Run {
                        consumer: c.to_string(),
                        to: Some(op.keyword().to_string()),
                    }
                }
                _ => {
                    return Err(whole(format!(
                        "`run` takes a consumer and optionally `to <step>`, as in `{}`",
                        example("run")
                    )));
                }
            },
            "crash" => {
                arity(1, "a consumer")?;
                Action::Move(Move::Crash { consumer: owned(0) })
            }
            "lose-ack" => {
                arity(1, "a consumer")?;
                Action::Move(Move::LoseAck { consumer: owned(0) })
            }
            "lose-response" => {
                arity(1, "a consumer")?;
                Action::Move(Move::LoseResponse { consumer: owned(0) })
            }
            "slow" => {
                arity(2, "a consumer and a duration")?;
                Action::Move(Move::Slow {
                    consumer: owned(0),
                    ms: duration(args[1])?,
                })
            }
            "expire-lease" => {
                arity(1, "a message ID")?;
                Action::Move(Move::ExpireLease { message: owned(0) })
            }
            "wait" => {
                arity(1, "a duration")?;
                Action::Move(Move::Wait {
                    ms: duration(args[0])?,
                })
            }
            "publish" => {
                arity(1, "a message ID")?;
                Action::Move(Move::Publish { message: owned(0) })
            }
            "prune" => {
                arity(1, "an age")?;
                Action::Move(Move::Prune {
                    age_ms: duration(args[0])?,
                })
            }
            other => {
                return Err(Slip {
                    at: words_from(text, 0).map(|all| all.start..all.start + other.len()),
                    message: format!(
                        "unknown action `{other}`{}: the actions are {}",
                        crate::suggest::did_you_mean(other, VERBS.iter().copied()),
                        VERBS.join(", ")
                    ),
                });
            }
        })
    }

    pub fn consumer(&self) -> Option<&str> {
        match self {
            Action::Run { consumer, .. }
            | Action::Move(
                Move::Step { consumer }
                | Move::Crash { consumer }
                | Move::LoseAck { consumer }
                | Move::LoseResponse { consumer }
                | Move::Slow { consumer, .. },
            ) => Some(consumer),
            _ => None,
        }
    }

    pub fn message(&self) -> Option<&str> {
        match self {
            Action::Move(Move::ExpireLease { message } | Move::Publish { message }) => {
                Some(message)
            }
            _ => None,
        }
    }

    /// The action in a reader's words, on every screen and transcript: as
    /// the file writes it, except that the file's `run A to provider` stops
    /// *before* that step, at the step where it is next, and says so
    /// (`run_to_words`), and the step is named as the step list names it
    /// (`step_name::name`), so a reader reads `run A to before charge
    /// the card` beside a list that says `▷ charge the card`, not a
    /// keyword the list never shows.
    pub fn words(&self) -> String {
        match self {
            Action::Run {
                consumer,
                to: Some(to),
            } => {
                // The name, not the label: without the `(key)` a design's
                // call carries, the action is the same under every design,
                // and `m` finds the same moment by it.
                run_to_words(consumer, step_name::name_of(to))
            }
            _ => self.text(),
        }
    }

    /// The action written back in the file's syntax.
    pub fn text(&self) -> String {
        match self {
            Action::Run { consumer, to: None } => format!("run {consumer}"),
            Action::Run {
                consumer,
                to: Some(to),
            } => format!("run {consumer} to {to}"),
            Action::Move(mv) => mv.written(),
        }
    }
}

/// A run that stops where the step `name` is next, in a reader's words.
/// `run A to commit` read as if the commit ran (an earlier trial), and so
/// did `run A up to commit` (teacher trial: `begin transaction (A) · part of: run
/// A up to charge the card`): `before` says the step is not run, stays in
/// whatever start of the words a narrow step line keeps, and adds as few
/// columns as the words can (a step line at 120x40 beside a fold note).
pub fn run_to_words(consumer: &str, name: &str) -> String {
    format!("run {consumer} to before {name}")
}

/// A slip in the action as a whole, no one word of it.
fn whole(message: String) -> Slip {
    Slip { at: None, message }
}

/// Characters of an unknown step's list of steps, past which the rest are
/// counted, not named: the message is read on one terminal screen.
const STEP_LIST_CHARS: usize = 300;

/// Why `step` is no step of a handler, naming each step both ways a file
/// may write it: `provider` (charge the card). Only the steps of `designs`
/// are listed when it names any, the likeliest first, and the list ends
/// at a whole name with a count of those left out.
pub fn unknown_step(step: &str, designs: &[Strategy]) -> String {
    let both = |op: Op| {
        let name = step_name::name(op);
        if name == op.keyword() {
            format!("`{name}`")
        } else {
            format!("`{}` ({name})", op.keyword())
        }
    };
    let has = |op: &Op| {
        designs.is_empty()
            || designs
                .iter()
                .any(|d| d.program.iter().any(|p| p.keyword() == op.keyword()))
    };
    let mut ops: Vec<Op> = Op::ALL.into_iter().filter(has).collect();
    ops.dedup_by_key(|op| op.keyword());
    let words = |ops: &[Op]| -> Vec<&'static str> {
        ops.iter()
            .flat_map(|&op| [op.keyword(), step_name::name(op)])
            .collect()
    };
    let mut meant = crate::suggest::did_you_mean(step, words(&ops));
    if meant.is_empty() {
        meant = crate::suggest::did_you_mean(step, words(&Op::ALL));
    }
    let whose = match designs {
        [] => "the steps are".to_string(),
        [one] => format!("the steps of {} are", one.name),
        [first @ .., last] => {
            let first: Vec<&str> = first.iter().map(|d| d.name.as_ref()).collect();
            format!("the steps of {} and {} are", first.join(", "), last.name)
        }
    };
    let mut shown: Vec<String> = Vec::new();
    let mut length = 0;
    for op in &ops {
        let named = both(*op);
        length += named.chars().count() + 2;
        if length > STEP_LIST_CHARS {
            break;
        }
        shown.push(named);
    }
    let left = match ops.len() - shown.len() {
        0 => String::new(),
        n => format!(" and {n} more, all in the README's table of steps"),
    };
    format!(
        "unknown step `{step}`{meant}: {whose} {}{left}; write the keyword or the name the step list shows",
        shown.join(", ")
    )
}

fn example(verb: &str) -> &'static str {
    match verb {
        "run" => "run A to commit",
        "slow" => "A 40s",
        "wait" | "prune" => "30s",
        "expire-lease" | "publish" => "m-7f3",
        _ => "A",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_text() {
        for text in [
            "step A",
            "run B",
            "run A to commit",
            "crash A",
            "lose-ack A",
            "lose-response B",
            "slow A 40s",
            "expire-lease m-7f3",
            "wait 30s",
            "publish m-7f3",
            "prune 1h",
        ] {
            assert_eq!(Action::parse(text).unwrap().text(), text);
        }
    }

    #[test]
    fn a_step_may_be_named_by_its_keyword_or_its_step_list_name() {
        for (keyword, name) in [
            ("provider", "charge the card"),
            ("payment", "insert payment row"),
            ("ack", "acknowledge"),
            ("claim", "insert message ID"),
            ("commit", "commit"),
        ] {
            let by_keyword = Action::parse(&format!("run A to {keyword}")).unwrap();
            let by_name = Action::parse(&format!("run A to {name}")).unwrap();
            assert_eq!(by_keyword, by_name, "{name}");
            // Written back in the file's keyword, read as the list names it.
            assert_eq!(by_name.text(), format!("run A to {keyword}"));
            assert_eq!(by_name.words(), format!("run A to before {name}"));
        }
        // Spaces between the words as a file may write them.
        assert_eq!(
            Action::parse("run  A to charge   the card").unwrap(),
            Action::parse("run A to provider").unwrap()
        );
        // The old keyword is read as the step it named, written back new.
        let old = Action::parse("run A to charge").unwrap();
        assert_eq!(old, Action::parse("run A to payment").unwrap());
        assert_eq!(old.text(), "run A to payment");
        // The key mark is no part of the name.
        assert!(Action::parse("run A to charge the card (key)").is_err());
    }

    #[test]
    fn an_unknown_step_is_told_with_both_names_of_every_step() {
        let e = Action::parse("run A to charge the crad").unwrap_err();
        assert!(e.contains("unknown step `charge the crad`"), "{e}");
        assert!(e.contains("(did you mean `charge the card`?)"), "{e}");
        assert!(e.contains("`provider` (charge the card)"), "{e}");
        assert!(e.contains("`payment` (insert payment row)"), "{e}");
        assert!(e.contains("`commit`,"), "{e}");
        let e = Action::parse("run A to akc").unwrap_err();
        assert!(e.contains("(did you mean `ack`?)"), "{e}");
    }

    #[test]
    fn an_unknown_step_lists_whole_names_and_counts_the_rest() {
        let e = unknown_step("provder", &[]);
        // Short enough that no error cuts it in the middle of a word.
        assert!(e.chars().count() < 500, "{e}");
        // Two names are quoted before the list: the step and the guess.
        let shown = e.matches('`').count() / 2 - 2;
        let left = Op::keywords().len() - shown;
        assert!(e.contains(&format!(" and {left} more, all in")), "{e}");
        // Told for the designs a scenario runs: their steps alone.
        let naive = Strategy::by_name("naive").unwrap();
        let e = unknown_step("provder", std::slice::from_ref(&naive));
        assert!(e.starts_with("unknown step `provder` (did you mean `provider`?): the steps of naive are `receive`,"), "{e}");
        assert!(!e.contains("claim") && !e.contains("more"), "{e}");
    }

    #[test]
    fn a_slip_names_the_word_it_is_in() {
        let at = |text: &str| {
            let slip = Action::parse_for(text, &[]).unwrap_err();
            slip.at.map(|r| text[r].to_string())
        };
        assert_eq!(
            at("run A to charge the crad"),
            Some("charge the crad".into())
        );
        assert_eq!(at("  jump A"), Some("jump".into()));
        assert_eq!(at("wait soon"), Some("soon".into()));
        assert_eq!(at("crash A B"), None);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(
            Action::parse("jump A")
                .unwrap_err()
                .contains("unknown action `jump`")
        );
        assert!(
            Action::parse("run A to lunch")
                .unwrap_err()
                .contains("unknown step `lunch`")
        );
        assert!(
            Action::parse("wait forever")
                .unwrap_err()
                .contains("not a duration")
        );
        assert!(
            Action::parse("crash")
                .unwrap_err()
                .contains("takes a consumer")
        );
        assert_eq!(Action::parse("  ").unwrap_err(), "empty action");
    }
}
