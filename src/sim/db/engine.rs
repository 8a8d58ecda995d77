//! The seam between the world and the engines: one set of typed
//! operations, each engine's own statements behind it. The world holds a
//! [`Database`] and its consumers [`Session`]s, whatever the engine.

use super::pg_database::PgDatabase;
use super::pg_session::PgSession;
use super::pg_url::PgUrl;
use super::*;
use serde::Serialize;

/// Which database engine a run is on, as the screen names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    #[default]
    Sqlite,
    Postgres,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Sqlite => "SQLite",
            Engine::Postgres => "PostgreSQL",
        }
    }

    pub fn is_sqlite(&self) -> bool {
        *self == Engine::Sqlite
    }

    /// Where a second writer meets the first one's transaction on this
    /// engine, in the handler's terms.
    pub fn lock_point(self) -> &'static str {
        match self {
            Engine::Sqlite => "at BEGIN IMMEDIATE: SQLite lets one writer in at a time",
            Engine::Postgres => {
                "at the INSERT: PostgreSQL lets both begin, and the second waits on the first's row"
            }
        }
    }
}

/// The shared database of a run.
pub enum Database {
    Sqlite(SqliteDatabase),
    Postgres(PgDatabase),
}

/// One consumer's connection.
pub enum Session {
    Sqlite(SqliteSession),
    Postgres(PgSession),
}

macro_rules! each {
    ($on:expr, $it:ident => $body:expr) => {
        match $on {
            Session::Sqlite($it) => $body,
            Session::Postgres($it) => $body,
        }
    };
}

impl Database {
    /// A fresh SQLite database in memory, or at `file`.
    pub fn open(file: Option<&Path>) -> Result<Self, DbError> {
        SqliteDatabase::open(file).map(Database::Sqlite)
    }

    /// A fresh schema of its own on the PostgreSQL server at `url`.
    pub fn postgres(url: &PgUrl) -> Result<Self, DbError> {
        PgDatabase::open(url).map(Database::Postgres)
    }

    pub fn engine(&self) -> Engine {
        match self {
            Database::Sqlite(_) => Engine::Sqlite,
            Database::Postgres(_) => Engine::Postgres,
        }
    }

    pub fn reset(&self) -> Result<(), DbError> {
        self.restore(&Tables::default())
    }

    pub fn restore(&self, tables: &Tables) -> Result<(), DbError> {
        self.restore_over(None, tables)
    }

    pub fn restore_over(&self, have: Option<&Tables>, tables: &Tables) -> Result<(), DbError> {
        match self {
            Database::Sqlite(db) => db.restore_over(have, tables),
            Database::Postgres(db) => db.restore_over(have, tables),
        }
    }

    pub fn found(&self) -> Option<db_file::Found> {
        match self {
            Database::Sqlite(db) => db.found(),
            Database::Postgres(_) => None,
        }
    }

    pub fn connect(&self) -> Result<Session, DbError> {
        match self {
            Database::Sqlite(db) => db.connect().map(Session::Sqlite),
            Database::Postgres(db) => {
                super::pg_session::PgSession::open(db.shared.clone()).map(Session::Postgres)
            }
        }
    }

    pub fn prune_processed(&self, cutoff: Millis) -> Result<(Vec<String>, Ran), DbError> {
        match self {
            Database::Sqlite(db) => db.prune_processed(cutoff),
            Database::Postgres(db) => db.prune_processed(cutoff),
        }
    }

    pub fn committed(&self) -> Result<Tables, DbError> {
        match self {
            Database::Sqlite(db) => db.committed(),
            Database::Postgres(db) => db.committed(),
        }
    }

    pub fn totals(&self) -> Result<(u64, u64), DbError> {
        match self {
            Database::Sqlite(db) => db.totals(),
            Database::Postgres(db) => db.totals(),
        }
    }

    pub fn bytes(&self) -> Result<u64, DbError> {
        match self {
            Database::Sqlite(db) => db.bytes(),
            Database::Postgres(db) => db.bytes(),
        }
    }

    pub fn fresh(&self, written: &Written, last_payment: i64) -> Result<Fresh, DbError> {
        match self {
            Database::Sqlite(db) => db.fresh(written, last_payment),
            Database::Postgres(db) => db.fresh(written, last_payment),
        }
    }

    /// On SQLite a reader waits for a writer (the memdb VFS keeps readers
    /// out while a write lock is held), so the committed tables are read
    /// only while no transaction is open; PostgreSQL's readers never wait.
    pub fn readers_wait_for_writers(&self) -> bool {
        self.engine() == Engine::Sqlite
    }
}

