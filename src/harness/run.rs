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

use super::diagnosis::{Diagnosis, Trouble};
use super::faults::{Fault, FaultSource, Point};
use super::instance::{Held, Instance, State};
use super::judge::{self, Ledger};
use super::process::{Heard, Launch, Proc};
use super::protocol::{self, Answer, Body, Request};
use crate::sim::Millis;
use crate::sim::broker::{AckOutcome, Broker, ExpiryOutcome, MessageState};
use crate::sim::cause::{Arrow, Cause, KillPoint};
use crate::sim::db::program::{self, Recorded};
use crate::sim::message::Message;
use crate::sim::provider::{Provider, Reply};
use crate::sim::verdict::Verdict;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The query that reads what the samples record: one row per payment.
pub const DEFAULT_RECORDED_QUERY: &str = "SELECT order_id, amount FROM payments";

#[derive(Clone, Debug)]
pub struct Config {
    pub launch: Launch,
    /// Instances of the program (named A, B, ...).
    pub instances: usize,
    pub messages: Vec<Message>,
    pub lease_ms: Millis,
    pub max_receives: u32,
    pub recorded_query: String,
    /// The longest idem waits for one request, or for a hello.
    pub wait: Duration,
    /// Silence this long while another instance holds the write lock is
    /// a wait for that lock.
    pub quiet: Duration,
    /// Process starts per run beyond the first of each instance, before
    /// idem says the program keeps dying.
    pub restarts: u32,
    /// Where this run's database goes (a fresh one per run).
    pub dir: PathBuf,
    /// Keep a transcript: the program's tables and stderr after each step.
    pub record: bool,
    /// Set by SIGINT or SIGTERM: the run stops at its next wait.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Config {
    pub fn db_path(&self) -> PathBuf {
        self.dir.join("consumer.db")
    }
}

/// What one step of a run looked like, for a replay.
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// The point index, for a request idem answered.
    pub point: Option<usize>,
    pub lines: Vec<String>,
    pub fault: Option<Fault>,
    pub queue: Vec<String>,
    pub charges: Vec<String>,
    pub keys: Vec<String>,
    pub tables: Vec<(program::TableDump, usize)>,
    pub stderr: Vec<String>,
}

pub struct RunReport {
    pub verdict: Verdict,
    pub points: Vec<Point>,
    pub applied: Vec<(usize, Fault)>,
    /// Processes started, restarts included.
    pub starts: u32,
    pub steps: Vec<Step>,
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
    ledger: Ledger,
    next_receipt: u32,
    /// Per instance, stderr lines already put in a step.
    stderr_seen: Vec<u64>,
    /// Stderr of processes that ended since the last look.
    stderr_carry: Vec<String>,
    /// The last step still lacks its look at the tables and stderr.
    unseen: bool,
    self_ended: Vec<String>,
}

pub fn run(cfg: &Config, faults: &mut dyn FaultSource) -> Result<RunReport, Diagnosis> {
    let setup = |what: String| Diagnosis {
        trouble: Trouble::Setup,
        instance: String::new(),
        what,
        stderr: Vec::new(),
    };
    std::fs::create_dir_all(&cfg.dir)
        .map_err(|e| setup(format!("cannot create {}: {e}", cfg.dir.display())))?;
    let db = cfg.db_path();
    for suffix in ["", "-journal", "-wal", "-shm"] {
        let path = PathBuf::from(format!("{}{suffix}", db.display()));
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(setup(format!("cannot remove {}: {e}", path.display()))),
        }
    }
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
        ledger: Ledger::default(),
        next_receipt: 1,
        stderr_seen: vec![0; cfg.instances],
        stderr_carry: Vec::new(),
        unseen: false,
        self_ended: Vec::new(),
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
            last_req: None,
            since: Instant::now(),
            last_answer: "nothing yet".into(),
            last_stderr: Vec::new(),
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
    let recorded = program::read_recorded(&db, &cfg.recorded_query).map_err(|e| Diagnosis {
        trouble: Trouble::TableShape,
        instance: String::new(),
        what: format!("reading what it recorded: {e} (give the query with --recorded-query)"),
        stderr: run
            .instances
            .iter_mut()
            .rev()
            .find_map(|i| {
                let tail = i.stderr_tail();
                (!tail.is_empty()).then_some(tail)
            })
            .unwrap_or_default(),
    })?;
    for instance in &mut run.instances {
        if let Some(mut proc) = instance.proc.take() {
            proc.kill();
        }
    }
    let verdict = judge::verdict(&run.ledger, &run.broker, &run.provider, &recorded);
    Ok(RunReport {
        verdict,
        points: run.points,
        applied: run.applied,
        starts: run.starts,
        steps: run.steps,
        charges: run.provider.charges().len(),
        recorded,
        self_ended: run.self_ended,
    })
}

