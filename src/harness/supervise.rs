//! The supervisor: a small idem process (`idem supervise -- PROGRAM…`, a
//! hidden command) between idem and each process of the user's program.
//!
//! Why: a child must never outlive idem, even when idem is killed with
//! SIGKILL and runs no code at all. Without unsafe code idem cannot ask the
//! kernel to signal its children when it dies (no `prctl`, no `pre_exec`),
//! so the supervisor watches the one thing that ends when idem ends: its
//! own stdin, a pipe whose write end only idem holds. It relays that pipe
//! to the program; when it reads end of file (idem closed it at the end of
//! a run, or idem died), it closes the program's stdin, gives it a moment
//! to exit, and then kills its whole process group: the program and
//! anything the program started. idem starts the supervisor as the leader
//! of a new process group, so idem's own faults (SIGKILL at an exact point)
//! and its cleanup also reach everything with one signal.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long the program has to exit on its own after its stdin closed.
pub const GRACE: Duration = Duration::from_secs(2);

/// How the supervisor tells idem that the program could not be started at
/// all: the first words of its one stderr line, beside exit status 127. A
/// program may itself exit 127 (a shell does, for a command it cannot find),
/// so the status alone cannot say it; this line is the supervisor's own
/// message to idem, written and read through this one constant.
pub const CANNOT_START: &str = "idem: cannot start ";

/// Runs `argv` under supervision; returns the exit code to leave with.
pub fn supervise(argv: &[String]) -> i32 {
    let Some((program, args)) = argv.split_first() else {
        eprintln!("idem supervise: no program to run");
        return 2;
    };
    let mut child = match Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("{CANNOT_START}{program}: {e}");
            return 127;
        }
    };
    let closed = Arc::new(AtomicBool::new(false));
    let mut to_child = child.stdin.take();
    {
        let closed = closed.clone();
        std::thread::spawn(move || {
            let mut input = std::io::stdin().lock();
            let mut buf = [0u8; 8192];
            loop {
                match input.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        // A program that stopped reading is idem's to
                        // diagnose; the relay keeps watching for the end.
                        if let Some(out) = to_child.as_mut()
                            && (out.write_all(&buf[..n]).is_err() || out.flush().is_err())
                        {
                            to_child = None;
                        }
                    }
                }
            }
            drop(to_child);
            closed.store(true, Ordering::SeqCst);
        });
    }
    let mut closed_at: Option<Instant> = None;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                use std::os::unix::process::ExitStatusExt;
                return status
                    .code()
                    .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
            }
            Ok(None) => {}
            Err(_) => return 1,
        }
        if closed.load(Ordering::SeqCst) {
            let since = *closed_at.get_or_insert_with(Instant::now);
            if since.elapsed() >= GRACE {
                kill_own_group();
                let _ = child.kill();
                let _ = child.wait();
                return 137;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The supervisor leads its process group (idem started it so): one
/// signal ends the program, its children and the supervisor.
fn kill_own_group() {
    if let Some(pid) = rustix::process::Pid::from_raw(std::process::id() as i32) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}
