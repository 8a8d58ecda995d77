//! One run of the user's program against idem's broker and provider: start
//! the instances, answer their requests one at a time, lay the faults the
//! source picks, and judge the money when every message has settled.
//!
//! One instance works at a time. After idem answers an instance, it waits
//! until that instance asks again (or is blocked, or ends) before it
//! decides anything, so the order of events depends only on the schedule,
//! never on timing. An instance that goes quiet for the quiet window while
//! another instance holds the database's write lock (idem sees the lock:
//! `sim::db::program::write_lock_held`) is blocked on that lock; quiet
//! without a lock held is work, and idem waits up to the answer limit.
//! Virtual time moves only when no instance can go on: to the end of the
//! next lease.

mod listen;
mod record;
mod serve;
mod server;

pub use record::{HeldRequest, Step};

use super::database::ProgramDb;
use super::diagnosis::{Diagnosis, Trouble};
use super::faults::{Fault, FaultSource, Point};
use super::instance::{Instance, State};
use super::judge::{self, Ledger};
use super::process::{Launch, Proc};
use super::protocol::{Answer, Request};
use crate::sim::Millis;
use crate::sim::broker::{Broker, ExpiryOutcome};
use crate::sim::cause::Arrow;
use crate::sim::db::PgUrl;
use crate::sim::db::program::{Handled, ProgramDbError, Recorded};
use crate::sim::message::Message;
use crate::sim::provider::Provider;
use crate::sim::verdict::Verdict;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The query that reads what the samples record: one row per payment.
pub const DEFAULT_RECORDED_QUERY: &str = "SELECT order_id, amount FROM payments";

/// The query that reads which message IDs the samples record as handled.
pub const DEFAULT_HANDLED_QUERY: &str = "SELECT message_id FROM processed_messages";

#[derive(Clone, Debug)]
pub struct Config {
    pub launch: Launch,
    /// Instances of the program (named A, B, ...).
    pub instances: usize,
    pub messages: Vec<Message>,
    pub lease_ms: Millis,
    pub max_receives: u32,
    pub recorded_query: String,
    /// The query for the message IDs the program records as handled, as
    /// the user gave it; None: the samples' (`DEFAULT_HANDLED_QUERY`), and
    /// a program without such a table records none.
    pub handled_query: Option<String>,
    /// The longest idem waits for one request, or for a hello.
    pub wait: Duration,
    /// Silence this long while another instance holds the write lock is
    /// a wait for that lock.
    pub quiet: Duration,
    /// Process starts per run beyond the first of each instance, before
    /// idem says the program keeps dying.
    pub restarts: u32,
    /// Where this run's database goes (a fresh one per run), when it is a
    /// SQLite file.
    pub dir: PathBuf,
    /// A PostgreSQL server instead: each run gets a fresh schema on it.
    pub server: Option<PgUrl>,
    /// Keep a transcript: the program's tables and stderr after each step.
    pub record: bool,
    /// Set by SIGINT or SIGTERM: the run stops at its next wait.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Config {
    /// A run of `instances` of the program on `messages`, with idem's
    /// usual limits: leases of 30 s, dead-lettering after 5 receives, 10 s
    /// for an answer, 300 ms of silence beside a held lock for "blocked",
    /// 8 restarts; the samples' recorded query; no record; no stop flag.
    pub fn new(launch: Launch, instances: usize, messages: Vec<Message>, dir: PathBuf) -> Config {
        Config {
            launch,
            instances,
            messages,
            lease_ms: 30_000,
            max_receives: 5,
            recorded_query: DEFAULT_RECORDED_QUERY.to_string(),
            handled_query: None,
            wait: Duration::from_secs(10),
            quiet: Duration::from_millis(300),
            restarts: 8,
            dir,
            server: None,
            record: false,
            stop: None,
        }
    }

    /// The query for the IDs recorded as handled: the user's, else the
    /// samples'.
    pub fn handled_query(&self) -> &str {
        self.handled_query
            .as_deref()
            .unwrap_or(DEFAULT_HANDLED_QUERY)
    }

    pub fn db_path(&self) -> PathBuf {
        self.dir.join("consumer.db")
    }
}