impl Run<'_, '_> {
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
        launch
            .env
            .push(("IDEM_DB".into(), cfg.db_path().display().to_string()));
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
        instance.last_req = None;
        instance.since = Instant::now();
        instance.last_answer = "nothing yet (it was just started)".into();
        self.stderr_seen[i] = 0;
        self.starts += 1;
        Ok(())
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
        let lines = expired
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
            .collect();
        self.note(None, lines);
        Ok(())
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

    /// Waits until no instance is working: each has asked (parked), is
    /// blocked on the database lock, or is done.
    fn settle(&mut self) -> Result<(), Diagnosis> {
        for inst in &mut self.instances {
            if inst.state == State::Blocked {
                inst.state = State::Running;
                inst.since = Instant::now();
            }
        }
        loop {
            if self.stopped() {
                return Err(Diagnosis {
                    trouble: Trouble::Interrupted,
                    instance: String::new(),
                    what: "idem was asked to stop; every process it started is killed".into(),
                    stderr: Vec::new(),
                });
            }
            let working: Vec<usize> = (0..self.instances.len())
                .filter(|&i| matches!(self.instances[i].state, State::Starting | State::Running))
                .collect();
            if working.is_empty() {
                // A parked instance that said more than one request is
                // out of order: look once more before deciding.
                for i in 0..self.instances.len() {
                    self.listen(i, Duration::ZERO)?;
                }
                if self
                    .instances
                    .iter()
                    .all(|i| !matches!(i.state, State::Starting | State::Running))
                {
                    return Ok(());
                }
                continue;
            }
            // One working instance: wait on it alone (no polling); several:
            // look at each in turn.
            let mut heard = false;
            if working.len() == 1 {
                heard |= self.listen(working[0], self.cfg.quiet.min(Duration::from_millis(50)))?;
            } else {
                for &i in &working {
                    heard |= self.listen(i, Duration::ZERO)?;
                }
                if !heard {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            if heard {
                continue;
            }
            for &i in &working {
                self.judge_silence(i)?;
            }
        }
    }

    /// Takes what instance `i` said within `limit`; true when it said
    /// something.
    fn listen(&mut self, i: usize, limit: Duration) -> Result<bool, Diagnosis> {
        let Some(proc) = self.instances[i].proc.as_mut() else {
            return Ok(false);
        };
        let heard = if limit.is_zero() {
            proc.try_hear()
        } else {
            proc.hear(limit)
        };
        let Some(heard) = heard else {
            return Ok(false);
        };
        match heard {
            Heard::Line(line) => self.take_line(i, &line)?,
            Heard::TooLong => {
                return Err(self.diagnose(
                    i,
                    Trouble::Flood,
                    format!(
                        "a line longer than {} KiB on its stdout (each request is one short line)",
                        protocol::MAX_LINE / 1024
                    ),
                ));
            }
            Heard::NotText => {
                return Err(self.diagnose(
                    i,
                    Trouble::Garbage,
                    "a line of bytes that are not UTF-8 on its stdout".into(),
                ));
            }
            Heard::Closed { partial } => self.ended(i, partial)?,
        }
        Ok(true)
    }

    fn take_line(&mut self, i: usize, line: &str) -> Result<(), Diagnosis> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let request = match protocol::parse(line) {
            Ok(r) => r,
            Err(why) => {
                self.refuse(i, &why);
                return Err(self.diagnose(i, Trouble::Garbage, why));
            }
        };
        let state = self.instances[i].state.clone();
        match (&state, &request) {
            (State::Starting, Request::Hello { protocol }) => {
                if *protocol != protocol::VERSION {
                    let why = format!(
                        "it speaks protocol {protocol}; idem speaks protocol {}",
                        protocol::VERSION
                    );
                    self.refuse(i, &why);
                    return Err(self.diagnose(i, Trouble::Version, why));
                }
                let inst = &mut self.instances[i];
                let answer = Answer::Hello {
                    protocol: protocol::VERSION,
                    instance: inst.name.clone(),
                    start: inst.start,
                };
                self.answer(i, answer);
                self.instances[i].state = State::Running;
                Ok(())
            }
            (State::Starting, other) => {
                let why = format!("its first line is {}, not a hello", other.describe());
                self.refuse(i, &why);
                Err(self.diagnose(i, Trouble::Version, why))
            }
            (State::Running | State::Blocked, Request::Hello { .. }) => {
                let why = "a second hello from the same process".to_string();
                self.refuse(i, &why);
                Err(self.diagnose(i, Trouble::Version, why))
            }
            (State::Running | State::Blocked, _) => {
                if let Request::Charge { req, .. } = request {
                    let inst = &mut self.instances[i];
                    if let Some(last) = inst.last_req
                        && req <= last
                    {
                        let why = format!(
                            "charge #{req} after charge #{last}: each charge of a process needs a new, larger req"
                        );
                        self.refuse(i, &why);
                        return Err(self.diagnose(i, Trouble::OutOfOrder, why));
                    }
                    inst.last_req = Some(req);
                }
                self.instances[i].state = State::Parked(request);
                Ok(())
            }
            (State::Parked(waiting), _) => {
                let why = format!(
                    "it sent {} while its {} was still unanswered (one request at a time, each waits for its answer)",
                    request.describe(),
                    waiting.describe()
                );
                self.refuse(i, &why);
                Err(self.diagnose(i, Trouble::OutOfOrder, why))
            }
            (State::Done, _) => {
                let why = format!(
                    "it sent {} after it was told the queue is empty",
                    request.describe()
                );
                self.refuse(i, &why);
                Err(self.diagnose(i, Trouble::OutOfOrder, why))
            }
            (State::Idle, _) => unreachable!("an instance not started has no process to hear"),
        }
    }

    /// Tells the program why idem stops talking to it.
    fn refuse(&mut self, i: usize, why: &str) {
        let line = Answer::Error {
            message: why.to_string(),
        }
        .line();
        if let Some(proc) = self.instances[i].proc.as_mut() {
            proc.send(&line);
        }
    }

    fn answer(&mut self, i: usize, answer: Answer) {
        let line = answer.line();
        let inst = &mut self.instances[i];
        inst.last_answer = line.trim_end().to_string();
        inst.since = Instant::now();
        if let Some(proc) = inst.proc.as_mut() {
            // A program that closed its stdin is heard ending next.
            proc.send(&line);
        }
    }

    /// Its stdout closed: it ended, by itself.
    fn ended(&mut self, i: usize, partial: Option<String>) -> Result<(), Diagnosis> {
        let status = {
            let proc = self.instances[i].proc.as_mut().expect("listened to");
            let mut status = None;
            for _ in 0..200 {
                status = proc.exited();
                if status.is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            status.unwrap_or_else(|| "its stdout closed".into())
        };
        if let Some(partial) = partial {
            return Err(self.diagnose(
                i,
                Trouble::HalfLine,
                format!(
                    "it ended ({status}) in the middle of a line: {}",
                    super::text::shorten(&partial, 80)
                ),
            ));
        }
        if self.instances[i].state == State::Done {
            self.drop_proc(i);
            return Ok(());
        }
        let tail = self.instances[i].stderr_tail();
        if self.instances[i].state == State::Starting {
            let trouble = if status == "exit status 127"
                && tail.iter().any(|l| l.starts_with("idem: cannot start"))
            {
                Trouble::FailsToStart
            } else {
                Trouble::ExitsAtOnce
            };
            return Err(self.diagnose(i, trouble, format!("it ended ({status}) before its hello")));
        }
        let inst = &self.instances[i];
        let label = inst.label();
        let held: Vec<String> = inst.holding.iter().map(|h| h.receipt.clone()).collect();
        let payments: Vec<_> = inst.holding.iter().map(|h| h.payment.clone()).collect();
        for receipt in &held {
            self.broker.note_lost_lease(
                receipt,
                Cause::ProgramEnded {
                    who: label.clone(),
                    status: status.to_string(),
                },
            );
        }
        for p in &payments {
            self.ledger.note(
                p,
                Cause::ProgramEnded {
                    who: label.clone(),
                    status: status.to_string(),
                },
            );
        }
        self.self_ended.push(format!(
            "{label} ended by itself ({status}){}",
            tail.last()
                .map(|l| format!("; the last line of its stderr: {l}"))
                .unwrap_or_default()
        ));
        self.note(
            None,
            vec![format!("{label} ended by itself ({status}); restarted")],
        );
        self.drop_proc(i);
        self.start(i)
    }

    fn judge_silence(&mut self, i: usize) -> Result<(), Diagnosis> {
        let inst = &self.instances[i];
        let quiet = inst.since.elapsed();
        if inst.state == State::Running && quiet >= self.cfg.quiet {
            let others_waiting = self.instances.iter().enumerate().any(|(j, other)| {
                j != i && matches!(other.state, State::Parked(_) | State::Blocked)
            });
            if others_waiting && program::write_lock_held(&self.cfg.db_path()).unwrap_or(false) {
                self.instances[i].state = State::Blocked;
                let label = self.instances[i].label();
                self.note(
                    None,
                    vec![format!(
                        "{label} waits for the database lock (quiet for {} while another instance holds it)",
                        seconds(self.cfg.quiet)
                    )],
                );
                return Ok(());
            }
        }
        if quiet >= self.cfg.wait {
            let inst = &self.instances[i];
            let partial = String::new();
            let what = if inst.state == State::Starting {
                format!("no hello within {} of its start", seconds(self.cfg.wait))
            } else {
                format!(
                    "no request within {} of idem's last answer ({}){partial}",
                    seconds(self.cfg.wait),
                    super::text::shorten(&inst.last_answer, 120)
                )
            };
            return Err(self.diagnose(i, Trouble::NeverAnswers, what));
        }
        Ok(())
    }

    /// Answers the parked request of instance `i`, with the fault the
    /// source picks for this point, or with `forced`.
    fn serve(&mut self, i: usize, forced: Option<Fault>) -> Result<(), Diagnosis> {
        let State::Parked(request) = self.instances[i].state.clone() else {
            unreachable!("only parked instances are served");
        };
        let held = self.instances[i].held_for(&request).cloned();
        let lease_running = held
            .as_ref()
            .is_some_and(|h| self.broker.lease_held(&h.receipt));
        let faults: Vec<Fault> = Fault::on(request.kind())
            .iter()
            .copied()
            .filter(|f| match f {
                Fault::ExpireLease => lease_running,
                Fault::Duplicate => held.is_some(),
                _ => true,
            })
            .collect();
        let point = Point {
            index: self.points.len(),
            instance: self.instances[i].name.clone(),
            start: self.instances[i].start,
            kind: request.kind(),
            message: held.as_ref().map(|h| h.message.clone()),
            faults,
        };
        let fault = forced.or_else(|| self.faults.at(&point));
        let fault = fault.filter(|f| point.faults.contains(f));
        let index = point.index;
        self.points.push(point);
        self.instances[i].served += 1;
        self.instances[i].held_back = false;
        if let Some(f) = fault {
            self.applied.push((index, f));
        }
        let label = self.instances[i].label();
        let mut lines = vec![format!("{label} → {}", request.describe())];
        match request {
            Request::Hello { .. } => unreachable!("hellos are answered as they come"),
            Request::Receive {} => {
                let receipt = format!("r-{}", self.next_receipt);
                self.next_receipt += 1;
                let delivery = self
                    .broker
                    .receive(&label, receipt.clone(), self.now)
                    .expect("served only when a message is visible");
                self.instances[i].holding.push(Held {
                    receipt: receipt.clone(),
                    message: delivery.message.id.clone(),
                    payment: delivery.message.payment.clone(),
                    delivery: delivery.receive_count,
                    cause: delivery.cause.clone(),
                });
                let answer = Answer::Deliver {
                    id: delivery.message.id.clone(),
                    receipt,
                    delivery: delivery.receive_count,
                    redelivered: delivery.redelivered,
                    body: Body {
                        order: delivery.message.payment.order,
                        amount: delivery.message.payment.amount,
                    },
                };
                let mut said = format!(
                    "{label} ← deliver {} (delivery {}{}), order {} ${}",
                    delivery.message.id,
                    delivery.receive_count,
                    if delivery.redelivered {
                        ", redelivered"
                    } else {
                        ""
                    },
                    delivery.message.payment.order,
                    delivery.message.payment.amount
                );
                if !delivery.cause.is_empty() {
                    said.push_str(&format!(": {}", Arrow::Drawn.join(&delivery.cause)));
                }
                lines.push(said);
                self.answer(i, answer);
                self.instances[i].state = State::Running;
            }
            Request::Charge {
                req,
                order,
                amount,
                ref idempotency_key,
            } => {
                let payment = crate::sim::message::Payment { order, amount };
                if self.shared_fault(i, fault, held.as_ref(), &mut lines) {
                    self.note(Some(index), lines);
                    return Ok(());
                }
                if fault == Some(Fault::KillBeforeCharge) {
                    lines.push(format!(
                        "✗ fault: {label} killed before the provider got the charge"
                    ));
                    self.kill(i, KillPoint::BeforeCharge);
                    self.note_fault(index, fault, lines);
                    return self.start(i);
                }
                let response =
                    self.provider
                        .post_charge(idempotency_key.as_deref(), &payment, self.now);
                // The call ends here whatever happens to its answer (taken
                // in, lost on the way, or its caller killed): the key's
                // in-flight window closes, and a repeat gets the result.
                if let Some(key) = idempotency_key.as_deref() {
                    self.provider.answer(key);
                }
                let (status, charge) = match &response.reply {
                    Reply::Charged { charge_id } => {
                        (response.reply.status(), Some(charge_id.clone()))
                    }
                    other => (other.status(), None),
                };
                if let (Reply::Charged { charge_id }, false) = (&response.reply, response.replayed)
                {
                    self.ledger.charged(
                        &payment,
                        charge_id,
                        index,
                        &label,
                        idempotency_key.as_deref(),
                        held.as_ref(),
                    );
                }
                lines.push(format!(
                    "provider: {}{}",
                    response.reply.describe(),
                    if response.replayed {
                        " (replayed from the key store)"
                    } else {
                        ""
                    }
                ));
                match fault {
                    Some(Fault::LoseResponse) => {
                        lines.push(format!(
                            "✗ fault: the answer to {label} is lost: it hears the call timed out"
                        ));
                        if let Some(h) = &held {
                            let why = Cause::ProgramResponseLost { who: label.clone() };
                            self.broker.note_lost_lease(&h.receipt, why.clone());
                            self.ledger.note(&h.payment, why);
                        }
                        self.answer(
                            i,
                            Answer::ChargeResult {
                                req,
                                status: None,
                                replayed: false,
                                charge: None,
                                lost: true,
                            },
                        );
                        self.instances[i].state = State::Running;
                    }
                    Some(Fault::KillAfterCharge) => {
                        lines.push(format!(
                            "✗ fault: {label} killed after the charge, before it heard the answer"
                        ));
                        self.kill(i, KillPoint::AfterCharge);
                        self.note_fault(index, fault, lines);
                        return self.start(i);
                    }
                    _ => {
                        lines.push(format!(
                            "{label} ← charge_result {status}{}",
                            charge.as_ref().map(|c| format!(" {c}")).unwrap_or_default()
                        ));
                        self.answer(
                            i,
                            Answer::ChargeResult {
                                req,
                                status: Some(status),
                                replayed: response.replayed,
                                charge,
                                lost: false,
                            },
                        );
                        self.instances[i].state = State::Running;
                    }
                }
            }
            Request::Ack { ref receipt } => {
                if self.shared_fault(i, fault, held.as_ref(), &mut lines) {
                    self.note(Some(index), lines);
                    return Ok(());
                }
                if fault == Some(Fault::LoseAck) {
                    self.broker.mark_ack_lost(receipt);
                    self.broker
                        .note_lost_lease(receipt, Cause::ProgramAckLost { who: label.clone() });
                    lines.push(format!("✗ fault: the broker never gets {label}'s ack; {label} hears the call timed out"));
                    self.answer(
                        i,
                        Answer::AckResult {
                            receipt: receipt.clone(),
                            status: "lost",
                            reason: None,
                        },
                    );
                    self.instances[i].state = State::Running;
                    self.note_fault(index, fault, lines);
                    return Ok(());
                }
                let outcome = self.broker.ack(receipt, &label);
                let (status, reason) = match &outcome {
                    AckOutcome::Removed { message_id } => {
                        lines.push(format!("broker: {message_id} removed"));
                        self.instances[i].holding.retain(|h| &h.receipt != receipt);
                        self.broker.forget_settled();
                        if let Some(h) = &held {
                            self.ledger.acked(
                                &h.payment,
                                &self.cfg.db_path(),
                                &self.cfg.recorded_query,
                            );
                        }
                        ("ok", None)
                    }
                    AckOutcome::Rejected { reason } => {
                        lines.push(format!("broker: ack refused: {reason}"));
                        self.instances[i].holding.retain(|h| &h.receipt != receipt);
                        ("rejected", Some(reason.clone()))
                    }
                };
                if fault == Some(Fault::KillAfterAck) {
                    lines.push(format!(
                        "✗ fault: {label} killed after the broker took its ack"
                    ));
                    if let Some(h) = &held {
                        self.ledger.note(
                            &h.payment,
                            Cause::ProgramKilled {
                                who: label.clone(),
                                point: KillPoint::AfterAck,
                            },
                        );
                    }
                    self.kill(i, KillPoint::AfterAck);
                    self.note_fault(index, fault, lines);
                    return self.start(i);
                }
                lines.push(format!("{label} ← ack_result {status}"));
                self.answer(
                    i,
                    Answer::AckResult {
                        receipt: receipt.clone(),
                        status,
                        reason,
                    },
                );
                self.instances[i].state = State::Running;
            }
        }
        self.note_fault(index, fault, lines);
        Ok(())
    }

    /// The faults that fall on any request about a held message: the
    /// lease runs out, or the producer publishes the message again. True
    /// when the request stays unanswered for now.
    fn shared_fault(
        &mut self,
        i: usize,
        fault: Option<Fault>,
        held: Option<&Held>,
        lines: &mut Vec<String>,
    ) -> bool {
        let label = self.instances[i].label();
        match (fault, held) {
            (Some(Fault::ExpireLease), Some(h)) => {
                self.broker.note_lost_lease(
                    &h.receipt,
                    Cause::StillWorking {
                        consumer: label.clone(),
                    },
                );
                self.broker.expire_now(&h.message);
                self.ledger.note(
                    &h.payment,
                    Cause::ProgramLeaseRanOut {
                        who: label.clone(),
                        id: h.message.clone(),
                    },
                );
                lines.push(format!("✗ fault: the lease on {} runs out while {label} works; {label} waits until the others can go no further", h.message));
                self.instances[i].held_back = true;
                self.instances[i].served -= 1;
                // Its request is answered later, with no fault.
                true
            }
            (Some(Fault::Duplicate), Some(h)) => {
                let message = Message::payment(&h.message, h.payment.order, h.payment.amount);
                self.broker.publish(message, self.now);
                self.ledger.note(
                    &h.payment,
                    Cause::ProgramDuplicate {
                        id: h.message.clone(),
                    },
                );
                lines.push(format!(
                    "✗ fault: the producer publishes {} again",
                    h.message
                ));
                false
            }
            _ => false,
        }
    }

    fn kill(&mut self, i: usize, point: KillPoint) {
        let label = self.instances[i].label();
        let holding = self.instances[i].holding.clone();
        for h in &holding {
            let why = Cause::ProgramKilled {
                who: label.clone(),
                point,
            };
            self.broker.note_lost_lease(&h.receipt, why.clone());
            self.ledger.note(&h.payment, why);
        }
        self.drop_proc(i);
    }

    /// Ends instance `i`'s process, keeping what it wrote to stderr for
    /// the next look.
    fn drop_proc(&mut self, i: usize) {
        if let Some(proc) = self.instances[i].proc.as_mut() {
            proc.kill();
        }
        if self.cfg.record {
            let lines = self.stderr_since(i);
            self.stderr_carry.extend(lines);
        }
        self.instances[i].last_stderr = self.instances[i].stderr_tail();
        self.instances[i].proc = None;
    }

    fn note_fault(&mut self, index: usize, fault: Option<Fault>, lines: Vec<String>) {
        self.note(Some(index), lines);
        if let Some(step) = self.steps.last_mut() {
            step.fault = fault;
        }
    }

    /// Records a step: what happened, and with `record`, how everything
    /// looks after it.
    fn note(&mut self, point: Option<usize>, lines: Vec<String>) {
        if !self.cfg.record {
            return;
        }
        let mut step = Step {
            point,
            lines,
            ..Step::default()
        };
        step.queue = self
            .broker
            .messages()
            .iter()
            .map(|m| {
                let state = match &m.state {
                    MessageState::Waiting => "waiting".to_string(),
                    MessageState::InFlight {
                        consumer,
                        receipt,
                        until,
                        ..
                    } => format!(
                        "leased to {consumer} ({receipt}) until {}",
                        crate::sim::format_duration(*until)
                    ),
                    MessageState::Acked { by } => format!("acked by {by}"),
                    MessageState::DeadLettered => "dead-lettered".into(),
                };
                format!(
                    "{} {} (copy {}, order {} ${}): {state}, received {}",
                    m.broker_id(),
                    m.message.id,
                    m.copy,
                    m.message.payment.order,
                    m.message.payment.amount,
                    match m.receives {
                        1 => "once".to_string(),
                        n => format!("{n} times"),
                    }
                )
            })
            .collect();
        step.charges = self
            .provider
            .charges()
            .iter()
            .map(|c| {
                format!(
                    "{} order {} ${}, {}",
                    c.id,
                    c.order,
                    c.amount,
                    c.key
                        .as_ref()
                        .map_or("no Idempotency-Key".to_string(), |k| format!("key {k}"))
                )
            })
            .collect();
        step.keys = self
            .provider
            .keys()
            .map(|k| {
                format!(
                    "{}: {} (replayed {})",
                    k.key,
                    k.result.describe(),
                    k.replays
                )
            })
            .collect();
        self.steps.push(step);
        self.unseen = true;
    }

    /// Fills in the last step what only a quiet moment shows truly: the
    /// program's tables and what it wrote to stderr since the step before.
    /// Called once every instance has parked, so it never races a process.
    fn look(&mut self) {
        if !self.cfg.record || !self.unseen {
            return;
        }
        self.unseen = false;
        let tables = program::dump_tables(&self.cfg.db_path(), 20).unwrap_or_default();
        let mut stderr = std::mem::take(&mut self.stderr_carry);
        for i in 0..self.instances.len() {
            stderr.extend(self.stderr_since(i));
        }
        if let Some(step) = self.steps.last_mut() {
            step.tables = tables;
            step.stderr = stderr;
        }
    }

    /// What instance `i`'s process wrote to stderr since the last look.
    fn stderr_since(&mut self, i: usize) -> Vec<String> {
        let inst = &mut self.instances[i];
        let label = inst.label();
        let mut out = Vec::new();
        if let Some(proc) = inst.proc.as_mut() {
            proc.drain_stderr();
            let (lines, dropped) = proc.stderr.since(self.stderr_seen[i]);
            if dropped > 0 {
                out.push(format!("{label}: … {dropped} lines not kept"));
            }
            out.extend(lines.iter().map(|l| format!("{label}: {l}")));
            self.stderr_seen[i] = proc.stderr.total();
        }
        out
    }
}

fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}
