//! The scenario files' action language: one short command per string.

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
                [c, "to", step] => {
                    let keywords = Op::keywords();
                    if !keywords.contains(step) {
                        return Err(format!(
                            "unknown step `{step}`{}: the steps are {}",
                            crate::suggest::did_you_mean(step, keywords.iter().copied()),
                            keywords.join(", ")
                        ));
                    }
                    Action::Run {
                        consumer: c.to_string(),
                        to: Some(step.to_string()),
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
    /// named as the step list names it in `program` (the design run), so a
    /// reader reads `run A up to charge the card` beside a list that says
    /// `▷ charge the card`, not a keyword the list never shows.
    pub fn words(&self, program: &[Op]) -> String {
        match self {
            Action::Run {
                consumer,
                to: Some(to),
            } => {
                let name = program
                    .iter()
                    .chain(Op::ALL.iter())
                    .find(|op| op.keyword() == to)
                    // Without the `(key)` a design's call carries: the
                    // action is the same under every design, and `m`
                    // finds the same moment by it.
                    .map_or(to.as_str(), |op| op.label().trim_end_matches(" (key)"));
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
