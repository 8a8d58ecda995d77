//! `idem test`'s progress while it explores: on a terminal only, as
//! `idem check` shows its own there, one line rewritten in place and
//! cleared before the report. On a pipe or in a file nothing: merged with
//! stdout (`2>&1 | cat`) a progress line read as the report's first line
//! (teacher trial 26).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many schedules go by between two counts.
const EVERY: usize = 50;

pub(super) struct Progress {
    terminal: bool,
    most: AtomicUsize,
    shown: AtomicBool,
}

impl Progress {
    /// Shown when stderr is a terminal.
    pub(super) fn on_stderr() -> Self {
        Self {
            terminal: std::io::stderr().is_terminal(),
            most: AtomicUsize::new(0),
            shown: AtomicBool::new(false),
        }
    }

    /// `done` schedules have run: every [`EVERY`]th count rewrites the
    /// line, never going back to a smaller count (workers finish out of
    /// order).
    pub(super) fn ran(&self, done: usize) {
        if !self.terminal || !done.is_multiple_of(EVERY) {
            return;
        }
        if self.most.fetch_max(done, Ordering::SeqCst) < done {
            // Our own control sequence: back to column 0, clear the line.
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[Kidem test: {done} schedules run so far");
            let _ = err.flush();
            self.shown.store(true, Ordering::SeqCst);
        }
    }

    /// Clears the line, before the report is printed.
    pub(super) fn clear(&self) {
        if self.shown.load(Ordering::SeqCst) {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}