pub struct RunReport {
    pub verdict: Verdict,
    pub points: Vec<Point>,
    pub applied: Vec<(usize, Fault)>,
    /// Processes started, restarts included.
    pub starts: u32,
    pub steps: Vec<Step>,
    /// The point of each step, counted whether or not the steps are
    /// recorded: a report names a fault's step in its replay by it.
    pub step_points: Vec<Option<usize>>,
    pub recorded: Vec<Recorded>,
    pub charges: usize,
    /// Each time a process ended by itself (not by a fault): who, how,
    /// and the last line of its stderr.
    pub self_ended: Vec<String>,
}

struct Run<'a, 'f> {
    cfg: &'a Config,
    faults: &'f mut dyn FaultSource,
    broker: Broker,
    provider: Provider,
    now: Millis,
    instances: Vec<Instance>,
    points: Vec<Point>,
    applied: Vec<(usize, Fault)>,
    starts: u32,
    steps: Vec<Step>,
    step_points: Vec<Option<usize>>,
    ledger: Ledger,
    next_receipt: u32,
    /// Per instance, stderr lines already put in a step.
    stderr_seen: Vec<u64>,
    /// Stderr of processes that ended since the last look.
    stderr_carry: Vec<String>,
    /// The first step that still lacks its look at the tables and stderr.
    unseen: Option<usize>,
    /// The line of the step being told that tells its fault.
    fault_line: Option<usize>,
    /// Whether the step being told holds its request, or answers one held.
    held: Option<HeldRequest>,
    /// Shorter forms of this step's lines, for `Step::short`.
    short: Vec<(usize, String)>,
    self_ended: Vec<String>,
    /// What went wrong on the database server while a process ended, for
    /// the run's next wait to report.
    trouble: Option<String>,
    /// Last, so that it is dropped after the instances: a schema is
    /// dropped once no process of the program uses it.
    db: ProgramDb,
}

pub fn run(cfg: &Config, faults: &mut dyn FaultSource) -> Result<RunReport, Diagnosis> {
    let setup = |what: String| Diagnosis {
        trouble: Trouble::Setup,
        instance: String::new(),
        what,
        stderr: Vec::new(),
    };
    if cfg.server.is_none() {
        std::fs::create_dir_all(&cfg.dir)
            .map_err(|e| setup(format!("cannot create {}: {e}", cfg.dir.display())))?;
    }
    let db = ProgramDb::fresh(&cfg.db_path(), cfg.server.as_ref()).map_err(setup)?;
    let mut broker = Broker::new("payments", cfg.lease_ms, cfg.max_receives);
    broker.set_forget_acked(cfg.messages.len() > 1_000);
    let mut run = Run {
        cfg,
        faults,
        broker,
        provider: Provider::new(86_400_000, 1, BTreeSet::new()),
        now: 0,
        instances: Vec::new(),
        points: Vec::new(),
        applied: Vec::new(),
        starts: 0,
        steps: Vec::new(),
        step_points: Vec::new(),
        ledger: Ledger::default(),
        next_receipt: 1,
        stderr_seen: vec![0; cfg.instances],
        stderr_carry: Vec::new(),
        unseen: None,
        fault_line: None,
        held: None,
        short: Vec::new(),
        self_ended: Vec::new(),
        trouble: None,
        db,
    };
    for message in &cfg.messages {
        run.ledger.owe(message);
        run.broker.publish(message.clone(), 0);
    }
    for i in 0..cfg.instances {
        let name = ((b'A' + i as u8) as char).to_string();
        run.instances.push(Instance {
            name,
            start: 0,
            proc: None,
            state: State::Idle,
            served: 0,
            holding: Vec::new(),
            held_back: false,
            held_at: None,
            last_req: None,
            since: Instant::now(),
            last_answer: "nothing yet".into(),
            last_stderr: Vec::new(),
            unfinished: None,
            probed: None,
        });
    }
    run.start(0)?;
    run.note(
        None,
        vec![format!(
            "{} published; A started",
            match cfg.messages.len() {
                1 => "1 message".to_string(),
                n => format!("{n} messages"),
            },
        )],
    );
    run.main_loop()?;
    let recorded = match run.db.read_recorded(&cfg.recorded_query) {
        // The server, not the program's tables: said as idem's trouble.
        Err(e @ ProgramDbError::Postgres(_)) => return Err(run.server_trouble(e)),
        other => other,
    };
    let recorded = recorded.map_err(|e| {
        run.table_shape(format!(
            "reading what it recorded: {e} (give the query with --recorded-query)"
        ))
    })?;
    // Read only where a message was acked with no work saved (whether its
    // ID is recorded as handled decides between a lost message and a lost
    // charge), or where a payment has more rows than messages (whether
    // its ID was recorded again, unrefused, tells why).
    let handled = if run.ledger.any_acked_unworked() || run.ledger.any_extra_row(&recorded) {
        match run.db.read_handled(cfg.handled_query()) {
            Ok(ids) => ids,
            Err(e @ ProgramDbError::Postgres(_)) => return Err(run.server_trouble(e)),
            Err(e) if cfg.handled_query.is_some() => {
                return Err(run.table_shape(format!(
                    "reading which messages it records as handled: {e} (give the query with --handled-query)"
                )));
            }
            // The samples' table is not there: nothing recorded as handled.
            Err(_) => Handled::new(),
        }
    } else {
        Handled::new()
    };
    for instance in &mut run.instances {
        if let Some(mut proc) = instance.proc.take() {
            proc.kill();
        }
    }
    let verdict = judge::verdict(&run.ledger, &run.broker, &run.provider, &recorded, &handled);
    Ok(RunReport {
        verdict,
        points: run.points,
        applied: run.applied,
        starts: run.starts,
        steps: run.steps,
        step_points: run.step_points,
        charges: run.provider.charges().len(),
        recorded,
        self_ended: run.self_ended,
    })
}

