//! The step function: one `Move` at a time changes the world and says what
//! happened. The scripted timeline and the exhaustive checker both drive the
//! world through `World::apply` and nothing else.

use super::broker::{AckOutcome, Broker, ExpiryOutcome};
use super::cache::Cache;
use super::consumer::{Consumer, Mark, Status};
use super::db::{Begin, Database, DbError, Ran, RecordClaim, Tables, render_look_up};
use super::event::{Actor, Event, EventKind, SqlRecord};
use super::message::{Message, Payment};
use super::provider::{Provider, Reply};
use super::strategy::{Op, Strategy};
use super::verdict::{self, FactState, LedgerEntry, LedgerKind, Verdict};
use super::{Millis, format_duration};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Everything a run starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub queue: String,
    pub lease_ms: Millis,
    pub max_receives: u32,
    /// Virtual time one handler step takes.
    pub step_ms: Millis,
    pub consumers: Vec<String>,
    /// Published in this order before the first step.
    pub messages: Vec<Message>,
    pub key_lifetime_ms: Millis,
    pub first_charge: u32,
    /// Orders whose card the provider declines.
    pub declines: BTreeSet<u32>,
    pub dedup_window_ms: Millis,
    /// Time-to-live of the IDs a cache-based design writes.
    pub cache_ttl_ms: Millis,
    /// How long an in-progress record holds off other deliveries.
    pub record_timeout_ms: Millis,
    /// Which ID the consumers deduplicate on.
    pub id_source: IdSource,
    /// The queue is one partition of an ordered log (see `Broker::ordered`).
    pub ordered: bool,
    /// Write the database to this file instead of memory.
    pub db_file: Option<PathBuf>,
}

/// Where the ID that a consumer remembers comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IdSource {
    /// The producer's own ID (`m-7f3`): the same on every copy of the fact.
    #[default]
    Producer,
    /// The broker's ID for the stored copy (`b-2`): a producer retry gets a new one.
    Broker,
    /// A hash of the body (`h-1a2b3c4d`): equal bodies are one message to it.
    Content,
}

/// FNV-1a over the body as the producer would serialise it: stable across
/// runs and platforms, which a std Hasher does not promise.
fn content_hash(payment: &Payment) -> String {
    let body = format!("order={}&amount={}", payment.order, payment.amount);
    let hash = body.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("h-{hash:08x}")
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            queue: "payments".into(),
            lease_ms: 30_000,
            max_receives: 5,
            step_ms: 1_000,
            consumers: vec!["A".into()],
            messages: Vec::new(),
            key_lifetime_ms: 86_400_000,
            first_charge: 81,
            declines: BTreeSet::new(),
            dedup_window_ms: 0,
            cache_ttl_ms: 3_600_000,
            record_timeout_ms: 30_000,
            id_source: IdSource::Producer,
            ordered: false,
            db_file: None,
        }
    }
}

/// One thing that can happen to the world; each yields one frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum Move {
    /// The consumer runs the next step of its program (or restarts after a crash).
    Step {
        consumer: String,
    },
    Crash {
        consumer: String,
    },
    LoseAck {
        consumer: String,
    },
    LoseResponse {
        consumer: String,
    },
    /// The consumer's next step takes this much longer.
    Slow {
        consumer: String,
        ms: Millis,
    },
    ExpireLease {
        message: String,
    },
    Wait {
        ms: Millis,
    },
    /// The producer publishes this message (again).
    Publish {
        message: String,
    },
    /// A janitor deletes processed IDs older than this.
    Prune {
        age_ms: Millis,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("no consumer named {0}")]
    UnknownConsumer(String),
    #[error("no message with ID {0} in the setup")]
    UnknownMessage(String),
}

/// Counters a production operator would watch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    pub delivered: u32,
    pub redeliveries: u32,
    /// Deliveries of a message ID that had been delivered before.
    pub duplicates_delivered: u32,
    pub duplicates_skipped: u32,
    pub acked: u32,
    pub acks_lost: u32,
    pub dead_lettered: u32,
    pub crashes: u32,
}

pub struct World {
    pub(super) setup: Setup,
    pub(super) strategy: Strategy,
    pub(super) now: Millis,
    pub(super) broker: Broker,
    pub(super) db: Database,
    pub(super) consumers: Vec<Consumer>,
    pub(super) provider: Provider,
    pub(super) cache: Cache,
    rng: ChaCha8Rng,
    /// Moves applied so far: the index of the frame the next move makes.
    pub(super) step: usize,
    pub(super) events: Vec<Event>,
    pub(super) sql: Vec<SqlRecord>,
    /// The committed tables, read whenever no write transaction is open
    /// (they cannot change while one is).
    pub(super) committed: Tables,
    pub(super) counters: Counters,
    pub(super) ledger: Vec<LedgerEntry>,
    /// Per business fact: what happened to it that a verdict may need to explain.
    notes: BTreeMap<Payment, Vec<String>>,
    /// Message IDs delivered at least once, to count duplicates.
    seen: BTreeSet<String>,
    /// Facts whose message an ack removed before any work was saved.
    acked_before_work: BTreeSet<Payment>,
    /// Every receipt handed out so far.
    receipts: BTreeSet<String>,
    /// The message ID whose claim hit the unique key in this step.
    pub(super) conflict: Option<String>,
    /// The key whose stored result was replayed in this step.
    pub(super) replayed: Option<String>,
}

