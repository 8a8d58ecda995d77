//! PostgreSQL's lock point: a statement that meets a row another open
//! transaction wrote (the same message ID, the same order row) is held by
//! the server until that transaction ends. The world sees the wait in the
//! server's lock view, shows it as a state of the waiting consumer, and
//! after every move asks the server again: when the holder commits, rolls
//! back or dies, the statement finishes in that same move, and its answer
//! is told as what the server did.

use super::{SimError, World};
use crate::sim::consumer::{Connection, Mark, Phase, Wait};
use crate::sim::db::Ran;
use crate::sim::event::EventKind;

/// What a step may have changed before its statement was held: put back,
/// so that the step goes on as if it had not started.
pub(super) struct BeforeOp {
    events: usize,
    sql: usize,
    pc: usize,
    marks: Vec<Mark>,
    phase: Phase,
}

impl World {
    pub(super) fn before_op(&self, i: usize) -> BeforeOp {
        let c = &self.consumers[i];
        BeforeOp {
            events: self.moment.events.len(),
            sql: self.moment.sql.len(),
            pc: c.pc,
            marks: c.marks.clone(),
            phase: c.phase.clone(),
        }
    }

    /// The consumers the server names as holding the lock, by name.
    fn holders(&self, blockers: &[i32]) -> String {
        let names: Vec<&str> = self
            .consumers
            .iter()
            .filter(|c| {
                c.session
                    .as_ref()
                    .and_then(|s| s.backend_pid())
                    .is_some_and(|pid| blockers.contains(&pid))
            })
            .map(|c| c.name.as_str())
            .collect();
        if names.is_empty() {
            "another connection".into()
        } else {
            names.join(" and ")
        }
    }

    /// The step's statement is held by the server: the step is put back as
    /// it was, and the consumer waits for the transaction that holds the lock.
    pub(super) fn waits_on_server(
        &mut self,
        i: usize,
        before: BeforeOp,
        blockers: &[i32],
    ) -> Result<(), SimError> {
        self.moment.events.truncate(before.events);
        self.moment.sql.truncate(before.sql);
        let by = self.holders(blockers);
        let sql = self
            .session(i)
            .waiting_sql()
            .unwrap_or_else(|| "(statement)".into());
        let c = &mut self.consumers[i];
        c.pc = before.pc;
        c.marks = before.marks;
        c.phase = before.phase;
        c.marks[c.pc] = Mark::Waiting;
        let connection = std::mem::replace(&mut c.work().connection, Connection::Autocommit);
        c.work().connection = Connection::Waiting(Box::new(Wait {
            by: by.clone(),
            before: connection,
        }));
        self.ran(
            i,
            Ran {
                sql,
                result: format!(
                    "waiting: the server's lock view shows it held by {by}'s open transaction"
                ),
                answer: crate::sim::event::SqlAnswer::Nothing,
            },
        );
        self.say(
            self.actor(i),
            EventKind::Warning,
            format!(
                "waits inside its statement: {by} wrote the same key and has not committed, so PostgreSQL holds this statement until {by} commits or rolls back"
            ),
        );
        Ok(())
    }

    /// After a move: every statement the server was holding either still
    /// waits (the server still shows its lock held) or has finished, and
    /// then its step goes on now, in this move.
    pub(super) fn settle_waits(&mut self) -> Result<(), SimError> {
        for i in 0..self.consumers.len() {
            let Some(Connection::Waiting(wait)) =
                self.consumers[i].handling().map(|h| &h.connection)
            else {
                continue;
            };
            let by = wait.by.clone();
            let Some(session) = self.consumers[i].session.as_ref() else {
                continue;
            };
            if session.still_held()? {
                continue;
            }
            let how = self.how_it_ended(&by);
            self.say(
                self.actor(i),
                EventKind::Info,
                format!(
                    "gets its statement's answer now: {by}'s transaction {how}, so the server let the waiting statement finish"
                ),
            );
            let c = self.consumers[i].work();
            if let Connection::Waiting(wait) =
                std::mem::replace(&mut c.connection, Connection::Autocommit)
            {
                c.connection = wait.before;
            }
            self.run_op(i)?;
            let c = &mut self.consumers[i];
            if !c.is_idle() && c.pc >= c.marks.len() {
                c.finish();
            }
        }
        Ok(())
    }

    /// How the transaction `by` ended in this move, as the server saw it.
    fn how_it_ended(&self, by: &str) -> &'static str {
        let crashed = self
            .consumers
            .iter()
            .any(|c| c.name == by && c.is_crashed());
        if crashed {
            return "ended with its connection (the server rolled it back)";
        }
        let last = self
            .moment
            .sql
            .iter()
            .rev()
            .find(|r| r.consumer == by)
            .map(|r| r.sql.as_str());
        match last {
            Some("COMMIT") => "committed",
            Some("ROLLBACK") => "rolled back",
            _ => "ended",
        }
    }
}
