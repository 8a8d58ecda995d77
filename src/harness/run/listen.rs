//! Hearing the program: idem waits until every instance has asked, is
//! blocked on the database lock, or is done; reads each line it says,
//! holds it to the protocol, and tells a blocked instance from a busy one
//! by its silence while another holds the write lock (the module's doc).

use super::Run;
use crate::harness::diagnosis::{Diagnosis, Trouble};
use crate::harness::instance::State;
use crate::harness::process::Heard;
use crate::harness::protocol::{self, Answer, Request};
use crate::sim::cause::Cause;
use std::time::{Duration, Instant};

impl Run<'_, '_> {
    /// Waits until no instance is working: each has asked (parked), is
    /// blocked on the database lock, or is done.
    pub(super) fn settle(&mut self) -> Result<(), Diagnosis> {
        for inst in &mut self.instances {
            if inst.state == State::Blocked {
                inst.state = State::Running;
                inst.since = Instant::now();
            }
        }
        loop {
            if let Some(e) = self.trouble.take() {
                return Err(self.server_trouble(e));
            }
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
            // A program that logs more between two requests than its
            // stderr pipe holds would stop on the write and look silent:
            // idem takes in what a working instance wrote as it goes.
            let writing: Vec<bool> = working
                .iter()
                .map(|&i| {
                    self.instances[i]
                        .proc
                        .as_mut()
                        .is_some_and(|p| p.drain_stderr() > 0)
                })
                .collect();
            let busy_writing = writing.iter().any(|&w| w);
            // One working instance: wait on it alone (no polling); several:
            // look at each in turn.
            let mut heard = false;
            if working.len() == 1 {
                let limit = if busy_writing {
                    Duration::from_millis(1)
                } else if self.db.is_server() {
                    super::server::PROBE_EVERY
                } else {
                    self.cfg.quiet.min(Duration::from_millis(50))
                };
                heard |= self.listen(working[0], limit)?;
            } else {
                for &i in &working {
                    heard |= self.listen(i, Duration::ZERO)?;
                }
                if !heard && !busy_writing {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            if heard {
                continue;
            }
            for (&i, &writes) in working.iter().zip(&writing) {
                self.judge_silence(i, writes)?;
            }
        }
    }

    /// Takes what instance `i` said within `limit`; true when it said
    /// something.
    pub(super) fn listen(&mut self, i: usize, limit: Duration) -> Result<bool, Diagnosis> {
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
            Heard::Line(line) => {
                self.instances[i].unfinished = None;
                self.take_line(i, &line)?
            }
            // Not a request: kept for the diagnosis of its silence.
            Heard::Unfinished(start) => {
                self.instances[i].unfinished = Some(start);
                return Ok(false);
            }
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

    pub(super) fn take_line(&mut self, i: usize, line: &str) -> Result<(), Diagnosis> {
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
    pub(super) fn refuse(&mut self, i: usize, why: &str) {
        let line = Answer::Error {
            message: why.to_string(),
        }
        .line();
        if let Some(proc) = self.instances[i].proc.as_mut() {
            proc.send(&line);
        }
    }

    pub(super) fn answer(&mut self, i: usize, answer: Answer) {
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
    pub(super) fn ended(&mut self, i: usize, partial: Option<String>) -> Result<(), Diagnosis> {
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
                    crate::harness::text::shorten(&partial, 80)
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
                && tail
                    .iter()
                    .any(|l| l.starts_with(crate::harness::supervise::CANNOT_START))
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
            vec![format!(
                "{label} ended by itself ({status}); it starts again when a message waits for it"
            )],
        );
        self.drop_proc(i);
        self.stand_down(i);
        Ok(())
    }

    /// An instance silent on stdout: blocked on the database lock, or,
    /// past the answer limit, never answering. One that `writes` to its
    /// stderr is working, not blocked; the answer limit holds it all the
    /// same. On a PostgreSQL server the server says whether it waits for
    /// a lock (server.rs); on SQLite its silence beside a held write lock
    /// does.
    pub(super) fn judge_silence(&mut self, i: usize, writes: bool) -> Result<(), Diagnosis> {
        if self.instances[i].state == State::Running
            && !writes
            && self.db.is_server()
            && self.blocked_on_server(i)?
        {
            return Ok(());
        }
        let inst = &self.instances[i];
        let quiet = inst.since.elapsed();
        if inst.state == State::Running
            && !writes
            && !self.db.is_server()
            && quiet >= self.cfg.quiet
        {
            let others_waiting = self.instances.iter().enumerate().any(|(j, other)| {
                j != i && matches!(other.state, State::Parked(_) | State::Blocked)
            });
            if others_waiting && self.db.write_lock_held() {
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
            if let Some(start) = &inst.unfinished {
                let what = format!(
                    "it wrote half a line on its stdout and nothing more within {}: {}",
                    seconds(self.cfg.wait),
                    crate::harness::text::shorten(start, 80)
                );
                return Err(self.diagnose(i, Trouble::HalfLine, what));
            }
            let what = if inst.state == State::Starting {
                format!("no hello within {} of its start", seconds(self.cfg.wait))
            } else {
                format!(
                    "no request within {} of idem's last answer ({}){}",
                    seconds(self.cfg.wait),
                    crate::harness::text::shorten(&inst.last_answer, 120),
                    self.waits_outside(i).unwrap_or_default()
                )
            };
            return Err(self.diagnose(i, Trouble::NeverAnswers, what));
        }
        Ok(())
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
