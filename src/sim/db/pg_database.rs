//! The run's schema on a PostgreSQL server: created fresh, owned under an
//! advisory lock, read and restored by an observer connection, and dropped
//! when the run ends (also on a panic, and through [`drop_live_schemas`] on
//! a signal). The observer is also where idem looks at the server's locks.

use super::pg_error;
use super::pg_link::{Value, read_row};
use super::pg_observer::Observer;
use super::pg_rows::*;
use super::pg_url::PgUrl;
use super::sql_postgres::*;
use super::*;
use std::time::Duration;

/// How long connecting may take before idem gives up and says so.
pub const PG_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A safety bound on every statement and every lock wait, far above any
/// wait idem causes (those end when the world's next move commits or rolls
/// back): only a lock held from outside idem can reach it, and then the
/// statement fails with a clear error instead of hanging.
pub const PG_STATEMENT_TIMEOUT: Duration = Duration::from_secs(60);

/// A database on the server: one schema, its observer, and the sessions'
/// shared part. Sessions keep the shared part alive: the schema is dropped
/// when the last of them and the database are gone.
pub struct PgDatabase {
    pub(super) shared: Arc<PgShared>,
}

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

/// Set once a signal handler drops the schemas: the run's own connections
/// then fail, and the run must not report that as its error (the handler
/// ends the process with the signal's status).
static ENDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A run whose schemas a signal handler is dropping waits here for the
/// process to end, instead of reporting the errors that causes.
pub(super) fn hold_if_ending() {
    // Bounded by the handler, which ends the process once the drop is done.
    while ENDING.load(Ordering::SeqCst) {
        std::thread::park_timeout(Duration::from_secs(1));
    }
}

/// Held while a schema is created and noted in `LIVE`.
static CREATING: Mutex<()> = Mutex::new(());

/// Schemas of this process that are still live, for a signal handler.
static LIVE: Mutex<Vec<(PgUrl, String)>> = Mutex::new(Vec::new());

static NEXT_SCHEMA: AtomicU64 = AtomicU64::new(1);

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
        let _ = observer.batch_execute(&drop_schema(&self.schema));
        let _ = observer.query(PG_UNLOCK_SCHEMA, &[&self.schema]);
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|(_, s)| *s != self.schema);
        }
    }
}

fn drop_schema(schema: &str) -> String {
    format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE")
}

pub(super) fn connect(url: &PgUrl, schema: Option<&str>) -> Result<postgres::Client, DbError> {
    let mut config = url.config().clone();
    config.connect_timeout(PG_CONNECT_TIMEOUT);
    let ms = PG_STATEMENT_TIMEOUT.as_millis();
    // A run's schema is thrown away at its end: a commit need not wait for
    // the server to flush its log to disk (what other transactions see,
    // and when, is the same either way).
    let mut options =
        format!("-c statement_timeout={ms} -c lock_timeout={ms} -c synchronous_commit=off");
    if let Some(schema) = schema {
        options.push_str(&format!(" -c search_path={schema}"));
        config.application_name(schema);
    } else {
        config.application_name("idem");
    }
    config.options(&options);
    config
        .connect(postgres::NoTls)
        .map_err(|e| DbError::Postgres(pg_error::connecting(url, &e)))
}

impl PgDatabase {
    /// A fresh schema on the server, with idem's tables, owned by this run.
    pub fn open(url: &PgUrl) -> Result<Self, DbError> {
        let mut observer = connect(url, None)?;
        let setup = |e: postgres::Error| DbError::Postgres(pg_error::connecting(url, &e));
        sweep_leftovers(&mut observer).map_err(setup)?;
        let schema = loop {
            let name = format!(
                "{PG_SCHEMA_PREFIX}{}_{}",
                std::process::id(),
                NEXT_SCHEMA.fetch_add(1, Ordering::Relaxed)
            );
            let locked: bool = observer
                .query_one(PG_TRY_LOCK_SCHEMA, &[&name])
                .map_err(setup)?
                .get(0);
            if !locked {
                // Another live run (another machine sharing this server,
                // with the same process ID) holds this name: take the next.
                continue;
            }
            if observer
                .query_opt(PG_SCHEMA_EXISTS, &[&name])
                .map_err(setup)?
                .is_some()
            {
                // A leftover of a killed run that had our process ID: the
                // lock says nobody holds it.
                observer.batch_execute(&drop_schema(&name)).map_err(setup)?;
            }
            break name;
        };
        let create = format!(
            "CREATE SCHEMA \"{schema}\"; COMMENT ON SCHEMA \"{schema}\" IS '{PG_SCHEMA_COMMENT}'; \
             SET search_path TO \"{schema}\"; {PG_SCHEMA}"
        );
        {
            // Created and noted as one: a signal handler either sees the
            // schema in LIVE or runs before it is created (and then this
            // run waits for the end instead of creating it).
            let creating = CREATING.lock().unwrap_or_else(|e| e.into_inner());
            if ENDING.load(Ordering::SeqCst) {
                // The handler waits for this lock: let it go first.
                drop(creating);
                hold_if_ending();
                unreachable!("the process ends while it is held");
            }
            observer.batch_execute(&create).map_err(setup)?;
            if let Ok(mut live) = LIVE.lock() {
                live.push((url.clone(), schema.clone()));
            }
            drop(creating);
        }
        let shared = Arc::new(PgShared {
            url: url.clone(),
            schema,
            observer: Mutex::new(Observer::new(observer)),
            idle: Mutex::new(Vec::new()),
            changes: AtomicU64::new(0),
        });
        Ok(PgDatabase { shared })
    }

