//! One process of the user's program, started under the supervisor
//! (supervise.rs) as the leader of its own process group: its stdin to
//! write answers to, a reader thread that turns its stdout into bounded
//! lines, and a reader thread that keeps the last lines of its stderr.
//! Dropping it kills the group and reaps the supervisor.

use super::protocol::MAX_LINE;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::time::{Duration, Instant};

/// How to start the program.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The idem binary that runs `supervise` (normally idem itself).
    pub supervisor: PathBuf,
    pub program: Vec<String>,
    pub env: Vec<(String, String)>,
}

/// What a reader thread heard on a program's stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    Line(String),
    /// A line longer than `MAX_LINE` bytes (the rest of it is skipped).
    TooLong,
    /// Bytes that are not UTF-8.
    NotText,
    /// The start of a line with no end yet, as one read found it: what
    /// a diagnosis shows of a program that stops in the middle of a line.
    Unfinished(String),
    /// End of its stdout; with the bytes of a last, unfinished line.
    Closed {
        partial: Option<String>,
    },
}

/// Lines of stderr kept per process: the last ones, for diagnoses and
/// replays. Older lines are counted, not kept.
pub const STDERR_KEPT: usize = 200;
const STDERR_LINE: usize = 300;

#[derive(Debug, Default)]
pub struct StderrLog {
    lines: VecDeque<String>,
    /// Lines ever seen, kept or not.
    total: u64,
    partial: Vec<u8>,
}

impl StderrLog {
    fn push_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                self.push_line(line);
            } else if self.partial.len() < STDERR_LINE * 4 {
                self.partial.push(b);
            }
        }
    }

    fn push_line(&mut self, line: String) {
        self.total += 1;
        self.lines.push_back(super::text::shorten(
            line.trim_end_matches('\r'),
            STDERR_LINE,
        ));
        if self.lines.len() > STDERR_KEPT {
            self.lines.pop_front();
        }
    }

    fn finish(&mut self) {
        if !self.partial.is_empty() {
            let line = String::from_utf8_lossy(&self.partial).into_owned();
            self.partial.clear();
            self.push_line(line);
        }
    }

    /// The last `n` lines.
    pub fn last(&self, n: usize) -> Vec<String> {
        let skip = self.lines.len().saturating_sub(n);
        self.lines.iter().skip(skip).cloned().collect()
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// The lines after the first `seen`, and how many of those were no
    /// longer kept.
    pub fn since(&self, seen: u64) -> (Vec<String>, u64) {
        let first_kept = self.total - self.lines.len() as u64;
        let dropped = first_kept.saturating_sub(seen);
        let skip = seen.saturating_sub(first_kept) as usize;
        (self.lines.iter().skip(skip).cloned().collect(), dropped)
    }
}

/// A running process of the program.
pub struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Read without a thread, non-blocking, whenever idem looks: the
    /// program is parked then, so everything it wrote before its request
    /// is in the pipe, and a look sees exactly that, never a thread's
    /// share of it.
    stderr_pipe: Option<std::fs::File>,
    pub stderr: StderrLog,
    /// Lines come in the batches one read of stdout found: two requests
    /// written at once are seen at once, so the second is out of turn
    /// whatever the timing.
    stdout: Receiver<Vec<Heard>>,
    heard: VecDeque<Heard>,
    reaped: bool,
}

/// Lines waiting to be read per process: a program that floods its
/// stdout waits for idem, it never fills idem's memory.
const STDOUT_BUFFER: usize = 16;

impl Proc {
    pub fn start(launch: &Launch) -> std::io::Result<Proc> {
        let mut command = Command::new(&launch.supervisor);
        command
            .arg("supervise")
            .arg("--")
            .args(&launch.program)
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::sync_channel(STDOUT_BUFFER);
        std::thread::spawn(move || read_lines(stdout, tx));
        let stderr = std::os::fd::OwnedFd::from(stderr);
        rustix::io::ioctl_fionbio(&stderr, true)?;
        Ok(Proc {
            child,
            stdin,
            stderr_pipe: Some(std::fs::File::from(stderr)),
            stderr: StderrLog::default(),
            stdout: rx,
            heard: VecDeque::new(),
            reaped: false,
        })
    }

