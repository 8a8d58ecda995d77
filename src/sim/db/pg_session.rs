//! One consumer's PostgreSQL connection and the statements its handler
//! runs, each returned with the statement as shown on screen.
//!
//! A statement is sent to the connection's thread; the call returns when
//! the statement has completed, or when the server's lock view shows it
//! waiting ([`DbError::Waiting`]): then it stays in flight, and the same
//! call made again (the world retries the handler's step) picks up its
//! answer once the server lets it finish. Statements an operation had
//! already completed before its wait are replayed from what they answered,
//! never sent twice.

use super::pg_database::{PG_TABLE_INTEGERS, PgShared, pg_read_all_tables, tables_from};
use super::pg_link::{Answer, Link, Statement, Value};
use super::sql_postgres::*;
use super::*;
use std::cell::{Cell, RefCell};
use std::time::Duration;

pub struct PgSession {
    link: Link,
    /// Hand the connection back for reuse when dropped (a checker starting
    /// its next schedule), instead of closing it (a crash).
    pub(super) recycle: Cell<bool>,
    shared: Arc<PgShared>,
    in_txn: Cell<bool>,
    /// The statement sent and not yet answered.
    in_flight: RefCell<Option<Statement>>,
    /// Its answer, when `still_held` saw it come before the step asked.
    early: RefCell<Option<super::pg_link::Reply>>,
    /// What the current operation's statements answered so far, and how
    /// many of them this attempt has used.
    done: RefCell<Vec<(Statement, Answer)>>,
    cursor: Cell<usize>,
    written: RefCell<Written>,
    /// `own_view` as last read, and the schema's count of changes then:
    /// kept while nothing has changed since (the view is read for every
    /// state the checker finds), and while a statement waits (the
    /// connection cannot be asked then, and what it sees has not changed).
    own: RefCell<Option<((u64, u64), Tables)>>,
    /// Statements this connection sent that may have written.
    writes: Cell<u64>,
}

/// How often the server's lock view is read while a statement runs: the
/// statement's answer is taken the moment it comes, this only bounds how
/// soon a wait is seen.
const LOOK_EVERY: Duration = Duration::from_millis(1);

impl Drop for PgSession {
    /// A crash: the connection closes and the server rolls back its open
    /// transaction. A statement still waiting keeps the connection's thread
    /// busy, so the backend is ended from the server's side instead. Either
    /// way, this returns once the backend is gone and its locks are free.
    fn drop(&mut self) {
        let pid = self.link.pid;
        let waiting = self.in_flight.get_mut().is_some();
        if self.recycle.get() && !waiting {
            // Rolled back by hand, as the closed connection would have been.
            let clean = !self.in_txn.get() || self.exec(PG_ROLLBACK, vec![]).is_ok();
            if clean && let Ok(mut idle) = self.shared.idle.lock() {
                idle.push(self.link.detach());
                return;
            }
        }
        if waiting {
            // Its thread is busy with the statement: ended from the server.
            let _ = self.shared.end_backend(pid, true);
            self.link.close();
        } else {
            self.link.close();
            let _ = self.shared.end_backend(pid, false);
        }
    }
}

impl PgSession {
    pub(super) fn open(shared: Arc<PgShared>) -> Result<Self, DbError> {
        let reused = shared.idle.lock().ok().and_then(|mut idle| idle.pop());
        let link = match reused {
            Some(link) => link,
            None => {
                let client = shared.connect()?;
                Link::start(client).map_err(|e| shared.failed(&e))?
            }
        };
        Ok(PgSession {
            link,
            recycle: Cell::new(false),
            shared,
            in_txn: Cell::new(false),
            in_flight: RefCell::new(None),
            early: RefCell::new(None),
            done: RefCell::new(Vec::new()),
            cursor: Cell::new(0),
            written: RefCell::default(),
            own: RefCell::new(None),
            writes: Cell::new(0),
        })
    }

    /// The server's process for this connection.
    pub fn backend_pid(&self) -> i32 {
        self.link.pid
    }

    /// A statement is in flight, waiting on the server.
    pub fn waiting(&self) -> bool {
        self.in_flight.borrow().is_some()
    }

