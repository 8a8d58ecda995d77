//! `idem test`'s progress while it explores: the count of schedules run,
//! on the one progress line that `idem check` keeps too ([`ProgressLine`]:
//! a terminal only, cleared before the report).

use super::super::progress_line::ProgressLine;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many schedules go by between two counts.
const EVERY: usize = 50;

pub(super) struct Progress {
    line: ProgressLine,
    most: AtomicUsize,
}

impl Progress {
    /// Shown when stderr is a terminal.
    pub(super) fn on_stderr() -> Self {
        Self {
            line: ProgressLine::on_stderr(),
            most: AtomicUsize::new(0),
        }
    }

    /// `done` schedules have run: every [`EVERY`]th count rewrites the
    /// line, never going back to a smaller count (workers finish out of
    /// order).
    pub(super) fn ran(&self, done: usize) {
        if !self.line.is_drawn() || !done.is_multiple_of(EVERY) {
            return;
        }
        if self.most.fetch_max(done, Ordering::SeqCst) < done {
            self.line
                .show(&format!("idem test: {done} schedules run so far"));
        }
    }

    /// Clears the line, before the report is printed.
    pub(super) fn clear(&self) {
        self.line.clear();
    }
}
