//! The progress line of `idem check`: nothing for a check that ends within
//! a moment; then, on a terminal, one line rewritten in place (states,
//! states per second, the search's queue, designs done), cleared at the
//! end. Off a terminal nothing, as for `idem test` ([`ProgressLine`]).

use super::progress_line::ProgressLine;
use idem::check::{FurtherSeen, Seen, Watch, num};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a check runs before it shows progress.
const MOMENT: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(100);

/// Runs `work` while a second thread reports `watch` on stderr, when
/// stderr is a terminal.
pub fn shown_while<T: Send>(watch: &Watch, work: impl FnOnce() -> T + Send) -> T {
    let shown = ProgressLine::on_stderr();
    if !shown.is_drawn() {
        return work();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| report(watch, &done, &shown));
        let out = work();
        done.store(true, Ordering::Relaxed);
        out
    })
}

fn report(watch: &Watch, done: &AtomicBool, shown: &ProgressLine) {
    let started = Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        let elapsed = started.elapsed();
        if elapsed >= MOMENT {
            shown.show(&line(watch.seen(), elapsed));
        }
    }
    shown.clear();
}

fn line(seen: Seen, elapsed: Duration) -> String {
    let further = seen.further.as_ref();
    // Every search's states, the tries' included.
    let rate = seen.states as f64 / elapsed.as_secs_f64().max(0.001);
    let mut line = format!(
        "idem check: {} states, {} states/s, queue {}, designs done {}/{}",
        num(seen.states),
        num(rate as u64),
        num(seen.queue),
        seen.designs_done,
        seen.designs
    );
    if let Some(f) = further {
        line.push_str(&further_words(f));
    }
    line
}

/// The tries one bound further, after the designs' own searches: their
/// states so far and the tries running, so that the line moves while
/// they go (`; one bound further: 2,345 states, tries done 1/4, trying
/// idempotent at 3 faults`).
fn further_words(f: &FurtherSeen) -> String {
    let mut words = format!(
        "; one bound further: {} states, tries done {}/{}",
        num(f.states),
        f.done,
        f.tries
    );
    if !f.running.is_empty() {
        words.push_str(&format!(", trying {}", f.running.join(" and ")));
    }
    words
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
            searching: Vec::new(),
            further: None,
        };
        assert_eq!(
            line(seen, Duration::from_secs(2)),
            "idem check: 12,345 states, 6,172 states/s, queue 67, designs done 3/12"
        );
    }

    /// While the designs that held are tried one bound further, the line
    /// counts those tries' states and names the ones running: it does not
    /// stand still while they go.
    #[test]
    fn the_line_moves_while_the_tries_one_bound_further_go() {
        let seen = Seen {
            states: 12_345,
            queue: 0,
            designs_done: 10,
            designs: 12,
            searching: Vec::new(),
            further: Some(FurtherSeen {
                states: 2_345,
                done: 1,
                tries: 4,
                running: vec![
                    "idempotent at 3 faults".into(),
                    "versioned with a producer retry".into(),
                ],
            }),
        };
        assert_eq!(
            line(seen, Duration::from_secs(2)),
            "idem check: 12,345 states, 6,172 states/s, queue 0, designs done 10/12; one bound further: 2,345 states, tries done 1/4, trying idempotent at 3 faults and versioned with a producer retry"
        );
    }
}
