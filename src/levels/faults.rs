//! The faults a level's prover throws at the learner's handler: those its
//! goal names, so that the counterexample it shows is the story the goal
//! tells (level 1 is about a lost ack, and shows a lost ack).

use crate::check::Bounds;

/// One kind of fault the prover can inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    Crash,
    LostAck,
    LostResponse,
    ExpiredLease,
}

impl Fault {
    pub const ALL: [Fault; 4] = [
        Fault::Crash,
        Fault::LostAck,
        Fault::LostResponse,
        Fault::ExpiredLease,
    ];

    /// The word a level file uses.
    pub fn word(self) -> &'static str {
        match self {
            Fault::Crash => "crash",
            Fault::LostAck => "lost ack",
            Fault::LostResponse => "lost response",
            Fault::ExpiredLease => "expired lease",
        }
    }

    /// The name a screen gives it: the prover's own name for a lease
    /// that runs out while its holder still works, so that a level's box
    /// does not call one fault two things (teacher trial 29: `expired
    /// leases` and `early lease expiries` in one box).
    pub fn shown(self) -> &'static str {
        match self {
            Fault::ExpiredLease => "early lease expiry",
            other => other.word(),
        }
    }

    pub fn parse(word: &str) -> Option<Fault> {
        Fault::ALL.into_iter().find(|f| f.word() == word)
    }

    /// Whether a schedule's move is this fault. A lease that runs out
    /// after its holder is gone is time passing, not a fault, but the
    /// move looks the same: an expired lease counts wherever one is in
    /// the schedule.
    pub fn is(self, m: &crate::sim::Move) -> bool {
        use crate::sim::Move;
        matches!(
            (self, m),
            (Fault::Crash, Move::Crash { .. })
                | (Fault::LostAck, Move::LoseAck { .. })
                | (Fault::LostResponse, Move::LoseResponse { .. })
                | (
                    Fault::ExpiredLease,
                    Move::ExpireLease { .. } | Move::Wait { .. }
                )
        )
    }
}

/// The prover's bounds for a level that allows only `faults`: the default
/// bounds, every other kind taken out. Where a level names fewer kinds
/// than all, each named kind may happen as often as faults are allowed at
/// all, so "within 2 faults" means two of them.
pub fn bounds(faults: &[Fault]) -> Bounds {
    let mut b = Bounds::default();
    let all = Fault::ALL.iter().all(|f| faults.contains(f));
    let most = b.max_faults + 1;
    let cap = |f: Fault, default: u32| match (faults.contains(&f), all) {
        (false, _) => 0,
        (true, true) => default,
        (true, false) => default.max(most),
    };
    b.crashes = cap(Fault::Crash, b.crashes);
    b.lost_acks = cap(Fault::LostAck, b.lost_acks);
    b.lost_responses = cap(Fault::LostResponse, b.lost_responses);
    b.early_expiries = cap(Fault::ExpiredLease, b.early_expiries);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_of_every_fault_is_checked_within_the_default_bounds() {
        assert_eq!(bounds(&Fault::ALL), Bounds::default());
    }

    #[test]
    fn a_level_of_lost_acks_loses_only_acks() {
        let b = bounds(&[Fault::LostAck]);
        assert_eq!((b.crashes, b.lost_responses, b.early_expiries), (0, 0, 0));
        assert!(b.lost_acks > b.max_faults, "one more for the try further");
    }
}
