//! A step made by one move that ran no handler step, in a reader's words:
//! a fault the observer arms or springs, the clock, the producer, the
//! retention job, a consumer's restart. The step line read the scenario
//! file's syntax there (`lose-ack A`, `slow A 40s`, teacher trial) beside
//! `acknowledge (A)` at the steps around it, and a fault read as a thing
//! A did. Said in the same form: what happened, then whose (`(A)`).

use super::Frame;
use crate::sim::consumer::Status;
use crate::sim::{Move, format_duration};

impl Frame {
    /// What this step's move did, where the step is that one move alone
    /// (as the script or the `f` menu made it) and it ran no handler step:
    /// `armed: ack lost (A)`, a fault the observer armed. `None` where a handler step ran,
    /// or a consumer found nothing to receive (`nothing_told` says that).
    pub fn move_told(&self) -> Option<String> {
        let mv = self.made_by.as_ref()?;
        let text = mv.written();
        let yours = match self.action.strip_prefix("you: ") {
            Some(rest) if rest == text => true,
            None if self.action == text => false,
            // One step of a scripted run that ran no handler step (a
            // restart): said first, the run it is part of after it.
            // `run A to before begin transaction` alone read as if A had
            // run there (trial 40, tour-2 step 7).
            None if matches!(mv, Move::Step { .. }) => {
                let said = self.said_of(mv)?;
                return Some(format!("{said} · part of: {}", self.action));
            }
            _ => return None,
        };
        let said = self.said_of(mv)?;
        Some(if yours { format!("you: {said}") } else { said })
    }

    fn said_of(&self, mv: &Move) -> Option<String> {
        Some(match mv {
            Move::Step { consumer } => {
                let ran = self.changes.steps.iter().any(|s| s.consumer == *consumer);
                if ran || self.found_nothing {
                    return None;
                }
                // `step A` that ran no handler step: a crashed A came back,
                // or A asked again for the answer another's call holds.
                match &self.consumer(consumer)?.status {
                    Status::Idle => format!("restart ({consumer})"),
                    Status::AwaitingKey { by } => {
                        format!("still awaits the answer to {by}'s call ({consumer})")
                    }
                    _ => return None,
                }
            }
            Move::Crash { consumer } => format!("process crashes ({consumer})"),
            Move::LoseAck { consumer } => format!("armed: ack lost ({consumer})"),
            Move::LoseResponse { consumer } => {
                format!("armed: response lost ({consumer})")
            }
            Move::Slow { consumer, ms } => {
                // The simulator slows the step A runs next; a provider
                // call's time goes by while its answer is awaited.
                let call = self.consumer(consumer).is_some_and(|c| {
                    c.next
                        .and_then(|n| c.steps.get(n))
                        .is_some_and(|s| s.keyword == "provider")
                });
                let what = if call { "call" } else { "step" };
                format!("armed: slow {what}, {} ({consumer})", format_duration(*ms))
            }
            Move::ExpireLease { message } => format!("lease runs out ({message})"),
            Move::Wait { ms } => format!("time passes ({})", format_duration(*ms)),
            Move::Publish { message } => format!("published again ({message})"),
            Move::Produce { message } => format!("published ({})", message.id),
            Move::Prune { age_ms } => {
                format!("IDs older than {} deleted", format_duration(*age_ms))
            }
        })
    }

    fn consumer(&self, name: &str) -> Option<&super::ConsumerView> {
        self.consumers.iter().find(|c| c.name == name)
    }
}
