//! One consumer's connection and the statements its handler runs, each
//! returned with the statement as shown on screen.

use super::answer;
use super::*;

/// What the in-progress claim found.
pub enum RecordClaim {
    /// A new record: this handler owns the work.
    Claimed,
    /// An in-progress record whose deadline had passed: now this handler's.
    TookOver { previous_owner: String },
    /// Someone else is working on it, until `deadline`.
    Busy { owner: String, deadline: Millis },
    /// Done before; here is the stored result.
    Completed { result: Option<String> },
}

/// A statement as shown to the user, with its values written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    pub sql: String,
    pub result: String,
    pub answer: SqlAnswer,
}

/// What `BEGIN IMMEDIATE` can answer.
pub enum Begin {
    Open(Ran),
    /// Another connection holds the write lock.
    Busy(Ran),
}

/// What the processed_messages insert can answer.
pub struct Claim {
    pub ran: Ran,
    pub first_time: bool,
}

/// One consumer's connection. Dropping it (a crash) rolls back whatever
/// transaction it had open, as a real process exit would.
pub struct SqliteSession {
    /// Always `Some` until the session is dropped.
    pub(super) conn: Option<Connection>,
    /// Where the connection goes when the session ends, in memory only.
    pub(super) idle: Option<Idle>,
    /// The database's count of statements that may change it.
    pub(super) writes: Writes,
    /// `own_view` as last read, and `writes` then.
    pub(super) own: Mutex<Option<(u64, Tables)>>,
    /// What this connection wrote since its last commit or rollback.
    pub(super) written: std::cell::RefCell<Written>,
    /// Keeps the `--db` file's lock (and descriptor) until this connection
    /// has closed too: closing any descriptor of a file drops every POSIX
    /// lock the process holds on it, SQLite's included.
    pub(super) _file: Option<Arc<DbFile>>,
}

impl Drop for SqliteSession {
    /// A closed connection rolls back its open transaction; a connection
    /// kept for reuse must do the same by hand, at once, so that nobody
    /// can tell the two apart. One whose rollback fails is really closed.
    fn drop(&mut self) {
        let (Some(conn), Some(idle)) = (self.conn.take(), self.idle.as_ref()) else {
            return;
        };
        if !conn.is_autocommit() && conn.execute_batch(ROLLBACK).is_err() {
            return;
        }
        if let Ok(mut conns) = idle.lock() {
            conns.push(conn);
        }
    }
}

impl SqliteSession {
    fn conn(&self) -> &Connection {
        self.conn
            .as_ref()
            .expect("a session has its connection until dropped")
    }

    /// A statement without values or rows, prepared once per connection.
    fn run(&self, sql: &str) -> rusqlite::Result<()> {
        self.execute(sql, []).map(drop)
    }

    /// Every statement that may write goes through here, so that a
    /// session's cached `own_view` is read again. (What a commit changed in
    /// the committed tables is noted separately, per row, in `written`.)
    fn execute(&self, sql: &str, values: impl rusqlite::Params) -> rusqlite::Result<usize> {
        self.writes.fetch_add(1, Ordering::Relaxed);
        self.conn().prepare_cached(sql)?.execute(values)
    }

    pub fn begin(&self) -> Result<Begin, DbError> {
        match self.run(BEGIN) {
            Ok(()) => Ok(Begin::Open(ran(BEGIN, "transaction open, write lock held"))),
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {
                let mut busy = ran(BEGIN, "SQLITE_BUSY");
                busy.answer = SqlAnswer::Nothing;
                Ok(Begin::Busy(busy))
            }
            Err(e) => Err(e.into()),
        }
    }

    pub fn claim_message(&self, message_id: &str, now: Millis) -> Result<Claim, DbError> {
        let rows = self.execute(CLAIM_MESSAGE, params![message_id, now as i64])?;
        self.wrote(|w| w.processed.insert(message_id.to_string()));
        let sql = render(CLAIM_MESSAGE, &[quote(message_id), now.to_string()]);
        Ok(answer::claim(sql, rows as u64))
    }

