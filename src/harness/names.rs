//! The names `idem test` gives the things of its world, each with what it
//! means, for a reader who has not read the protocol: an instance's
//! process (`A (start 1)`), a lease's receipt (`r-1`), a message published
//! again (`copy 2`). A replay says them where it first shows them, as it
//! says what a point is (`faults::POINT_MEANS`) and names the broker's ID
//! as the broker's (teacher trial: `r-1`, `start 1` and `copy 1` were
//! shown with no word of what they are).

use super::run::Step;
use crate::sim::broker::MessageState;

/// Which of the names a run's steps show: a process's start always (every
/// run starts one), a receipt where a message was leased, a copy where
/// one was published again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub receipts: bool,
    pub copies: bool,
}

/// One name and its meaning, in full words, in fewer, and in fewest.
struct Meaning {
    shows: fn(&Names) -> bool,
    name: &'static str,
    full: &'static str,
    medium: &'static str,
    short: &'static str,
}

const MEANINGS: [Meaning; 3] = [
    // A process that ends, killed or by itself, is started again when a
    // message waits for it: its number counts the starts.
    Meaning {
        shows: |_| true,
        name: "A (start 1)",
        full: "instance A's first process; A (start 2) is the one started after it ended (killed, or by itself)",
        medium: "instance A's first process; once it ends, A (start 2)",
        short: "A's first process",
    },
    Meaning {
        shows: |n| n.receipts,
        name: "r-1",
        full: "a lease's receipt, which the program hands back to ack the message",
        medium: "a lease's receipt, handed back to ack",
        short: "a lease's receipt",
    },
    Meaning {
        shows: |n| n.copies,
        name: "copy 2",
        full: "the message published again by its producer",
        medium: "the message published again",
        short: "published again",
    },
];

impl Names {
    pub fn of(steps: &[Step]) -> Names {
        let queued = || steps.iter().flat_map(|s| &s.queue);
        Names {
            receipts: queued().any(|m| matches!(m.state, MessageState::InFlight { .. })),
            copies: queued().any(|m| m.copy > 1),
        }
    }

    fn shown(&self) -> impl Iterator<Item = &'static Meaning> {
        MEANINGS.iter().filter(|m| (m.shows)(self))
    }

    /// Each name the run shows with its meaning, as a legend reads them
    /// (`r-1: a lease's receipt`): in fewer words (`short` false), or in
    /// the fewest.
    pub fn legend(&self, short: bool) -> Vec<String> {
        self.shown()
            .map(|m| format!("{}: {}", m.name, if short { m.short } else { m.medium }))
            .collect()
    }

    /// The text replay's sentence of them, in full words, said before its
    /// first step.
    pub fn line(&self) -> String {
        let said: Vec<String> = self
            .shown()
            .map(|m| format!("{} is {}", m.name, m.full))
            .collect();
        format!("names: {}", said.join("; "))
    }
}
