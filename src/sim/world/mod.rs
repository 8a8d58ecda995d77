//! The step function: one `Move` at a time changes the world and says what
//! happened. The scripted timeline and the exhaustive checker both drive the
//! world through `World::apply` and nothing else.

mod dedup;
mod facts;
mod fork;
mod handler;
mod judge;
mod moment;
mod produce;
mod retire;
mod server_wait;
mod setup;
mod tables;
mod work;

pub use facts::Tally;

use super::skip::Skip;
use setup::content_hash;
pub use setup::{IdSource, Setup};

use super::admission::Admission;
use super::broker::{AckOutcome, Broker, ExpiryOutcome, MessageState};
use super::cache::Cache;
use super::cause::Cause;
use super::consumer::{Connection, Consumer, Mark, Path};
use super::db::{Begin, Database, DbError, Engine, Ran, RecordClaim, Tables, render_look_up};
use super::event::{Actor, Event, EventKind, SqlRecord};
use super::message::{Message, Payment};
use super::provider::{Provider, Reply};
use super::strategy::{Op, Strategy};
use super::verdict::{self, FactState, LedgerEntry, LedgerKind, Verdict};
use super::{Millis, format_duration};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

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
    /// The producer publishes a message the setup did not list, as a
    /// producer in production keeps doing while the run goes on.
    Produce {
        message: Message,
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
    /// Moves applied so far: the index of the frame the next move makes.
    pub(super) step: usize,
    /// What the last move made.
    pub(super) moment: moment::Moment,
    /// The committed tables, read whenever no write transaction is open
    /// (they cannot change while one is).
    pub(super) committed: Tables,
    pub(super) counters: Counters,
    /// Per business fact: what happened to it that a verdict may need to explain.
    notes: BTreeMap<Payment, Vec<Vec<Cause>>>,
    /// Message IDs delivered at least once, with the payments delivered
    /// under each, to count duplicates and tell a reused ID.
    pub(super) seen: BTreeMap<String, BTreeSet<Payment>>,
    /// Facts whose message an ack removed before any work was saved.
    acked_before_work: BTreeSet<Payment>,
    /// Facts the provider refused for good (a declined card, a key reused
    /// for another request): for them the dead-letter queue is a right end.
    pub(super) refused: BTreeSet<Payment>,
    /// Mints the broker's receipt handles, seeded.
    pub(super) receipts: crate::sim::receipts::Receipts,
    /// Processed IDs a retention job deleted, with the step it did so.
    pub(super) pruned: BTreeMap<String, usize>,
    /// Lookups over `committed`.
    tables: tables::TableIndex,
    /// The effects that happened (the verdict's cause chains), per
    /// payment, in the order they happened.
    ledger_by: BTreeMap<Payment, Vec<LedgerEntry>>,
    /// Every fact's verdict, kept as the run goes.
    facts: facts::FactBook,
    /// Payments and processed IDs this move changed something about: the
    /// facts to judge again.
    touched_facts: Vec<Payment>,
    touched_ids: Vec<String>,
    /// The broker's copies the last move changed.
    touched_copies: Vec<u32>,
    /// A setup message whose ID an earlier setup message with another
    /// payment carries: the order of that earlier one.
    reused: BTreeMap<(String, Payment), u32>,
    /// Messages the producer published after the start (`produce`), by
    /// ID, until their fact retires; the first one wins, as in the setup.
    produced: BTreeMap<String, Message>,
}

/// For each (ID, payment) of the setup, the order of the first earlier
/// message that carries the same ID with another payment, if one does.
fn reused_ids(messages: &[Message]) -> BTreeMap<(String, Payment), u32> {
    let mut first: BTreeMap<&str, Vec<&Payment>> = BTreeMap::new();
    let mut reused = BTreeMap::new();
    for m in messages {
        let earlier = first.entry(&m.id).or_default();
        let key = (m.id.clone(), m.payment.clone());
        // Only the first message with this ID and payment counts, as the
        // search from the start of the list found it.
        if !earlier.contains(&&m.payment) {
            if let Some(other) = earlier.iter().find(|p| ***p != m.payment) {
                reused.entry(key).or_insert(other.order);
            }
            earlier.push(&m.payment);
        }
    }
    reused
}