    /// Takes in what the program wrote to stderr so far; returns how many
    /// bytes that was.
    pub fn drain_stderr(&mut self) -> usize {
        let Some(pipe) = self.stderr_pipe.as_mut() else {
            return 0;
        };
        let mut buf = [0u8; 8192];
        let mut taken = 0;
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => {
                    self.stderr_pipe = None;
                    self.stderr.finish();
                    return taken;
                }
                Ok(n) => {
                    taken += n;
                    self.stderr.push_bytes(&buf[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return taken,
            }
        }
    }

    /// Writes one answer line. A program that closed its stdin cannot be
    /// answered: false.
    pub fn send(&mut self, line: &str) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush())
                .is_ok(),
            None => false,
        }
    }

    /// The next thing heard on stdout, waiting at most `limit`.
    pub fn hear(&mut self, limit: Duration) -> Option<Heard> {
        if self.heard.is_empty() {
            match self.stdout.recv_timeout(limit) {
                Ok(batch) => self.heard.extend(batch),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return None,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Some(Heard::Closed { partial: None });
                }
            }
        }
        self.heard.pop_front()
    }

    /// What was heard already, without waiting.
    pub fn try_hear(&mut self) -> Option<Heard> {
        if self.heard.is_empty() {
            match self.stdout.try_recv() {
                Ok(batch) => self.heard.extend(batch),
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => return Some(Heard::Closed { partial: None }),
            }
        }
        self.heard.pop_front()
    }

    pub fn stderr_tail(&mut self, n: usize) -> Vec<String> {
        self.drain_stderr();
        self.stderr.last(n)
    }

    /// Closes its stdin and waits up to `limit` for it to exit; then kills
    /// it. True when it exited on its own.
    pub fn finish(&mut self, limit: Duration) -> bool {
        self.stdin = None;
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.kill();
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
        false
    }

    /// True once the supervisor has exited (the program ended).
    pub fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(match status.code() {
                Some(code) => format!("exit status {code}"),
                None => "killed by a signal".into(),
            }),
            _ => None,
        }
    }

    /// SIGKILL to the whole group (the supervisor, the program, anything it
    /// started), then reap the supervisor and let the stderr reader finish.
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.stdin = None;
        self.reaped = true;
        // The group is gone: what is in the pipe is all there will be.
        self.drain_stderr();
        self.stderr_pipe = None;
        self.stderr.finish();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The bytes of an unfinished line kept for a diagnosis.
const UNFINISHED_SHOWN: usize = 200;

fn read_lines(mut stdout: impl Read, tx: SyncSender<Vec<Heard>>) {
    let mut buf = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    // How much of the unfinished line's start was told already.
    let mut told = 0;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut batch = Vec::new();
        for &b in &buf[..n] {
            if b == b'\n' {
                if !skipping {
                    batch.push(match String::from_utf8(std::mem::take(&mut line)) {
                        Ok(text) => Heard::Line(text.trim_end_matches('\r').to_string()),
                        Err(_) => Heard::NotText,
                    });
                }
                skipping = false;
                told = 0;
                line.clear();
            } else if !skipping {
                line.push(b);
                if line.len() > MAX_LINE {
                    line.clear();
                    told = 0;
                    skipping = true;
                    batch.push(Heard::TooLong);
                }
            }
        }
        // Told again only when there is more of its start to show.
        let shown = line.len().min(UNFINISHED_SHOWN);
        if !skipping && shown > told {
            told = shown;
            batch.push(Heard::Unfinished(
                String::from_utf8_lossy(&line[..shown]).into_owned(),
            ));
        }
        if !batch.is_empty() && tx.send(batch).is_err() {
            return;
        }
    }
    let partial = (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned());
    let _ = tx.send(vec![Heard::Closed { partial }]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_the_last_lines_and_counts_the_rest() {
        let mut log = StderrLog::default();
        for i in 0..(STDERR_KEPT + 5) {
            log.push_bytes(format!("line {i}\n").as_bytes());
        }
        log.push_bytes(b"half");
        log.finish();
        assert_eq!(log.total(), STDERR_KEPT as u64 + 6);
        assert_eq!(log.last(2), ["line 204", "half"]);
        let (lines, dropped) = log.since(0);
        assert_eq!(dropped, 6);
        assert_eq!(lines.len(), STDERR_KEPT);
        let (lines, dropped) = log.since(log.total() - 1);
        assert_eq!((lines, dropped), (vec!["half".to_string()], 0));
    }

    #[test]
    fn stdout_lines_are_bounded() {
        let (tx, rx) = std::sync::mpsc::sync_channel(4);
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\n{\"a\":1}\nhal");
        std::thread::spawn(move || read_lines(&input[..], tx));
        let heard: Vec<Heard> = rx.iter().flatten().collect();
        assert_eq!(
            heard,
            [
                // Its start, once, from the first read; then the verdict.
                Heard::Unfinished("x".repeat(UNFINISHED_SHOWN)),
                Heard::TooLong,
                Heard::Line("{\"a\":1}".into()),
                Heard::Unfinished("hal".into()),
                Heard::Closed {
                    partial: Some("hal".into())
                }
            ]
        );
    }
}