impl World {
    pub fn new(setup: Setup, strategy: Strategy, seed: u64) -> Result<Self, SimError> {
        let db = Database::open(setup.db_file.as_deref())?;
        let mut broker = Broker::new(&setup.queue, setup.lease_ms, setup.max_receives);
        broker.dedup_window_ms = setup.dedup_window_ms;
        broker.ordered = setup.ordered;
        let consumers = setup
            .consumers
            .iter()
            .map(|name| Ok(Consumer::new(name, db.connect()?, strategy.program.len())))
            .collect::<Result<Vec<_>, SimError>>()?;
        let provider = Provider::new(
            setup.key_lifetime_ms,
            setup.first_charge,
            setup.declines.clone(),
        );
        let mut world = World {
            now: 0,
            broker,
            db,
            consumers,
            provider,
            cache: Cache::new(setup.cache_ttl_ms),
            rng: ChaCha8Rng::seed_from_u64(seed),
            step: 0,
            events: Vec::new(),
            sql: Vec::new(),
            committed: Tables::default(),
            counters: Counters::default(),
            ledger: Vec::new(),
            notes: BTreeMap::new(),
            seen: BTreeSet::new(),
            acked_before_work: BTreeSet::new(),
            receipts: BTreeSet::new(),
            conflict: None,
            replayed: None,
            strategy,
            setup,
        };
        for message in world.setup.messages.clone() {
            world.broker.publish(message.clone(), 0);
            world.say(
                Actor::Producer,
                EventKind::Info,
                format!(
                    "publishes {} (order {}, ${}) to {}",
                    message.id, message.payment.order, message.payment.amount, world.setup.queue
                ),
            );
        }
        world.committed = world.db.committed()?;
        Ok(world)
    }

    pub fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn now(&self) -> Millis {
        self.now
    }

    pub fn step_index(&self) -> usize {
        self.step
    }

    pub fn consumers(&self) -> &[Consumer] {
        &self.consumers
    }

    pub fn broker(&self) -> &Broker {
        &self.broker
    }

    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    pub fn committed(&self) -> &Tables {
        &self.committed
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn sql(&self) -> &[SqlRecord] {
        &self.sql
    }

    /// The consumer holding the database's write lock, if any.
    pub fn lock_holder(&self) -> Option<&str> {
        self.consumers
            .iter()
            .find(|c| c.in_txn)
            .map(|c| c.name.as_str())
    }

    /// Applies one move: time passes, leases and keys expire, then the move
    /// itself happens. Events and SQL describe this move only.
    pub fn apply(&mut self, mv: &Move) -> Result<(), SimError> {
        self.events.clear();
        self.sql.clear();
        self.conflict = None;
        self.replayed = None;
        self.step += 1;
        match mv {
            Move::Step { consumer } => {
                let i = self.consumer_index(consumer)?;
                let slow = std::mem::take(&mut self.consumers[i].slow_next_ms);
                if slow > 0 {
                    self.say(
                        Actor::Consumer(consumer.clone()),
                        EventKind::Warning,
                        format!("is slow: this step takes {}", format_duration(slow)),
                    );
                }
                self.advance(self.setup.step_ms + slow)?;
                self.step_consumer(i)?;
            }
            Move::Crash { consumer } => {
                let i = self.consumer_index(consumer)?;
                self.crash(i)?;
            }
            Move::LoseAck { consumer } => {
                let i = self.consumer_index(consumer)?;
                self.consumers[i].lose_next_ack = true;
                self.say(
                    Actor::Fault,
                    EventKind::Warning,
                    format!("armed: the network will drop {consumer}'s next ack"),
                );
            }
            Move::LoseResponse { consumer } => {
                let i = self.consumer_index(consumer)?;
                self.consumers[i].lose_next_response = true;
                self.say(
                    Actor::Fault,
                    EventKind::Warning,
                    format!("armed: the provider's next response to {consumer} will be lost"),
                );
            }
            Move::Slow { consumer, ms } => {
                let i = self.consumer_index(consumer)?;
                self.consumers[i].slow_next_ms = *ms;
                self.say(
                    Actor::Fault,
                    EventKind::Warning,
                    format!(
                        "armed: {consumer}'s next step will take {}",
                        format_duration(*ms)
                    ),
                );
            }
            Move::ExpireLease { message } => {
                if !self.setup.messages.iter().any(|m| m.id == *message) {
                    return Err(SimError::UnknownMessage(message.clone()));
                }
                match self.broker.expire_now(message) {
                    Some(outcome) => self.report_expiry(outcome),
                    None => self.say(
                        Actor::Broker,
                        EventKind::Info,
                        format!("{message} is not leased to anyone: no lease to expire"),
                    ),
                }
            }
            Move::Wait { ms } => {
                self.say(
                    Actor::Clock,
                    EventKind::Info,
                    format!("{} pass", format_duration(*ms)),
                );
                self.advance(*ms)?;
            }
            Move::Publish { message } => {
                let Some(m) = self
                    .setup
                    .messages
                    .iter()
                    .find(|m| m.id == *message)
                    .cloned()
                else {
                    return Err(SimError::UnknownMessage(message.clone()));
                };
                self.publish(m);
            }
            Move::Prune { age_ms } => self.prune(*age_ms)?,
        }
        self.refresh_committed()?;
        Ok(())
    }

    fn publish(&mut self, message: Message) {
        let before = self
            .broker
            .messages()
            .iter()
            .filter(|m| m.message.id == message.id)
            .count();
        match self.broker.publish(message.clone(), self.now) {
            Some(_) if before > 0 => self.say(
                Actor::Producer,
                EventKind::Warning,
                format!(
                    "publishes {} again (a retry): the queue now holds copy {}",
                    message.id,
                    before + 1
                ),
            ),
            Some(_) => self.say(
                Actor::Producer,
                EventKind::Info,
                format!("publishes {}", message.id),
            ),
            None => self.say(
                Actor::Broker,
                EventKind::Good,
                format!(
                    "accepts the repeat of {} but drops it: inside the {} deduplication window",
                    message.id,
                    format_duration(self.setup.dedup_window_ms)
                ),
            ),
        }
    }

    /// A janitor deletes old processed IDs, as retention jobs do in production.
    fn prune(&mut self, age_ms: Millis) -> Result<(), SimError> {
        if let Some(holder) = self.lock_holder() {
            let text = format!("janitor cannot prune now: {holder} holds the write lock");
            self.say(Actor::Janitor, EventKind::Info, text);
            return Ok(());
        }
        if age_ms > self.now {
            let text = format!(
                "finds nothing older than {}: the run is younger than that",
                format_duration(age_ms)
            );
            self.say(Actor::Janitor, EventKind::Info, text);
            return Ok(());
        }
        let cutoff = self.now - age_ms;
        let ran = self.db.prune_processed(cutoff)?;
        self.say(
            Actor::Janitor,
            EventKind::Warning,
            format!(
                "deletes processed IDs older than {} ({})",
                format_duration(age_ms),
                ran.result
            ),
        );
        self.sql.push(SqlRecord {
            consumer: "janitor".into(),
            sql: ran.sql,
            result: ran.result,
        });
        Ok(())
    }

    fn consumer_index(&self, name: &str) -> Result<usize, SimError> {
        self.consumers
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| SimError::UnknownConsumer(name.to_string()))
    }