    /// Runs one operation: its statements' answers are kept while it
    /// waits, and forgotten once it ends either way.
    fn op<T>(&self, f: impl FnOnce() -> Result<T, DbError>) -> Result<T, DbError> {
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
    fn exec(&self, sql: &'static str, values: Vec<Value>) -> Result<Answer, DbError> {
        self.writes.set(self.writes.get() + 1);
        if !self.in_txn.get() {
            self.shared.changed();
        }
        self.read(sql, values)
    }

    /// A statement that changes nothing: sent as `exec` sends a write, but
    /// what the connections see is still what it was.
    fn read(&self, sql: &'static str, values: Vec<Value>) -> Result<Answer, DbError> {
        self.send(Statement {
            sql,
            values,
            batch: None,
        })
    }

    fn send(&self, statement: Statement) -> Result<Answer, DbError> {
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
        let answer = self.settle()?;
        *self.in_flight.borrow_mut() = None;
        let answer = answer.map_err(|e| self.shared.failed(&e))?;
        self.done.borrow_mut().push((statement, answer.clone()));
        self.cursor.set(at + 1);
        Ok(answer)
    }

    /// Waits until the statement in flight has answered, or the server
    /// shows it waiting for a lock that other backends hold.
    fn settle(&self) -> Result<Result<Answer, postgres::Error>, DbError> {
        if let Some(reply) = self.early.borrow_mut().take() {
            return Ok(reply);
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
    fn shown(&self, sql: &'static str) -> String {
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

    fn gone(&self) -> DbError {
        super::pg_database::hold_if_ending();
        DbError::Postgres(format!(
            "PostgreSQL at {}: a consumer's connection closed in the middle of the run; start the server and run again",
            self.shared.url
        ))
    }

    fn wrote<T>(&self, note: impl FnOnce(&mut Written) -> T) {
        note(&mut self.written.borrow_mut());
    }

    pub fn begin(&self) -> Result<Begin, DbError> {
        self.op(|| {
            // Changes nothing anyone sees.
            self.read(PG_BEGIN, vec![])?;
            self.in_txn.set(true);
            Ok(Begin::Open(ran(PG_BEGIN, "transaction open")))
        })
    }

    pub fn claim_message(&self, message_id: &str, now: Millis) -> Result<Claim, DbError> {
        self.op(|| {
            let rows = self
                .exec(
                    PG_CLAIM_MESSAGE,
                    vec![Value::Text(message_id.into()), Value::Int(now as i64)],
                )?
                .count;
            self.wrote(|w| w.processed.insert(message_id.to_string()));
            let first_time = rows == 1;
            Ok(Claim {
                ran: Ran {
                    sql: self.shown(PG_CLAIM_MESSAGE),
                    result: if first_time {
                        "1 row inserted"
                    } else {
                        "0 rows: conflict, message_id already handled"
                    }
                    .into(),
                    answer: SqlAnswer::when(first_time),
                },
                first_time,
            })
        })
    }

    /// True when processed_messages already has this ID. A read never
    /// waits on PostgreSQL: it sees what is committed.
    pub fn look_up_message(&self, message_id: &str) -> Result<Option<(bool, Ran)>, DbError> {
        self.op(|| {
            let found = self
                .read(PG_LOOK_UP_MESSAGE, vec![Value::Text(message_id.into())])?
                .count
                > 0;
            Ok(Some((
                found,
                Ran {
                    sql: self.shown(PG_LOOK_UP_MESSAGE),
                    answer: SqlAnswer::when(found),
                    result: if found {
                        "1 row: already handled"
                    } else {
                        "0 rows: not seen before"
                    }
                    .into(),
                },
            )))
        })
    }

    pub fn claim_record(
        &self,
        message_id: &str,
        owner: &str,
        now: Millis,
        deadline: Millis,
    ) -> Result<(RecordClaim, Vec<Ran>), DbError> {
        self.op(|| {
            let mut ran = Vec::new();
            let inserted = self
                .exec(
                    PG_CLAIM_RECORD,
                    vec![
                        Value::Text(message_id.into()),
                        Value::Text(owner.into()),
                        Value::Int(deadline as i64),
                    ],
                )?
                .count;
            ran.push(Ran {
                sql: self.shown(PG_CLAIM_RECORD),
                answer: SqlAnswer::when(inserted == 1),
                result: if inserted == 1 {
                    "1 row inserted"
                } else {
                    "0 rows: a record exists"
                }
                .into(),
            });
            self.wrote(|w| w.records.insert(message_id.to_string()));
            if inserted == 1 {
                return Ok((RecordClaim::Claimed, ran));
            }
            let read = self.read(PG_READ_RECORD, vec![Value::Text(message_id.into())])?;
            let row = read.rows.first().cloned().unwrap_or_default();
            let (status, previous_owner, old_deadline, result) = (
                row.first().map(Value::text).unwrap_or_default(),
                row.get(1).map(Value::text).unwrap_or_default(),
                row.get(2).map(Value::int).unwrap_or_default(),
                row.get(3).and_then(Value::opt_text),
            );
            ran.push(Ran {
                sql: self.shown(PG_READ_RECORD),
                result: format!("{status}, owner {previous_owner}, deadline {old_deadline}"),
                answer: SqlAnswer::Done,
            });
            if status == "completed" {
                return Ok((RecordClaim::Completed { result }, ran));
            }
            let took = self
                .exec(
                    PG_TAKE_OVER_RECORD,
                    vec![
                        Value::Text(owner.into()),
                        Value::Int(deadline as i64),
                        Value::Text(message_id.into()),
                        Value::Int(now as i64),
                    ],
                )?
                .count;
            ran.push(Ran {
                sql: self.shown(PG_TAKE_OVER_RECORD),
                answer: SqlAnswer::when(took == 1),
                result: if took == 1 {
                    "1 row updated: deadline had passed, taken over"
                } else {
                    "0 rows: still within its deadline"
                }
                .into(),
            });
            Ok((
                if took == 1 {
                    RecordClaim::TookOver { previous_owner }
                } else {
                    RecordClaim::Busy {
                        owner: previous_owner,
                        deadline: old_deadline as Millis,
                    }
                },
                ran,
            ))
        })
    }

    pub fn complete_record(
        &self,
        message_id: &str,
        owner: &str,
        result: &str,
    ) -> Result<(bool, Ran), DbError> {
        self.op(|| {
            let rows = self
                .exec(
                    PG_COMPLETE_RECORD,
                    vec![
                        Value::Text(result.into()),
                        Value::Text(message_id.into()),
                        Value::Text(owner.into()),
                    ],
                )?
                .count;
            self.wrote(|w| w.records.insert(message_id.to_string()));
            Ok((
                rows == 1,
                Ran {
                    sql: self.shown(PG_COMPLETE_RECORD),
                    answer: SqlAnswer::when(rows == 1),
                    result: if rows == 1 {
                        "1 row updated"
                    } else {
                        "0 rows: no longer the owner"
                    }
                    .into(),
                },
            ))
        })
    }

    pub fn guard_order_row(
        &self,
        order: u32,
        message_id: &str,
    ) -> Result<(bool, Option<String>, Ran), DbError> {
        self.op(|| {
            let previous = self
                .read(PG_READ_ORDER_ROW, vec![Value::Int(order.into())])?
                .rows
                .first()
                .and_then(|r| r.first().and_then(Value::opt_text));
            let rows = self
                .exec(
                    PG_GUARD_ORDER_ROW,
                    vec![Value::Int(order.into()), Value::Text(message_id.into())],
                )?
                .count;
            self.wrote(|w| w.orders.insert(order));
            Ok((
                rows == 1,
                previous,
                Ran {
                    sql: self.shown(PG_GUARD_ORDER_ROW),
                    answer: SqlAnswer::when(rows == 1),
                    result: if rows == 1 {
                        "1 row written: last_message_id set"
                    } else {
                        "0 rows: the row's last message is this one"
                    }
                    .into(),
                },
            ))
        })
    }

    pub fn read_offset(&self) -> Result<(Option<u64>, Ran), DbError> {
        self.op(|| {
            let last = self
                .read(PG_READ_OFFSET, vec![])?
                .rows
                .first()
                .map(|r| r[0].int() as u64);
            let result = match last {
                Some(o) => format!("last_offset = {o}"),
                None => "0 rows: nothing applied yet".into(),
            };
            let mut read = ran(PG_READ_OFFSET, &result);
            read.answer = SqlAnswer::when(last.is_some());
            Ok((last, read))
        })
    }

    pub fn save_offset(&self, offset: u64) -> Result<Ran, DbError> {
        self.op(|| {
            let rows = self
                .exec(PG_SAVE_OFFSET, vec![Value::Int(offset as i64)])?
                .count;
            self.wrote(|w| w.offset = true);
            Ok(Ran {
                sql: self.shown(PG_SAVE_OFFSET),
                result: format!("{rows} row written"),
                answer: SqlAnswer::when(rows > 0),
            })
        })
    }

    pub fn set_status(
        &self,
        order: u32,
        status: &str,
        version: u32,
        only_if_newer: bool,
    ) -> Result<(bool, Ran), DbError> {
        let sql = if only_if_newer {
            PG_SET_STATUS_IF_NEWER
        } else {
            PG_SET_STATUS
        };
        self.op(|| {
            let rows = self
                .exec(
                    sql,
                    vec![
                        Value::Int(order.into()),
                        Value::Text(status.into()),
                        Value::Int(version.into()),
                    ],
                )?
                .count;
            self.wrote(|w| w.statuses.insert(order));
            Ok((
                rows == 1,
                Ran {
                    sql: self.shown(sql),
                    answer: SqlAnswer::when(rows == 1),
                    result: if rows == 1 {
                        "1 row written"
                    } else {
                        "0 rows: the row already has a newer version"
                    }
                    .into(),
                },
            ))
        })
    }

    pub fn insert_payment(
        &self,
        order: u32,
        amount: u32,
        message_id: &str,
    ) -> Result<Ran, DbError> {
        self.op(|| {
            let answer = self.exec(
                PG_INSERT_PAYMENT,
                vec![
                    Value::Int(order.into()),
                    Value::Int(amount.into()),
                    Value::Text(message_id.into()),
                ],
            )?;
            let rows = answer.count;
            self.wrote(|w| {
                w.payments = true;
                w.payment_ids.extend(answer.rows.iter().map(|r| r[0].int()));
            });
            Ok(Ran {
                sql: self.shown(PG_INSERT_PAYMENT),
                result: format!("{rows} row inserted"),
                answer: SqlAnswer::when(rows > 0),
            })
        })
    }

    pub fn commit(&self) -> Result<Ran, DbError> {
        self.op(|| {
            self.exec(PG_COMMIT, vec![])?;
            self.in_txn.set(false);
            self.shared.changed();
            Ok(ran(PG_COMMIT, "committed"))
        })
    }

    pub fn rollback(&self) -> Result<Ran, DbError> {
        self.op(|| {
            self.exec(PG_ROLLBACK, vec![])?;
            self.in_txn.set(false);
            self.written.take();
            Ok(ran(PG_ROLLBACK, "rolled back"))
        })
    }

    /// The tables as this connection sees them, its own uncommitted writes
    /// included, read in its own transaction.
    pub fn own_view(&self) -> Result<Tables, DbError> {
        // What it sees: what others committed, and what it wrote itself.
        let changes = (
            self.shared.changes.load(Ordering::SeqCst),
            self.writes.get(),
        );
        if let Some((at, own)) = self.own.borrow().as_ref()
            && (*at == changes || self.waiting())
        {
            // Nothing has changed since it was read, or it has not changed
            // since its statement was sent.
            return Ok(own.clone());
        }
        if self.waiting() {
            // Not read since its transaction began: if it wrote nothing
            // before the waiting statement, it sees what is committed.
            if self.written.borrow().is_empty() {
                return self.shared.committed();
            }
            return Err(DbError::Postgres(
                "a connection with a waiting statement cannot be read".into(),
            ));
        }
        let tables = self.op(|| {
            let read = self.send(Statement {
                sql: pg_read_all_tables(),
                values: vec![],
                batch: Some(&PG_TABLE_INTEGERS),
            })?;
            Ok(tables_from(read.sets))
        })?;
        *self.own.borrow_mut() = Some((changes, tables.clone()));
        Ok(tables)
    }

    pub fn take_committed(&self) -> Option<Written> {
        if self.in_txn.get() || self.written.borrow().is_empty() {
            return None;
        }
        Some(self.written.take())
    }

    pub fn in_transaction(&self) -> bool {
        self.in_txn.get()
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