    /// True when processed_messages already has this ID; `None` when
    /// another connection's write lock keeps this reader out (the memdb VFS
    /// does not let readers in while a writer holds its lock).
    pub fn look_up_message(&self, message_id: &str) -> Result<Option<(bool, Ran)>, DbError> {
        let found = match self
            .conn()
            .prepare_cached(LOOK_UP_MESSAGE)
            .and_then(|mut stmt| stmt.exists(params![message_id]))
        {
            Ok(found) => found,
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let sql = render(LOOK_UP_MESSAGE, &[quote(message_id)]);
        Ok(Some(answer::look_up(sql, found)))
    }

    pub fn claim_record(
        &self,
        message_id: &str,
        owner: &str,
        now: Millis,
        deadline: Millis,
    ) -> Result<(RecordClaim, Vec<Ran>), DbError> {
        let mut ran = Vec::new();
        let inserted = self.execute(CLAIM_RECORD, params![message_id, owner, deadline as i64])?;
        ran.push(answer::record_inserted(
            render(
                CLAIM_RECORD,
                &[quote(message_id), quote(owner), deadline.to_string()],
            ),
            inserted as u64,
        ));
        self.wrote(|w| w.records.insert(message_id.to_string()));
        if inserted == 1 {
            return Ok((RecordClaim::Claimed, ran));
        }
        let (status, previous_owner, old_deadline, result): (String, String, i64, Option<String>) =
            self.conn()
                .prepare_cached(READ_RECORD)?
                .query_row(params![message_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?;
        ran.push(answer::record_read(
            render(READ_RECORD, &[quote(message_id)]),
            &status,
            &previous_owner,
            old_deadline,
        ));
        if status == "completed" {
            return Ok((RecordClaim::Completed { result }, ran));
        }
        let took = self.execute(
            TAKE_OVER_RECORD,
            params![owner, deadline as i64, message_id, now as i64],
        )?;
        let (claim, taken) = answer::record_taken(
            render(
                TAKE_OVER_RECORD,
                &[
                    quote(owner),
                    deadline.to_string(),
                    quote(message_id),
                    now.to_string(),
                ],
            ),
            took as u64,
            previous_owner,
            old_deadline,
        );
        ran.push(taken);
        Ok((claim, ran))
    }

    /// True when this owner still held the record and completed it.
    pub fn complete_record(
        &self,
        message_id: &str,
        owner: &str,
        result: &str,
    ) -> Result<(bool, Ran), DbError> {
        let rows = self.execute(COMPLETE_RECORD, params![result, message_id, owner])?;
        self.wrote(|w| w.records.insert(message_id.to_string()));
        let sql = render(
            COMPLETE_RECORD,
            &[quote(result), quote(message_id), quote(owner)],
        );
        Ok(answer::record_completed(sql, rows as u64))
    }

    /// Sets the order row's last message ID, unless it already is this one.
    /// True when the row changed: the message is new to this row.
    /// Also the message the row remembered before, read in the same
    /// transaction, for the narration: the row keeps one ID only.
    pub fn guard_order_row(
        &self,
        order: u32,
        message_id: &str,
    ) -> Result<(bool, Option<String>, Ran), DbError> {
        let previous = self
            .conn()
            .prepare_cached(READ_ORDER_ROW)?
            .query_row(params![order], |r| r.get(0))
            .optional()?;
        let rows = self.execute(GUARD_ORDER_ROW, params![order, message_id])?;
        self.wrote(|w| w.orders.insert(order));
        let sql = render(GUARD_ORDER_ROW, &[order.to_string(), quote(message_id)]);
        Ok(answer::order_guarded(sql, rows as u64, previous))
    }

    /// The last offset applied, read inside the transaction.
    pub fn read_offset(&self) -> Result<(Option<u64>, Ran), DbError> {
        let last = read_last_offset(self.conn())?;
        Ok((last, answer::offset_read(READ_OFFSET, last)))
    }

    pub fn save_offset(&self, offset: u64) -> Result<Ran, DbError> {
        let rows = self.execute(SAVE_OFFSET, params![offset as i64])?;
        self.wrote(|w| w.offset = true);
        let sql = render(SAVE_OFFSET, &[offset.to_string()]);
        Ok(answer::offset_saved(sql, rows as u64))
    }

    /// Writes an order's status. Plain, it is a naturally idempotent write;
    /// with `only_if_newer` it goes ahead only for a higher version than the
    /// row has. True when the row was written.
    pub fn set_status(
        &self,
        order: u32,
        status: &str,
        version: u32,
        only_if_newer: bool,
    ) -> Result<(bool, Ran), DbError> {
        let sql = if only_if_newer {
            SET_STATUS_IF_NEWER
        } else {
            SET_STATUS
        };
        let rows = self.execute(sql, params![order, status, version])?;
        self.wrote(|w| w.statuses.insert(order));
        let sql = render(
            sql,
            &[order.to_string(), quote(status), version.to_string()],
        );
        Ok(answer::status_set(sql, rows as u64))
    }

    pub fn insert_payment(
        &self,
        order: u32,
        amount: u32,
        message_id: &str,
    ) -> Result<Ran, DbError> {
        let rows = self.execute(INSERT_PAYMENT, params![order, amount, message_id])?;
        self.wrote(|w| w.payments = true);
        let sql = render(
            INSERT_PAYMENT,
            &[order.to_string(), amount.to_string(), quote(message_id)],
        );
        Ok(answer::payment_inserted(sql, rows as u64))
    }

    pub fn commit(&self) -> Result<Ran, DbError> {
        self.run(COMMIT)?;
        Ok(ran(COMMIT, "committed"))
    }

    pub fn rollback(&self) -> Result<Ran, DbError> {
        self.run(ROLLBACK)?;
        self.written.take();
        Ok(ran(ROLLBACK, "rolled back"))
    }

    /// The tables as this connection sees them, its own uncommitted writes
    /// included. Safe to call only while this connection holds the write lock.
    pub fn own_view(&self) -> Result<Tables, DbError> {
        let writes = self.writes.load(Ordering::Relaxed);
        let mut own = self.own.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, tables)) = own.as_ref()
            && *at == writes
        {
            return Ok(tables.clone());
        }
        let tables = read_tables(self.conn())?;
        *own = Some((writes, tables.clone()));
        Ok(tables)
    }

    fn wrote<T>(&self, note: impl FnOnce(&mut Written) -> T) {
        note(&mut self.written.borrow_mut());
    }

    /// What this connection wrote and committed since the last call: its
    /// writes once no transaction of its own is open any more (a commit,
    /// or a statement that committed on its own).
    pub fn take_committed(&self) -> Option<Written> {
        if !self.conn().is_autocommit() || self.written.borrow().is_empty() {
            return None;
        }
        Some(self.written.take())
    }
}