    fn say(&mut self, actor: Actor, kind: EventKind, text: String) {
        self.events.push(Event { actor, kind, text });
    }

    fn ran(&mut self, consumer: usize, ran: Ran) {
        self.sql.push(SqlRecord {
            consumer: self.consumers[consumer].name.clone(),
            sql: ran.sql,
            result: ran.result,
        });
    }

    fn note(&mut self, payment: Payment, text: String) {
        self.notes.entry(payment).or_default().push(text);
    }

    /// Lets virtual time pass: leases and idempotency keys run out.
    fn advance(&mut self, ms: Millis) -> Result<(), SimError> {
        self.now = self.now.saturating_add(ms);
        self.cache.expire(self.now);
        for outcome in self.broker.expire_leases(self.now) {
            self.report_expiry(outcome);
        }
        for key in self.provider.forget_expired(self.now) {
            self.say(
                Actor::Provider,
                EventKind::Info,
                format!("forgets Idempotency-Key {key}: older than its lifetime"),
            );
        }
        Ok(())
    }

    fn report_expiry(&mut self, outcome: ExpiryOutcome) {
        match outcome {
            ExpiryOutcome::Visible {
                message_id,
                holder,
                cause,
            } => self.say(
                Actor::Broker,
                EventKind::Warning,
                format!(
                    "the lease {holder} held on {message_id} ran out ({}): {message_id} is visible again",
                    cause[1..].join(", ")
                ),
            ),
            ExpiryOutcome::DeadLettered {
                message_id,
                receives,
            } => {
                self.counters.dead_lettered += 1;
                self.say(
                    Actor::Broker,
                    EventKind::Bad,
                    format!(
                        "moves {message_id} to the dead-letter queue after {receives} receives"
                    ),
                );
            }
        }
    }

    fn refresh_committed(&mut self) -> Result<(), SimError> {
        if self.lock_holder().is_none() {
            self.committed = self.db.committed()?;
        }
        Ok(())
    }

    fn crash(&mut self, i: usize) -> Result<(), SimError> {
        let step = self.step;
        let c = &mut self.consumers[i];
        let name = c.name.clone();
        if c.status == Status::Crashed {
            self.say(
                Actor::Consumer(name),
                EventKind::Info,
                "is already down".into(),
            );
            return Ok(());
        }
        self.counters.crashes += 1;
        // Dropping the connection is what a dying process does: SQLite
        // rolls back the open transaction.
        let had_txn = c.in_txn;
        c.session = None;
        if c.pc < c.marks.len() && c.status != Status::Idle {
            c.marks[c.pc] = Mark::Crashed;
        }
        c.status = Status::Crashed;
        c.in_txn = false;
        c.txn_payment = false;
        c.response = None;
        if let Some(key) = c.open_key.take() {
            // The provider finishes its work whether or not the caller lives.
            self.provider.finish(&key);
        }
        c.lose_next_ack = false;
        c.lose_next_response = false;
        let delivery = c.delivery.take();
        self.say(
            Actor::Consumer(name.clone()),
            EventKind::Bad,
            "crashes: the process is gone".into(),
        );
        if had_txn {
            self.say(
                Actor::Consumer(name.clone()),
                EventKind::Warning,
                "its open transaction is rolled back by SQLite".into(),
            );
        }
        if let Some(d) = delivery {
            self.broker
                .note_lost_lease(&d.receipt, format!("{name} crashed at step {step}"));
            self.say(
                Actor::Broker,
                EventKind::Info,
                format!(
                    "still counts {} as leased to {name}: nobody tells it about the crash",
                    d.message.id
                ),
            );
        }
        Ok(())
    }

    fn restart(&mut self, i: usize) -> Result<(), SimError> {
        let session = self.db.connect()?;
        let steps = self.strategy.program.len();
        let c = &mut self.consumers[i];
        c.session = Some(session);
        c.finish();
        c.marks = vec![Mark::Todo; steps];
        let name = c.name.clone();
        self.say(
            Actor::Consumer(name),
            EventKind::Info,
            "restarts with a fresh connection and no memory of its last message".into(),
        );
        Ok(())
    }

