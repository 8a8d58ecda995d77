//! Short transitions between two frames: a message token travelling from
//! the broker to a consumer, an ack travelling back, a flash where something
//! went wrong. Progress comes from ticks that carry elapsed time, so a test
//! can render any point of a transition without a clock.

use super::panel::Panel;
use crate::sim::Frame;
use crate::sim::frame::MessagePhase;

pub const DURATION_MS: u64 = 250;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    pub from: usize,
    pub to: usize,
    pub elapsed_ms: u64,
}

impl Transition {
    pub fn new(from: usize, to: usize) -> Self {
        Transition {
            from,
            to,
            elapsed_ms: 0,
        }
    }

    /// 0 at the start, 1 at the end.
    pub fn progress(&self) -> f32 {
        (self.elapsed_ms as f32 / DURATION_MS as f32).min(1.0)
    }

    pub fn finished(&self) -> bool {
        self.elapsed_ms >= DURATION_MS
    }
}

/// Where a token travels from and to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A message goes from the broker to a consumer.
    Deliver { message: String },
    /// An ack goes from a consumer to the broker.
    Ack,
    /// A request goes to the provider.
    Call,
    /// Something went wrong here: flash the panel.
    Flash(Panel),
}

/// What changed between two consecutive frames that is worth a motion.
pub fn effects(from: &Frame, to: &Frame) -> Vec<Effect> {
    let mut out = Vec::new();
    for m in &to.queue.messages {
        let before = from
            .queue
            .messages
            .iter()
            .find(|x| x.broker_id == m.broker_id);
        let was = before.map(|b| (b.phase, b.holder.clone(), b.receives));
        if m.phase == MessagePhase::InFlight && was != Some((m.phase, m.holder.clone(), m.receives))
        {
            out.push(Effect::Deliver {
                message: m.message_id.clone(),
            });
        }
        if m.phase == MessagePhase::Acked && was.is_some_and(|w| w.0 != MessagePhase::Acked) {
            out.push(Effect::Ack);
        }
        if m.ack_lost && !before.is_some_and(|b| b.ack_lost) {
            out.push(Effect::Flash(Panel::Broker));
        }
    }
    if to.provider.charges.len() > from.provider.charges.len()
        || to.provider.keys.iter().any(|k| k.replayed_now)
    {
        out.push(Effect::Call);
    }
    if to.db.processed.iter().any(|p| p.conflict) {
        out.push(Effect::Flash(Panel::Database));
    }
    if to.verdict.outcome.is_failure() && !from.verdict.outcome.is_failure() {
        out.push(Effect::Flash(Panel::Verdict));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    #[test]
    fn progress_runs_from_zero_to_one() {
        let mut t = Transition::new(0, 1);
        assert_eq!(t.progress(), 0.0);
        t.elapsed_ms = DURATION_MS / 2;
        assert!((t.progress() - 0.5).abs() < 0.01);
        assert!(!t.finished());
        t.elapsed_ms = DURATION_MS * 3;
        assert_eq!(t.progress(), 1.0);
        assert!(t.finished());
    }

    #[test]
    fn a_receive_moves_a_token_and_a_conflict_flashes() {
        let script = scenario::find("tour-3").unwrap();
        let t = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let e = effects(&t.frames[0], &t.frames[1]);
        assert_eq!(
            e,
            vec![Effect::Deliver {
                message: "m-7f3".into()
            }]
        );
        let conflict = t
            .frames
            .iter()
            .position(|f| f.db.processed.iter().any(|p| p.conflict))
            .expect("tour 3 finds the unique key taken");
        let e = effects(&t.frames[conflict - 1], &t.frames[conflict]);
        assert!(e.contains(&Effect::Flash(Panel::Database)));
    }
}
