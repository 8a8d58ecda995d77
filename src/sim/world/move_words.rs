//! A move in plain words, the same in any world: what a found run's list
//! and a fork's story call it, where the scenario file's own form
//! (`lose-ack A`) would read as a command to a class.

use super::Move;
use crate::sim::format_duration;

impl Move {
    /// `A crashes`, `A's next ack will be lost`, `the lease on m-7f3 runs
    /// out`; a step names only its consumer (`A: step`), as what it runs
    /// depends on the design.
    pub fn told(&self) -> String {
        match self {
            Move::Step { consumer } => format!("{consumer}: step"),
            Move::Crash { consumer } => format!("{consumer} crashes"),
            Move::LoseAck { consumer } => format!("{consumer}'s next ack will be lost"),
            Move::LoseResponse { consumer } => {
                format!("the provider's next response to {consumer} will be lost")
            }
            Move::Slow { consumer, ms } => {
                format!("{consumer} is slow ({})", format_duration(*ms))
            }
            Move::ExpireLease { message } => format!("the lease on {message} runs out"),
            Move::Wait { ms } => format!("the clock advances {}", format_duration(*ms)),
            Move::Publish { message } => format!("the producer publishes {message} again"),
            Move::Produce { message } => format!("the producer publishes {}", message.id),
            Move::Prune { age_ms } => format!(
                "the janitor prunes IDs older than {}",
                format_duration(*age_ms)
            ),
        }
    }
}