    fn step_consumer(&mut self, i: usize) -> Result<(), SimError> {
        if self.consumers[i].status == Status::Crashed {
            return self.restart(i);
        }
        if matches!(self.consumers[i].status, Status::Blocked { .. }) {
            // A retry of the step that found the lock taken.
            self.consumers[i].status = Status::Handling;
        }
        let op = self.strategy.program[self.consumers[i].pc];
        match op {
            Op::Receive => self.receive(i)?,
            Op::Begin => self.begin(i)?,
            Op::ClaimId => self.claim(i)?,
            Op::CheckId => self.check_id(i)?,
            Op::ApplyCharge => self.apply_charge(i)?,
            Op::CallProvider { with_key } => self.call_provider(i, with_key)?,
            Op::AwaitResponse => self.await_response(i)?,
            Op::Commit => self.commit(i)?,
            Op::Ack => self.ack(i)?,
            Op::CacheClaim => self.cache_claim(i),
            Op::CacheCheck => self.cache_check(i),
            Op::CacheSet => self.cache_set(i),
            Op::ClaimInProgress => self.claim_record(i)?,
            Op::MarkCompleted => self.complete_record(i)?,
            Op::GuardRow => self.guard_row(i)?,
            Op::CheckOffset => self.check_offset(i)?,
            Op::SaveOffset => self.save_offset(i)?,
            Op::ApplyIfNewer => self.apply_body(i, true)?,
        }
        let c = &mut self.consumers[i];
        if c.status != Status::Idle && c.pc >= c.marks.len() {
            c.finish();
        }
        Ok(())
    }

    /// The ID this consumer deduplicates on: the producer's, or the
    /// broker's ID of the stored copy.
    fn message_key(&self, i: usize) -> String {
        let d = self.delivery(i);
        match self.setup.id_source {
            IdSource::Producer => d.message.id.clone(),
            IdSource::Broker => format!("b-{}", d.seq),
            IdSource::Content => content_hash(&d.message.payment),
        }
    }

    /// The skip path, taken when a step finds the message already handled:
    /// commit the open transaction if there is one, then acknowledge if an
    /// ack is still ahead. Steps jumped over are marked skipped.
    fn skip_ahead(&mut self, i: usize) {
        let c = &self.consumers[i];
        let target = if c.in_txn {
            self.strategy.next(Op::Commit, c.pc)
        } else if c.backing_off {
            None
        } else {
            self.strategy.next(Op::Ack, c.pc)
        };
        let end = target.unwrap_or(self.strategy.program.len());
        let c = &mut self.consumers[i];
        for mark in &mut c.marks[c.pc + 1..end] {
            *mark = Mark::Skipped;
        }
        c.pc = end;
    }

    /// A record's offset in the single partition: its place in the log.
    fn offset(&self, i: usize) -> u64 {
        u64::from(self.delivery(i).seq - 1)
    }

    fn check_offset(&mut self, i: usize) -> Result<(), SimError> {
        let offset = self.offset(i);
        let (last, ran) = self.session(i).read_offset()?;
        self.ran(i, ran);
        match last {
            Some(last) if offset <= last => self.duplicate_found(
                i,
                format!(
                    "offset {offset} is at or below the last applied offset {last}: skips the work"
                ),
            ),
            _ => {
                self.done(i);
                self.say(
                    self.actor(i),
                    EventKind::Info,
                    format!("offset {offset} is past the last applied one: goes on with the work"),
                );
            }
        }
        Ok(())
    }

    fn save_offset(&mut self, i: usize) -> Result<(), SimError> {
        let offset = self.offset(i);
        let ran = self.session(i).save_offset(offset)?;
        self.ran(i, ran);
        self.done(i);
        self.say(
            self.actor(i),
            EventKind::Info,
            format!("records offset {offset} as applied, in the same transaction as the payment"),
        );
        Ok(())
    }

