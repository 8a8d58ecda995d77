//! How far the checker looks: the world it starts from and how many faults of
//! each kind a schedule may contain. Every bound is printed with the result,
//! because a proof is only as good as the space it covers.

use crate::sim::message::StatusUpdate;
use crate::sim::{Assumption, Message, Op, Setup, Strategy};

/// The statuses a status-change check sends, version 1 first.
const STATUSES: [&str; 3] = ["PAID", "SHIPPED", "DELIVERED"];
use serde::Serialize;
use std::fmt;

/// The messages a check may publish, in order: the first `messages` of them.
const MESSAGES: [(&str, u32, u32); 3] = [
    ("m-7f3", 1042, 40),
    ("m-9c2", 1043, 25),
    ("m-8a1", 1044, 15),
];

const CONSUMERS: [&str; 4] = ["A", "B", "C", "D"];

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// Competing instances of the Payments service, all running one program.
    pub consumers: usize,
    /// Distinct messages (distinct business facts) published at the start.
    pub messages: usize,
    /// Crashes per consumer, anywhere while it holds a message.
    pub crashes: u32,
    /// Acks lost on the way to the broker, in the whole schedule.
    pub lost_acks: u32,
    /// Provider responses lost on the way back.
    pub lost_responses: u32,
    /// Leases that run out while their holder is still working (a slow
    /// consumer): either the one lease ends (`expire-lease`), or time jumps a
    /// lease length (`wait`) and every lease and in-progress deadline runs
    /// out. A lease whose holder is gone expires for free: that is time
    /// passing, not a fault.
    pub early_expiries: u32,
    /// Producer retries: a second copy of a message published.
    pub retries: u32,
    /// Faults of all kinds together in one schedule.
    pub max_faults: u32,
    /// The broker dead-letters a message received this many times.
    pub max_receives: u32,
    /// A safety net: schedules longer than this are not extended.
    pub max_depth: usize,
    /// Merge states that differ only by which identical consumer is which.
    pub symmetry: bool,
    /// The second message is another payment for the first message's order
    /// (for designs that remember only the latest message per order).
    pub same_order: bool,
    /// The queue keeps strict order, like one log partition (for the offset
    /// design, which is only meant for one).
    pub ordered: bool,
    /// The messages are status changes of one order, versions 1 and 2, not
    /// payments (for the versioned design, which is only meant for those).
    pub status_changes: bool,
    /// Check only this strategy; all of them when `None`.
    pub strategy: Option<String>,
    /// Replay every schedule on this PostgreSQL server (each design's
    /// worker in schemas of its own); SQLite in memory when `None`.
    #[serde(skip)]
    pub postgres: Option<crate::sim::db::PgUrl>,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            consumers: 2,
            messages: 1,
            crashes: 1,
            lost_acks: 1,
            lost_responses: 1,
            early_expiries: 1,
            retries: 0,
            max_faults: 2,
            max_receives: 3,
            max_depth: 200,
            symmetry: true,
            same_order: false,
            ordered: false,
            status_changes: false,
            strategy: None,
            postgres: None,
        }
    }
}

impl Bounds {
    /// The largest counts the fixed names and messages allow.
    pub const MAX_CONSUMERS: usize = CONSUMERS.len();
    pub const MAX_MESSAGES: usize = MESSAGES.len();

    /// The world every schedule starts from. Time never passes by itself
    /// (`step_ms` 0): leases end only through explicit expiry moves, so the
    /// checker decides every point at which one can happen.
    pub fn setup(&self) -> Setup {
        Setup {
            consumers: CONSUMERS[..self.consumers.clamp(1, CONSUMERS.len())]
                .iter()
                .map(|c| c.to_string())
                .collect(),
            messages: MESSAGES[..self.messages.clamp(1, MESSAGES.len())]
                .iter()
                .enumerate()
                .map(|(i, &(id, order, amount))| {
                    if self.status_changes {
                        return Message {
                            status: Some(StatusUpdate {
                                status: STATUSES[i % STATUSES.len()].to_string(),
                                version: i as u32 + 1,
                            }),
                            ..Message::payment(id, MESSAGES[0].1, 0)
                        };
                    }
                    let order = if self.same_order && i > 0 {
                        MESSAGES[0].1
                    } else {
                        order
                    };
                    Message::payment(id, order, amount)
                })
                .collect(),
            ordered: self.ordered,
            step_ms: 0,
            max_receives: self.max_receives.max(1),
            postgres: self.postgres.clone(),
            ..Setup::default()
        }
    }
}

