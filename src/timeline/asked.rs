//! The questions of a run, each with its answer computed from the frames:
//! asked on the frame before its action's first one, answered by the
//! action's last frame. A question cannot lie, because nobody types its
//! answer; a fork changes the answer with the run.

use super::Timeline;
use super::asked_provider::provider_question;
use crate::scenario::question::{Kind, MESSAGE_STATES, PROVIDER_ANSWERS};
use crate::scenario::{Question, Script, Subject};
use crate::sim::Frame;
use crate::sim::frame::MessagePhase;

/// An answer: a number (a count, or dollars) or the index of a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Answer {
    Number(u64),
    Choice(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub chapter: usize,
    pub action: usize,
    /// The frame on screen while the question is asked.
    pub ask_at: usize,
    /// The frame whose state answers it: the action's last.
    pub answer_at: usize,
    pub question: Question,
    pub kind: Kind,
    /// The figure before the action, and after it: the right answer.
    pub was: Answer,
    pub answer: Answer,
}

impl Asked {
    /// An answer as the screen shows it: `$80`, `2`, `A`, `in flight`.
    pub fn show(&self, answer: Answer) -> String {
        match (answer, &self.kind) {
            (Answer::Number(n), Kind::Number { money: true }) => format!("${n}"),
            (Answer::Number(n), _) => n.to_string(),
            (Answer::Choice(i), Kind::Choice(options)) => {
                options.get(i).cloned().unwrap_or_else(|| "?".into())
            }
            (Answer::Choice(i), _) => i.to_string(),
        }
    }
}

impl Timeline {
    /// Every question `script` asks under this timeline's design, in the
    /// order the run meets them, with one about the provider's answer on
    /// every action where it charges or replays, or a handler drops its
    /// call on finding its message handled, and the file asks nothing about
    /// it (`asked_provider`).
    pub fn asked(&self, script: &Script) -> Vec<Asked> {
        let design = self.strategy.as_str();
        let mut all = Vec::new();
        // A status change charges nothing: a handler that skips one drops
        // no call, so nothing asks about the provider there.
        let nothing_to_charge = |id: &str| {
            script
                .setup
                .messages
                .iter()
                .any(|m| m.id == id && m.status.is_some())
        };
        for (c, step) in script.steps.iter().enumerate() {
            let chapter = c + 1;
            for action in 0..step.actions.len() {
                let asks = step.asks.get(action).map_or(&[][..], Vec::as_slice);
                let own: Vec<usize> = (0..self.frames.len())
                    .filter(|&i| {
                        let f = &self.frames[i];
                        f.chapter == chapter && f.action_index == action
                    })
                    .collect();
                let mut asked: Vec<&Question> =
                    asks.iter().filter(|q| q.asked_under(design)).collect();
                // The provider's call, where the scenario asks nothing
                // about it: first, as it comes before what follows from it.
                let generated = own.first().and_then(|&first| {
                    let own: Vec<&Frame> = own.iter().map(|&i| &self.frames[i]).collect();
                    provider_question(
                        &self.frames[first.saturating_sub(1)],
                        &own,
                        &asked,
                        nothing_to_charge,
                    )
                });
                if let Some(q) = &generated {
                    asked.insert(0, q);
                }
                if asked.is_empty() {
                    continue;
                }
                // An action that made no frame here changes nothing: the
                // question is answered by the state it leaves as it was.
                let before_it = || {
                    self.frames
                        .iter()
                        .rposition(|f| (f.chapter, f.action_index) < (chapter, action))
                        .unwrap_or(0)
                };
                let (ask_at, answer_at) = match (own.first(), own.last()) {
                    (Some(&first), Some(&last)) => (first.saturating_sub(1), last),
                    _ => (before_it(), before_it()),
                };
                for q in asked {
                    let before = &self.frames[ask_at];
                    let after = &self.frames[answer_at];
                    all.push(Asked {
                        chapter,
                        action,
                        ask_at,
                        answer_at,
                        kind: q.subject.kind(&script.setup.consumers),
                        was: figure(&q.subject, before, before, &[], &script.setup.consumers),
                        answer: figure(
                            &q.subject,
                            before,
                            after,
                            &self.frames[ask_at + 1..=answer_at.max(ask_at)],
                            &script.setup.consumers,
                        ),
                        question: q.clone(),
                    });
                }
            }
        }
        all
    }
}

/// The subject's value in `after`; `before` is the frame the action
/// started from and `during` the action's own frames, for what the action
/// itself did.
fn figure(
    subject: &Subject,
    before: &Frame,
    after: &Frame,
    during: &[Frame],
    consumers: &[String],
) -> Answer {
    let committed = |n: usize| Answer::Number(n as u64);
    match subject {
        Subject::PaymentsTotal => Answer::Number(after.db.payments_total),
        Subject::PaymentsRows => committed(
            after
                .db
                .payments
                .iter()
                .filter(|p| p.uncommitted_by.is_none())
                .count(),
        ),
        Subject::PaymentsRowsAny => committed(after.db.payments.len()),
        Subject::ProcessedRowsAny => committed(after.db.processed.len()),
        Subject::ProviderCharges => committed(after.provider.charges.len()),
        Subject::ProcessedRows => committed(
            after
                .db
                .processed
                .iter()
                .filter(|p| p.uncommitted_by.is_none())
                .count(),
        ),
        Subject::ChargesAgain => Answer::Choice(usize::from(
            after.provider.charges.len() <= before.provider.charges.len(),
        )),
        Subject::ProviderAnswer => {
            let first = during.iter().find_map(|f| f.provider.answered_now.as_ref());
            let name = match first {
                None => "no call is made",
                Some(a) if a.status == 201 && a.replayed => "201, the stored result (a replay)",
                Some(a) if a.status == 201 => "201, a new charge",
                Some(a) if a.status == 409 => "409 Conflict: still processing",
                Some(_) => "another error (400, 402 or 422)",
            };
            Answer::Choice(
                PROVIDER_ANSWERS
                    .iter()
                    .position(|s| *s == name)
                    .unwrap_or(0),
            )
        }
        Subject::Holder(m) => {
            let holder = latest(after, m)
                .filter(|v| v.phase == MessagePhase::InFlight)
                .and_then(|v| v.holder.clone());
            let at = holder
                .and_then(|h| consumers.iter().position(|c| *c == h))
                .unwrap_or(consumers.len());
            Answer::Choice(at)
        }
        Subject::MessageState(m) => {
            let phase = latest(after, m).map_or(MessagePhase::Waiting, |v| v.phase);
            let name = match phase {
                MessagePhase::Waiting => "waiting",
                MessagePhase::InFlight => "in flight",
                MessagePhase::Acked => "acked",
                MessagePhase::DeadLettered => "dead-lettered",
            };
            Answer::Choice(MESSAGE_STATES.iter().position(|s| *s == name).unwrap_or(0))
        }
        Subject::Deliveries(m) => Answer::Number(
            after
                .queue
                .messages
                .iter()
                .filter(|v| v.message_id == *m)
                .map(|v| u64::from(v.receives))
                .sum(),
        ),
    }
}

/// The copy of message `m` that matters: one in flight, else the newest.
fn latest<'a>(frame: &'a Frame, m: &str) -> Option<&'a crate::sim::frame::MessageView> {
    let copies: Vec<_> = frame
        .queue
        .messages
        .iter()
        .filter(|v| v.message_id == m)
        .collect();
    copies
        .iter()
        .find(|v| v.phase == MessagePhase::InFlight)
        .or(copies.last())
        .copied()
}
