//! The soak's schedule: which payment is published when, and which fault
//! fires when and at whom. It draws from its own seeded generator and never
//! looks at a world, so every design meets the very same schedule.

use super::faults::{FaultKind, FaultRates, MILLION};
use super::workload::{Mix, Producer};
use crate::sim::{Message, Millis};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// One thing the schedule makes happen at a tick, before a consumer steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The producer publishes a new payment.
    Produce(Message),
    /// A crash, lost ack, lost response or expired lease aimed at a consumer
    /// (by index); the lease is whichever the consumer holds then.
    Hit {
        kind: FaultKind,
        consumer: usize,
    },
    Slow {
        consumer: usize,
        ms: Millis,
    },
    /// The producer publishes this message again (a publish retry).
    Republish {
        message: String,
    },
    /// The retention job deletes processed IDs older than this.
    Prune {
        age_ms: Millis,
    },
}

/// What shapes a schedule besides the seed.
#[derive(Clone, Debug)]
pub struct Plan {
    pub messages: u64,
    pub consumers: usize,
    pub rates: FaultRates,
    pub mix: Mix,
    /// Ticks between two payments published: a little more than one
    /// handler run, so that the consumers keep up.
    pub gap: u64,
    pub lease_ms: Millis,
    pub step_ms: Millis,
    pub retention_ms: Option<Millis>,
}

/// How often the retention job runs, in virtual time.
pub const PRUNE_EVERY_MS: Millis = 60_000;
/// How late a publish retry can come without a retention: an hour.
pub const REPUBLISH_HORIZON_MS: Millis = 3_600_000;

pub struct Schedule {
    plan: Plan,
    rng: ChaCha8Rng,
    producer: Producer,
    tick: u64,
    /// Faults and retries already drawn, by the tick they fire at.
    pending: BTreeMap<u64, Vec<Decision>>,
    /// Publish retries still to come, by message ID.
    retries: BTreeMap<String, u32>,
}

impl Schedule {
    pub fn new(plan: Plan, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // A stream of its own: the consumers' interleaving draws from
        // another, so that the two never shift each other.
        rng.set_stream(1);
        Schedule {
            producer: Producer::new(plan.mix.clone()),
            plan,
            rng,
            tick: 0,
            pending: BTreeMap::new(),
            retries: BTreeMap::new(),
        }
    }

    pub fn tick(&self) -> u64 {
        self.tick
    }

    pub fn published(&self) -> u64 {
        self.producer.minted()
    }

    /// The payments the plan is to publish in all.
    pub fn planned(&self) -> u64 {
        self.plan.messages
    }

    /// A publish retry of this message is still to come.
    pub fn retry_due(&self, message: &str) -> bool {
        self.retries.contains_key(message)
    }

    /// Every payment is published and every drawn fault and retry has fired.
    pub fn finished(&self) -> bool {
        self.producer.minted() >= self.plan.messages && self.pending.is_empty()
    }

    /// The next tick at which something is decided (a payment, a fault, a
    /// retry, the retention job); `u64::MAX` when nothing is left.
    pub fn next_due(&self) -> u64 {
        let t = self.tick;
        let mut due = self.pending.keys().next().copied().unwrap_or(u64::MAX);
        if self.producer.minted() < self.plan.messages {
            due = due.min(t.next_multiple_of(self.plan.gap));
        }
        if self.plan.retention_ms.is_some() {
            let every = (PRUNE_EVERY_MS / self.plan.step_ms).max(1);
            due = due.min(t.max(1).next_multiple_of(every));
        }
        due
    }

    /// Passes over ticks where nothing is decided, up to `t` (never past
    /// `next_due`).
    pub fn skip_to(&mut self, t: u64) {
        self.tick = self.tick.max(t.min(self.next_due()));
    }

    /// The decisions of the next tick, into `out`.
    pub fn next(&mut self, out: &mut Vec<Decision>) {
        out.clear();
        let t = self.tick;
        self.tick += 1;
        let left = self.plan.messages - self.producer.minted();
        if t.is_multiple_of(self.plan.gap) && left > 0 {
            let batch = self.producer.next(&mut self.rng, left);
            for message in &batch {
                self.draw_faults(t, message);
            }
            out.extend(batch.into_iter().map(Decision::Produce));
        }
        if let Some(age_ms) = self.plan.retention_ms {
            let every = (PRUNE_EVERY_MS / self.plan.step_ms).max(1);
            if t > 0 && t.is_multiple_of(every) {
                out.push(Decision::Prune { age_ms });
            }
        }
        if let Some(due) = self.pending.remove(&t) {
            for d in &due {
                if let Decision::Republish { message } = d
                    && let Some(n) = self.retries.get_mut(message)
                {
                    *n -= 1;
                    if *n == 0 {
                        self.retries.remove(message);
                    }
                }
            }
            out.extend(due);
        }
    }

