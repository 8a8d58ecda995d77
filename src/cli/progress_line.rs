//! The one progress line that a long command (`idem check`, `idem test`)
//! keeps on stderr: on a terminal only, rewritten in place, fitted to the
//! terminal's width, and cleared before the report. On a pipe or in a file
//! nothing at all: merged with stdout (`2>&1 | cat`) a progress line reads
//! as the report's first line (teacher trial 26), and a log gains nothing
//! from counts that the report gives in full. A failed write is ignored:
//! the line is a courtesy, the report is what must arrive.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) struct ProgressLine {
    terminal: bool,
    shown: AtomicBool,
}

impl ProgressLine {
    /// A line on stderr, drawn only if stderr is a terminal.
    pub(super) fn on_stderr() -> Self {
        Self {
            terminal: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// Whether anything will be drawn: lets a caller skip the work of
    /// watching a search that nobody sees.
    pub(super) fn is_drawn(&self) -> bool {
        self.terminal
    }

    /// Replaces the line with `line`, cut to the terminal's width.
    pub(super) fn show(&self, line: &str) {
        if !self.terminal {
            return;
        }
        let mut err = std::io::stderr().lock();
        // Our own control sequence: back to column 0, clear the line. It
        // clears one row only, so the line must fit one.
        let _ = write!(err, "\r\x1b[K{}", fit(line, terminal_width()));
        let _ = err.flush();
        self.shown.store(true, Ordering::SeqCst);
    }

    /// Clears the line, if one was drawn, before the report is printed.
    pub(super) fn clear(&self) {
        if self.shown.swap(false, Ordering::SeqCst) {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
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

/// The terminal's columns: `COLUMNS` if set, else what the terminal says,
/// else 80.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Teacher trial: on an 80-column terminal `idem check`'s line was 170
    /// to 186 characters, so the terminal wrapped it and `\r` rewrote only
    /// its last row. It fits the width, cut at a word's end and marked; a
    /// short line is left as it is.
    #[test]
    fn the_line_fits_the_width() {
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

    /// Off a terminal the line draws nothing and clearing writes nothing.
    #[test]
    fn off_a_terminal_nothing_is_drawn() {
        let line = ProgressLine {
            terminal: false,
            shown: AtomicBool::new(false),
        };
        line.show("idem check: 1 states");
        assert!(!line.is_drawn());
        assert!(!line.shown.load(Ordering::SeqCst));
    }
}
