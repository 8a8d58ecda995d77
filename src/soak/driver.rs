//! One design's soak: the schedule's decisions and a seeded interleaving of
//! the consumers, applied to a `World` move by move, each business fact
//! judged by the world's verdict when it settles, and the story of each
//! fact kept only while it is live.

mod settle;

use super::faults::FaultKind;
use super::live::{self, Live, LiveDesign};
use super::schedule::{Decision, Plan, Schedule};
use super::story::Story;
use super::tally::Tally;
use crate::sim::consumer::Status;
use crate::sim::world::{Counters, Setup};
use crate::sim::{Millis, Move, Op, Payment, SimError, Strategy, World};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// Ticks between two sweeps for facts that settled without a move of their
/// own (a lease that ran out into the dead-letter queue).
const SWEEP_EVERY: u64 = 64;
/// At most this many idle ticks pass in one wait.
const IDLE_TICKS: u64 = 30;

/// What one design's soak ended with; the same seed gives the same value.
#[derive(Clone, Debug, Serialize)]
pub struct DesignRun {
    pub design: String,
    pub published: u64,
    /// Faults that fired, by kind (an expire aimed at an idle consumer
    /// finds no lease and does not count).
    pub faults: BTreeMap<FaultKind, u64>,
    pub counters: Counters,
    pub tally: Tally,
    /// Whether the design records IDs in processed_messages at all.
    pub uses_processed: bool,
    /// processed_messages rows at the end, and rows the retention job deleted.
    pub processed_rows: u64,
    pub pruned_rows: u64,
    /// The database's and the provider's own totals at the end, in dollars:
    /// they must match the books.
    pub db_recorded: u64,
    pub provider_charged: u64,
    /// Facts still in progress when the soak stopped (at its bound, or
    /// told to): judged as they stood, in progress unless already wrong.
    pub unsettled: u64,
    /// The user stopped the soak before it had published and settled all.
    pub stopped_early: bool,
    /// The payments the soak was to publish.
    pub planned: u64,
    pub ticks: u64,
    pub virtual_ms: Millis,
    /// The database's pages at the end, in bytes: all that grows with the
    /// payments (the world forgets each payment once it settles).
    /// `None` when a handler cut off by the bound held the write lock,
    /// which keeps readers out.
    pub db_bytes: Option<u64>,
    /// Why this soak is outside the design's promise (it assumes an
    /// ordered log, or status changes), when it is: then its violations
    /// are no broken claim.
    pub outside: Option<String>,
}

/// Marks a design's run done when it ends, on every way out (an error or
/// a panic too), so that no other design waits for it for ever.
struct Done<'a>(&'a live::Pace, usize);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.done(self.1);
    }
}

pub struct Driver<'a> {
    strategy: Strategy,
    world: World,
    schedule: Schedule,
    /// The consumers' interleaving: a stream of its own, so that it never
    /// shifts the schedule.
    pick: ChaCha8Rng,
    step_ms: Millis,
    live: BTreeMap<Payment, Story>,
    /// Which fact each message ID of a live story belongs to.
    by_id: BTreeMap<String, Payment>,
    /// The fact each consumer crashed on, until it restarts.
    crashed_on: Vec<Option<Payment>>,
    faults: BTreeMap<FaultKind, u64>,
    tally: Tally,
    pruned_rows: u64,
    bound: u64,
    progress: &'a AtomicU64,
    /// A dashboard's view, and this design's place in it.
    watch: Option<(&'a Live, usize)>,
    figures: LiveDesign,
}

