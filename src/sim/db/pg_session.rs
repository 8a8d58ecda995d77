//! One consumer's PostgreSQL connection and the statements its handler
//! runs, each returned with the statement as shown on screen. How a
//! statement is sent, and held while the server makes it wait, is in
//! `pg_in_flight.rs`.

use super::answer;
use super::pg_link::{Answer, Link, Statement, Value};
use super::pg_rows::{PG_TABLE_INTEGERS, pg_read_all_tables, tables_from};
use super::pg_shared::PgShared;
use super::sql_postgres::*;
use super::*;
use std::cell::{Cell, RefCell};

pub struct PgSession {
    pub(super) link: Link,
    /// Hand the connection back for reuse when dropped (a checker starting
    /// its next schedule), instead of closing it (a crash).
    pub(super) recycle: Cell<bool>,
    pub(super) shared: Arc<PgShared>,
    pub(super) in_txn: Cell<bool>,
    /// The statement sent and not yet answered.
    pub(super) in_flight: RefCell<Option<Statement>>,
    /// Its answer, when `still_held` saw it come before the step asked.
    pub(super) early: RefCell<Option<super::pg_link::Reply>>,
    /// What the current operation's statements answered so far, and how
    /// many of them this attempt has used.
    pub(super) done: RefCell<Vec<(Statement, Answer)>>,
    pub(super) cursor: Cell<usize>,
    pub(super) written: RefCell<Written>,
    /// `own_view` as last read, and the schema's count of changes then:
    /// kept while nothing has changed since (the view is read for every
    /// state the checker finds), and while a statement waits (the
    /// connection cannot be asked then, and what it sees has not changed).
    pub(super) own: RefCell<Option<((u64, u64), Tables)>>,
    /// Statements this connection sent that may have written.
    pub(super) writes: Cell<u64>,
    /// `writes` when its transaction began.
    pub(super) writes_at_begin: Cell<u64>,
}

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
            writes_at_begin: Cell::new(0),
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

    fn wrote<T>(&self, note: impl FnOnce(&mut Written) -> T) {
        note(&mut self.written.borrow_mut());
    }

    pub fn begin(&self) -> Result<Begin, DbError> {
        self.op(|| {
            // Changes nothing anyone sees.
            self.read(PG_BEGIN, vec![])?;
            self.in_txn.set(true);
            self.writes_at_begin.set(self.writes.get());
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
            Ok(answer::claim(self.shown(PG_CLAIM_MESSAGE), rows))
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
            Ok(Some(answer::look_up(self.shown(PG_LOOK_UP_MESSAGE), found)))
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
            ran.push(answer::record_inserted(
                self.shown(PG_CLAIM_RECORD),
                inserted,
            ));
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
            ran.push(answer::record_read(
                self.shown(PG_READ_RECORD),
                &status,
                &previous_owner,
                old_deadline,
            ));
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
            let (claim, taken) = answer::record_taken(
                self.shown(PG_TAKE_OVER_RECORD),
                took,
                previous_owner,
                old_deadline,
            );
            ran.push(taken);
            Ok((claim, ran))
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
            Ok(answer::record_completed(
                self.shown(PG_COMPLETE_RECORD),
                rows,
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
            Ok(answer::order_guarded(
                self.shown(PG_GUARD_ORDER_ROW),
                rows,
                previous,
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
            Ok((last, answer::offset_read(PG_READ_OFFSET, last)))
        })
    }

    pub fn save_offset(&self, offset: u64) -> Result<Ran, DbError> {
        self.op(|| {
            let rows = self
                .exec(PG_SAVE_OFFSET, vec![Value::Int(offset as i64)])?
                .count;
            self.wrote(|w| w.offset = true);
            Ok(answer::offset_saved(self.shown(PG_SAVE_OFFSET), rows))
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
            Ok(answer::status_set(self.shown(sql), rows))
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
            Ok(answer::payment_inserted(
                self.shown(PG_INSERT_PAYMENT),
                rows,
            ))
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
            let read = self.send(
                Statement {
                    sql: pg_read_all_tables(),
                    values: vec![],
                    batch: Some(&PG_TABLE_INTEGERS),
                },
                false,
            )?;
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

    /// In a transaction that has sent no write yet: what it sees is what
    /// is committed (read committed), so its view need not be read.
    pub fn sees_only_committed(&self) -> bool {
        self.in_txn.get() && self.writes.get() == self.writes_at_begin.get()
    }

    pub fn in_transaction(&self) -> bool {
        self.in_txn.get()
    }
}
