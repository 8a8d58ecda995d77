//! A PostgreSQL session's statements in flight.
//!
//! A statement is sent to the connection's thread; the call returns when
//! the statement has completed, or when the server's lock view shows it
//! waiting ([`DbError::Waiting`]): then it stays in flight, and the same
//! call made again (the world retries the handler's step) picks up its
//! answer once the server lets it finish. Statements an operation had
//! already completed before its wait are replayed from what they answered,
//! never sent twice.

use super::pg_link::{Answer, Statement, Value};
use super::pg_session::PgSession;
use super::sql_postgres::{PG_COMMIT, PG_ROLLBACK};
use super::*;
use std::time::Duration;

/// How often the server's lock view is read while a statement runs: the
/// statement's answer is taken the moment it comes, this only bounds how
/// soon a wait is seen.
const LOOK_EVERY: Duration = Duration::from_millis(1);

impl PgSession {
    /// Runs one operation: its statements' answers are kept while it
    /// waits, and forgotten once it ends either way.
    pub(super) fn op<T>(&self, f: impl FnOnce() -> Result<T, DbError>) -> Result<T, DbError> {
        self.cursor.set(0);
        let out = f();
        if !matches!(out, Err(DbError::Waiting { .. })) {
            self.done.borrow_mut().clear();
        }
        self.cursor.set(0);
        out
    }

    /// A statement that may write: what this connection sees changes, and
    /// outside a transaction (it commits on its own) what every one sees.
    /// A write can meet a row lock, so the server's lock view is watched
    /// while it runs; a COMMIT or ROLLBACK only lets go of locks.
    pub(super) fn exec(&self, sql: &'static str, values: Vec<Value>) -> Result<Answer, DbError> {
        self.writes.set(self.writes.get() + 1);
        if !self.in_txn.get() {
            self.shared.changed();
        }
        let statement = Statement {
            sql,
            values,
            batch: None,
        };
        self.send(statement, sql != PG_COMMIT && sql != PG_ROLLBACK)
    }

    /// A statement that changes nothing: sent as `exec` sends a write, but
    /// what the connections see is still what it was. A read (and BEGIN)
    /// never waits for a row lock on PostgreSQL (it sees what is
    /// committed), so its answer is simply awaited.
    pub(super) fn read(&self, sql: &'static str, values: Vec<Value>) -> Result<Answer, DbError> {
        let statement = Statement {
            sql,
            values,
            batch: None,
        };
        self.send(statement, false)
    }

    /// Sends `statement`, or picks up its answer when it was already sent
    /// and waited. Only a statement that `may_wait` has the server's lock
    /// view read while it runs: for the others that costs a round trip on
    /// the observer connection for nothing.
    pub(super) fn send(&self, statement: Statement, may_wait: bool) -> Result<Answer, DbError> {
        let at = self.cursor.get();
        if let Some((sent, answer)) = self.done.borrow().get(at) {
            if sent.sql != statement.sql {
                return Err(DbError::Postgres(format!(
                    "a retried step sent {} where it had sent {}",
                    statement.sql, sent.sql
                )));
            }
            self.cursor.set(at + 1);
            return Ok(answer.clone());
        }
        let in_flight = self.in_flight.borrow().clone();
        let statement = match in_flight {
            Some(sent) if sent.sql != statement.sql => {
                return Err(DbError::Postgres(format!(
                    "{} sent while {} still waits",
                    statement.sql, sent.sql
                )));
            }
            // The same statement, asked again: the server runs it with the
            // values it was sent with (a time in it is the time it went out).
            Some(sent) => sent,
            None => {
                if !self.link.send(statement.clone()) {
                    return Err(self.gone());
                }
                *self.in_flight.borrow_mut() = Some(statement.clone());
                statement
            }
        };
        let answer = self.settle(may_wait)?;
        *self.in_flight.borrow_mut() = None;
        let answer = answer.map_err(|e| self.shared.failed(&e))?;
        self.done.borrow_mut().push((statement, answer.clone()));
        self.cursor.set(at + 1);
        Ok(answer)
    }

    /// Waits until the statement in flight has answered, or the server
    /// shows it waiting for a lock that other backends hold (looked at
    /// only when it `may_wait`).
    fn settle(&self, may_wait: bool) -> Result<Result<Answer, postgres::Error>, DbError> {
        if let Some(reply) = self.early.borrow_mut().take() {
            return Ok(reply);
        }
        if !may_wait {
            // The server's statement_timeout ends it before this bound.
            return match self.link.reply(PG_STATEMENT_TIMEOUT + PG_CONNECT_TIMEOUT) {
                Ok(Some(reply)) => Ok(reply),
                Ok(None) | Err(()) => Err(self.gone()),
            };
        }
        // Bounded by counting looks, not by reading a clock (the world
        // reads none): each look waits at least LOOK_EVERY.
        let most =
            (PG_STATEMENT_TIMEOUT + PG_CONNECT_TIMEOUT).as_millis() / LOOK_EVERY.as_millis().max(1);
        let mut looks = 0u128;
        loop {
            match self.link.reply(LOOK_EVERY) {
                Ok(Some(reply)) => return Ok(reply),
                Ok(None) => {}
                Err(()) => return Err(self.gone()),
            }
            let blockers = self.shared.blockers(self.link.pid)?;
            if !blockers.is_empty() {
                return Err(DbError::Waiting { blockers });
            }
            // The server's statement_timeout ends any statement before this.
            looks += 1;
            if looks > most {
                return Err(self.gone());
            }
        }
    }

    /// The statement `sql` as this operation last sent it, values written
    /// in: a step retried after a wait shows the values the server got,
    /// not the ones it would send now.
    pub(super) fn shown(&self, sql: &'static str) -> String {
        let done = self.done.borrow();
        match done.iter().rev().find(|(s, _)| s.sql == sql) {
            Some((statement, _)) => shown(statement),
            None => sql.to_string(),
        }
    }

    /// The statement in flight, with its values written in.
    pub fn waiting_sql(&self) -> Option<String> {
        self.in_flight.borrow().as_ref().map(shown)
    }

    /// Whether the statement in flight still waits: its answer has not
    /// come, and the server shows it held by a lock. An answer that has
    /// come is kept for the step that asks again.
    pub fn still_held(&self) -> Result<bool, DbError> {
        if self.in_flight.borrow().is_none() || self.early.borrow().is_some() {
            return Ok(false);
        }
        loop {
            match self.link.reply(LOOK_EVERY) {
                Ok(Some(reply)) => {
                    *self.early.borrow_mut() = Some(reply);
                    return Ok(false);
                }
                Ok(None) => {}
                Err(()) => return Err(self.gone()),
            }
            if !self.shared.blockers(self.link.pid)?.is_empty() {
                return Ok(true);
            }
        }
    }

    pub(super) fn gone(&self) -> DbError {
        super::pg_schema::hold_if_ending();
        DbError::Postgres(format!(
            "PostgreSQL at {}: a consumer's connection closed in the middle of the run; start the server and run again",
            self.shared.url
        ))
    }
}

/// A statement as shown, its values written in.
fn shown(statement: &Statement) -> String {
    let values: Vec<String> = statement
        .values
        .iter()
        .map(|v| match v {
            Value::Int(i) => i.to_string(),
            Value::Text(t) => quote(t),
            Value::Null => "NULL".into(),
        })
        .collect();
    render(statement.sql, &values)
}