impl Run<'_, '_> {
    /// The program's tables are not where a query looks: with the last
    /// lines of stderr of the instance that wrote some last.
    fn table_shape(&mut self, what: String) -> Diagnosis {
        Diagnosis {
            trouble: Trouble::TableShape,
            instance: String::new(),
            what,
            stderr: self
                .instances
                .iter_mut()
                .rev()
                .find_map(|i| {
                    let tail = i.stderr_tail();
                    (!tail.is_empty()).then_some(tail)
                })
                .unwrap_or_default(),
        }
    }

    fn diagnose(&mut self, i: usize, trouble: Trouble, what: String) -> Diagnosis {
        Diagnosis {
            trouble,
            instance: self.instances[i].label(),
            what,
            stderr: self.instances[i].stderr_tail(),
        }
    }

    fn start(&mut self, i: usize) -> Result<(), Diagnosis> {
        let cfg = self.cfg;
        // Starts beyond each instance's first, this one included.
        let restarts: u32 = self
            .instances
            .iter()
            .map(|x| x.start.saturating_sub(1))
            .sum::<u32>()
            + u32::from(self.instances[i].start > 0);
        if restarts > cfg.restarts {
            return Err(self.diagnose(
                i,
                Trouble::ExitsAtOnce,
                format!(
                    "it keeps ending: {} restarts in this run, the limit is {}",
                    restarts - 1,
                    cfg.restarts
                ),
            ));
        }
        let mut launch = cfg.launch.clone();
        let instance = &mut self.instances[i];
        instance.start += 1;
        launch.env.extend(self.db.env(&instance.name));
        launch
            .env
            .push(("IDEM_INSTANCE".into(), instance.name.clone()));
        let proc = Proc::start(&launch).map_err(|e| Diagnosis {
            trouble: Trouble::Setup,
            instance: String::new(),
            what: format!(
                "cannot start idem's supervisor {}: {e}",
                launch.supervisor.display()
            ),
            stderr: Vec::new(),
        })?;
        instance.proc = Some(proc);
        instance.state = State::Starting;
        instance.holding.clear();
        instance.held_back = false;
        instance.held_at = None;
        instance.last_req = None;
        instance.unfinished = None;
        instance.probed = None;
        instance.since = Instant::now();
        instance.last_answer = "nothing yet (it was just started)".into();
        self.stderr_seen[i] = 0;
        self.starts += 1;
        Ok(())
    }

    /// A process that ended, killed or by itself, is started again when it
    /// is needed: when a message waits that no running instance asks for
    /// (as a second instance is). Its new process would begin with a hello
    /// and a receive all the same, so starting it at once would change
    /// nothing but cost a process start, which is most of a run's time.
    fn stand_down(&mut self, i: usize) {
        self.instances[i].state = State::Idle;
    }

