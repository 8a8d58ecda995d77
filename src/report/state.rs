//! One-line descriptions of parts of a frame, shared by the transcript and
//! the TUI's compact layouts.

use crate::sim::consumer::{Mark, Status};
use crate::sim::format_duration;
use crate::sim::frame::{ConsumerView, MessagePhase, MessageView};

pub fn message_line(m: &MessageView, broker_ids_lead: bool) -> String {
    let mut line = format!(
        "{} (order {}, {}) ",
        m.label(broker_ids_lead),
        m.order,
        m.body
    );
    line.push_str(&match (m.phase, &m.holder) {
        (MessagePhase::Waiting, _) => "waiting".to_string(),
        (MessagePhase::InFlight, Some(h)) => format!(
            "in flight to {h} (receipt {}), lease {} left",
            m.receipt.as_deref().unwrap_or("?"),
            format_duration(m.lease_left_ms.unwrap_or(0))
        ),
        (MessagePhase::InFlight, None) => "in flight".to_string(),
        (MessagePhase::Acked, _) => "acked, removed".to_string(),
        (MessagePhase::DeadLettered, _) => "dead-lettered".to_string(),
    });
    if m.receives > 0 {
        line.push_str(&format!(", received {}x", m.receives));
    }
    if m.redelivered {
        line.push_str(", redelivered");
    }
    if m.copy > 1 {
        line.push_str(&format!(", copy {}", m.copy));
    }
    if m.ack_lost {
        line.push_str(", its last ack lost on the wire (observer's view: the broker cannot know)");
    }
    line
}

pub fn consumer_line(c: &ConsumerView) -> String {
    let status = match &c.status {
        Status::Idle => "idle".to_string(),
        Status::Handling => format!("handling {}", c.message.as_deref().unwrap_or("?")),
        Status::Blocked { by } => format!(
            "handling {}, blocked: waiting for {by}'s transaction",
            c.message.as_deref().unwrap_or("?")
        ),
        Status::AwaitingKey { by } => format!(
            "handling {}, waiting: the provider has not answered {by}'s request with the same key",
            c.message.as_deref().unwrap_or("?")
        ),
        Status::Crashed => "crashed".to_string(),
    };
    let mut line = format!("{}: {status}", c.name);
    if let Some((i, next)) = c.next.and_then(|i| Some((i, c.steps.get(i)?))) {
        // A call whose answer was lost is made again.
        let again = c
            .steps
            .get(i + 1)
            .is_some_and(|n| matches!(n.mark, Mark::Failed | Mark::Lost | Mark::Refused));
        let again = if again { " (again)" } else { "" };
        line.push_str(&format!(", next: {}{again}", next.label));
    }
    if c.in_txn {
        line.push_str(", transaction open");
    }
    let marks: Vec<String> = c
        .steps
        .iter()
        .filter(|s| s.mark != Mark::Todo)
        // The steps by the names the screen shows them under, not their
        // keywords.
        .map(|s| match s.mark {
            // A's own view (it sent the ack) first, then what only the
            // observer knows, marked as the observer's.
            Mark::AckLost => format!("done {} (observer: it never arrived)", s.label),
            // What the step's own check found (`key taken`), not whether
            // the message was a duplicate: the handler cannot know that.
            Mark::Conflict => format!("{}: {}", s.label, crate::sim::step_name::found(&s.keyword)),
            // The step's name, then what became of the answer it waits
            // for: `answer lost provider response` ran the two together.
            Mark::Lost | Mark::Refused => format!("{}: {}", s.label, mark_word(s.mark)),
            _ => format!("{} {}", mark_word(s.mark), s.label),
        })
        .collect();
    if !marks.is_empty() {
        line.push_str(&format!(" [{}]", marks.join(", ")));
    }
    for armed in &c.armed {
        line.push_str(&format!(" (fault: {armed})"));
    }
    line
}

/// A word for each mark: the transcript never relies on symbols alone.
pub fn mark_word(mark: Mark) -> &'static str {
    match mark {
        Mark::Todo => "todo",
        Mark::Done => "done",
        Mark::Failed => "failed",
        Mark::Lost => "lost",
        Mark::Conflict => crate::sim::step_name::FOUND_KEY,
        Mark::Skipped => "skipped",
        Mark::Superseded => "no longer the owner",
        Mark::Waiting => "waiting",
        Mark::AwaitsAnswer => "awaits answer",
        Mark::Refused => "refused (409: still in progress)",
        Mark::BackedOff => "backed off",
        Mark::Crashed => "crashed before",
        Mark::CrashedAwaiting => "crashed before receiving",
        Mark::Ignored => "ignored",
        Mark::AckLost => "sent; the observer saw it never arrive",
    }
}
