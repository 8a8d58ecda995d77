//! The life of a run's schema on the server: created fresh under an
//! advisory lock, noted for a signal handler, dropped when the run ends
//! (also on a panic, and through [`drop_live_schemas`] on a signal), and
//! the leftovers of killed runs swept away.

use super::pg_connect::connect;
use super::pg_error;
use super::pg_url::PgUrl;
use super::sql_postgres::*;
use super::*;
use std::time::Duration;

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

/// Drops a run's schema as its last user lets go of it, frees its name's
/// lock, and forgets it (a signal handler has nothing left to drop).
pub(super) fn release(observer: &mut postgres::Client, schema: &str) {
    let _ = observer.batch_execute(&drop_schema(schema));
    let _ = observer.query(PG_UNLOCK_SCHEMA, &[&schema]);
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|(_, s)| *s != schema);
    }
}

fn drop_schema(schema: &str) -> String {
    format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE")
}

/// Sweeps the leftovers of killed runs, then creates a schema of this run's
/// own with idem's tables, owned under its advisory lock and noted for a
/// signal handler.
pub(super) fn create_schema(
    observer: &mut postgres::Client,
    url: &PgUrl,
) -> Result<String, DbError> {
    let setup = |e: postgres::Error| DbError::Postgres(pg_error::connecting(url, &e));
    sweep_leftovers(observer).map_err(setup)?;
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
    Ok(schema)
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
