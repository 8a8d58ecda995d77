//! What a run's database and its sessions share on the server: the
//! address, the schema, the observer connection (where idem reads the
//! committed tables and the server's lock view), idle connections for
//! reuse, and a count of changes.

use super::pg_connect::{PG_STATEMENT_TIMEOUT, connect};
use super::pg_error;
use super::pg_observer::Observer;
use super::pg_rows::*;
use super::pg_schema::{hold_if_ending, release};
use super::pg_url::PgUrl;
use super::sql_postgres::*;
use super::*;
use std::time::Duration;

pub(super) struct PgShared {
    pub url: PgUrl,
    pub schema: String,
    pub observer: Mutex<Observer>,
    /// Connections handed back between a checker's schedules (see
    /// [`super::Session::recycle`]), out of any transaction: opening a
    /// connection costs far more than the statements a schedule runs.
    pub idle: Mutex<Vec<super::pg_link::Link>>,
    /// Counts every statement that may have changed what a connection of
    /// this schema sees (a write, a commit or rollback, a restore): a
    /// connection's own view read at the same count is still current.
    pub changes: AtomicU64,
}

impl PgShared {
    /// A connection set up for this run: its schema first on the search
    /// path, the safety bounds, and the schema as its application name, so
    /// that the run's backends can be found on the server.
    pub(super) fn connect(&self) -> Result<postgres::Client, DbError> {
        connect(&self.url, Some(&self.schema))
    }

    pub(super) fn observe<T>(
        &self,
        f: impl FnOnce(&mut Observer) -> Result<T, postgres::Error>,
    ) -> Result<T, DbError> {
        let mut observer = self.observer.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut observer).map_err(|e| self.failed(&e))
    }

    pub(super) fn failed(&self, e: &postgres::Error) -> DbError {
        hold_if_ending();
        DbError::Postgres(pg_error::running(&self.url, e))
    }

    /// The backends that hold what `pid`'s statement waits for; empty
    /// when it is not waiting for a lock.
    pub(super) fn blockers(&self, pid: i32) -> Result<Vec<i32>, DbError> {
        self.observe(|c| {
            let row = c.query_one(PG_BLOCKING_PIDS, &[&pid])?;
            let mut pids: Vec<i32> = row.get(0);
            pids.sort_unstable();
            Ok(pids)
        })
    }

    /// Ends a backend (`terminate`; else its connection has been closed)
    /// and waits until the server has let it go: its open transaction is
    /// then rolled back and its locks released. (The server's own wait,
    /// `pg_terminate_backend(pid, timeout)`, looks only every 100 ms.)
    pub(super) fn end_backend(&self, pid: i32, terminate: bool) -> Result<(), DbError> {
        if terminate {
            self.observe(|c| c.query(PG_TERMINATE_BACKEND, &[&pid]).map(drop))?;
        }
        // Bounded: a backend ends within the server's own shutdown of it.
        // Counted in pauses of at least 1 ms, not read from a clock.
        let mut pauses = 0u128;
        while self
            .observe(|c| c.query_opt(PG_BACKEND_ALIVE, &[&pid]))?
            .is_some()
        {
            pauses += 1;
            if pauses > PG_STATEMENT_TIMEOUT.as_millis() {
                return Err(DbError::Postgres(format!(
                    "PostgreSQL at {}: a closed connection's backend did not end",
                    self.url
                )));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }
}

impl PgShared {
    /// Notes a statement that may change what the connections see.
    pub(super) fn changed(&self) {
        self.changes.fetch_add(1, Ordering::SeqCst);
    }

    pub(super) fn committed(&self) -> Result<Tables, DbError> {
        self.observe(|c| read_committed_tables(&mut c.client))
    }
}

impl Drop for PgShared {
    fn drop(&mut self) {
        let observer = &mut self
            .observer
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .client;
        release(observer, &self.schema);
    }
}