impl World {
    pub fn new(setup: Setup, strategy: Strategy, seed: u64) -> Result<Self, SimError> {
        let db = match &setup.postgres {
            Some(url) => Database::postgres(url)?,
            None => Database::open(setup.db_file.as_deref())?,
        };
        Self::on(db, setup, strategy, seed)
    }

    /// The world `World::new` makes from this one's setup and strategy, on
    /// this world's database emptied: its connections and their prepared
    /// statements are kept, which costs a fraction of a new database (the
    /// checker starts over thousands of times).
    pub fn start_over(self, seed: u64) -> Result<Self, SimError> {
        let (setup, strategy) = (self.setup.clone(), self.strategy.clone());
        // Their connections roll back and go idle before the tables empty;
        // the database then holds what was last committed.
        let (db, holds) = self.into_database();
        Self::on_database(db, &holds, setup, strategy, seed)
    }

    /// This world's database, its connections handed back (an open
    /// transaction rolls back), with what it then holds: for another world,
    /// of any setup and design, to start on (see [`World::on_database`]).
    pub fn into_database(self) -> (Database, Tables) {
        let World {
            db,
            consumers,
            committed,
            ..
        } = self;
        for mut c in consumers {
            if let Some(session) = c.session.take() {
                session.recycle();
            }
        }
        (db, committed)
    }

    /// The world `World::new` makes, on a database that holds `holds` (from
    /// [`World::into_database`]), emptied: a checker going from design to
    /// design keeps its databases instead of making new ones.
    pub fn on_database(
        db: Database,
        holds: &Tables,
        setup: Setup,
        strategy: Strategy,
        seed: u64,
    ) -> Result<Self, SimError> {
        db.restore_over(Some(holds), &Tables::default())?;
        Self::on(db, setup, strategy, seed)
    }

    fn on(db: Database, setup: Setup, strategy: Strategy, seed: u64) -> Result<Self, SimError> {
        let mut broker = Broker::new(&setup.queue, setup.lease_ms, setup.max_receives);
        broker.dedup_window_ms = setup.dedup_window_ms;
        broker.ordered = setup.ordered;
        let consumers = setup
            .consumers
            .iter()
            .map(|name| Ok(Consumer::new(name, db.connect()?, strategy.program.len())))
            .collect::<Result<Vec<_>, SimError>>()?;
        let mut provider = Provider::new(
            setup.key_lifetime_ms,
            setup.first_charge,
            setup.declines.clone(),
        );
        provider.require_key = setup.require_key;
        let mut world = World {
            now: 0,
            broker,
            db,
            consumers,
            provider,
            cache: Cache::new(setup.cache_ttl_ms),
            step: 0,
            moment: Default::default(),
            committed: Tables::default(),
            counters: Counters::default(),
            notes: BTreeMap::new(),
            seen: BTreeMap::new(),
            acked_before_work: BTreeSet::new(),
            refused: BTreeSet::new(),
            receipts: crate::sim::receipts::Receipts::new(seed),
            pruned: BTreeMap::new(),
            tables: Default::default(),
            ledger_by: BTreeMap::new(),
            facts: Default::default(),
            touched_facts: Vec::new(),
            touched_ids: Vec::new(),
            touched_copies: Vec::new(),
            reused: reused_ids(&setup.messages),
            produced: BTreeMap::new(),
            strategy,
            setup,
        };
        for message in world.setup.messages.clone() {
            world.broker.publish(message.clone(), 0);
            world.say(
                Actor::Producer,
                EventKind::Info,
                match &message.status {
                    Some(update) => format!(
                        "publishes {} (order {} to {}, version {}) to {}",
                        message.id,
                        message.payment.order,
                        update.status,
                        update.version,
                        world.setup.queue
                    ),
                    None => format!(
                        "publishes {} (order {}, ${}) to {}",
                        message.id,
                        message.payment.order,
                        message.payment.amount,
                        world.setup.queue
                    ),
                },
            );
        }
        world.committed = world.db.committed()?;
        world.tables = tables::TableIndex::of(&world.committed);
        world.broker.take_touched();
        world.open_facts();
        Ok(world)
    }