    fn stopped(&self) -> bool {
        self.cfg
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::SeqCst))
    }

    fn main_loop(&mut self) -> Result<(), Diagnosis> {
        loop {
            self.settle()?;
            self.look();
            // Done when no message is left and no instance is mid-work:
            // a request about a message already settled elsewhere is
            // still answered (its ack is refused, its charge is made).
            let busy = self.instances.iter().any(
                |inst| matches!(&inst.state, State::Parked(r) if !matches!(r, Request::Receive {})),
            );
            if !self.broker.has_pending() && !busy {
                return self.finish();
            }
            // An instance starts when a message waits and no running
            // instance asks for one: the second instance exists to take
            // what the first cannot, and a run that never needs it
            // starts one process fewer.
            if self.broker.can_receive()
                && !self
                    .instances
                    .iter()
                    .any(|inst| inst.state == State::Parked(Request::Receive {}))
                && let Some(j) = self
                    .instances
                    .iter()
                    .position(|inst| inst.state == State::Idle)
            {
                let name = self.instances[j].name.clone();
                self.note(
                    None,
                    vec![format!(
                        "{name} started: a message waits and no instance asks for one"
                    )],
                );
                self.start(j)?;
                continue;
            }
            let can_receive = self.broker.can_receive();
            let pick = self
                .instances
                .iter()
                .enumerate()
                .filter(|(_, inst)| match &inst.state {
                    State::Parked(Request::Receive {}) => can_receive,
                    State::Parked(_) => true,
                    _ => false,
                })
                // Work in hand first: an instance mid-message goes before
                // one asking for a new message, so two instances meet on
                // one message (and on the database lock) only where a
                // fault puts them; then the instance answered least often.
                .min_by_key(|(_, inst)| {
                    (
                        inst.held_back,
                        matches!(inst.state, State::Parked(Request::Receive {})),
                        inst.served,
                        inst.name.clone(),
                    )
                })
                .map(|(i, _)| i);
            match pick {
                Some(i) => self.serve(i, None)?,
                None => self.advance_time()?,
            }
        }
    }

    /// No instance can go on: the next lease runs out.
    fn advance_time(&mut self) -> Result<(), Diagnosis> {
        let next = self.broker.next_lease_end();
        let Some(until) = next else {
            let blocked: Vec<String> = self
                .instances
                .iter()
                .filter(|i| i.state == State::Blocked)
                .map(|i| i.label())
                .collect();
            return Err(Diagnosis {
                trouble: Trouble::NeverAnswers,
                instance: String::new(),
                what: format!(
                    "no instance can go on and no lease is running ({})",
                    if blocked.is_empty() {
                        "every instance waits for a message".to_string()
                    } else {
                        format!("{} wait for the database lock", blocked.join(", "))
                    }
                ),
                stderr: Vec::new(),
            });
        };
        self.now = self.now.max(until);
        let expired = self.broker.expire_leases(self.now);
        let lines = self.expiry_lines(&expired);
        self.note(None, lines);
        Ok(())
    }

    /// The leases that ran out, each told at the time on the clock.
    fn expiry_lines(&self, expired: &[ExpiryOutcome]) -> Vec<String> {
        expired
            .iter()
            .map(|e| match e {
                ExpiryOutcome::Visible {
                    message_id, cause, ..
                } => format!(
                    "{}: the lease on {message_id} ran out ({}); it is visible again",
                    crate::sim::format_duration(self.now),
                    Arrow::Drawn.join(cause)
                ),
                ExpiryOutcome::DeadLettered {
                    message_id,
                    receives,
                    ..
                } => format!(
                    "{}: the lease on {message_id} ran out after {receives} receives: dead-lettered",
                    crate::sim::format_duration(self.now)
                ),
            })
            .collect()
    }

    /// The queue is settled: every instance still asking is told so, and
    /// every process gets its moment to exit.
    fn finish(&mut self) -> Result<(), Diagnosis> {
        let mut lines =
            vec!["every message settled: each instance is told the queue is empty".into()];
        for i in 0..self.instances.len() {
            if let State::Parked(Request::Receive {}) = self.instances[i].state {
                let answer = Answer::Empty {}.line();
                if let Some(proc) = self.instances[i].proc.as_mut() {
                    proc.send(&answer);
                }
                self.instances[i].state = State::Done;
            }
        }
        for instance in &mut self.instances {
            if let Some(proc) = instance.proc.as_mut()
                && !proc.finish(self.cfg.wait.min(Duration::from_secs(2)))
            {
                lines.push(format!(
                    "{} did not exit when its stdin closed: killed",
                    instance.label()
                ));
            }
        }
        self.note(None, lines);
        self.look();
        Ok(())
    }
}
