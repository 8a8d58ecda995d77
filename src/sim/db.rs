//! Every SQL statement the simulator runs lives in this file.
//!
//! Each consumer has its own connection to one shared database: an in-memory
//! database on SQLite's memdb VFS (several connections, real locking), or a
//! real file with `--db`. Writers open transactions with `BEGIN IMMEDIATE`
//! and a busy timeout of zero, so a second writer gets `SQLITE_BUSY` at once;
//! the world turns that into "blocked, waiting for the other transaction".

use super::Millis;
use super::db_file::{self, DbFile, DbFileError};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, params};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// `PRAGMA application_id` of every database idem creates ("idem" in ASCII),
/// so that `--db` never overwrites somebody else's file.
pub const APPLICATION_ID: i32 = 0x6964_656d;

const SCHEMA: &str = "
    CREATE TABLE processed_messages (
        message_id   TEXT PRIMARY KEY,
        processed_at INTEGER NOT NULL
    );
    CREATE TABLE idempotency_records (
        message_id TEXT PRIMARY KEY,
        status     TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
        owner      TEXT NOT NULL,
        deadline   INTEGER NOT NULL,
        result     TEXT
    );
    CREATE TABLE orders (
        order_id        INTEGER PRIMARY KEY,
        last_message_id TEXT NOT NULL
    );
    CREATE TABLE consumer_offsets (
        partition   INTEGER PRIMARY KEY,
        last_offset INTEGER NOT NULL
    );
    CREATE TABLE order_status (
        order_id INTEGER PRIMARY KEY,
        status   TEXT NOT NULL,
        version  INTEGER NOT NULL
    );
    CREATE TABLE payments (
        id         INTEGER PRIMARY KEY,
        order_id   INTEGER NOT NULL,
        amount     INTEGER NOT NULL,
        message_id TEXT NOT NULL
    );
";

/// Empties every table of `SCHEMA`, for [`Database::reset`]. Row ids start
/// again at 1: no table uses AUTOINCREMENT, so nothing remembers old rows.
const EMPTY_TABLES: [&str; 6] = [
    "DELETE FROM processed_messages",
    "DELETE FROM idempotency_records",
    "DELETE FROM orders",
    "DELETE FROM consumer_offsets",
    "DELETE FROM order_status",
    "DELETE FROM payments",
];

/// Puts back rows exactly as `read_tables` read them, ids and times
/// included, for [`Database::restore`].
const RESTORE_PAYMENT: &str =
    "INSERT INTO payments (id, order_id, amount, message_id) VALUES (?1, ?2, ?3, ?4)";
const RESTORE_PROCESSED: &str =
    "INSERT INTO processed_messages (message_id, processed_at) VALUES (?1, ?2)";
const RESTORE_RECORD: &str = "INSERT INTO idempotency_records \
     (message_id, status, owner, deadline, result) VALUES (?1, ?2, ?3, ?4, ?5)";
const RESTORE_ORDER: &str = "INSERT INTO orders (order_id, last_message_id) VALUES (?1, ?2)";
const RESTORE_OFFSET: &str = "INSERT INTO consumer_offsets (partition, last_offset) VALUES (0, ?1)";
const RESTORE_STATUS: &str =
    "INSERT INTO order_status (order_id, status, version) VALUES (?1, ?2, ?3)";

/// Prepared statements kept per connection: every statement in this file,
/// with room to spare, so that none is ever parsed twice on one connection
/// (rusqlite's default keeps 16 and evicts the rest).
const STATEMENT_CACHE: usize = 64;

const BEGIN: &str = "BEGIN IMMEDIATE";
const COMMIT: &str = "COMMIT";
const ROLLBACK: &str = "ROLLBACK";
const CLAIM_MESSAGE: &str = "INSERT INTO processed_messages (message_id, processed_at) \
     VALUES (?1, ?2) ON CONFLICT DO NOTHING";
const LOOK_UP_MESSAGE: &str = "SELECT 1 FROM processed_messages WHERE message_id = ?1";
const PRUNE_PROCESSED: &str =
    "DELETE FROM processed_messages WHERE processed_at <= ?1 RETURNING message_id";
const CLAIM_RECORD: &str = "INSERT INTO idempotency_records (message_id, status, owner, deadline) \
     VALUES (?1, 'in_progress', ?2, ?3) ON CONFLICT DO NOTHING";
const TAKE_OVER_RECORD: &str = "UPDATE idempotency_records SET owner = ?1, deadline = ?2 \
     WHERE message_id = ?3 AND status = 'in_progress' AND deadline <= ?4";
const READ_RECORD: &str =
    "SELECT status, owner, deadline, result FROM idempotency_records WHERE message_id = ?1";