    /// Each kind fires with its rate for this message, at a tick while the
    /// message is likely in the system (a retry: any time up to the horizon).
    fn draw_faults(&mut self, t: u64, message: &Message) {
        let k = self.plan.consumers;
        for kind in FaultKind::ALL {
            if self.rng.random_range(0..MILLION) >= self.plan.rates.get(kind) {
                continue;
            }
            let consumer = self.rng.random_range(0..k);
            let (at, decision) = match kind {
                FaultKind::Republish => {
                    let horizon = self
                        .plan
                        .retention_ms
                        .map_or(REPUBLISH_HORIZON_MS, |r| r.saturating_mul(2))
                        / self.plan.step_ms;
                    let delay = self.rng.random_range(1..=horizon.max(1));
                    let message = message.id.clone();
                    *self.retries.entry(message.clone()).or_default() += 1;
                    (t + delay, Decision::Republish { message })
                }
                FaultKind::Slow => {
                    // Half a lease to two leases: often long enough that
                    // the broker hands the message to someone else.
                    let lease = self.plan.lease_ms;
                    let ms = self.rng.random_range(lease / 2..=lease * 2);
                    let at = t + self.rng.random_range(0..2 * self.plan.gap);
                    (at, Decision::Slow { consumer, ms })
                }
                kind => {
                    let at = t + self.rng.random_range(0..2 * self.plan.gap);
                    (at, Decision::Hit { kind, consumer })
                }
            };
            self.pending.entry(at).or_default().push(decision);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(messages: u64) -> Plan {
        Plan {
            messages,
            consumers: 3,
            rates: FaultRates::default(),
            mix: Mix::default(),
            gap: 10,
            lease_ms: 30_000,
            step_ms: 100,
            retention_ms: Some(600_000),
        }
    }

    fn all(seed: u64, messages: u64) -> Vec<(u64, Decision)> {
        let mut schedule = Schedule::new(plan(messages), seed);
        let mut out = Vec::new();
        let mut every = Vec::new();
        while !schedule.finished() {
            schedule.next(&mut out);
            every.extend(out.iter().cloned().map(|d| (schedule.tick() - 1, d)));
        }
        every
    }

    #[test]
    fn same_seed_same_schedule_other_seed_another() {
        let a = all(7, 2_000);
        assert_eq!(a, all(7, 2_000));
        assert_ne!(a, all(8, 2_000));
        let produced = a
            .iter()
            .filter(|(_, d)| matches!(d, Decision::Produce(_)))
            .count();
        assert_eq!(produced, 2_000);
    }

    #[test]
    fn every_fault_kind_fires_at_about_its_rate() {
        let a = all(1, 20_000);
        let count = |f: &dyn Fn(&Decision) -> bool| a.iter().filter(|(_, d)| f(d)).count();
        // 1% of 20,000 is 200; 0.5% is 100.
        let lost = count(&|d| {
            matches!(
                d,
                Decision::Hit {
                    kind: FaultKind::LoseAck,
                    ..
                }
            )
        });
        assert!((140..=260).contains(&lost), "{lost} acks lost");
        let crashes = count(&|d| {
            matches!(
                d,
                Decision::Hit {
                    kind: FaultKind::Crash,
                    ..
                }
            )
        });
        assert!((60..=140).contains(&crashes), "{crashes} crashes");
        let retries = count(&|d| matches!(d, Decision::Republish { .. }));
        assert!((140..=260).contains(&retries), "{retries} retries");
        assert!(count(&|d| matches!(d, Decision::Slow { .. })) > 300);
        assert!(count(&|d| matches!(d, Decision::Prune { .. })) > 0);
        assert!(
            count(&|d| matches!(
                d,
                Decision::Hit {
                    kind: FaultKind::Expire,
                    ..
                }
            )) > 50
        );
        assert!(
            count(&|d| matches!(
                d,
                Decision::Hit {
                    kind: FaultKind::LoseResponse,
                    ..
                }
            )) > 50
        );
    }
}