    pub fn url(&self) -> &PgUrl {
        &self.shared.url
    }

    /// The schema this run owns, for tests and messages.
    pub fn schema(&self) -> &str {
        &self.shared.schema
    }

    /// Puts `tables` in the schema. `have` is what it holds now, when
    /// known: then only the tables that differ are rewritten, each emptied
    /// by a DELETE (cheap on a few rows; a TRUNCATE makes new files on the
    /// server, and the checker restores thousands of times).
    pub fn restore_over(&self, have: Option<&Tables>, tables: &Tables) -> Result<(), DbError> {
        if have == Some(tables) {
            return Ok(());
        }
        let differs = |same: fn(&Tables, &Tables) -> bool| have.is_none_or(|h| !same(h, tables));
        let mut script: Vec<(&'static str, Vec<Value>)> = Vec::new();
        if differs(|a, b| a.payments == b.payments) {
            script.push((PG_EMPTY_PAYMENTS, vec![]));
            for p in &tables.payments {
                script.push((
                    PG_RESTORE_PAYMENT,
                    vec![
                        Value::Int(p.id),
                        Value::Int(p.order.into()),
                        Value::Int(p.amount.into()),
                        Value::Text(p.message_id.clone()),
                    ],
                ));
            }
            // Past the rows put back (an id is never shown: only the
            // order of the rows is, and the sequence only goes up).
            script.push((PG_RESTART_PAYMENT_IDS, vec![]));
        }
        if differs(|a, b| a.processed == b.processed) {
            script.push((PG_EMPTY_PROCESSED, vec![]));
            for p in &tables.processed {
                script.push((
                    PG_RESTORE_PROCESSED,
                    vec![
                        Value::Text(p.message_id.clone()),
                        Value::Int(p.processed_at as i64),
                    ],
                ));
            }
        }
        if differs(|a, b| a.records == b.records) {
            script.push((PG_EMPTY_RECORDS, vec![]));
            for r in &tables.records {
                script.push((
                    PG_RESTORE_RECORD,
                    vec![
                        Value::Text(r.message_id.clone()),
                        Value::Text(r.status.clone()),
                        Value::Text(r.owner.clone()),
                        Value::Int(r.deadline as i64),
                        r.result.clone().map_or(Value::Null, Value::Text),
                    ],
                ));
            }
        }
        if differs(|a, b| a.orders == b.orders) {
            script.push((PG_EMPTY_ORDERS, vec![]));
            for o in &tables.orders {
                script.push((
                    PG_RESTORE_ORDER,
                    vec![
                        Value::Int(o.order.into()),
                        Value::Text(o.last_message_id.clone()),
                    ],
                ));
            }
        }
        if differs(|a, b| a.last_offset == b.last_offset) {
            script.push((PG_EMPTY_OFFSETS, vec![]));
            if let Some(offset) = tables.last_offset {
                script.push((PG_RESTORE_OFFSET, vec![Value::Int(offset as i64)]));
            }
        }
        if differs(|a, b| a.statuses == b.statuses) {
            script.push((PG_EMPTY_STATUSES, vec![]));
            for s in &tables.statuses {
                script.push((
                    PG_RESTORE_STATUS,
                    vec![
                        Value::Int(s.order.into()),
                        Value::Text(s.status.clone()),
                        Value::Int(s.version.into()),
                    ],
                ));
            }
        }
        self.shared.changed();
        let text = super::pg_script::one_text(&script);
        self.shared.observe(|c| c.client.batch_execute(&text))
    }

    pub fn prune_processed(&self, cutoff: Millis) -> Result<(Vec<String>, Ran), DbError> {
        let cutoff_i = cutoff as i64;
        self.shared.changed();
        let deleted: Vec<String> = self.shared.observe(|c| {
            Ok(c.query(PG_PRUNE_PROCESSED, &[&cutoff_i])?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })?;
        let mut deleted = deleted;
        deleted.sort();
        let ran = Ran {
            sql: render(PG_PRUNE_PROCESSED, &[cutoff.to_string()]),
            result: match deleted.len() {
                1 => "1 row deleted".to_string(),
                n => format!("{n} rows deleted"),
            },
            answer: SqlAnswer::when(!deleted.is_empty()),
        };
        Ok((deleted, ran))
    }

    /// What is committed, read in one snapshot.
    pub fn committed(&self) -> Result<Tables, DbError> {
        self.shared.committed()
    }

    pub fn totals(&self) -> Result<(u64, u64), DbError> {
        self.shared.observe(|c| {
            let row = c.query_one(PG_TOTALS, &[])?;
            Ok((row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u64))
        })
    }

    pub fn bytes(&self) -> Result<u64, DbError> {
        self.shared
            .observe(|c| Ok(c.query_one(PG_BYTES, &[])?.get::<_, i64>(0) as u64))
    }

    pub fn fresh(&self, written: &Written, last_payment: i64) -> Result<Fresh, DbError> {
        self.shared.observe(|c| {
            let mut fresh = Fresh::default();
            if written.payments {
                let ids: Vec<i64> = written.payment_ids.iter().copied().collect();
                fresh.payments = c
                    .query(PG_SELECT_PAYMENTS_AFTER, &[&last_payment, &ids])?
                    .iter()
                    .map(|r| pg_payment(&read_row(r)))
                    .collect();
            }
            for id in &written.processed {
                let row = c.query_opt(PG_SELECT_PROCESSED_ROW, &[id])?;
                fresh
                    .processed
                    .push((id.clone(), row.map(|r| pg_processed(&read_row(&r)))));
            }
            for id in &written.records {
                let row = c.query_opt(PG_SELECT_RECORD_ROW, &[id])?;
                fresh
                    .records
                    .push((id.clone(), row.map(|r| pg_record(&read_row(&r)))));
            }
            for order in &written.orders {
                let key = i64::from(*order);
                let row = c.query_opt(PG_SELECT_ORDER_ROW, &[&key])?;
                fresh
                    .orders
                    .push((*order, row.map(|r| pg_order(&read_row(&r)))));
            }
            for order in &written.statuses {
                let key = i64::from(*order);
                let row = c.query_opt(PG_SELECT_STATUS_ROW, &[&key])?;
                fresh
                    .statuses
                    .push((*order, row.map(|r| pg_status(&read_row(&r)))));
            }
            if written.offset {
                fresh.last_offset = Some(
                    c.query_opt(PG_READ_OFFSET, &[])?
                        .map(|r| r.get::<_, i64>(0) as u64),
                );
            }
            Ok(fresh)
        })
    }
}

/// Drops the schemas of killed runs: idem's own (named and marked so) whose
/// advisory lock nobody holds. A live run holds its lock to its end.
fn sweep_leftovers(observer: &mut postgres::Client) -> Result<(), postgres::Error> {
    let names: Vec<String> = observer
        .query(PG_LEFTOVER_SCHEMAS, &[])?
        .iter()
        .map(|r| r.get(0))
        .collect();
    for name in names {
        let free: bool = observer.query_one(PG_TRY_LOCK_SCHEMA, &[&name])?.get(0);
        if free {
            observer.batch_execute(&drop_schema(&name))?;
            observer.query(PG_UNLOCK_SCHEMA, &[&name])?;
        }
    }
    Ok(())
}

/// Drops every schema this process still owns, ending its backends first
/// (a waiting statement or an open transaction would hold the drop up).
/// For a signal handler: the run's own objects are unreachable from there.
pub fn drop_live_schemas() {
    ENDING.store(true, Ordering::SeqCst);
    // A schema being created right now is waited for, then dropped too.
    let _creating = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    let live = match LIVE.lock() {
        Ok(live) => live.clone(),
        Err(e) => e.into_inner().clone(),
    };
    for (url, schema) in live {
        let Ok(mut client) = connect(&url, None) else {
            continue;
        };
        let _ = client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = $1 AND pid <> pg_backend_pid()",
            &[&schema],
        );
        // The ended backends let go of their locks a moment later, and a
        // drop that meets them fails rather than waits: try again, bounded.
        for _ in 0..250 {
            if client.batch_execute(&drop_schema(&schema)).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}