const COMPLETE_RECORD: &str = "UPDATE idempotency_records SET status = 'completed', result = ?1 \
     WHERE message_id = ?2 AND owner = ?3 AND status = 'in_progress'";
const SELECT_RECORDS: &str = "SELECT message_id, status, owner, deadline, result FROM idempotency_records ORDER BY message_id";
const GUARD_ORDER_ROW: &str = "INSERT INTO orders (order_id, last_message_id) VALUES (?1, ?2) \
     ON CONFLICT (order_id) DO UPDATE SET last_message_id = excluded.last_message_id \
     WHERE orders.last_message_id <> excluded.last_message_id";
const READ_OFFSET: &str = "SELECT last_offset FROM consumer_offsets WHERE partition = 0";
const SAVE_OFFSET: &str = "INSERT INTO consumer_offsets (partition, last_offset) VALUES (0, ?1) \
     ON CONFLICT (partition) DO UPDATE SET last_offset = excluded.last_offset";
const SET_STATUS: &str = "INSERT INTO order_status (order_id, status, version) VALUES (?1, ?2, ?3) \
     ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, version = excluded.version";
const SET_STATUS_IF_NEWER: &str = "INSERT INTO order_status (order_id, status, version) \
     VALUES (?1, ?2, ?3) ON CONFLICT (order_id) DO UPDATE \
     SET status = excluded.status, version = excluded.version \
     WHERE excluded.version > order_status.version";
const SELECT_STATUSES: &str =
    "SELECT order_id, status, version FROM order_status ORDER BY order_id";
const SELECT_ORDERS: &str = "SELECT order_id, last_message_id FROM orders ORDER BY order_id";
const INSERT_PAYMENT: &str =
    "INSERT INTO payments (order_id, amount, message_id) VALUES (?1, ?2, ?3)";
const SELECT_PAYMENTS: &str = "SELECT id, order_id, amount, message_id FROM payments ORDER BY id";
const SELECT_PROCESSED: &str =
    "SELECT message_id, processed_at FROM processed_messages ORDER BY processed_at, message_id";
// The reads that keep the world's copy of the committed tables current
// after a commit: only the rows the transaction wrote, so a commit costs
// the same in a table of ten rows or ten thousand.
const SELECT_PAYMENTS_AFTER: &str =
    "SELECT id, order_id, amount, message_id FROM payments WHERE id > ?1 ORDER BY id";
const SELECT_PROCESSED_ROW: &str =
    "SELECT message_id, processed_at FROM processed_messages WHERE message_id = ?1";