impl Bounds {
    /// The bounds one strategy is checked under. A design that remembers
    /// only the latest message per order row, or the latest log offset, can
    /// only go wrong with a second message for the same order, so with a
    /// single message it gets a second payment for that order, and (to keep
    /// the larger space quick) at most one fault per schedule, which is all
    /// its failures need.
    pub fn for_strategy(&self, strategy: &Strategy) -> Bounds {
        let uses = |op: Op| strategy.program.contains(&op);
        let mut bounds = self.clone();
        // Each of these designs rests on an assumption; it is checked under
        // it, since outside it the failure is already known (the scenarios
        // offset-on-a-queue and row-version show it).
        for assumption in strategy.assumptions() {
            match assumption {
                Assumption::OrderedLog => bounds.ordered = true,
                Assumption::StatusChanges => bounds.status_changes = true,
                // Every message the checker publishes has an ID of its own.
                Assumption::OnePaymentPerId => {}
            }
        }
        let latest_only = uses(Op::GuardRow) || uses(Op::CheckOffset) || uses(Op::ApplyIfNewer);
        if latest_only && self.messages == 1 {
            bounds.messages = 2;
            bounds.same_order = true;
            bounds.max_faults = self.max_faults.min(1);
        }
        bounds
    }
}

impl Bounds {
    /// What the messages of a run within these bounds carry.
    pub fn kind(&self) -> super::property::Kind {
        if self.status_changes {
            super::property::Kind::StatusChanges
        } else {
            super::property::Kind::Payments
        }
    }
}

impl Bounds {
    /// What the checker runs: `2 consumers (A, B), 1 message (m-7f3),
    /// dead-letter after 3 receives` (the first line of the bounds, after
    /// its label).
    pub fn setup_line(&self) -> String {
        let setup = self.setup();
        let ids: Vec<&str> = setup.messages.iter().map(|m| m.id.as_str()).collect();
        format!(
            "{} ({}), {} ({}), dead-letter after {} receives",
            count(setup.consumers.len() as u32, "consumer", "consumers"),
            setup.consumers.join(", "),
            count(setup.messages.len() as u32, "message", "messages"),
            ids.join(", "),
            setup.max_receives
        )
    }
}

impl Bounds {
    /// The two bounds a set is told apart by, in the words every set of
    /// them is said in: `2 faults per schedule, 1 message (m-7f3)`; without
    /// `per`, `2 faults, 1 message`; without `ids`, no message named.
    pub fn searched(&self, per: bool, ids: bool) -> String {
        format!(
            "{}, {}",
            self.faults_searched(per),
            self.messages_searched(ids)
        )
    }

    /// `2 faults per schedule`; without `per`, `2 faults`.
    fn faults_searched(&self, per: bool) -> String {
        let mut line = faults(self.max_faults);
        if per {
            line.push_str(" per schedule");
        }
        line
    }

    /// `1 message (m-7f3)`; without `ids`, `1 message`.
    fn messages_searched(&self, ids: bool) -> String {
        let setup = self.setup();
        let mut line = count(setup.messages.len() as u32, "message", "messages");
        if ids {
            let ids: Vec<&str> = setup.messages.iter().map(|m| m.id.as_str()).collect();
            line.push_str(&format!(" ({})", ids.join(", ")));
        }
        line
    }

    /// The rest of the setup after [`Bounds::searched`]: `2 consumers (A,
    /// B), dead-letter after 3 receives`.
    pub fn consumers_line(&self) -> String {
        let setup = self.setup();
        format!(
            "{} ({}), dead-letter after {} receives",
            count(setup.consumers.len() as u32, "consumer", "consumers"),
            setup.consumers.join(", "),
            setup.max_receives
        )
    }

    /// [`Bounds::consumers_line`] in fewer words: `2 consumers, DLQ after 3`.
    pub fn consumers_short(&self) -> String {
        let setup = self.setup();
        format!(
            "{}, DLQ after {}",
            count(setup.consumers.len() as u32, "consumer", "consumers"),
            setup.max_receives
        )
    }

