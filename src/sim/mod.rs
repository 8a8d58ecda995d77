//! The simulated world: a broker, consumers, a real SQLite database and a
//! payment provider. Deterministic and single-threaded; virtual time only.
//! Nothing here prints, reads a clock or touches a terminal.

pub mod admission;
pub mod broker;
pub mod cache;
pub mod cause;
pub mod change;
pub mod consumer;
pub mod counter_words;
pub mod db;
pub mod db_file;
pub mod diff;
pub mod event;
pub mod frame;
pub mod message;
pub mod provider;
pub mod receipts;
pub mod skip;
pub mod step_name;
pub mod strategy;
pub mod verdict;
pub mod world;

pub use cause::{Arrow, Cause};
pub use event::{Actor, Event, EventKind, SqlRecord};
pub use frame::Frame;
pub use message::{Message, Payment};
pub use strategy::{Assumption, Op, Strategy};
pub use verdict::{Outcome, Verdict};
pub use world::{Move, Setup, SimError, World};

/// Virtual time in milliseconds since the start of the run.
pub type Millis = u64;

/// Renders a duration the way the scenario files write it: `30s`, `1m30s`, `24h`.
pub fn format_duration(ms: Millis) -> String {
    if ms == 0 {
        return "0s".into();
    }
    let mut s = ms / 1000;
    let mut out = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
        if s >= size {
            out.push_str(&format!("{}{unit}", s / size));
            s %= size;
        }
    }
    // A part of a second last: `1h17m6s641ms` reads, and parses back.
    if !ms.is_multiple_of(1000) {
        out.push_str(&format!("{}ms", ms % 1000));
    }
    out
}

/// The longest duration a scenario may name; virtual time stays far from
/// overflow however many waits a scenario adds up.
pub const MAX_DURATION: Millis = 366 * 86_400_000;

/// Parses `250ms`, `30s`, `5m`, `24h`, `4d` and combinations such as `1m30s`,
/// up to `MAX_DURATION`.
pub fn parse_duration(text: &str) -> Option<Millis> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut total: Millis = 0;
    let mut digits = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let value: Millis = digits.parse().ok()?;
        digits.clear();
        let factor = match c {
            'm' if chars.peek() == Some(&'s') => {
                chars.next();
                1
            }
            's' => 1_000,
            'm' => 60_000,
            'h' => 3_600_000,
            'd' => 86_400_000,
            _ => return None,
        };
        total = total.checked_add(value.checked_mul(factor)?)?;
    }
    if !digits.is_empty() || total > MAX_DURATION {
        return None;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_round_trip() {
        for text in [
            "30s",
            "1m30s",
            "2h",
            "4d",
            "250ms",
            "0s",
            "29s800ms",
            "1h17m6s641ms",
        ] {
            assert_eq!(format_duration(parse_duration(text).unwrap()), text);
        }
    }

    #[test]
    fn bad_durations_are_rejected() {
        for text in [
            "",
            "30",
            "s",
            "3x",
            "-5s",
            "1.5s",
            "367d",
            "18446744073709551615ms",
        ] {
            assert_eq!(parse_duration(text), None, "{text}");
        }
    }
}
