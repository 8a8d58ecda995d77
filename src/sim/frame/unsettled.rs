//! What a run that ends undecided leaves unsettled: a verdict at the end
//! must say why it is not an end verdict, in the words of what is still
//! open (a copy leased, a copy waiting, a handler mid-way).

use super::{Frame, MessagePhase};
use crate::sim::consumer::Status;
use crate::sim::format_duration;

impl Frame {
    /// Each thing still open in this frame, one phrase each, in queue
    /// order, then consumers in setup order: empty when nothing is.
    pub fn unsettled(&self) -> Vec<String> {
        let mut out = Vec::new();
        for m in &self.queue.messages {
            let id = m.label(self.queue.broker_ids_lead);
            match (m.phase, &m.holder) {
                (MessagePhase::Waiting, _) => out.push(format!("{id} is waiting in the queue")),
                (MessagePhase::InFlight, Some(holder)) => {
                    let mut line = format!("{id} is still leased to {holder}");
                    if m.ack_lost {
                        line.push_str(", whose ack was lost on the wire");
                    }
                    if let Some(left) = m.lease_left_ms {
                        line.push_str(&format!(
                            "; in {} the lease runs out and the broker offers it again",
                            format_duration(left)
                        ));
                    }
                    out.push(line);
                }
                (MessagePhase::InFlight, None) => out.push(format!("{id} is still in flight")),
                (MessagePhase::Acked | MessagePhase::DeadLettered, _) => {}
            }
        }
        // A handler mid-way on a message the broker no longer holds for it
        // (acked on receipt, say) can still change the outcome.
        for c in &self.consumers {
            let busy = !matches!(c.status, Status::Idle | Status::Crashed);
            let Some(message) = c.message.as_deref().filter(|_| busy) else {
                continue;
            };
            let leased = self.queue.messages.iter().any(|m| {
                m.phase == MessagePhase::InFlight && m.holder.as_deref() == Some(c.name.as_str())
            });
            if !leased {
                out.push(format!("{} is still handling {message}", c.name));
            }
        }
        out
    }
}
