//! One design on both engines, side by side: SQLite on the left, the run on
//! screen (PostgreSQL's) on the right, lined up moment by moment as two
//! designs are. The engines end the same; what differs is where the
//! second writer is made to wait, and that is what this view is for.

use super::compare::{Compare, Sides, align};
use crate::scenario::Script;
use crate::sim::consumer::Status;
use crate::sim::{Frame, SimError, SqlRecord, Strategy};
use crate::timeline::Timeline;

/// Why the two engines cannot be put side by side.
#[derive(Debug, thiserror::Error)]
pub enum EnginesError {
    /// The run on screen is on SQLite: there is no server to compare with,
    /// and idem never guesses one.
    #[error("E compares with PostgreSQL: run with --db postgres://USER@HOST:PORT/DB")]
    NoServer,
    #[error("cannot compare the engines: {0}")]
    Sim(#[from] SimError),
}

/// A consumer held up by another's open transaction: who, by whom, and at
/// which step of its handler (its label, as the service panel shows it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    pub consumer: String,
    pub by: String,
    pub step: String,
}

impl Compare {
    /// `mine` is the run on screen, on the server, forks included: it is
    /// the right side as it is; the left side is the same script and design
    /// on SQLite, with the user's moves carried to the same moments.
    pub fn engines(
        script: &Script,
        strategy: &Strategy,
        seed: u64,
        mine: &Timeline,
    ) -> Result<Compare, EnginesError> {
        if script.setup.postgres.is_none() {
            return Err(EnginesError::NoServer);
        }
        let mut local = script.clone();
        local.setup.postgres = None;
        let written = Timeline::build(&local, strategy, seed, &[])?;
        let left = if mine.forks.is_empty() {
            written
        } else {
            Timeline::build(
                &local,
                strategy,
                seed,
                &mine.carry_forks(&mine.forks, &written),
            )?
        };
        let right = mine.clone();
        let pairs = align(&left, &right, |f| (f.chapter, f.action_index));
        let diverge = pairs
            .iter()
            .position(|&(a, b)| waits_differ(&left.frames[a], &right.frames[b]));
        Ok(Compare {
            sides: Sides::Engines,
            left,
            right,
            pairs,
            diverge,
            section: None,
        })
    }
}

/// Who waits on whom, and where, in a frame: in the consumers' order.
pub fn waits(f: &Frame) -> Vec<Wait> {
    f.consumers
        .iter()
        .filter_map(|c| match &c.status {
            Status::Blocked { by } => Some(Wait {
                consumer: c.name.clone(),
                by: by.clone(),
                step: c
                    .next
                    .and_then(|i| c.steps.get(i))
                    .map_or_else(String::new, |s| s.label.clone()),
            }),
            _ => None,
        })
        .collect()
}

/// The engines part ways here: someone waits on one side and not on the
/// other, or at another step, or one side has gone wrong and the other
/// has not (which the differential test says never happens at the end).
pub fn waits_differ(a: &Frame, b: &Frame) -> bool {
    waits(a) != waits(b) || a.verdict.outcome.is_failure() != b.verdict.outcome.is_failure()
}

/// The statement `consumer` is waiting in at frame `at`: the last one it
/// sent, up to that frame, with the answer the engine gave when it was
/// sent (`SQLITE_BUSY`, or the server's lock view).
pub fn waiting_statement<'a>(t: &'a Timeline, at: usize, consumer: &str) -> Option<&'a SqlRecord> {
    t.frames[..=at.min(t.frames.len() - 1)]
        .iter()
        .rev()
        .find_map(|f| f.sql.iter().rev().find(|r| r.consumer == consumer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    fn written(script: &Script) -> Timeline {
        Timeline::build(script, &Strategy::idempotent(), 0, &[]).unwrap()
    }

    #[test]
    fn without_a_server_there_is_nothing_to_compare_with() {
        let script = scenario::find("tour-3").unwrap();
        let err = Compare::engines(&script, &Strategy::idempotent(), 0, &written(&script))
            .err()
            .expect("a SQLite run has no server to compare with");
        assert!(matches!(err, EnginesError::NoServer));
        assert!(err.to_string().contains("--db postgres://"), "{err}");
    }

    #[test]
    fn on_sqlite_b_waits_at_its_begin_with_sqlite_busy_as_the_answer() {
        let script = scenario::find("tour-3").unwrap();
        let t = written(&script);
        let (at, wait) = t
            .frames
            .iter()
            .enumerate()
            .find_map(|(i, f)| waits(f).into_iter().next().map(|w| (i, w)))
            .expect("B waits for A in tour 3");
        assert_eq!((&*wait.consumer, &*wait.by), ("B", "A"));
        assert_eq!(wait.step, "begin transaction");
        let sent = waiting_statement(&t, at + 1, "B").unwrap();
        assert_eq!(sent.sql, "BEGIN IMMEDIATE");
        assert!(sent.result.starts_with("SQLITE_BUSY"), "{}", sent.result);
        // Nobody waits in frame 0, so two frames of it cannot differ; a
        // frame where B waits differs from one where nobody does.
        assert!(!waits_differ(&t.frames[0], &t.frames[0]));
        assert!(waits_differ(&t.frames[at], &t.frames[0]));
    }
}