    fn guard_row(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let order = self.delivery(i).message.payment.order;
        let (changed, ran) = self.session(i).guard_order_row(order, &key)?;
        self.ran(i, ran);
        if changed {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!("order {order}'s row now remembers {key} as its last message"),
            );
        } else {
            self.duplicate_found(
                i,
                format!("order {order}'s row already remembers {key}: skips the work"),
            );
        }
        Ok(())
    }

    fn check_id(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let Some((found, ran)) = self.session(i).look_up_message(&key)? else {
            self.wait_for_lock(i, render_look_up(&key));
            return Ok(());
        };
        self.ran(i, ran);
        if !found {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!("finds no record of {key}: goes on with the work"),
            );
            return Ok(());
        }
        self.duplicate_found(
            i,
            format!("finds {key} in processed_messages: skips the work"),
        );
        Ok(())
    }

    fn duplicate_found(&mut self, i: usize, text: String) {
        self.counters.duplicates_skipped += 1;
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Conflict;
        c.skipping = true;
        self.skip_ahead(i);
        self.say(self.actor(i), EventKind::Good, text);
    }

    fn cache_claim(&mut self, i: usize) {
        let key = self.message_key(i);
        let ttl = format_duration(self.setup.cache_ttl_ms);
        if self.cache.set_nx(&key, self.now) {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!(
                    "cache: SET {key} 1 NX EX {ttl} -> OK, the ID is claimed (outside the database)"
                ),
            );
        } else {
            self.duplicate_found(
                i,
                format!(
                    "cache: SET {key} 1 NX EX {ttl} -> nil, someone claimed it: skips the work"
                ),
            );
        }
    }

    fn cache_check(&mut self, i: usize) {
        let key = self.message_key(i);
        if self.cache.get(&key, self.now) {
            self.duplicate_found(i, format!("cache: GET {key} -> hit: skips the work"));
        } else {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!("cache: GET {key} -> miss: goes on with the work"),
            );
        }
    }

    fn cache_set(&mut self, i: usize) {
        let key = self.message_key(i);
        self.cache.set(&key, self.now);
        self.done(i);
        self.say(
            self.actor(i),
            EventKind::Info,
            format!(
                "cache: SET {key} 1 EX {} -> OK, the ID is remembered",
                format_duration(self.setup.cache_ttl_ms)
            ),
        );
    }

    /// The owner token of an in-progress record: consumer and receipt.
    fn owner(&self, i: usize) -> String {
        format!("{}/{}", self.consumers[i].name, self.delivery(i).receipt)
    }

    fn claim_record(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let owner = self.owner(i);
        let deadline = self.now + self.setup.record_timeout_ms;
        let (claim, ran) = self
            .session(i)
            .claim_record(&key, &owner, self.now, deadline)?;
        for r in ran {
            self.ran(i, r);
        }
        match claim {
            RecordClaim::Claimed => {
                self.done(i);
                self.say(
                    self.actor(i),
                    EventKind::Good,
                    format!(
                        "records {key} as in progress until {}",
                        format_duration(deadline)
                    ),
                );
            }
            RecordClaim::TookOver { previous_owner } => {
                self.done(i);
                self.say(
                    self.actor(i),
                    EventKind::Warning,
                    format!("takes over {key}: {previous_owner}'s deadline has passed, so the work runs again"),
                );
            }
            RecordClaim::Busy { owner, deadline } => {
                let c = &mut self.consumers[i];
                c.marks[c.pc] = Mark::Waiting;
                c.backing_off = true;
                self.skip_ahead(i);
                let receipt = self.delivery(i).receipt.clone();
                let name = self.consumers[i].name.clone();
                self.broker.note_lost_lease(
                    &receipt,
                    format!("{name} backed off: {key} in progress elsewhere"),
                );
                self.say(
                    self.actor(i),
                    EventKind::Warning,
                    format!(
                        "finds {key} in progress ({owner}, until {}): backs off without acking",
                        format_duration(deadline)
                    ),
                );
            }
            RecordClaim::Completed { result } => {
                self.duplicate_found(
                    i,
                    format!(
                        "finds {key} completed (result {}): returns the stored result, skips the work",
                        result.as_deref().unwrap_or("none")
                    ),
                );
            }
        }
        Ok(())
    }

    fn complete_record(&mut self, i: usize) -> Result<(), SimError> {
        let key = self.message_key(i);
        let owner = self.owner(i);
        let result = self.consumers[i]
            .last_charge
            .clone()
            .unwrap_or_else(|| "none".into());
        let (ok, ran) = self.session(i).complete_record(&key, &owner, &result)?;
        self.ran(i, ran);
        if ok {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Good,
                format!("marks {key} completed with result {result}"),
            );
            return Ok(());
        }
        // Someone took the record over and finished first: this attempt's
        // payment row must not survive.
        let ran = self.session(i).rollback()?;
        self.ran(i, ran);
        let c = &mut self.consumers[i];
        c.in_txn = false;
        c.txn_payment = false;
        self.duplicate_found(
            i,
            format!(
                "no longer owns {key}: another delivery took the record over, so it rolls back its own payment row"
            ),
        );
        Ok(())
    }

    fn session(&self, i: usize) -> &super::db::Session {
        self.consumers[i]
            .session
            .as_ref()
            .expect("a running consumer has a connection")
    }

    fn actor(&self, i: usize) -> Actor {
        Actor::Consumer(self.consumers[i].name.clone())
    }

    fn delivery(&self, i: usize) -> &super::broker::Delivery {
        self.consumers[i]
            .delivery
            .as_ref()
            .expect("past receive, a consumer holds a delivery")
    }

    fn done(&mut self, i: usize) {
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Done;
        c.pc += 1;
    }

    fn receive(&mut self, i: usize) -> Result<(), SimError> {
        // Receipts look random, as real ones do, but must never repeat: an
        // ack finds its message by receipt alone.
        let receipt = loop {
            let candidate = format!("rh-{:04x}", self.rng.random::<u16>());
            if self.receipts.insert(candidate.clone()) {
                break candidate;
            }
        };
        let name = self.consumers[i].name.clone();
        let Some(delivery) = self.broker.receive(&name, receipt, self.now) else {
            let held_back =
                self.broker.ordered && self.broker.messages().iter().any(|m| m.is_pending());
            self.say(
                self.actor(i),
                EventKind::Info,
                if held_back {
                    "polls the log: nothing to read, the next record is not acknowledged yet and nothing overtakes it".into()
                } else {
                    "polls the queue: nothing visible to receive".into()
                },
            );
            return Ok(());
        };
        self.counters.delivered += 1;
        let id = delivery.message.id.clone();
        let duplicate = !self.seen.insert(id.clone());
        if duplicate {
            self.counters.duplicates_delivered += 1;
        }
        let mut text = format!(
            "receives {id} (order {}, ${}), lease {}, receipt {}",
            delivery.message.payment.order,
            delivery.message.payment.amount,
            format_duration(self.setup.lease_ms),
            delivery.receipt
        );
        let mut kind = EventKind::Info;
        if delivery.redelivered {
            self.counters.redeliveries += 1;
            text.push_str(&format!(
                "; delivery {}, flagged redelivered",
                delivery.receive_count
            ));
            kind = EventKind::Warning;
        } else if duplicate {
            text.push_str("; a second copy of the same message");
            kind = EventKind::Warning;
        }
        let steps = self.strategy.program.len();
        let c = &mut self.consumers[i];
        c.marks = vec![Mark::Todo; steps];
        c.status = Status::Handling;
        c.delivery = Some(delivery);
        self.done(i);
        self.say(self.actor(i), kind, text);
        Ok(())
    }

    /// Why this delivery exists, for the cause chains: empty for a first one.
    fn delivery_cause(&self, i: usize) -> Vec<String> {
        let d = self.delivery(i);
        let copies = self
            .broker
            .messages()
            .iter()
            .find(|m| m.seq == d.seq)
            .map_or(1, |m| m.copy);
        let mut cause = Vec::new();
        if d.redelivered {
            cause.push(format!("{} redelivered", d.message.id));
            cause.extend(d.cause.iter().cloned());
        } else if copies > 1 {
            cause.push(format!(
                "copy {copies} of {} published by a producer retry",
                d.message.id
            ));
        }
        cause
    }

    fn begin(&mut self, i: usize) -> Result<(), SimError> {
        match self.session(i).begin()? {
            Begin::Open(ran) => {
                self.ran(i, ran);
                self.consumers[i].in_txn = true;
                self.consumers[i].status = Status::Handling;
                self.done(i);
                self.say(self.actor(i), EventKind::Info, "opens a transaction".into());
            }
            Begin::Busy(ran) => self.wait_for_lock(i, ran.sql),
        }
        Ok(())
    }

    /// SQLITE_BUSY: the step did not happen; the consumer waits for the
    /// lock holder to commit or roll back, then runs the same step again.
    fn wait_for_lock(&mut self, i: usize, sql: String) {
        let holder = self
            .lock_holder()
            .unwrap_or("another connection")
            .to_string();
        self.ran(
            i,
            Ran {
                sql,
                result: format!("SQLITE_BUSY: waiting for {holder}'s transaction"),
            },
        );
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Waiting;
        c.status = Status::Blocked { by: holder.clone() };
        self.say(
            self.actor(i),
            EventKind::Warning,
            format!("is blocked: {holder} holds the write lock, so it waits for {holder} to commit or roll back"),
        );
    }

    fn claim(&mut self, i: usize) -> Result<(), SimError> {
        let id = self.message_key(i);
        let claim = self.session(i).claim_message(&id, self.now)?;
        self.ran(i, claim.ran);
        if claim.first_time {
            self.done(i);
            self.say(
                self.actor(i),
                EventKind::Good,
                format!("records {id} in processed_messages: first time this ID is seen"),
            );
            return Ok(());
        }
        self.conflict = Some(id.clone());
        self.duplicate_found(
            i,
            format!("hits the unique key: {id} is already handled, so it skips the work"),
        );
        Ok(())
    }

    fn apply_charge(&mut self, i: usize) -> Result<(), SimError> {
        self.apply_body(i, false)
    }

    /// The work itself: a payment row, or a status change for the order.
    fn apply_body(&mut self, i: usize, only_if_newer: bool) -> Result<(), SimError> {
        let Message {
            payment, status, ..
        } = self.delivery(i).message.clone();
        if let Some(update) = status {
            let (written, ran) = self.session(i).set_status(
                payment.order,
                &update.status,
                update.version,
                only_if_newer,
            )?;
            self.ran(i, ran);
            if written {
                let newer = self
                    .committed
                    .statuses
                    .iter()
                    .find(|s| s.order == payment.order && s.version > update.version)
                    .map(|s| (s.status.clone(), s.version));
                if let Some((status, version)) = newer {
                    let id = self.delivery(i).message.id.clone();
                    let mut why = vec![format!(
                        "{id} (version {}) overwrote {status} (version {version}) at step {}",
                        update.version, self.step
                    )];
                    why.extend(self.delivery_cause(i));
                    self.note(payment.clone(), why.join(" <- "));
                }
                self.done(i);
                self.say(
                    self.actor(i),
                    EventKind::Info,
                    format!(
                        "sets order {} to {} (version {}, not committed yet)",
                        payment.order, update.status, update.version
                    ),
                );
            } else {
                self.duplicate_found(
                    i,
                    format!(
                        "leaves order {} alone: version {} is older than the row's",
                        payment.order, update.version
                    ),
                );
            }
            return Ok(());
        }
        let key = self.message_key(i);
        let ran = self
            .session(i)
            .insert_payment(payment.order, payment.amount, &key)?;
        self.ran(i, ran);
        self.consumers[i].txn_payment = true;
        self.done(i);
        self.say(
            self.actor(i),
            EventKind::Info,
            format!(
                "inserts a payment of ${} for order {} (not committed yet)",
                payment.amount, payment.order
            ),
        );
        Ok(())
    }

    /// A status change charges nothing: the provider steps pass without effect.
    fn no_charge(&mut self, i: usize) -> bool {
        if self.delivery(i).message.status.is_none() {
            return false;
        }
        let c = &mut self.consumers[i];
        c.marks[c.pc] = Mark::Skipped;
        c.pc += 1;
        self.say(
            self.actor(i),
            EventKind::Info,
            "has nothing to charge for a status change: no provider call".into(),
        );
        true
    }

    fn call_provider(&mut self, i: usize, with_key: bool) -> Result<(), SimError> {
        if self.no_charge(i) {
            return Ok(());
        }
        let payment = self.delivery(i).message.payment.clone();
        let id = self.message_key(i);
        let key = with_key.then_some(id.as_str());
        let charges_before = self.provider.charges().len();
        let response = self.provider.post_charge(key, &payment, self.now);
        let header = match key {
            Some(k) => format!("Idempotency-Key: {k}"),
            None => "no Idempotency-Key".into(),
        };
        self.say(
            self.actor(i),
            EventKind::Info,
            format!(
                "POST /charges (order {}, ${}) with {header}",
                payment.order, payment.amount
            ),
        );
        if self.provider.charges().len() > charges_before {
            let mut cause = Vec::new();
            if let Some(why) = self.consumers[i].retry_cause.clone() {
                cause.push(
                    format!(
                        "{} called the provider again {}",
                        self.consumers[i].name,
                        if with_key {
                            ""
                        } else {
                            "without an Idempotency-Key"
                        }
                    )
                    .trim_end()
                    .to_string(),
                );
                cause.push(why);
            }
            cause.extend(self.delivery_cause(i));
            self.ledger.push(LedgerEntry {
                order: payment.order,
                amount: payment.amount,
                kind: LedgerKind::ProviderCharged,
                step: self.step,
                cause,
            });
            let charge = self
                .provider
                .charges()
                .last()
                .expect("just charged")
                .id
                .clone();
            self.say(
                Actor::Provider,
                EventKind::Info,
                format!("charges the card ${}: {charge}", payment.amount),
            );
        } else if response.replayed {
            self.replayed = key.map(str::to_string);
            self.say(
                Actor::Provider,
                EventKind::Good,
                format!(
                    "has seen key {id} before: no new charge, it returns the stored result ({})",
                    response.reply.describe()
                ),
            );
        } else {
            self.say(
                Actor::Provider,
                EventKind::Warning,
                response.reply.describe(),
            );
        }
        if key.is_some() && !response.replayed && response.reply.status() < 409 {
            self.consumers[i].open_key = key.map(str::to_string);
        }
        self.consumers[i].response = Some(response);
        self.done(i);
        Ok(())
    }

    fn await_response(&mut self, i: usize) -> Result<(), SimError> {
        if self.no_charge(i) {
            return Ok(());
        }
        let step = self.step;
        if let Some(key) = self.consumers[i].open_key.take() {
            self.provider.finish(&key);
        }
        let c = &mut self.consumers[i];
        let response = c.response.take();
        if std::mem::take(&mut c.lose_next_response) || response.is_none() {
            // The handler times out and calls again: same program step as before.
            c.retry_cause = Some(format!("response lost at step {step}"));
            c.marks[c.pc] = Mark::Failed;
            c.pc -= 1;
            c.marks[c.pc] = Mark::Todo;
            self.say(
                self.actor(i),
                EventKind::Warning,
                "gets no response (lost on the way back): it will call the provider again".into(),
            );
            return Ok(());
        }
        let response = response.expect("checked above");
        let replay = if response.replayed {
            " (replayed: Idempotent-Replayed: true)"
        } else {
            ""
        };
        match response.reply {
            Reply::Charged { ref charge_id } => {
                self.consumers[i].last_charge = Some(charge_id.clone());
                self.done(i);
                self.say(
                    self.actor(i),
                    EventKind::Good,
                    format!("gets {}{replay}", response.reply.describe()),
                );
            }
            other => {
                // Any error: give up on this delivery and let the lease run
                // out, so the broker tries again (and dead-letters at last).
                let rolled_back = self.consumers[i].in_txn;
                if rolled_back {
                    let ran = self.session(i).rollback()?;
                    self.ran(i, ran);
                }
                let name = self.consumers[i].name.clone();
                let c = &mut self.consumers[i];
                c.marks[c.pc] = Mark::Failed;
                if let Some(d) = c.delivery.clone() {
                    self.broker.note_lost_lease(
                        &d.receipt,
                        format!("{name} gave up after {} at step {step}", other.describe()),
                    );
                    self.note(
                        d.message.payment.clone(),
                        format!("the provider answered {}", other.describe()),
                    );
                }
                self.consumers[i].finish();
                let undo = if rolled_back { "rolls back and " } else { "" };
                self.say(
                    self.actor(i),
                    EventKind::Bad,
                    format!(
                        "gets {}{replay}: {undo}gives up, leaving the message to be redelivered",
                        other.describe()
                    ),
                );
            }
        }
        Ok(())
    }

    fn commit(&mut self, i: usize) -> Result<(), SimError> {
        let ran = self.session(i).commit()?;
        self.ran(i, ran);
        let c = &mut self.consumers[i];
        c.in_txn = false;
        let wrote_payment = std::mem::take(&mut c.txn_payment);
        self.done(i);
        if wrote_payment {
            let payment = self.delivery(i).message.payment.clone();
            let cause = self.delivery_cause(i);
            self.ledger.push(LedgerEntry {
                order: payment.order,
                amount: payment.amount,
                kind: LedgerKind::PaymentCommitted,
                step: self.step,
                cause,
            });
        }
        let idle = self.consumers[i].skipping || self.consumers[i].backing_off;
        self.say(
            self.actor(i),
            EventKind::Good,
            if idle {
                "commits: the transaction wrote nothing".into()
            } else {
                "commits: everything in the transaction is saved together".into()
            },
        );
        if idle {
            // The commit was the first half of the skip path; the pc already
            // moved past it, so continue from the step before.
            self.consumers[i].pc -= 1;
            self.skip_ahead(i);
        }
        let waiting: Vec<String> = self
            .consumers
            .iter()
            .filter(|c| matches!(c.status, Status::Blocked { .. }))
            .map(|c| c.name.clone())
            .collect();
        for name in waiting {
            self.say(
                Actor::Consumer(name),
                EventKind::Info,
                "can go on: the write lock is free".into(),
            );
        }
        Ok(())
    }

    fn ack(&mut self, i: usize) -> Result<(), SimError> {
        let step = self.step;
        let d = self.delivery(i).clone();
        let name = self.consumers[i].name.clone();
        let id = d.message.id.clone();
        let payment = d.message.payment.clone();
        if std::mem::take(&mut self.consumers[i].lose_next_ack) {
            self.counters.acks_lost += 1;
            self.broker.mark_ack_lost(&d.receipt);
            self.broker
                .note_lost_lease(&d.receipt, format!("ack lost at step {step}"));
            let c = &mut self.consumers[i];
            c.marks[c.pc] = Mark::Failed;
            self.say(
                self.actor(i),
                EventKind::Bad,
                format!("acks {id}, but the ack is lost on the way: the broker still waits for it"),
            );
        } else {
            self.say(self.actor(i), EventKind::Info, format!("acks {id}"));
            match self.broker.ack(&d.receipt, &name) {
                AckOutcome::Removed { .. } => {
                    self.counters.acked += 1;
                    let c = &mut self.consumers[i];
                    c.marks[c.pc] = Mark::Done;
                    if d.message.status.is_none()
                        && !self
                            .committed
                            .payments
                            .iter()
                            .any(|p| p.order == payment.order && p.amount == payment.amount)
                    {
                        self.note(
                            payment.clone(),
                            format!("{id} acked at step {step} with no payment committed"),
                        );
                    }
                    if !self.consumers[i].skipping
                        && d.message.status.is_none()
                        && !self
                            .committed
                            .payments
                            .iter()
                            .any(|p| p.order == payment.order && p.amount == payment.amount)
                    {
                        self.acked_before_work.insert(payment.clone());
                    }
                    self.say(
                        Actor::Broker,
                        EventKind::Good,
                        format!("removes {id} from {}", self.setup.queue),
                    );
                }
                AckOutcome::Rejected { reason } => {
                    let c = &mut self.consumers[i];
                    c.marks[c.pc] = Mark::Failed;
                    self.say(
                        Actor::Broker,
                        EventKind::Warning,
                        format!(
                            "ignores {name}'s ack for {id} ({reason}); like SQS it answers OK, so {name} cannot tell"
                        ),
                    );
                }
            }
        }
        self.done_unless_marked(i);
        Ok(())
    }

    /// Moves past the current step without overwriting a failure mark.
    fn done_unless_marked(&mut self, i: usize) {
        let c = &mut self.consumers[i];
        if c.marks[c.pc] == Mark::Todo {
            c.marks[c.pc] = Mark::Done;
        }
        c.pc += 1;
    }

    /// Judges the world as it stands.
    pub fn verdict(&self) -> Verdict {
        // A business fact is a payment the producer asked for; two setup
        // messages with the same order and amount are two such payments.
        let mut facts: Vec<(&Payment, usize)> = Vec::new();
        for m in self.setup.messages.iter().filter(|m| m.status.is_none()) {
            match facts.iter_mut().find(|(p, _)| **p == m.payment) {
                Some((_, n)) => *n += 1,
                None => facts.push((&m.payment, 1)),
            }
        }
        let states: Vec<FactState<'_>> = facts
            .into_iter()
            .map(|(payment, expected)| {
                let handling = self.consumers.iter().any(|c| {
                    c.delivery
                        .as_ref()
                        .is_some_and(|d| d.message.payment == *payment)
                });
                let payments = self
                    .committed
                    .payments
                    .iter()
                    .filter(|p| p.order == payment.order && p.amount == payment.amount)
                    .count();
                let ids: Vec<&str> = self
                    .setup
                    .messages
                    .iter()
                    .filter(|m| m.payment == *payment)
                    .map(|m| m.id.as_str())
                    .collect();
                let recorded = self
                    .committed
                    .processed
                    .iter()
                    .any(|row| ids.contains(&row.message_id.as_str()))
                    || self
                        .cache
                        .entries(self.now)
                        .iter()
                        .any(|(key, _)| ids.contains(&key.as_str()));
                FactState {
                    payment,
                    expected,
                    doomed: payments == 0 && recorded && !handling,
                    acked_before_work: self.acked_before_work.contains(payment),
                    payments: self
                        .committed
                        .payments
                        .iter()
                        .filter(|p| p.order == payment.order && p.amount == payment.amount)
                        .count(),
                    charges: self.provider.charges_for_payment(payment),
                    pending: handling || self.broker.payment_pending(payment),
                    dead_lettered: self.broker.payment_dead_lettered(payment),
                    ledger: self
                        .ledger
                        .iter()
                        .filter(|e| e.order == payment.order && e.amount == payment.amount)
                        .collect(),
                    notes: self.notes.get(payment).map_or(&[], Vec::as_slice),
                }
            })
            .collect();
        let mut verdicts: Vec<_> = states.iter().map(verdict::judge_fact).collect();
        verdicts.extend(self.status_verdicts());
        verdict::combine(verdicts)
    }

    /// One verdict per order that receives status changes.
    fn status_verdicts(&self) -> Vec<verdict::FactVerdict> {
        let mut newest: BTreeMap<u32, &super::message::StatusUpdate> = BTreeMap::new();
        for m in &self.setup.messages {
            if let Some(update) = &m.status {
                let entry = newest.entry(m.payment.order).or_insert(update);
                if update.version > entry.version {
                    *entry = update;
                }
            }
        }
        newest
            .into_iter()
            .map(|(order, update)| {
                let key = Payment { order, amount: 0 };
                let pending = self.broker.payment_pending(&key)
                    || self.consumers.iter().any(|c| {
                        c.delivery
                            .as_ref()
                            .is_some_and(|d| d.message.payment == key)
                    });
                let actual = self
                    .committed
                    .statuses
                    .iter()
                    .find(|s| s.order == order)
                    .map(|s| s.status.as_str());
                verdict::judge_status(
                    order,
                    &update.status,
                    actual,
                    pending,
                    self.broker.payment_dead_lettered(&key),
                    self.notes.get(&key).map_or(&[], Vec::as_slice),
                )
            })
            .collect()
    }
}
