//! Everything the commands write: the report on stdout (escaped, a closed
//! pipe is no error) and notes on stderr, and the format a report is in.

use super::exit::Exit;
use anyhow::Result;
use clap::ValueEnum;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Writes to stdout. A reader that went away (`idem run ... | head`) got
/// what it wanted: that is silent success. Any other failure (a full disk,
/// `> /dev/full`) is an error with its OS cause, exit 2.
pub fn emit(text: &str) -> Result<()> {
    write_stdout(idem::terminal_text::escape(text).as_bytes())
}

pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Exit {
            code: 2,
            message: format!("cannot write the output: {e}"),
        }
        .into()),
    }
}

/// Writes one line to stderr, escaped (errors echo file names and input).
/// A stderr that cannot be written is no reason to panic: there is nobody
/// left to tell.
pub fn note(text: &str) {
    use std::io::Write;
    let text = idem::terminal_text::escape(text);
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}
