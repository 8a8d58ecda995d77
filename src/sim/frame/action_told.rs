//! The frame's action as a step line tells it: the scripted action, and
//! where the consumer it ran found no message, that it had nothing to do.
//! `run B to before commit` alone claims a run at a step where B, finished
//! earlier, only polled an empty queue (issue 18, tour-3 on PostgreSQL).

use super::Frame;

impl Frame {
    /// The action as `told` words it, from this frame's facts.
    pub fn action_told(&self) -> String {
        let idle = self.stepped.as_deref().filter(|_| self.found_nothing);
        told(&self.action, idle)
    }

    /// The fact alone, where the action's consumer found nothing: `B has
    /// nothing to receive` (a line with no room for the action too).
    pub fn nothing_told(&self) -> Option<String> {
        let who = self.stepped.as_deref().filter(|_| self.found_nothing)?;
        Some(nothing(who))
    }
}

fn nothing(who: &str) -> String {
    format!("{who} has nothing to receive")
}

/// `run B to before commit: B has nothing to receive` where `idle`, the
/// action's consumer, found the queue empty; a one-step action (`step B`)
/// by that fact alone. Else the action as the script names it.
pub fn told(action: &str, idle: Option<&str>) -> String {
    match idle {
        Some(who) => {
            let fact = nothing(who);
            if action == format!("step {who}") {
                fact
            } else {
                format!("{action}: {fact}")
            }
        }
        None => action.to_string(),
    }
}