    /// The faults of each kind a schedule may hold, under the count of all
    /// of them: `faults: at most 1 crash per consumer, 1 lost ack, …`.
    pub fn kinds_line(&self) -> String {
        format!(
            "faults: at most {}, {}, {}, {}, {}",
            count(self.crashes, "crash per consumer", "crashes per consumer"),
            count(self.lost_acks, "lost ack", "lost acks"),
            count(self.lost_responses, "lost response", "lost responses"),
            // `early`: running out while its holder still works, as the
            // README says it; a crashed holder's lease expires freely.
            count(
                self.early_expiries,
                "early lease expiry",
                "early lease expiries"
            ),
            count(self.retries, "producer retry", "producer retries"),
        )
    }
}

impl Bounds {
    /// Each kind of fault with its cap, in the checker's order: the cap,
    /// its noun for one and for many, and its plural alone (`crashes`).
    fn caps(&self) -> [(u32, &'static str, &'static str, &'static str); 5] {
        [
            (
                self.crashes,
                "crash per consumer",
                "crashes per consumer",
                "crashes",
            ),
            (self.lost_acks, "lost ack", "lost acks", "lost acks"),
            (
                self.lost_responses,
                "lost response",
                "lost responses",
                "lost responses",
            ),
            (
                self.early_expiries,
                "early lease expiry",
                "early lease expiries",
                "early lease expiries",
            ),
            (
                self.retries,
                "producer retry",
                "producer retries",
                "producer retries",
            ),
        ]
    }

    /// The caps per kind that still bind at [`Bounds::max_faults`], for a
    /// try one fault further: `still at most 1 crash per consumer, 1 lost
    /// ack, 1 lost response, 1 early lease expiry`; or, where every kind
    /// allowed may fill the whole count, `crashes only, no cap per kind`
    /// (a level that throws crashes alone). The teacher trial found two
    /// tries at 3 faults that disagreed, one still capped at 1 crash per
    /// consumer, the other not, and neither said which it was.
    pub fn caps_words(&self) -> String {
        self.caps_phrase("still ")
    }

    /// Every bound of a search in one sentence, for prose such as a found
    /// run's intro: `2 consumers (A, B), 1 message (m-7f3), dead-letter
    /// after 3 receives; at most 2 faults per schedule (crashes only, no
    /// cap per kind); leases of crashed or finished holders expire
    /// freely`. The caps per kind as [`Bounds::caps_words`] tells them, so
    /// a cap the count of all faults never reaches is not said as one
    /// (teacher trial: "at most 2 per schedule, of which at most 3
    /// crashes"). The `Display` form is two lines, for a report's head.
    pub fn sentence(&self) -> String {
        let mut line = format!(
            "{}; at most {} per schedule ({})",
            self.setup_line(),
            faults(self.max_faults),
            self.caps_phrase("")
        );
        if !self.symmetry {
            line.push_str("; no symmetry reduction");
        }
        line.push_str("; leases of crashed or finished holders expire freely");
        line
    }

    /// [`Bounds::caps_words`] for bounds said on their own, not after a
    /// claim's: `at most 1 crash per consumer, …`, `crashes only, no cap
    /// per kind`.
    pub fn caps_alone(&self) -> String {
        self.caps_phrase("")
    }

    /// [`Bounds::caps_words`], `still` (after a claim's own bounds) or
    /// not (the bounds alone).
    fn caps_phrase(&self, still: &str) -> String {
        let caps = self.caps();
        let allowed: Vec<_> = caps.iter().filter(|c| c.0 > 0).collect();
        let every = caps[..4].iter().all(|c| c.0 > 0);
        let capped: Vec<String> = allowed
            .iter()
            .filter(|c| c.0 < self.max_faults)
            .map(|c| count(c.0, c.1, c.2))
            .collect();
        let free: Vec<&str> = allowed
            .iter()
            .filter(|c| c.0 >= self.max_faults)
            .map(|c| c.3)
            .collect();
        let and = |w: &[&str]| match w.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => w.concat(),
        };
        match (capped.is_empty(), free.is_empty()) {
            (true, _) if every => "no cap per kind".to_string(),
            (true, _) => format!("{} only, no cap per kind", and(&free)),
            (false, true) => format!(
                "{still}at most {}{}",
                capped.join(", "),
                if every { "" } else { ", no other kind" }
            ),
            (false, false) => format!(
                "{still}at most {}; {} uncapped{}",
                capped.join(", "),
                and(&free),
                if every { "" } else { ", no other kind" }
            ),
        }
    }

