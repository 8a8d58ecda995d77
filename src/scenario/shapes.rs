//! The costliest scenario files a reader could write (issue 22), made by a
//! program at any length: the tests hold the budget's line between the
//! longest one accepted and one action more, and `benches/budget.rs`
//! measures the longest accepted one. Each is what a frame-keeping run
//! found hardest: a queue that grows (`publish` and `run`), every consumer
//! crashing and restarting, the clock running on, one handler working
//! through every message, and one message charged again and again.

use super::action::Action;
use super::limits::{MAX_COPY_FRAMES, MAX_FRAMES, RUN_FRAMES};
use crate::sim::Move;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// 100 messages; `publish m-N` and `run A` by turns: the queue grows.
    PublishRun,
    /// 100 messages, 8 consumers; `crash X` and `step X` by turns.
    CrashStep,
    /// 100 messages; `wait 366d` again and again.
    Wait,
    /// 50 messages; `step A` again and again: A handles each in turn, so
    /// payment rows and charges grow all along the longest run there is.
    Steps,
    /// One message that may be received without end: A handles it, its
    /// ack is lost and its lease ends, again and again, so the payments
    /// and charges grow with every round.
    Redeliver,
}

impl Shape {
    pub const ALL: [Shape; 5] = [
        Shape::PublishRun,
        Shape::CrashStep,
        Shape::Wait,
        Shape::Steps,
        Shape::Redeliver,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shape::PublishRun => "publish-run",
            Shape::CrashStep => "crash-step",
            Shape::Wait => "wait",
            Shape::Steps => "steps",
            Shape::Redeliver => "redeliver",
        }
    }

    fn messages(self) -> usize {
        match self {
            Shape::Redeliver => 1,
            Shape::Steps => 50,
            _ => 100,
        }
    }

    fn consumers(self) -> &'static [&'static str] {
        match self {
            Shape::CrashStep => &["A", "B", "C", "D", "E", "F", "G", "H"],
            _ => &["A"],
        }
    }

    /// Action `i` of the file.
    fn action(self, i: usize) -> Action {
        let step = |who: &str| {
            Action::Move(Move::Step {
                consumer: who.into(),
            })
        };
        match self {
            Shape::PublishRun if i.is_multiple_of(2) => Action::Move(Move::Publish {
                message: format!("m-{}", (i / 2) % self.messages()),
            }),
            Shape::PublishRun => Action::Run {
                consumer: "A".into(),
                to: None,
            },
            Shape::CrashStep => {
                let who = self.consumers()[(i / 2) % 8];
                if i.is_multiple_of(2) {
                    Action::Move(Move::Crash {
                        consumer: who.into(),
                    })
                } else {
                    step(who)
                }
            }
            Shape::Wait => Action::Move(Move::Wait {
                ms: 366 * 86_400_000,
            }),
            Shape::Steps => step("A"),
            Shape::Redeliver => match i % 10 {
                0 => Action::Move(Move::LoseAck {
                    consumer: "A".into(),
                }),
                9 => Action::Move(Move::ExpireLease {
                    message: "m-0".into(),
                }),
                _ => step("A"),
            },
        }
    }

    /// The most actions this shape may have, by the rule the README
    /// states: frames (one per action, `RUN_FRAMES` per `run`, and the
    /// setup's) at most `MAX_FRAMES`, and frames times queue entries (the
    /// messages and one per `publish`) at most `MAX_COPY_FRAMES`, counted
    /// after each action.
    pub fn most_actions(self) -> usize {
        let (mut frames, mut entries) = (1, self.messages());
        for i in 0.. {
            let action = self.action(i);
            frames += match action {
                Action::Run { .. } => RUN_FRAMES,
                Action::Move(_) => 1,
            };
            entries += usize::from(matches!(action, Action::Move(Move::Publish { .. })));
            if frames > MAX_FRAMES || frames * entries > MAX_COPY_FRAMES {
                return i;
            }
        }
        unreachable!("the frames grow with every action")
    }
}

/// A file of this shape with `actions` actions, twenty to a step as in the
/// report, and the line each action is on.
pub struct Written {
    pub text: String,
    pub action_lines: Vec<usize>,
}

pub fn write(shape: Shape, actions: usize) -> Written {
    let mut out = String::new();
    let consumers: Vec<String> = shape
        .consumers()
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect();
    let _ = writeln!(
        out,
        "title = \"A costly shape: {}\"\nsummary = \"Written by a program, to measure what a run costs.\"\n\n[setup]\nconsumers = [{}]",
        shape.name(),
        consumers.join(", ")
    );
    if shape == Shape::Redeliver {
        out.push_str("max_receives = 1000000\n");
    }
    out.push_str("messages = [\n");
    for i in 0..shape.messages() {
        let _ = writeln!(
            out,
            "  {{ id = \"m-{i}\", order = {}, amount = 40 }},",
            1000 + i
        );
    }
    out.push_str("]\n");
    let mut action_lines = Vec::with_capacity(actions);
    // Lines written so far, counted as the text grows.
    let mut counted = (0, 0);
    for i in 0..actions {
        if i % 20 == 0 {
            if i > 0 {
                out.push_str("]\n");
            }
            let _ = writeln!(
                out,
                "\n[[steps]]\ntitle = \"Round {}\"\nnarration = \"More of the same.\"\nactions = [",
                i / 20 + 1
            );
        }
        counted.1 += out[counted.0..].matches('\n').count();
        counted.0 = out.len();
        action_lines.push(counted.1 + 1);
        let _ = writeln!(out, "  \"{}\",", shape.action(i).text());
    }
    if actions > 0 {
        out.push_str("]\n");
    }
    out.push_str("\n[expect.naive]\n\n[expect.idempotent]\n");
    Written {
        text: out,
        action_lines,
    }
}
