//! A move in words: as a scenario file writes it (`lose-ack A`), and in
//! plain words, the same in any world, for what a found run's list and a
//! fork's story call it, where the file's form would read as a command to
//! a class.

use super::Move;
use crate::sim::format_duration;

impl Move {
    /// The move as a scenario file's action writes it: `step A`,
    /// `lose-ack A`, `expire-lease m-7f3`. The scenario parser reads it
    /// back; it lives with the move so the world can tell its own moves
    /// apart from the script's words without knowing the file format.
    pub fn written(&self) -> String {
        match self {
            Move::Step { consumer } => format!("step {consumer}"),
            Move::Crash { consumer } => format!("crash {consumer}"),
            Move::LoseAck { consumer } => format!("lose-ack {consumer}"),
            Move::LoseResponse { consumer } => format!("lose-response {consumer}"),
            Move::Slow { consumer, ms } => {
                format!("slow {consumer} {}", format_duration(*ms))
            }
            Move::ExpireLease { message } => format!("expire-lease {message}"),
            Move::Wait { ms } => format!("wait {}", format_duration(*ms)),
            Move::Publish { message } => format!("publish {message}"),
            // Only a long run's producer makes this move; a scenario lists
            // its messages in the setup instead, so no action word reads it
            // back.
            Move::Produce { message } => format!("produce {}", message.id),
            Move::Prune { age_ms } => format!("prune {}", format_duration(*age_ms)),
        }
    }

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