    /// [`Bounds::searched`] with the caps per kind and the producer's
    /// retries said in it, for a screen with no row for
    /// [`Bounds::kinds_line`]: `2 faults, 1 of each (crash: per consumer);
    /// 1 message published once`. Each cap stands beside what it caps, so
    /// it needs no label of its own and fits the 80x24 explorer's two rows
    /// of bounds. Teacher trials: `1 per kind` left "1 what?" open, and a
    /// bare `0 retries` beside a run whose consumer calls the provider again
    /// read as untrue; a retry bounded here is the producer's, so it says
    /// so (`published once`, or `1 producer retry`). None where the four
    /// kinds do not share a cap: those caps need [`Bounds::kinds_line`].
    pub fn searched_capped(&self, per: bool, ids: bool) -> Option<String> {
        let four = [
            self.crashes,
            self.lost_acks,
            self.lost_responses,
            self.early_expiries,
        ];
        if !four.iter().all(|n| *n == self.crashes) {
            return None;
        }
        let mut line = self.faults_searched(per);
        line.push_str(&format!(
            ", {} of each (crash: per consumer); ",
            self.crashes
        ));
        line.push_str(&self.messages_searched(ids));
        if self.retries == 0 {
            line.push_str(" published once");
        } else {
            line.push_str(", ");
            line.push_str(&count(self.retries, "producer retry", "producer retries"));
        }
        Some(line)
    }
}

fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "bounds: {}", self.setup_line())?;
        write!(
            f,
            "faults: at most {} per schedule, of which at most {} per consumer, {}, {}, {} (a lease running out while its holder still works: the lease alone, or time jumping past every lease and deadline), {}; leases of crashed or finished holders expire freely",
            self.max_faults,
            count(self.crashes, "crash", "crashes"),
            count(self.lost_acks, "lost ack", "lost acks"),
            count(
                self.lost_responses,
                "lost provider response",
                "lost provider responses"
            ),
            count(
                self.early_expiries,
                "early lease expiry",
                "early lease expiries"
            ),
            count(self.retries, "producer retry", "producer retries")
        )?;
        if !self.symmetry {
            write!(f, "; no symmetry reduction")?;
        }
        Ok(())
    }
}

/// `1 fault`, `3 faults`.
pub fn faults(n: u32) -> String {
    format!("{n} fault{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod caps_tests {
    use super::*;

    /// Each way a try one fault further can stand: every cap still binding
    /// (`idem check`'s), none binding and some kinds out (a level's), and
    /// both at once.
    #[test]
    fn the_caps_words_say_which_try_it_is() {
        let at = |b: Bounds| Bounds { max_faults: 3, ..b };
        assert_eq!(
            at(Bounds::default()).caps_words(),
            "still at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry"
        );
        let crashes_only = Bounds {
            crashes: 3,
            lost_acks: 0,
            lost_responses: 0,
            early_expiries: 0,
            ..Bounds::default()
        };
        assert_eq!(
            at(crashes_only).caps_words(),
            "crashes only, no cap per kind"
        );
        let mixed = Bounds {
            crashes: 3,
            lost_responses: 0,
            ..Bounds::default()
        };
        assert_eq!(
            at(mixed.clone()).caps_words(),
            "still at most 1 lost ack, 1 early lease expiry; crashes uncapped, no other kind"
        );
        assert_eq!(
            Bounds::default().sentence(),
            "2 consumers (A, B), 1 message (m-7f3), dead-letter after 3 receives; at most 2 faults per schedule (at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry); leases of crashed or finished holders expire freely"
        );
        assert_eq!(
            Bounds::default().searched_capped(false, false).as_deref(),
            Some("2 faults, 1 of each (crash: per consumer); 1 message published once")
        );
        let retried = Bounds {
            retries: 1,
            ..Bounds::default()
        };
        assert_eq!(
            retried.searched_capped(true, true).as_deref(),
            Some(
                "2 faults per schedule, 1 of each (crash: per consumer); 1 message (m-7f3), 1 producer retry"
            )
        );
        assert_eq!(at(mixed).searched_capped(false, false), None);
    }
}
