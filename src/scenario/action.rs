//! The scenario files' action language: one short command per string.

use crate::sim::step_name;
use crate::sim::{Move, Op, format_duration, parse_duration};

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

impl Action {
    pub fn parse(text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&verb, args)) = words.split_first() else {
            return Err("empty action".into());
        };
        let arity = |n: usize, usage: &str| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "`{verb}` takes {usage}, as in `{verb} {}`",
                    example(verb)
                ))
            }
        };
        let duration = |text: &str| {
            parse_duration(text).ok_or_else(|| {
                format!("`{text}` is not a duration (write 500ms, 30s, 5m, 24h; at most 366d)")
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
                    // list shows (`charge the card`); kept as the keyword.
                    let step = step.join(" ");
                    let Some(op) = step_name::op_named(&step) else {
                        return Err(unknown_step(&step));
                    };
                    Action::Run {
                        consumer: c.to_string(),
                        to: Some(op.keyword().to_string()),
                    }
                }
                _ => {
                    return Err(format!(
                        "`run` takes a consumer and optionally `to <step>`, as in `{}`",
                        example("run")
                    ));
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
                return Err(format!(
                    "unknown action `{other}`{}: the actions are {}",
                    crate::suggest::did_you_mean(other, VERBS.iter().copied()),
                    VERBS.join(", ")
                ));
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
    /// *before* that step, at the step where it is next, and the step is
    /// named as the step list names it (`step_name::name`), so a reader
    /// reads `run A up to charge the card` beside a list that says
    /// `▷ charge the card`, not a keyword the list never shows.
    pub fn words(&self) -> String {
        match self {
            Action::Run {
                consumer,
                to: Some(to),
            } => {
                // The name, not the label: without the `(key)` a design's
                // call carries, the action is the same under every design,
                // and `m` finds the same moment by it.
                let name = step_name::name_of(to);
                format!("run {consumer} up to {name}")
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
            Action::Move(mv) => move_text(mv),
        }
    }
}

/// A move in the words of the action language: what a scenario file, a
/// transcript and a saved counterexample all write.
pub fn move_text(mv: &Move) -> String {
    match mv {
        Move::Step { consumer } => format!("step {consumer}"),
        Move::Crash { consumer } => format!("crash {consumer}"),
        Move::LoseAck { consumer } => format!("lose-ack {consumer}"),
        Move::LoseResponse { consumer } => format!("lose-response {consumer}"),
        Move::Slow { consumer, ms } => format!("slow {consumer} {}", format_duration(*ms)),
        Move::ExpireLease { message } => format!("expire-lease {message}"),
        Move::Wait { ms } => format!("wait {}", format_duration(*ms)),
        Move::Publish { message } => format!("publish {message}"),
        // Only a long run's producer makes this move; a scenario lists its
        // messages in the setup instead, so no action word reads it back.
        Move::Produce { message } => format!("produce {}", message.id),
        Move::Prune { age_ms } => format!("prune {}", format_duration(*age_ms)),
    }
}

/// Why `step` is no step of a handler, naming each step both ways a file
/// may write it: `provider` (charge the card).
pub fn unknown_step(step: &str) -> String {
    let both = |op: Op| {
        let name = step_name::name(op);
        if name == op.keyword() {
            format!("`{name}`")
        } else {
            format!("`{}` ({name})", op.keyword())
        }
    };
    let mut steps: Vec<String> = Op::ALL.into_iter().map(both).collect();
    steps.dedup();
    let words = Op::ALL
        .into_iter()
        .flat_map(|op| [op.keyword(), step_name::name(op)]);
    format!(
        "unknown step `{step}`{}: the steps are {} (the keyword, or the name the step list shows)",
        crate::suggest::did_you_mean(step, words),
        steps.join(", ")
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
            ("charge", "insert payment row"),
            ("ack", "acknowledge"),
            ("claim", "insert message ID"),
            ("commit", "commit"),
        ] {
            let by_keyword = Action::parse(&format!("run A to {keyword}")).unwrap();
            let by_name = Action::parse(&format!("run A to {name}")).unwrap();
            assert_eq!(by_keyword, by_name, "{name}");
            // Written back in the file's keyword, read as the list names it.
            assert_eq!(by_name.text(), format!("run A to {keyword}"));
            assert_eq!(by_name.words(), format!("run A up to {name}"));
        }
        // Spaces between the words as a file may write them.
        assert_eq!(
            Action::parse("run  A to charge   the card").unwrap(),
            Action::parse("run A to provider").unwrap()
        );
        // The key mark is no part of the name.
        assert!(Action::parse("run A to charge the card (key)").is_err());
    }

    #[test]
    fn an_unknown_step_is_told_with_both_names_of_every_step() {
        let e = Action::parse("run A to charge the crad").unwrap_err();
        assert!(e.contains("unknown step `charge the crad`"), "{e}");
        assert!(e.contains("(did you mean `charge the card`?)"), "{e}");
        assert!(e.contains("`provider` (charge the card)"), "{e}");
        assert!(e.contains("`charge` (insert payment row)"), "{e}");
        assert!(e.contains("`commit`,"), "{e}");
        let e = Action::parse("run A to akc").unwrap_err();
        assert!(e.contains("(did you mean `ack`?)"), "{e}");
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