impl Session {
    pub fn engine(&self) -> Engine {
        match self {
            Session::Sqlite(_) => Engine::Sqlite,
            Session::Postgres(_) => Engine::Postgres,
        }
    }

    /// The server process behind this connection (PostgreSQL only): what
    /// the server's lock view names.
    pub fn backend_pid(&self) -> Option<i32> {
        match self {
            Session::Sqlite(_) => None,
            Session::Postgres(s) => Some(s.backend_pid()),
        }
    }

    /// A statement of this connection is waiting on the server.
    pub fn waiting(&self) -> bool {
        match self {
            Session::Sqlite(_) => false,
            Session::Postgres(s) => s.waiting(),
        }
    }

    pub fn begin(&self) -> Result<Begin, DbError> {
        each!(self, s => s.begin())
    }

    pub fn claim_message(&self, message_id: &str, now: Millis) -> Result<Claim, DbError> {
        each!(self, s => s.claim_message(message_id, now))
    }

    pub fn look_up_message(&self, message_id: &str) -> Result<Option<(bool, Ran)>, DbError> {
        each!(self, s => s.look_up_message(message_id))
    }

    pub fn claim_record(
        &self,
        message_id: &str,
        owner: &str,
        now: Millis,
        deadline: Millis,
    ) -> Result<(RecordClaim, Vec<Ran>), DbError> {
        each!(self, s => s.claim_record(message_id, owner, now, deadline))
    }

    pub fn complete_record(
        &self,
        message_id: &str,
        owner: &str,
        result: &str,
    ) -> Result<(bool, Ran), DbError> {
        each!(self, s => s.complete_record(message_id, owner, result))
    }

    pub fn guard_order_row(
        &self,
        order: u32,
        message_id: &str,
    ) -> Result<(bool, Option<String>, Ran), DbError> {
        each!(self, s => s.guard_order_row(order, message_id))
    }

    pub fn read_offset(&self) -> Result<(Option<u64>, Ran), DbError> {
        each!(self, s => s.read_offset())
    }

    pub fn save_offset(&self, offset: u64) -> Result<Ran, DbError> {
        each!(self, s => s.save_offset(offset))
    }

    pub fn set_status(
        &self,
        order: u32,
        status: &str,
        version: u32,
        only_if_newer: bool,
    ) -> Result<(bool, Ran), DbError> {
        each!(self, s => s.set_status(order, status, version, only_if_newer))
    }

    pub fn insert_payment(
        &self,
        order: u32,
        amount: u32,
        message_id: &str,
    ) -> Result<Ran, DbError> {
        each!(self, s => s.insert_payment(order, amount, message_id))
    }

    pub fn commit(&self) -> Result<Ran, DbError> {
        each!(self, s => s.commit())
    }

    pub fn rollback(&self) -> Result<Ran, DbError> {
        each!(self, s => s.rollback())
    }

    pub fn own_view(&self) -> Result<Tables, DbError> {
        each!(self, s => s.own_view())
    }

    /// Its transaction has written nothing yet, so its `own_view` is what
    /// is committed: known without asking the server. (SQLite's own view
    /// is read from memory, so it is simply read.)
    pub fn sees_only_committed(&self) -> bool {
        match self {
            Session::Sqlite(_) => false,
            Session::Postgres(s) => s.sees_only_committed(),
        }
    }

    pub fn take_committed(&self) -> Option<Written> {
        each!(self, s => s.take_committed())
    }
}

impl Session {
    /// Ends this connection's part in a run that is being replaced (the
    /// checker's next schedule): its open transaction rolls back, as on a
    /// crash, and the connection is kept for the next session to reuse.
    pub fn recycle(self) {
        if let Session::Postgres(s) = &self {
            s.recycle.set(true);
        }
    }

    /// The statement the server holds waiting, as shown on screen.
    pub fn waiting_sql(&self) -> Option<String> {
        match self {
            Session::Sqlite(_) => None,
            Session::Postgres(s) => s.waiting_sql(),
        }
    }

    /// True while the server still holds this connection's statement
    /// waiting for a lock; false once it has finished (its answer is kept
    /// for the step that asks again) or when nothing waits.
    pub fn still_held(&self) -> Result<bool, DbError> {
        match self {
            Session::Sqlite(_) => Ok(false),
            Session::Postgres(s) => s.still_held(),
        }
    }
}