    /// The engine lets one writer in at a time (SQLite): a transaction's
    /// rows cannot be met by another writer before its commit.
    pub fn one_writer_at_a_time(&self) -> bool {
        self.db.readers_wait_for_writers()
    }

    /// The schema this world's run owns on a PostgreSQL server (none on
    /// SQLite): its backends carry it as their application name.
    pub fn database_name(&self) -> Option<String> {
        match &self.db {
            Database::Postgres(db) => Some(db.schema().to_string()),
            Database::Sqlite(_) => None,
        }
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

    /// A long run keeps only what can still change: acked copies leave the
    /// broker's list (see `Broker::set_forget_acked`). Frames then show the
    /// queue without them.
    pub fn set_forget_acked(&mut self, on: bool) {
        self.broker.set_forget_acked(on);
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
        &self.moment.events
    }

    pub fn sql(&self) -> &[SqlRecord] {
        &self.moment.sql
    }

    /// Hands over the last move's events and SQL without copying them:
    /// `events()` and `sql()` are empty afterwards. Each move starts them
    /// afresh anyway, so nothing accumulates either way.
    pub fn take_output(&mut self) -> (Vec<Event>, Vec<SqlRecord>) {
        (
            std::mem::take(&mut self.moment.events),
            std::mem::take(&mut self.moment.sql),
        )
    }

    /// The consumer holding the database's write lock, if any.
    pub fn lock_holder(&self) -> Option<&str> {
        self.consumers
            .iter()
            .find(|c| c.in_txn())
            .map(|c| c.name.as_str())
    }

    /// Applies one move: time passes, leases and keys expire, then the move
    /// itself happens. Events and SQL describe this move only.
    pub fn apply(&mut self, mv: &Move) -> Result<(), SimError> {
        self.moment.begin(mv);
        self.step += 1;
        self.broker.forget_settled();
        let held_before = self.held_payments();
        match mv {
            Move::Step { consumer } => {
                let i = self.consumer_index(consumer)?;
                self.moment.stepped = Some(consumer.clone());
                let slow = std::mem::take(&mut self.consumers[i].slow_next_ms);
                // A provider call is slow after it is sent: the request
                // reaches the provider at once and the time goes by while
                // the answer is awaited, so what the time brings (a lease
                // running out) is told after the call. Any other step is
                // slow before its effect lands.
                let call = self.consumers[i].is_running()
                    && matches!(
                        self.strategy.program.get(self.consumers[i].pc),
                        Some(Op::CallProvider { .. })
                    );
                if slow > 0 {
                    let what = if call {
                        "this call takes"
                    } else {
                        "this step takes"
                    };
                    self.say(
                        Actor::Consumer(consumer.clone()),
                        EventKind::Warning,
                        format!("is slow: {what} {}", format_duration(slow)),
                    );
                }
                if call {
                    self.advance(self.setup.step_ms)?;
                    self.step_consumer(i)?;
                    self.advance(slow)?;
                } else {
                    self.advance(self.setup.step_ms + slow)?;
                    self.step_consumer(i)?;
                }
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
                if self.message(message).is_none() {
                    return Err(SimError::UnknownMessage(message.clone()));
                }
                self.expire_lease(message)?;
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
                let Some(m) = self.message(message).cloned() else {
                    return Err(SimError::UnknownMessage(message.clone()));
                };
                self.publish(m);
            }
            Move::Prune { age_ms } => self.prune(*age_ms)?,
            Move::Produce { message } => self.produce(message.clone()),
        }
        self.settle_waits()?;
        self.refresh_committed()?;
        self.rejudge(&held_before);
        Ok(())
    }

    /// A lease runs out at its deadline, not before: the clock moves there
    /// first, so time, the other leases and every TTL read as in any run.
    fn expire_lease(&mut self, message: &str) -> Result<(), SimError> {
        if let Some(until) = self.broker.lease_deadline(message)
            && until > self.now
        {
            let wait = until - self.now;
            self.say(
                Actor::Clock,
                EventKind::Info,
                format!(
                    "{} pass: the lease on {message} reaches its deadline",
                    format_duration(wait)
                ),
            );
            // Reaching the deadline ends the lease through the clock itself.
            return self.advance(wait);
        }
        match self.broker.expire_now(message) {
            Some(outcome) => self.report_expiry(outcome),
            None => self.say(
                Actor::Broker,
                EventKind::Info,
                format!("{message} is not leased to anyone: no lease to expire"),
            ),
        }
        Ok(())
    }

    pub(super) fn publish(&mut self, message: Message) {
        let before = self.broker.copies_of(&message.id);
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
    pub(super) fn prune(&mut self, age_ms: Millis) -> Result<(), SimError> {
        // PostgreSQL's janitor deletes committed rows without waiting for
        // anyone's open transaction; SQLite's cannot while one is open.
        if let Some(holder) = self
            .lock_holder()
            .filter(|_| self.db.readers_wait_for_writers())
        {
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
        let (deleted, ran) = self.db.prune_processed(cutoff)?;
        self.forget_processed(&deleted);
        // Kept for a duplicate that may still come: a retired payment's
        // IDs never come again, and a long run would keep one per payment.
        for id in deleted {
            if self.message(&id).is_some() {
                self.pruned.insert(id, self.step);
            }
        }
        self.say(
            Actor::Janitor,
            EventKind::Warning,
            format!(
                "deletes processed IDs older than {} ({})",
                format_duration(age_ms),
                ran.result
            ),
        );
        self.moment.sql.push(SqlRecord {
            consumer: "janitor".into(),
            sql: ran.sql,
            result: ran.result,
            answer: ran.answer,
        });
        Ok(())
    }

    pub(super) fn consumer_index(&self, name: &str) -> Result<usize, SimError> {
        self.consumers
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| SimError::UnknownConsumer(name.to_string()))
    }

    /// The message the producer publishes under this ID: the first of the
    /// setup's, or of those produced since.
    fn message(&self, id: &str) -> Option<&Message> {
        self.setup
            .messages
            .iter()
            .find(|m| m.id == id)
            .or_else(|| self.produced.get(id))
    }

    pub(super) fn say(&mut self, actor: Actor, kind: EventKind, text: String) {
        self.moment.events.push(Event { actor, kind, text });
    }

    pub(super) fn ran(&mut self, consumer: usize, ran: Ran) {
        self.moment.sql.push(SqlRecord {
            consumer: self.consumers[consumer].name.clone(),
            sql: ran.sql,
            result: ran.result,
            answer: ran.answer,
        });
    }

    /// Why something happened to a payment, as a chain of causes, newest
    /// first: the verdict joins it to its own chains, one cause a link.
    pub(super) fn note(&mut self, payment: Payment, why: Vec<Cause>) {
        self.touched_facts.push(payment.clone());
        self.notes.entry(payment).or_default().push(why);
    }

    /// An effect that happened, for the verdict's cause chains.
    pub(super) fn record(&mut self, entry: LedgerEntry) {
        let payment = Payment {
            order: entry.order,
            amount: entry.amount,
        };
        self.touched_facts.push(payment.clone());
        self.ledger_by.entry(payment).or_default().push(entry);
    }

    /// Lets virtual time pass: leases and idempotency keys run out.
    pub(super) fn advance(&mut self, ms: Millis) -> Result<(), SimError> {
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

    pub(super) fn report_expiry(&mut self, outcome: ExpiryOutcome) {
        match outcome {
            ExpiryOutcome::Visible {
                message_id,
                holder,
                cause,
            } => {
                // The broker saw only that no ack came in time; why is the
                // observer's knowledge, told apart.
                self.say(
                    Actor::Broker,
                    EventKind::Warning,
                    format!(
                        "makes {message_id} visible again: the lease {holder} held ran out with no ack"
                    ),
                );
                // The first cause is the expiry the broker saw itself.
                if let Some((_, unseen)) = cause.split_first()
                    && !unseen.is_empty()
                {
                    let words: Vec<String> = unseen.iter().map(Cause::to_string).collect();
                    self.say(
                        Actor::Observer,
                        EventKind::Info,
                        format!("sees what the broker cannot: {}", words.join(", ")),
                    );
                }
            }
            ExpiryOutcome::DeadLettered {
                message_id,
                payment,
                receives,
                lost_leases,
            } => {
                self.counters.dead_lettered += 1;
                // Why its receives ran out, for the verdict's chain.
                let mut why = vec![Cause::DeadLetterQueue {
                    id: message_id.clone(),
                    receives,
                }];
                why.extend(lost_leases);
                self.note(payment, why);
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

    pub(super) fn crash(&mut self, i: usize) -> Result<(), SimError> {
        let step = self.step;
        let c = &mut self.consumers[i];
        let name = c.name.clone();
        if c.is_crashed() {
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
        let had_txn = c.in_txn();
        if c.pc < c.marks.len() && !c.is_idle() {
            c.marks[c.pc] = Mark::Crashed;
        }
        let in_flight = c.awaiting_key().map(str::to_string);
        let delivery = c.die();
        self.say(
            Actor::Consumer(name.clone()),
            EventKind::Bad,
            "crashes: the process is gone".into(),
        );
        // The provider finishes a request whatever became of its caller.
        self.provider_answers(
            i,
            in_flight,
            &format!("{name}'s request into a closed connection"),
        );
        if had_txn {
            self.say(
                Actor::Consumer(name.clone()),
                EventKind::Warning,
                match self.db.engine() {
                    Engine::Sqlite => "loses its open transaction: SQLite rolls it back".into(),
                    Engine::Postgres => "loses its open transaction: its connection closed, and the PostgreSQL server rolls it back".into(),
                },
            );
            self.release_waiters();
        }
        if let Some(d) = delivery {
            self.broker.note_lost_lease(
                &d.receipt,
                Cause::Crashed {
                    consumer: name.clone(),
                    step,
                },
            );
            let id = &d.message.id;
            let forgotten = self.broker.forgot(d.seq);
            let text = match self.broker.get(d.seq).map(|m| &m.state) {
                Some(MessageState::InFlight { receipt, .. }) if *receipt == d.receipt => format!(
                    "still counts {id} as leased to {name}: nobody tells it about the crash"
                ),
                Some(MessageState::InFlight { consumer, .. }) => {
                    format!("sees nothing of the crash: {id} is leased to {consumer} now")
                }
                None if forgotten => format!(
                    "sees nothing of the crash: {id} was acked and deleted, nothing will deliver it again"
                ),
                Some(MessageState::Acked { .. }) => format!(
                    "sees nothing of the crash: {id} was acked and deleted, nothing will deliver it again"
                ),
                _ => format!("sees nothing of the crash: {id} is no longer leased to {name}"),
            };
            self.say(Actor::Broker, EventKind::Info, text);
        }
        Ok(())
    }

    pub(super) fn restart(&mut self, i: usize) -> Result<(), SimError> {
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
}