impl<'a> Driver<'a> {
    pub fn new(
        setup: Setup,
        strategy: Strategy,
        plan: Plan,
        seed: u64,
        progress: &'a AtomicU64,
        live: Option<(&'a Live, usize)>,
    ) -> Result<Self, SimError> {
        let mut pick = ChaCha8Rng::seed_from_u64(seed);
        pick.set_stream(2);
        let consumers = setup.consumers.len();
        // Every payment takes `gap` ticks at most when nothing goes wrong;
        // faults and drains get sixty-four times that, and a day besides.
        let bound = plan
            .messages
            .saturating_mul(plan.gap)
            .saturating_mul(64)
            .saturating_add(86_400_000 / plan.step_ms);
        let strategy_name = strategy.name.clone();
        let mut world = World::new(setup, strategy.clone(), seed)?;
        world.set_forget_acked(true);
        Ok(Driver {
            step_ms: plan.step_ms,
            world,
            schedule: Schedule::new(plan, seed),
            strategy,
            pick,
            live: BTreeMap::new(),
            by_id: BTreeMap::new(),
            crashed_on: vec![None; consumers],
            faults: BTreeMap::new(),
            tally: Tally::default(),
            pruned_rows: 0,
            bound,
            progress,
            watch: live,
            figures: LiveDesign {
                design: strategy_name.to_string(),
                ..LiveDesign::default()
            },
        })
    }

    /// Runs until every payment is published and settled, or the bound.
    pub fn run(mut self) -> Result<DesignRun, SimError> {
        let mut decisions = Vec::new();
        let mut published = 0;
        let mut swept = 0;
        let mut sliced = 0;
        let mut stopped_early = false;
        // Whatever way this run ends, the other designs stop waiting for it.
        let _done = self.watch.map(|(live, i)| Done(&live.pace, i));
        // The first tick of the schedule this run does not take, once a
        // stop is asked for: the same for every design.
        let mut stop_tick = u64::MAX;
        while self.schedule.tick() < self.bound {
            // Every decision before the stop tick taken, none at or after
            // it: each design ends on the same prefix of the schedule (an
            // idle wait may pass the tick, but never over a decision).
            if self.schedule.tick() >= stop_tick {
                stopped_early = true;
                break;
            }
            self.schedule.next(&mut decisions);
            for d in decisions.drain(..) {
                self.decide(d)?;
            }
            let now_published = self.schedule.published();
            if now_published > published {
                self.progress
                    .fetch_add(now_published - published, Ordering::Relaxed);
                published = now_published;
            }
            if !self.step_someone()? {
                break;
            }
            if self.schedule.tick() / live::SLICE != sliced {
                sliced = self.schedule.tick() / live::SLICE;
                if let Some(at) = self.show(published, sliced) {
                    stop_tick = at.saturating_mul(live::SLICE);
                }
            }
            if self.schedule.tick() / SWEEP_EVERY != swept {
                swept = self.schedule.tick() / SWEEP_EVERY;
                self.sweep()?;
            }
        }
        self.sweep()?;
        let unsettled = self.live.len() as u64;
        // Judge what the stop left under way too, as it stands, so the
        // books cover every payment published, each once.
        let left: Vec<Payment> = self.live.keys().cloned().collect();
        for payment in left {
            self.settle_in_progress(&payment)?;
        }
        self.figures.finished = true;
        self.show(published, u64::MAX);
        // The database's own word where it can be asked (a handler cut off
        // by the bound may hold the write lock, which keeps readers out).
        let kept = (self.world.processed_rows(), self.world.recorded_total());
        let (processed_rows, db_recorded) = match self.world.lock_holder() {
            None => self.world.database_totals()?,
            Some(_) => kept,
        };
        debug_assert_eq!((processed_rows, db_recorded), kept);
        Ok(DesignRun {
            design: self.strategy.name.to_string(),
            published,
            faults: self.faults,
            counters: self.world.counters().clone(),
            tally: self.tally,
            uses_processed: self
                .strategy
                .program
                .iter()
                .any(|op| matches!(op, Op::ClaimId | Op::CheckId)),
            processed_rows,
            pruned_rows: self.pruned_rows,
            db_recorded,
            provider_charged: self.world.provider().charged_total(),
            unsettled,
            stopped_early,
            planned: self.schedule.planned(),
            ticks: self.schedule.tick(),
            virtual_ms: self.world.now(),
            db_bytes: match self.world.lock_holder() {
                None => Some(self.world.database_bytes()?),
                Some(_) => None,
            },
            outside: super::promise::outside(&self.strategy),
        })
    }

    /// Hands the figures to the dashboard, if one watches, minds its
    /// controls and keeps pace with the other designs at `slice`; the
    /// slice every design stops at, once a stop is asked for.
    fn show(&mut self, published: u64, slice: u64) -> Option<u64> {
        let (live, i) = self.watch?;
        let f = &mut self.figures;
        f.published = published;
        f.virtual_ms = self.world.now();
        f.counters = self.world.counters().clone();
        f.money = self.tally.money.clone();
        f.outcomes = self.tally.outcomes.clone();
        f.overlapping = self.tally.overlapping;
        f.made_twice = self.tally.made_twice;
        f.violations = self.tally.violations();
        f.processed_rows = self.world.processed_rows();
        f.pruned_rows = self.pruned_rows;
        if let Ok(mut state) = live.state.lock() {
            state.designs[i] = f.clone();
        }
        live.control.checkpoint();
        if self.figures.finished {
            live.pace.done(i);
            return None;
        }
        live.pace.reach(i, slice, &|| {
            live.control.stop.load(std::sync::atomic::Ordering::Relaxed)
        })
    }

    fn fired(&mut self, kind: FaultKind) {
        *self.faults.entry(kind).or_default() += 1;
    }

    fn name(&self, i: usize) -> String {
        self.world.consumers()[i].name.clone()
    }

    fn holds(&self, i: usize) -> Option<Payment> {
        self.world.consumers()[i]
            .delivery()
            .map(|d| d.message.payment.clone())
    }

    fn decide(&mut self, d: Decision) -> Result<(), SimError> {
        let now = self.world.now();
        match d {
            Decision::Produce(message) => {
                let payment = message.payment.clone();
                self.by_id.insert(message.id.clone(), payment.clone());
                match self.live.get_mut(&payment) {
                    // The second of a payment made twice on purpose: the
                    // same tick, so the replay publishes both at its start.
                    Some(story) => story.messages.push(message.clone()),
                    None => {
                        self.live.insert(payment, Story::new(message.clone(), now));
                    }
                }
                self.world.apply(&Move::Produce { message })?;
            }
            Decision::Hit { kind, consumer } => {
                let name = self.name(consumer);
                let mv = match kind {
                    FaultKind::Crash => {
                        if self.world.consumers()[consumer].is_crashed() {
                            return Ok(());
                        }
                        let held = self.holds(consumer);
                        self.crashed_on[consumer] = held.clone();
                        let mv = Move::Crash { consumer: name };
                        self.world.apply(&mv)?;
                        self.fired(kind);
                        if let Some(payment) = held {
                            self.keep(&payment, vec![mv], now);
                        }
                        return Ok(());
                    }
                    FaultKind::Expire => {
                        let Some(d) = self.world.consumers()[consumer].delivery() else {
                            return Ok(());
                        };
                        let (payment, message) = (d.message.payment.clone(), d.message.id.clone());
                        let mv = Move::ExpireLease { message };
                        self.world.apply(&mv)?;
                        self.fired(kind);
                        self.keep(&payment, vec![mv], now);
                        return Ok(());
                    }
                    // Armed now; a story keeps it just before the step
                    // that meets it.
                    FaultKind::LoseAck => Move::LoseAck { consumer: name },
                    _ => Move::LoseResponse { consumer: name },
                };
                self.world.apply(&mv)?;
                self.fired(kind);
            }
            Decision::Slow { consumer, ms } => {
                let consumer = self.name(consumer);
                self.world.apply(&Move::Slow { consumer, ms })?;
                self.fired(FaultKind::Slow);
            }
            Decision::Republish { message } => {
                let payment = self.by_id.get(&message).cloned();
                let mv = Move::Publish { message };
                self.world.apply(&mv)?;
                self.fired(FaultKind::Republish);
                if let Some(payment) = payment {
                    self.keep(&payment, vec![mv], now);
                }
            }
            Decision::Prune { age_ms } => {
                let ran = self.world.lock_holder().is_none();
                let before = self.world.processed_rows();
                self.world.apply(&Move::Prune { age_ms })?;
                self.pruned_rows += before.saturating_sub(self.world.processed_rows());
                if ran {
                    for story in self.live.values_mut() {
                        story.keep_prune(age_ms, now);
                    }
                }
            }
        }
        Ok(())
    }

    /// Keeps a move in the story of `payment`, if it is live, and judges
    /// the fact if that settled it.
    fn keep(&mut self, payment: &Payment, moves: Vec<Move>, at: Millis) {
        let after = self.world.now();
        if let Some(story) = self.live.get_mut(payment) {
            story.keep(moves, at, after);
        }
    }

    /// One consumer that can do something takes a step; with none, time
    /// passes. False once the soak is over.
    fn step_someone(&mut self) -> Result<bool, SimError> {
        let can_receive = self.world.broker().can_receive();
        let ready: Vec<usize> = self
            .world
            .consumers()
            .iter()
            .enumerate()
            .filter(|(_, c)| match c.status() {
                Status::Idle => can_receive,
                Status::Handling | Status::Crashed => true,
                Status::Blocked { .. } | Status::AwaitingKey { .. } => false,
            })
            .map(|(i, _)| i)
            .collect();
        if ready.is_empty() {
            if self.schedule.finished()
                && !self
                    .world
                    .broker()
                    .messages()
                    .iter()
                    .any(|m| m.is_pending())
            {
                return Ok(false);
            }
            // Nobody can act: let time pass until the schedule's next
            // decision, a tenth of a lease at most, so that a lease running
            // out is noticed soon after.
            let now = self.schedule.tick();
            let until = self
                .schedule
                .next_due()
                .min(now + IDLE_TICKS)
                .min(self.bound)
                .max(now);
            self.schedule.skip_to(until);
            let ticks = self.schedule.tick() - now + 1;
            self.world.apply(&Move::Wait {
                ms: ticks * self.step_ms,
            })?;
            return Ok(true);
        }
        let i = ready[self.pick.random_range(0..ready.len())];
        self.step(i)?;
        Ok(true)
    }

    fn step(&mut self, i: usize) -> Result<(), SimError> {
        let c = &self.world.consumers()[i];
        let name = c.name.clone();
        let restart = c.is_crashed();
        let held = if restart {
            self.crashed_on[i].clone()
        } else {
            self.holds(i)
        };
        // Faults armed against this consumer that this very step meets:
        // a story arms them right before it, as the soak had.
        let op = self.strategy.program.get(c.pc).copied();
        let mut armed = Vec::new();
        if c.slow_next_ms > 0 {
            armed.push(Move::Slow {
                consumer: name.clone(),
                ms: c.slow_next_ms,
            });
        }
        if !restart && c.lose_next_ack && op == Some(Op::Ack) {
            armed.push(Move::LoseAck {
                consumer: name.clone(),
            });
        }
        if !restart && c.lose_next_response && op == Some(Op::AwaitResponse) {
            armed.push(Move::LoseResponse {
                consumer: name.clone(),
            });
        }
        let at = self.world.now();
        let mv = Move::Step { consumer: name };
        self.world.apply(&mv)?;
        if restart {
            self.crashed_on[i] = None;
        }
        let Some(payment) = held.or_else(|| self.holds(i)) else {
            return Ok(());
        };
        // Blocked by a consumer on another payment: the story leaves the
        // step out (on its own, nobody would have held the lock), and the
        // retry that follows runs the step for real.
        if let Status::Blocked { by } = &self.world.consumers()[i].status() {
            let blocker = self.world.consumers().iter().find(|c| c.name == *by);
            let same = blocker
                .and_then(|c| c.delivery())
                .is_some_and(|d| d.message.payment == payment);
            if !same {
                return Ok(());
            }
        }
        armed.push(mv);
        self.keep(&payment, armed, at);
        self.try_settle(&payment)
    }
}