const SELECT_RECORD_ROW: &str = "SELECT message_id, status, owner, deadline, result FROM idempotency_records WHERE message_id = ?1";
const SELECT_ORDER_ROW: &str = "SELECT order_id, last_message_id FROM orders WHERE order_id = ?1";
const SELECT_STATUS_ROW: &str =
    "SELECT order_id, status, version FROM order_status WHERE order_id = ?1";

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    File(#[from] DbFileError),
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error(
        "cannot copy the database while {holder} has a transaction open: SQLite keeps it inside {holder}'s connection"
    )]
    OpenTransaction { holder: String },
    #[error("--db {path}: SQLite opened {opened}, not the file idem checked")]
    Elsewhere { path: String, opened: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PaymentRow {
    pub id: i64,
    pub order: u32,
    pub amount: u32,
    pub message_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProcessedRow {
    pub message_id: String,
    pub processed_at: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordRow {
    pub message_id: String,
    pub status: String,
    pub owner: String,
    pub deadline: Millis,
    pub result: Option<String>,
}

/// A business row that remembers the last message applied to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderRow {
    pub order: u32,
    pub last_message_id: String,
}

/// The contents of the tables, in a stable order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tables {
    pub payments: Vec<PaymentRow>,
    pub processed: Vec<ProcessedRow>,
    pub records: Vec<RecordRow>,
    pub orders: Vec<OrderRow>,
    /// The offset-tracking design's last applied offset of partition 0.
    pub last_offset: Option<u64>,
    pub statuses: Vec<StatusRow>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusRow {
    pub order: u32,
    pub status: String,
    pub version: u32,
}

/// The shared database. Keeps one observer connection open, which also keeps
/// an in-memory database alive between consumer crashes.
pub struct Database {
    /// The memdb URI, or the absolute path of the `--db` file.
    target: PathBuf,
    memdb: bool,
    observer: Connection,
    /// Consumer connections that were closed (a crash, or the end of a
    /// world), still open with their prepared statements: opening a
    /// connection and preparing its statements costs far more than the SQL a
    /// step runs. Only for the in-memory database; a `--db` file's
    /// connections really close.
    idle: Idle,
    /// Counts the statements that may have changed what is committed, so
    /// that a session's `own_view` is read again only after one.
    writes: Writes,
    /// The claimed `--db` file; declared last so that its lock outlives the
    /// observer connection, and shared with every session for the same
    /// reason.
    file: Option<Arc<DbFile>>,
}

static NEXT_MEMDB: AtomicU64 = AtomicU64::new(1);

/// Shared by a database and its sessions, which may outlive it.
type Idle = Arc<Mutex<Vec<Connection>>>;
type Writes = Arc<AtomicU64>;

impl Database {
    /// A fresh in-memory database, or a fresh file at `file`.
    pub fn open(file: Option<&Path>) -> Result<Self, DbError> {
        let (target, file) = match file {
            None => (
                PathBuf::from(format!(
                    "file:/idem-{}-{}?vfs=memdb",
                    std::process::id(),
                    NEXT_MEMDB.fetch_add(1, Ordering::Relaxed)
                )),
                None,
            ),
            Some(path) => {
                let claimed = db_file::claim(path)?;
                (claimed.path.clone(), Some(Arc::new(claimed)))
            }
        };
        let memdb = file.is_none();
        let observer = connect(&target, memdb)?;
        if !memdb {
            same_as_claimed(&observer, &target)?;
        }
        observer.execute_batch(SCHEMA)?;
        observer.pragma_update(None, "application_id", APPLICATION_ID)?;
        Ok(Database {
            target,
            memdb,
            observer,
            idle: Idle::default(),
            writes: Writes::default(),
            file,
        })
    }

    /// Deletes every row, so that the database is as `open` left it, its
    /// connections and their prepared statements kept. Every session must
    /// be closed or out of its transaction.
    pub fn reset(&self) -> Result<(), DbError> {
        self.restore(&Tables::default())
    }

    /// Replaces every row with `tables`, as [`Database::committed`] read
    /// them from this or another database: the database then holds what
    /// that one held, row ids included. Every session must be closed or
    /// out of its transaction.
    pub fn restore(&self, tables: &Tables) -> Result<(), DbError> {
        self.restore_over(None, tables)
    }

    /// [`Database::restore`], when the database is known to hold `have`:
    /// only the tables that differ are rewritten.
    pub fn restore_over(&self, have: Option<&Tables>, tables: &Tables) -> Result<(), DbError> {
        debug_assert!(have.is_none_or(|have| *have == read_tables(&self.observer).unwrap()));
        // Written by the observer, not by a session: no session's
        // `Written` notes it. Whoever keeps a copy of the committed tables
        // (the world) sets it to `tables` itself.
        if have != Some(tables) {
            self.rewrite(have, tables)?;
        }
        Ok(())
    }

    fn rewrite(&self, have: Option<&Tables>, tables: &Tables) -> Result<(), DbError> {
        self.wrote();
        let db = &self.observer;
        // One transaction: one commit instead of one per statement.
        db.prepare_cached(BEGIN)?.execute([])?;
        if let Err(e) = write_tables(db, have, tables) {
            db.prepare_cached(ROLLBACK)?.execute([])?;
            return Err(e);
        }
        db.prepare_cached(COMMIT)?.execute([])?;
        Ok(())
    }

    fn wrote(&self) {
        self.writes.fetch_add(1, Ordering::Relaxed);
    }

    /// What was at the `--db` path before this run claimed it.
    pub fn found(&self) -> Option<db_file::Found> {
        self.file.as_ref().map(|f| f.found)
    }

    /// A new connection for a consumer.
    pub fn connect(&self) -> Result<Session, DbError> {
        let idle = self.memdb.then(|| self.idle.clone());
        let reused = idle
            .as_ref()
            .and_then(|idle| idle.lock().ok().and_then(|mut conns| conns.pop()));
        let conn = match reused {
            Some(conn) => conn,
            None => connect(&self.target, self.memdb)?,
        };
        Ok(Session {
            conn: Some(conn),
            idle,
            writes: self.writes.clone(),
            own: Mutex::new(None),
            written: Default::default(),
            _file: self.file.clone(),
        })
    }

    /// Deletes processed IDs recorded at or before `cutoff`; returns them.
    pub fn prune_processed(&self, cutoff: Millis) -> Result<(Vec<String>, Ran), DbError> {
        self.wrote();
        let mut stmt = self.observer.prepare_cached(PRUNE_PROCESSED)?;
        let deleted: Vec<String> = stmt
            .query_map(params![cutoff as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let ran = Ran {
            sql: render(PRUNE_PROCESSED, &[cutoff.to_string()]),
            result: match deleted.len() {
                1 => "1 row deleted".to_string(),
                n => format!("{n} rows deleted"),
            },
        };
        Ok((deleted, ran))
    }

    /// What is committed. Callers read it only while no write transaction is
    /// open: the memdb VFS blocks readers while a writer holds its lock.
    pub fn committed(&self) -> Result<Tables, DbError> {
        read_tables(&self.observer)
    }

    /// The database's own count of processed_messages rows and sum of the
    /// payments, asked in SQL. Same rule as `committed`.
    pub fn totals(&self) -> Result<(u64, u64), DbError> {
        Ok(self.observer.query_row(
            "SELECT (SELECT COUNT(*) FROM processed_messages), \
                    (SELECT COALESCE(SUM(amount), 0) FROM payments)",
            [],
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )?)
    }

    /// The bytes of the database's pages (page count × page size): what the
    /// database itself holds, in memory or on disk.
    pub fn bytes(&self) -> Result<u64, DbError> {
        let pages: i64 = self
            .observer
            .query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let size: i64 = self
            .observer
            .query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok((pages * size) as u64)
    }

    /// The committed rows a commit wrote (`written`), payments after the
    /// row `last_payment` that the caller already has. Same rule as
    /// `committed`: only while no write transaction is open.
    pub fn fresh(&self, written: &Written, last_payment: i64) -> Result<Fresh, DbError> {
        let conn = &self.observer;
        let mut fresh = Fresh::default();
        if written.payments {
            let mut stmt = conn.prepare_cached(SELECT_PAYMENTS_AFTER)?;
            fresh.payments = stmt
                .query_map(params![last_payment], payment_row)?
                .collect::<Result<_, _>>()?;
        }
        for id in &written.processed {
            let row = row_by(conn, SELECT_PROCESSED_ROW, params![id], processed_row)?;
            fresh.processed.push((id.clone(), row));
        }
        for id in &written.records {
            let row = row_by(conn, SELECT_RECORD_ROW, params![id], record_row)?;
            fresh.records.push((id.clone(), row));
        }
        for order in &written.orders {
            let row = row_by(conn, SELECT_ORDER_ROW, params![order], order_row)?;
            fresh.orders.push((*order, row));
        }
        for order in &written.statuses {
            let row = row_by(conn, SELECT_STATUS_ROW, params![order], status_row)?;
            fresh.statuses.push((*order, row));
        }
        if written.offset {
            fresh.last_offset = Some(read_last_offset(conn)?);
        }
        Ok(fresh)
    }
}

fn connect(target: &Path, memdb: bool) -> Result<Connection, DbError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | if memdb {
            OpenFlags::SQLITE_OPEN_URI
        } else {
            OpenFlags::empty()
        };
    let conn = Connection::open_with_flags(target, flags)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // Zero: a lock conflict must come back at once as SQLITE_BUSY, a state
    // the scheduler shows, never as a sleep inside SQLite.
    conn.busy_timeout(std::time::Duration::ZERO)?;
    Ok(conn)
}

/// The version of the SQLite library idem runs on (bundled, so fixed at
/// build time), for `idem --version`.
pub fn sqlite_version() -> &'static str {
    rusqlite::version()
}

/// SQLite must have opened the very file that was checked and locked.
fn same_as_claimed(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let opened: String = conn.query_row(
        "SELECT file FROM pragma_database_list WHERE name = 'main'",
        [],
        |r| r.get(0),
    )?;
    if Path::new(&opened) != path {
        return Err(DbError::Elsewhere {
            path: path.display().to_string(),
            opened,
        });
    }
    Ok(())
}

fn payment_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PaymentRow> {
    Ok(PaymentRow {
        id: r.get(0)?,
        order: r.get(1)?,
        amount: r.get(2)?,
        message_id: r.get(3)?,
    })
}

fn processed_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ProcessedRow> {
    Ok(ProcessedRow {
        message_id: r.get(0)?,
        processed_at: r.get::<_, i64>(1)? as Millis,
    })
}

fn record_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RecordRow> {
    Ok(RecordRow {
        message_id: r.get(0)?,
        status: r.get(1)?,
        owner: r.get(2)?,
        deadline: r.get::<_, i64>(3)? as Millis,
        result: r.get(4)?,
    })
}

fn order_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<OrderRow> {
    Ok(OrderRow {
        order: r.get(0)?,
        last_message_id: r.get(1)?,
    })
}

fn status_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StatusRow> {
    Ok(StatusRow {
        order: r.get(0)?,
        status: r.get(1)?,
        version: r.get(2)?,
    })
}

/// Rewrites each table of `tables` that differs from `have` (all of them
/// when `have` is unknown).
fn write_tables(db: &Connection, have: Option<&Tables>, tables: &Tables) -> Result<(), DbError> {
    let [processed, records, orders, offsets, statuses, payments] = EMPTY_TABLES;
    rewrite(
        db,
        have.map(|h| &h.payments[..]),
        &tables.payments,
        (payments, RESTORE_PAYMENT),
        |s, p| s.execute(params![p.id, p.order, p.amount, p.message_id]),
    )?;
    rewrite(
        db,
        have.map(|h| &h.processed[..]),
        &tables.processed,
        (processed, RESTORE_PROCESSED),
        |s, p| s.execute(params![p.message_id, p.processed_at as i64]),
    )?;
    rewrite(
        db,
        have.map(|h| &h.records[..]),
        &tables.records,
        (records, RESTORE_RECORD),
        |s, r| {
            s.execute(params![
                r.message_id,
                r.status,
                r.owner,
                r.deadline as i64,
                r.result
            ])
        },
    )?;
    rewrite(
        db,
        have.map(|h| &h.orders[..]),
        &tables.orders,
        (orders, RESTORE_ORDER),
        |s, o| s.execute(params![o.order, o.last_message_id]),
    )?;
    rewrite(
        db,
        have.map(|h| h.last_offset.as_slice()),
        tables.last_offset.as_slice(),
        (offsets, RESTORE_OFFSET),
        |s, offset| s.execute(params![*offset as i64]),
    )?;
    rewrite(
        db,
        have.map(|h| &h.statuses[..]),
        &tables.statuses,
        (statuses, RESTORE_STATUS),
        |s, r| s.execute(params![r.order, r.status, r.version]),
    )
}

/// Empties one table and inserts `rows`, unless it holds them already.
fn rewrite<T: PartialEq>(
    db: &Connection,
    have: Option<&[T]>,
    rows: &[T],
    (delete, insert): (&str, &str),
    put: impl Fn(&mut rusqlite::Statement<'_>, &T) -> rusqlite::Result<usize>,
) -> Result<(), DbError> {
    if have == Some(rows) {
        return Ok(());
    }
    db.prepare_cached(delete)?.execute([])?;
    let mut stmt = db.prepare_cached(insert)?;
    for row in rows {
        put(&mut stmt, row)?;
    }
    Ok(())
}

/// Opens no write lock: a reader's transaction only.
const BEGIN_READ: &str = "BEGIN";

/// The six reads in one read transaction: one shared lock taken and
/// released instead of six. Inside an open transaction, they are part of it.
fn read_tables(conn: &Connection) -> Result<Tables, DbError> {
    if !conn.is_autocommit() {
        return read_each_table(conn);
    }
    conn.prepare_cached(BEGIN_READ)?.execute([])?;
    let read = read_each_table(conn);
    let end = if read.is_ok() { COMMIT } else { ROLLBACK };
    conn.prepare_cached(end)?.execute([])?;
    read
}

fn read_each_table(conn: &Connection) -> Result<Tables, DbError> {
    Ok(Tables {
        payments: rows(conn, SELECT_PAYMENTS, payment_row)?,
        processed: rows(conn, SELECT_PROCESSED, processed_row)?,
        records: rows(conn, SELECT_RECORDS, record_row)?,
        orders: rows(conn, SELECT_ORDERS, order_row)?,
        last_offset: read_last_offset(conn)?,
        statuses: rows(conn, SELECT_STATUSES, status_row)?,
    })
}

/// One row by its key, if it exists.
fn row_by<T, P: rusqlite::Params>(
    conn: &Connection,
    sql: &str,
    key: P,
    row: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, DbError> {
    match conn.prepare_cached(sql)?.query_row(key, row) {
        Ok(found) => Ok(Some(found)),
        Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The keys of the rows a connection wrote since its last commit: what a
/// commit makes new in the committed tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub payments: bool,
    pub processed: std::collections::BTreeSet<String>,
    pub records: std::collections::BTreeSet<String>,
    pub orders: std::collections::BTreeSet<u32>,
    pub statuses: std::collections::BTreeSet<u32>,
    pub offset: bool,
}

impl Written {
    pub fn is_empty(&self) -> bool {
        *self == Written::default()
    }
}

/// The committed rows under the keys a commit wrote, as they are now:
/// `None` for a row that no longer exists.
#[derive(Debug, Default)]
pub struct Fresh {
    pub payments: Vec<PaymentRow>,
    pub processed: Vec<(String, Option<ProcessedRow>)>,
    pub records: Vec<(String, Option<RecordRow>)>,
    pub orders: Vec<(u32, Option<OrderRow>)>,
    pub statuses: Vec<(u32, Option<StatusRow>)>,
    pub last_offset: Option<Option<u64>>,
}

/// Every row a statement returns, mapped; statements are cached per
/// connection, since the same few reads run after every step.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, DbError> {
    let mut stmt = conn.prepare_cached(sql)?;
    let out = stmt.query_map([], row)?.collect::<Result<_, _>>()?;
    Ok(out)
}

fn read_last_offset(conn: &Connection) -> Result<Option<u64>, DbError> {
    match conn
        .prepare_cached(READ_OFFSET)?
        .query_row([], |r| r.get::<_, i64>(0))
    {
        Ok(offset) => Ok(Some(offset as u64)),
        Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

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
pub struct Session {
    /// Always `Some` until the session is dropped.
    conn: Option<Connection>,
    /// Where the connection goes when the session ends, in memory only.
    idle: Option<Idle>,
    /// The database's count of statements that may change it.
    writes: Writes,
    /// `own_view` as last read, and `writes` then.
    own: Mutex<Option<(u64, Tables)>>,
    /// What this connection wrote since its last commit or rollback.
    written: std::cell::RefCell<Written>,
    /// Keeps the `--db` file's lock (and descriptor) until this connection
    /// has closed too: closing any descriptor of a file drops every POSIX
    /// lock the process holds on it, SQLite's included.
    _file: Option<Arc<DbFile>>,
}

impl Drop for Session {
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

impl Session {
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
                Ok(Begin::Busy(ran(BEGIN, "SQLITE_BUSY")))
            }
            Err(e) => Err(e.into()),
        }
    }

    pub fn claim_message(&self, message_id: &str, now: Millis) -> Result<Claim, DbError> {
        let rows = self.execute(CLAIM_MESSAGE, params![message_id, now as i64])?;
        self.wrote(|w| w.processed.insert(message_id.to_string()));
        let sql = render(CLAIM_MESSAGE, &[quote(message_id), now.to_string()]);
        let first_time = rows == 1;
        let result = if first_time {
            "1 row inserted"
        } else {
            "0 rows: conflict, message_id already handled"
        };
        Ok(Claim {
            ran: Ran {
                sql,
                result: result.into(),
            },
            first_time,
        })
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
        let ran = Ran {
            sql: render(LOOK_UP_MESSAGE, &[quote(message_id)]),
            result: if found {
                "1 row: already handled"
            } else {
                "0 rows: not seen before"
            }
            .into(),
        };
        Ok(Some((found, ran)))
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
        ran.push(Ran {
            sql: render(
                CLAIM_RECORD,
                &[quote(message_id), quote(owner), deadline.to_string()],
            ),
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
        let (status, previous_owner, old_deadline, result): (String, String, i64, Option<String>) =
            self.conn()
                .prepare_cached(READ_RECORD)?
                .query_row(params![message_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?;
        ran.push(Ran {
            sql: render(READ_RECORD, &[quote(message_id)]),
            result: format!("{status}, owner {previous_owner}, deadline {old_deadline}"),
        });
        if status == "completed" {
            return Ok((RecordClaim::Completed { result }, ran));
        }
        let took = self.execute(
            TAKE_OVER_RECORD,
            params![owner, deadline as i64, message_id, now as i64],
        )?;
        ran.push(Ran {
            sql: render(
                TAKE_OVER_RECORD,
                &[
                    quote(owner),
                    deadline.to_string(),
                    quote(message_id),
                    now.to_string(),
                ],
            ),
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
        Ok((
            rows == 1,
            Ran {
                sql: render(
                    COMPLETE_RECORD,
                    &[quote(result), quote(message_id), quote(owner)],
                ),
                result: if rows == 1 {
                    "1 row updated"
                } else {
                    "0 rows: no longer the owner"
                }
                .into(),
            },
        ))
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
            .prepare_cached("SELECT last_message_id FROM orders WHERE order_id = ?1")?
            .query_row(params![order], |r| r.get(0))
            .optional()?;
        let rows = self.execute(GUARD_ORDER_ROW, params![order, message_id])?;
        self.wrote(|w| w.orders.insert(order));
        Ok((
            rows == 1,
            previous,
            Ran {
                sql: render(GUARD_ORDER_ROW, &[order.to_string(), quote(message_id)]),
                result: if rows == 1 {
                    "1 row written: last_message_id set"
                } else {
                    "0 rows: the row's last message is this one"
                }
                .into(),
            },
        ))
    }

    /// The last offset applied, read inside the transaction.
    pub fn read_offset(&self) -> Result<(Option<u64>, Ran), DbError> {
        let last = read_last_offset(self.conn())?;
        let result = match last {
            Some(o) => format!("last_offset = {o}"),
            None => "0 rows: nothing applied yet".into(),
        };
        Ok((last, ran(READ_OFFSET, &result)))
    }

    pub fn save_offset(&self, offset: u64) -> Result<Ran, DbError> {
        let rows = self.execute(SAVE_OFFSET, params![offset as i64])?;
        self.wrote(|w| w.offset = true);
        Ok(Ran {
            sql: render(SAVE_OFFSET, &[offset.to_string()]),
            result: format!("{rows} row written"),
        })
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
        Ok((
            rows == 1,
            Ran {
                sql: render(
                    sql,
                    &[order.to_string(), quote(status), version.to_string()],
                ),
                result: if rows == 1 {
                    "1 row written"
                } else {
                    "0 rows: the row already has a newer version"
                }
                .into(),
            },
        ))
    }

    pub fn insert_payment(
        &self,
        order: u32,
        amount: u32,
        message_id: &str,
    ) -> Result<Ran, DbError> {
        let rows = self.execute(INSERT_PAYMENT, params![order, amount, message_id])?;
        self.wrote(|w| w.payments = true);
        Ok(Ran {
            sql: render(
                INSERT_PAYMENT,
                &[order.to_string(), amount.to_string(), quote(message_id)],
            ),
            result: format!("{rows} row inserted"),
        })
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

/// The look-up statement as shown, for a look-up that could not run.
pub fn render_look_up(message_id: &str) -> String {
    render(LOOK_UP_MESSAGE, &[quote(message_id)])
}

fn ran(sql: &str, result: &str) -> Ran {
    Ran {
        sql: sql.into(),
        result: result.into(),
    }
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Writes the bound values into the statement text for display: `?1` -> `'m-7f3'`.
/// One pass over the template, so that a value is never searched again: an
/// ID such as `m-?2` stays as it is, and `?1` does not eat the front of `?10`.
fn render(template: &str, values: &[String]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(at) = rest.find('?') {
        out.push_str(&rest[..at]);
        let digits = rest[at + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len() - at - 1, |n| n);
        let index: Option<usize> = rest[at + 1..at + 1 + digits].parse().ok();
        match index.and_then(|i| values.get(i.checked_sub(1)?)) {
            Some(value) => out.push_str(value),
            None => out.push_str(&rest[at..at + 1 + digits]),
        }
        rest = &rest[at + 1 + digits..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_busy_until_the_first_commits() {
        let db = Database::open(None).unwrap();
        let a = db.connect().unwrap();
        let b = db.connect().unwrap();
        assert!(matches!(a.begin().unwrap(), Begin::Open(_)));
        assert!(a.claim_message("m-7f3", 0).unwrap().first_time);
        assert!(matches!(b.begin().unwrap(), Begin::Busy(_)));
        a.commit().unwrap();
        assert!(matches!(b.begin().unwrap(), Begin::Open(_)));
        let claim = b.claim_message("m-7f3", 1).unwrap();
        assert!(!claim.first_time);
        assert_eq!(
            claim.ran.result,
            "0 rows: conflict, message_id already handled"
        );
        b.commit().unwrap();
        assert_eq!(db.committed().unwrap().processed.len(), 1);
    }

    #[test]
    fn a_dropped_connection_rolls_back() {
        let db = Database::open(None).unwrap();
        let a = db.connect().unwrap();
        a.begin().unwrap();
        a.insert_payment(1042, 40, "m-7f3").unwrap();
        assert_eq!(a.own_view().unwrap().payments.len(), 1);
        drop(a);
        assert!(db.committed().unwrap().payments.is_empty());
    }

    #[test]
    fn a_versioned_status_write_refuses_an_older_version() {
        let db = Database::open(None).unwrap();
        let a = db.connect().unwrap();
        assert!(a.set_status(1042, "SHIPPED", 2, true).unwrap().0);
        assert!(!a.set_status(1042, "PAID", 1, true).unwrap().0);
        assert!(a.set_status(1042, "PAID", 1, false).unwrap().0);
        assert_eq!(db.committed().unwrap().statuses[0].status, "PAID");
    }

    #[test]
    fn the_order_row_guard_passes_a_new_message_only() {
        let db = Database::open(None).unwrap();
        let a = db.connect().unwrap();
        assert!(a.guard_order_row(1042, "m-1").unwrap().0);
        assert!(!a.guard_order_row(1042, "m-1").unwrap().0);
        assert!(a.guard_order_row(1042, "m-2").unwrap().0);
        assert!(
            a.guard_order_row(1042, "m-1").unwrap().0,
            "only the last ID is kept"
        );
    }

    #[test]
    fn sql_is_shown_with_its_values() {
        assert_eq!(
            render(
                INSERT_PAYMENT,
                &["1042".into(), "40".into(), quote("m-7f3")]
            ),
            "INSERT INTO payments (order_id, amount, message_id) VALUES (1042, 40, 'm-7f3')"
        );
    }

    #[test]
    fn a_value_that_looks_like_a_placeholder_is_shown_as_it_is() {
        assert_eq!(
            render(
                TAKE_OVER_RECORD,
                &[quote("A/?3"), "?2".into(), quote("m-?1?2"), "7".into()]
            ),
            "UPDATE idempotency_records SET owner = 'A/?3', deadline = ?2 \
             WHERE message_id = 'm-?1?2' AND status = 'in_progress' AND deadline <= 7"
        );
        assert_eq!(render("?1 ?10 ?", &["a".into()]), "a ?10 ?");
    }

    #[test]
    fn refuses_to_overwrite_a_foreign_file() {
        let dir = std::env::temp_dir().join(format!("idem-db-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let foreign = dir.join("foreign.db");
        std::fs::write(&foreign, b"not a database at all").unwrap();
        assert!(matches!(
            Database::open(Some(&foreign)),
            Err(DbError::File(DbFileError::NotOurs { .. }))
        ));
        let ours = dir.join("ours.db");
        drop(Database::open(Some(&ours)).unwrap());
        let again = Database::open(Some(&ours)).unwrap();
        assert!(again.committed().unwrap().payments.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_reused_connection_comes_back_out_of_its_transaction() {
        let db = Database::open(None).unwrap();
        let a = db.connect().unwrap();
        a.begin().unwrap();
        a.insert_payment(1042, 40, "m-7f3").unwrap();
        drop(a);
        // The pool hands back the connection A had: nothing of its
        // transaction is left, and the write lock is free.
        let b = db.connect().unwrap();
        assert!(matches!(b.begin().unwrap(), Begin::Open(_)));
        assert!(b.own_view().unwrap().payments.is_empty());
        b.insert_payment(1043, 25, "m-9c2").unwrap();
        b.commit().unwrap();
        assert_eq!(db.committed().unwrap().payments[0].id, 1);
    }

    fn some_rows(db: &Database) -> Tables {
        let a = db.connect().unwrap();
        a.begin().unwrap();
        a.claim_message("m-7f3", 5).unwrap();
        a.insert_payment(1042, 40, "m-7f3").unwrap();
        a.insert_payment(1043, 25, "m-9c2").unwrap();
        a.claim_record("m-7f3", "A/rh-1", 5, 30).unwrap();
        a.complete_record("m-7f3", "A/rh-1", "ch_81").unwrap();
        a.guard_order_row(1042, "m-7f3").unwrap();
        a.save_offset(3).unwrap();
        a.set_status(1042, "PAID", 2, false).unwrap();
        a.commit().unwrap();
        db.committed().unwrap()
    }

    #[test]
    fn a_restored_database_holds_the_same_rows_and_ids() {
        let from = Database::open(None).unwrap();
        let tables = some_rows(&from);
        let to = Database::open(None).unwrap();
        let other = Database::open(None).unwrap();
        let have = some_rows(&to);
        other.restore(&have).unwrap();
        to.restore_over(Some(&have), &Tables::default()).unwrap();
        assert_eq!(to.committed().unwrap(), Tables::default());
        for db in [&to, &other] {
            db.restore(&tables).unwrap();
            assert_eq!(db.committed().unwrap(), tables);
            // The next row gets the id the original's next row would get.
            let s = db.connect().unwrap();
            s.insert_payment(1044, 15, "m-8a1").unwrap();
            assert_eq!(db.committed().unwrap().payments[2].id, 3);
        }
        to.reset().unwrap();
        assert_eq!(to.committed().unwrap(), Tables::default());
    }

    #[test]
    fn a_reused_connection_notes_only_what_its_new_session_committed() {
        let db = Database::open(None).unwrap();
        let a = db.connect().unwrap();
        a.begin().unwrap();
        a.insert_payment(1042, 40, "m-7f3").unwrap();
        // A crash: the connection goes idle, its transaction and its notes
        // of what it wrote gone with it.
        drop(a);
        let b = db.connect().unwrap();
        assert!(b.take_committed().is_none());
        // Outside a transaction the insert commits on its own.
        b.claim_message("m-9c2", 1).unwrap();
        let written = b.take_committed().expect("a committed write");
        assert!(!written.payments);
        assert_eq!(written.processed.iter().collect::<Vec<_>>(), ["m-9c2"]);
        assert!(b.take_committed().is_none());
        let fresh = db.fresh(&written, 0).unwrap();
        assert!(fresh.payments.is_empty());
        assert_eq!(fresh.processed.len(), 1);
        assert!(fresh.processed[0].1.is_some());
    }
}
