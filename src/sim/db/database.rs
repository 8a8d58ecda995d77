//! The shared database: opening it (in memory or a claimed `--db` file),
//! its observer connection, resetting and restoring it, and handing out
//! connections to sessions.

use super::*;

/// The shared database. Keeps one observer connection open, which also keeps
/// an in-memory database alive between consumer crashes.
pub struct SqliteDatabase {
    /// The memdb URI, or the absolute path of the `--db` file.
    pub(super) target: PathBuf,
    pub(super) memdb: bool,
    pub(super) observer: Connection,
    /// Consumer connections that were closed (a crash, or the end of a
    /// world), still open with their prepared statements: opening a
    /// connection and preparing its statements costs far more than the SQL a
    /// step runs. Only for the in-memory database; a `--db` file's
    /// connections really close.
    pub(super) idle: Idle,
    /// Counts the statements that may have changed what is committed, so
    /// that a session's `own_view` is read again only after one.
    pub(super) writes: Writes,
    /// The claimed `--db` file; declared last so that its lock outlives the
    /// observer connection, and shared with every session for the same
    /// reason.
    pub(super) file: Option<Arc<DbFile>>,
}

pub(super) static NEXT_MEMDB: AtomicU64 = AtomicU64::new(1);

/// Shared by a database and its sessions, which may outlive it.
pub(super) type Idle = Arc<Mutex<Vec<Connection>>>;
pub(super) type Writes = Arc<AtomicU64>;

impl SqliteDatabase {
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
        match &file {
            None => {
                observer.execute_batch(SCHEMA)?;
                observer.pragma_update(None, "application_id", APPLICATION_ID)?;
            }
            Some(file) => {
                same_as_claimed(&observer, &target)?;
                take_over(&observer, file)?;
            }
        }
        Ok(SqliteDatabase {
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
    pub fn connect(&self) -> Result<SqliteSession, DbError> {
        let idle = self.memdb.then(|| self.idle.clone());
        let reused = idle
            .as_ref()
            .and_then(|idle| idle.lock().ok().and_then(|mut conns| conns.pop()));
        let conn = match reused {
            Some(conn) => conn,
            None => connect(&self.target, self.memdb)?,
        };
        Ok(SqliteSession {
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
            answer: SqlAnswer::when(!deleted.is_empty()),
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
        Ok(self.observer.query_row(TOTALS, [], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
        })?)
    }

    /// The bytes of the database's pages (page count × page size): what the
    /// database itself holds, in memory or on disk.
    pub fn bytes(&self) -> Result<u64, DbError> {
        let pages: i64 = self.observer.query_row(PAGE_COUNT, [], |r| r.get(0))?;
        let size: i64 = self.observer.query_row(PAGE_SIZE, [], |r| r.get(0))?;
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

pub(super) fn connect(target: &Path, memdb: bool) -> Result<Connection, DbError> {
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
pub(super) fn same_as_claimed(conn: &Connection, path: &Path) -> Result<(), DbError> {
    // Asked of the connection, not in SQL: a statement would read the
    // file, which another program may hold locked.
    let opened = conn.path().unwrap_or_default().to_string();
    if Path::new(&opened) != path {
        return Err(DbError::Elsewhere {
            path: path.display().to_string(),
            opened,
        });
    }
    Ok(())
}
