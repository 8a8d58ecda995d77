//! The progress line of `idem check`: nothing for a check that ends within
//! a moment; then, on a terminal, one line rewritten in place (states,
//! states per second, the search's queue, designs done), cleared at the
//! end; on a pipe or file, a plain line every few seconds. Written to
//! stderr, so that stdout keeps only the report; a failed write is ignored.

use idem::check::{FurtherSeen, Seen, Watch, num};
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
            // It clears one row only, so the line must fit one (a log
            // read from a pipe keeps the whole line instead).
            let _ = write!(err, "\r\x1b[K{}", fit(&line, terminal_width()));
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

/// `line` shortened to fit `width` columns less one (a terminal wraps a
/// line that fills its last column): cut at a word's end, `…` marking it.
fn fit(line: &str, width: usize) -> String {
    let room = width.saturating_sub(1);
    if line.chars().count() <= room {
        return line.to_string();
    }
    // The last space that leaves room for the mark after the words kept.
    let cut = line
        .char_indices()
        .filter(|&(i, c)| c == ' ' && line[..i].chars().count() < room)
        .map(|(i, _)| i)
        .next_back()
        .unwrap_or(0);
    let kept = line[..cut].trim_end_matches([',', ';', ' ']);
    format!("{kept}…")
}

/// The terminal's columns, for the line rewritten in place: `COLUMNS`
/// if set, else what the terminal says, else 80.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or_else(|| {
            ratatui::crossterm::terminal::size()
                .ok()
                .map(|(w, _)| usize::from(w))
        })
        .unwrap_or(80)
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

    /// Teacher trial: on an 80-column terminal the line rewritten in place
    /// was 170 to 186 characters, so the terminal wrapped it and `\r`
    /// rewrote only its last row. On a terminal it fits the width, cut at
    /// a word's end and marked; a short line is left as it is.
    #[test]
    fn on_a_terminal_the_line_fits_the_width() {
        let long = "idem check: 12,753 states, 785 states/s, queue 0, designs done 8/12; one bound further: 1,602 states, tries done 0/7, trying in-progress at 3 faults and in-progress with a producer retry";
        for width in [40, 80, 120] {
            let fitted = fit(long, width);
            assert!(fitted.chars().count() < width, "{width}: {fitted}");
            assert!(fitted.ends_with('…'), "{width}: {fitted}");
            let kept = fitted.trim_end_matches('…');
            assert!(long.starts_with(kept), "{width}: {fitted}");
            assert!(
                long[kept.len()..].starts_with([' ', ',', ';']),
                "a word's end: {fitted}"
            );
        }
        assert_eq!(fit("idem check: 929 states", 80), "idem check: 929 states");
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
