//! How wide the text commands (`check`, `run`, `soak`, `list`) wrap their
//! output: the reader's terminal when stdout is one, so the terminal never
//! wraps a line a second time; a fixed width for a file or a pipe, the same
//! on every machine; `COLUMNS` chooses either way.

use std::io::IsTerminal;

/// Narrower than this, wrapped text is mostly indents: a `COLUMNS` or a
/// terminal below it gets this.
const NARROWEST: usize = 40;

/// The width to wrap at: `COLUMNS` if set to a number, else the terminal's
/// columns when stdout is a terminal, else `fixed`.
pub fn text_width(fixed: usize) -> usize {
    let columns = std::env::var("COLUMNS").ok();
    let terminal = std::io::stdout()
        .is_terminal()
        .then(|| ratatui::crossterm::terminal::size().ok())
        .flatten()
        .map(|(w, _)| usize::from(w));
    chosen(columns.as_deref(), terminal, fixed)
}

/// `text_width` without the world: what `COLUMNS` says, the terminal's
/// width if stdout is one, the fixed width.
fn chosen(columns: Option<&str>, terminal: Option<usize>, fixed: usize) -> usize {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or(terminal.filter(|&w| w > 0))
        .map_or(fixed, |w| w.max(NARROWEST))
}

#[cfg(test)]
mod tests {
    use super::chosen;

    #[test]
    fn columns_then_the_terminal_then_the_fixed_width() {
        assert_eq!(chosen(Some("80"), Some(120), 100), 80);
        assert_eq!(chosen(None, Some(80), 100), 80);
        assert_eq!(chosen(Some("wide"), Some(90), 100), 90);
        assert_eq!(chosen(Some("0"), None, 100), 100);
        assert_eq!(chosen(None, None, 100), 100);
        assert_eq!(chosen(Some("12"), None, 100), 40, "never narrower than 40");
    }
}
