//! What is wrong with a program that does not keep the protocol: said in
//! words, with the last lines of its stderr.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trouble {
    /// The program could not be started (no such file, not executable).
    FailsToStart,
    /// It ended before its hello, or keeps ending by itself.
    ExitsAtOnce,
    /// A line that is not a request of the protocol.
    Garbage,
    /// It ended in the middle of a line.
    HalfLine,
    /// A line longer than idem reads.
    Flood,
    /// No answer within the stated limit.
    NeverAnswers,
    /// A request while another of its requests is still unanswered, or a
    /// charge numbered out of order.
    OutOfOrder,
    /// Another protocol version, or a hello in the wrong place.
    Version,
    /// The recorded query cannot read its tables.
    TableShape,
    /// idem could not set the run up (its own files).
    Setup,
    /// SIGINT or SIGTERM to idem.
    Interrupted,
}

impl Trouble {
    pub fn text(self) -> &'static str {
        match self {
            Trouble::FailsToStart => "fails to start",
            Trouble::ExitsAtOnce => "exits at once",
            Trouble::Garbage => "does not speak the protocol",
            Trouble::HalfLine => "ends in the middle of a line",
            Trouble::Flood => "floods its output",
            Trouble::NeverAnswers => "never answers",
            Trouble::OutOfOrder => "asks out of order",
            Trouble::Version => "breaks the handshake",
            Trouble::TableShape => "keeps its tables in an unexpected shape",
            Trouble::Setup => "cannot run",
            Trouble::Interrupted => "was stopped",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct Diagnosis {
    pub trouble: Trouble,
    /// `A (start 1)`, or empty when it is about no one process.
    pub instance: String,
    pub what: String,
    pub stderr: Vec<String>,
}

/// Lines of a program's stderr a diagnosis shows.
pub const STDERR_SHOWN: usize = 10;

impl std::fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.trouble {
            // About idem, not the program.
            Trouble::Setup | Trouble::Interrupted => {
                write!(f, "idem test {}: ", self.trouble.text())?
            }
            _ => write!(f, "the program {}: ", self.trouble.text())?,
        }
        if !self.instance.is_empty() {
            write!(f, "{}: ", self.instance)?;
        }
        write!(f, "{}", self.what)?;
        if self.stderr.is_empty() {
            if !self.instance.is_empty() {
                write!(f, "\n  its stderr was empty")?;
            }
        } else {
            write!(
                f,
                "\n  the last {} of its stderr:",
                if self.stderr.len() == 1 {
                    "line".to_string()
                } else {
                    format!("{} lines", self.stderr.len())
                }
            )?;
            for line in &self.stderr {
                write!(f, "\n  | {line}")?;
            }
        }
        Ok(())
    }
}
