//! The faults idem lays on a user's program, each at an exact point: while
//! the program waits for idem's answer to one of its requests.

use super::protocol::RequestKind;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    /// SIGKILL while it waits for a charge the provider never gets.
    KillBeforeCharge,
    /// The provider charges; the answer times out (`lost`).
    LoseResponse,
    /// The provider charges; SIGKILL before the answer reaches it.
    KillAfterCharge,
    /// The broker never gets the ack; the call times out (`lost`).
    LoseAck,
    /// The broker removes the message; SIGKILL before the answer.
    KillAfterAck,
    /// The lease on the message it works on runs out now: the other
    /// instance may receive it, and this one waits until the others can
    /// go no further.
    ExpireLease,
    /// The producer publishes the message it works on again.
    Duplicate,
}

impl Fault {
    pub const ALL: [Fault; 7] = [
        Fault::KillBeforeCharge,
        Fault::LoseResponse,
        Fault::KillAfterCharge,
        Fault::LoseAck,
        Fault::KillAfterAck,
        Fault::ExpireLease,
        Fault::Duplicate,
    ];

    /// The faults that can fall on a request of this kind.
    pub fn on(kind: RequestKind) -> &'static [Fault] {
        match kind {
            RequestKind::Charge => &[
                Fault::KillBeforeCharge,
                Fault::LoseResponse,
                Fault::KillAfterCharge,
                Fault::ExpireLease,
                Fault::Duplicate,
            ],
            RequestKind::Ack => &[
                Fault::LoseAck,
                Fault::KillAfterAck,
                Fault::ExpireLease,
                Fault::Duplicate,
            ],
            RequestKind::Hello | RequestKind::Receive => &[],
        }
    }

    /// Its name on the command line and in schedule files.
    pub fn name(self) -> &'static str {
        match self {
            Fault::KillBeforeCharge => "kill-before-charge",
            Fault::LoseResponse => "lose-response",
            Fault::KillAfterCharge => "kill-after-charge",
            Fault::LoseAck => "lose-ack",
            Fault::KillAfterAck => "kill-after-ack",
            Fault::ExpireLease => "expire-lease",
            Fault::Duplicate => "duplicate",
        }
    }

    pub fn parse(text: &str) -> Option<Fault> {
        Self::ALL.into_iter().find(|f| f.name() == text)
    }

    pub fn kills(self) -> bool {
        matches!(
            self,
            Fault::KillBeforeCharge | Fault::KillAfterCharge | Fault::KillAfterAck
        )
    }
}

/// One fault of a schedule: at the `point`-th request idem answers
/// (counting from 0; receives count, hellos do not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Planned {
    pub point: usize,
    pub fault: Fault,
}

/// A request idem was about to answer: where a fault may fall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub index: usize,
    pub instance: String,
    pub start: u32,
    pub kind: RequestKind,
    /// The message the request is about, when it is about one the
    /// instance holds.
    pub message: Option<String>,
    /// The faults that can fall here.
    pub faults: Vec<Fault>,
}

/// Decides which fault, if any, falls at each point of a run.
pub trait FaultSource {
    fn at(&mut self, point: &Point) -> Option<Fault>;
}

/// A fixed schedule: the explorer's and a replay's.
pub struct Schedule<'a>(pub &'a [Planned]);

impl FaultSource for Schedule<'_> {
    fn at(&mut self, point: &Point) -> Option<Fault> {
        self.0
            .iter()
            .find(|p| p.point == point.index && point.faults.contains(&p.fault))
            .map(|p| p.fault)
    }
}

/// What a point is, for a reader who has not read the protocol: said
/// where a report or a replay first names one (`lose-response at point
/// 1`), since the number alone reads as internal bookkeeping.
pub const POINT_MEANS: &str = "a fault falls at a point: one of the program's requests that idem answers (receive, charge, ack), counted from 0, while the program waits for that answer";

/// A schedule in the steps of its replay, where a reader finds each
/// fault (`lose-response at step 3`); `step_of` gives the step, counted
/// from 1, that a point fell in. A point the run never reached keeps
/// its number.
pub fn describe_by_step(schedule: &[Planned], step_of: impl Fn(usize) -> Option<usize>) -> String {
    if schedule.is_empty() {
        return "no faults".into();
    }
    schedule
        .iter()
        .map(|p| match step_of(p.point) {
            Some(step) => format!("{} at step {step}", p.fault.name()),
            None => format!("{} at point {}", p.fault.name(), p.point),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A schedule by its points, each beside the step of its replay that
/// `step_of` gives (counted from 1): `lose-response at point 1 (replay
/// step 3)`, `step` naming the step as the reader meets it. The report
/// numbers points, the replay's screens steps: both named, the one maps
/// to the other. A point the run never reached has no step to name.
pub fn describe_with_steps(
    schedule: &[Planned],
    step: &str,
    step_of: impl Fn(usize) -> Option<usize>,
) -> String {
    if schedule.is_empty() {
        return "no faults".into();
    }
    schedule
        .iter()
        .map(|p| match step_of(p.point) {
            Some(n) => format!("{} at point {} ({step} {n})", p.fault.name(), p.point),
            None => format!("{} at point {}", p.fault.name(), p.point),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The words of a schedule: `kill-after-charge at point 4, expire-lease
/// at point 7`.
pub fn describe(schedule: &[Planned]) -> String {
    if schedule.is_empty() {
        return "no faults".into();
    }
    schedule
        .iter()
        .map(|p| format!("{} at point {}", p.fault.name(), p.point))
        .collect::<Vec<_>>()
        .join(", ")
}
