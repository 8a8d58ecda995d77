//! The progress line of `idem check`: nothing for a check that ends within
//! a moment; then, on a terminal, one line rewritten in place (states,
//! states per second, the search's queue, designs done), cleared at the
//! end; on a pipe or file, a plain line every few seconds. Written to
//! stderr, so that stdout keeps only the report; a failed write is ignored.

use idem::check::{Seen, Watch, num};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a check runs before it shows progress.
const MOMENT: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(100);
/// Between plain lines when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// Runs `work` while a second thread reports `watch` on stderr.
pub fn shown_while<T: Send>(watch: &Watch, work: impl FnOnce() -> T + Send) -> T {
    let done = AtomicBool::new(false);
    let terminal = std::io::stderr().is_terminal();
    std::thread::scope(|s| {
        s.spawn(|| report(watch, &done, terminal));
        let out = work();
        done.store(true, Ordering::Relaxed);
        out
    })
}

fn report(watch: &Watch, done: &AtomicBool, terminal: bool) {
    let started = Instant::now();
    let mut last_plain = started;
    let mut shown = false;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        let elapsed = started.elapsed();
        if elapsed < MOMENT {
            continue;
        }
        let line = line(watch.seen(), elapsed);
        let mut err = std::io::stderr().lock();
        if terminal {
            // Our own control sequence: back to column 0, clear the line.
            let _ = write!(err, "\r\x1b[K{line}");
            let _ = err.flush();
            shown = true;
        } else if !shown || last_plain.elapsed() >= PLAIN_EVERY {
            let _ = writeln!(err, "{line}");
            last_plain = Instant::now();
            shown = true;
        }
    }
    if terminal && shown {
        let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
    }
}

fn line(seen: Seen, elapsed: Duration) -> String {
    let rate = seen.states as f64 / elapsed.as_secs_f64().max(0.001);
    format!(
        "idem check: {} states, {} states/s, queue {}, designs done {}/{}",
        num(seen.states),
        num(rate as u64),
        num(seen.queue),
        seen.designs_done,
        seen.designs
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_states_rate_and_queue() {
        let seen = Seen {
            states: 12_345,
            queue: 67,
            designs_done: 3,
            designs: 12,
        };
        assert_eq!(
            line(seen, Duration::from_secs(2)),
            "idem check: 12,345 states, 6,172 states/s, queue 67, designs done 3/12"
        );
    }
}
