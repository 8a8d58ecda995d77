//! A user's program's own PostgreSQL schema, seen from outside (`idem test
//! --db postgres://…`): idem creates a fresh schema per schedule, hands
//! the program an address whose search_path names it, and never writes in
//! it. It asks the server whether an instance's backend waits for a lock
//! (and whose), waits until a killed instance's backends are gone, reads
//! what the program recorded with the user's query, lists its tables for a
//! replay (those two reads are in `program_pg_read.rs`), and drops the
//! schema at the end. The SQLite side is `program.rs`.
//!
//! Names: schema `idem_test_N` (the smallest N no live run of idem holds,
//! under an advisory lock kept by this connection for the schema's life),
//! marked with a comment; each instance's backends carry the application
//! name `idem_test_N.A`. A schema so named and marked, whose lock nobody
//! holds and which no backend uses, is a killed run's leftover: dropped.

use super::pg_connect::{PG_CONNECT_TIMEOUT, PG_STATEMENT_TIMEOUT};
use super::pg_connect_within::{self, Refused};
use super::pg_error;
use super::pg_url::PgUrl;
use super::program::ProgramDbError;
#[cfg(test)]
use super::program::Recorded;
use postgres::Client;
use std::sync::Mutex;
use std::time::Duration;

/// The start of every schema `idem test` creates.
pub const PROGRAM_SCHEMA_PREFIX: &str = "idem_test_";
/// Marks a schema as `idem test`'s (the simulator's say "idem run").
const COMMENT: &str = "idem test";
/// Schema numbers tried before idem says every one is taken.
const SLOTS: u32 = 1_000;

const LEFTOVERS: &str = "SELECT n.nspname, coalesce(obj_description(n.oid, 'pg_namespace'), '') \
     FROM pg_namespace n WHERE n.nspname LIKE 'idem\\_test\\_%' ORDER BY n.nspname";
const TRY_LOCK: &str = "SELECT pg_try_advisory_lock(hashtext($1))";
const UNLOCK: &str = "SELECT pg_advisory_unlock(hashtext($1))";
const COMMENT_OF: &str = "SELECT coalesce(obj_description(oid, 'pg_namespace'), '') \
     FROM pg_namespace WHERE nspname = $1";
/// Backends whose application name starts with `$1` (`idem_test_N.`).
const BACKENDS_OF: &str = "SELECT count(*) FROM pg_stat_activity \
     WHERE left(application_name, length($1)) = $1";
const BACKENDS_NAMED: &str = "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1";
const END_BACKENDS_OF: &str = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
     WHERE left(application_name, length($1)) = $1 AND pid <> pg_backend_pid()";
/// For each backend named `$1` that waits for a lock: the application name
/// of each backend it waits for (empty for one that has none).
const LOCK_WAIT: &str = "SELECT coalesce(b.application_name, '') FROM pg_stat_activity a \
     CROSS JOIN LATERAL unnest(pg_blocking_pids(a.pid)) AS w(pid) \
     LEFT JOIN pg_stat_activity b ON b.pid = w.pid \
     WHERE a.application_name = $1 AND a.wait_event_type = 'Lock' \
     ORDER BY 1";

/// What the server says of an instance's backends: none waits for a lock,
/// or one does, held by these instances of the run (by name) and by
/// `outside` backends that are not the run's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockWait {
    pub waits: bool,
    pub holders: Vec<String>,
    pub outside: usize,
}

pub struct ProgramSchema {
    pub(super) url: PgUrl,
    pub(super) name: String,
    pub(super) observer: Mutex<Client>,
}

pub(super) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl ProgramSchema {
    /// idem's own connection: named `idem-test` (never a run's backend
    /// name), with the simulator's safety bounds on every statement.
    fn connect(url: &PgUrl) -> Result<Client, ProgramDbError> {
        let mut config = url.config().clone();
        config.connect_timeout(PG_CONNECT_TIMEOUT);
        let ms = PG_STATEMENT_TIMEOUT.as_millis();
        config.options(&format!("-c statement_timeout={ms} -c lock_timeout={ms}"));
        config.application_name("idem-test");
        super::pg_connect_within::connect(&config, PG_CONNECT_TIMEOUT).map_err(|r| match r {
            Refused::Error(e) => Self::fail(url)(e),
            Refused::Silent(limit) => {
                ProgramDbError::Postgres(pg_connect_within::silent(url, limit))
            }
        })
    }

    fn fail(url: &PgUrl) -> impl Fn(postgres::Error) -> ProgramDbError + '_ {
        move |e| {
            ProgramDbError::Postgres(pg_error::connecting_else(
                url,
                &e,
                "Leave out --db to give the program a SQLite file",
            ))
        }
    }

    /// Checks that the server answers and lets this user create a schema,
    /// and drops the leftovers of runs of `idem test` that were killed.
    /// Returns how many it dropped.
    pub fn prepare_server(url: &PgUrl) -> Result<usize, ProgramDbError> {
        let mut c = Self::connect(url)?;
        let fail = Self::fail(url);
        // A schema is made and dropped at once: the rights are known
        // before any program runs.
        c.batch_execute(&format!(
            "BEGIN; CREATE SCHEMA {}; ROLLBACK",
            quoted("idem_test_rights_check")
        ))
        .map_err(&fail)?;
        let found: Vec<(String, String)> = c
            .query(LEFTOVERS, &[])
            .map_err(&fail)?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let mut dropped = 0;
        for (name, comment) in found {
            if comment != COMMENT {
                continue;
            }
            let free: bool = c.query_one(TRY_LOCK, &[&name]).map_err(&fail)?.get(0);
            if !free {
                continue;
            }
            let users: i64 = c
                .query_one(BACKENDS_OF, &[&format!("{name}.")])
                .map_err(&fail)?
                .get(0);
            if users == 0 {
                c.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", quoted(&name)))
                    .map_err(&fail)?;
                dropped += 1;
            }
            c.query(UNLOCK, &[&name]).map_err(&fail)?;
        }
        Ok(dropped)
    }

    /// A fresh, empty schema for one run, held by this run until dropped.
    pub fn create(url: &PgUrl) -> Result<ProgramSchema, ProgramDbError> {
        let mut c = Self::connect(url)?;
        let fail = Self::fail(url);
        for n in 1..=SLOTS {
            let name = format!("{PROGRAM_SCHEMA_PREFIX}{n}");
            let mine: bool = c.query_one(TRY_LOCK, &[&name]).map_err(&fail)?.get(0);
            if !mine {
                continue;
            }
            let take = match c.query_opt(COMMENT_OF, &[&name]).map_err(&fail)? {
                None => true,
                // Someone else's schema of this name is never touched; a
                // leftover of idem's is taken once no backend uses it.
                Some(row) => {
                    let comment: String = row.get(0);
                    let users: i64 = c
                        .query_one(BACKENDS_OF, &[&format!("{name}.")])
                        .map_err(&fail)?
                        .get(0);
                    comment == COMMENT && users == 0
                }
            };
            if !take {
                c.query(UNLOCK, &[&name]).map_err(&fail)?;
                continue;
            }
            c.batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {q} CASCADE; CREATE SCHEMA {q}; COMMENT ON SCHEMA {q} IS '{COMMENT}'",
                q = quoted(&name)
            ))
            .map_err(&fail)?;
            return Ok(ProgramSchema {
                url: url.clone(),
                name,
                observer: Mutex::new(c),
            });
        }
        Err(ProgramDbError::Postgres(format!(
            "--db {url}: the schemas {PROGRAM_SCHEMA_PREFIX}1 to {PROGRAM_SCHEMA_PREFIX}{SLOTS} are all taken by live runs of idem or by others"
        )))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The application name of instance `instance`'s backends.
    pub fn backend_name(&self, instance: &str) -> String {
        format!("{}.{instance}", self.name)
    }

    /// The address instance `instance` connects with.
    pub fn address_for(&self, instance: &str) -> String {
        self.url
            .with_session(&self.name, &self.backend_name(instance))
    }

    pub(super) fn observe<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, postgres::Error>,
    ) -> Result<T, ProgramDbError> {
        let mut c = self.observer.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut c).map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))
    }

    /// Whether a backend of `instance` waits for a lock, and whose.
    pub fn lock_wait(&self, instance: &str) -> Result<LockWait, ProgramDbError> {
        let rows: Vec<String> = self.observe(|c| {
            Ok(c.query(LOCK_WAIT, &[&self.backend_name(instance)])?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })?;
        let ours = format!("{}.", self.name);
        let mut wait = LockWait {
            waits: !rows.is_empty(),
            ..LockWait::default()
        };
        for name in rows {
            match name.strip_prefix(&ours) {
                Some(who) if !wait.holders.iter().any(|h| h == who) => {
                    wait.holders.push(who.to_string())
                }
                Some(_) => {}
                None => wait.outside += 1,
            }
        }
        Ok(wait)
    }

    /// Waits until the server shows no backend of `instance` (its process
    /// was killed or ended: the connection closed, the server rolls back).
    /// Looked at every millisecond, up to `limit`; then the backends left
    /// are ended from the server's side (a backend waiting for a lock sees
    /// its client gone only when the lock comes), and waited for again.
    pub fn wait_gone(&self, instance: &str, limit: Duration) -> Result<(), ProgramDbError> {
        let name = self.backend_name(instance);
        let count = |s: &Self| -> Result<i64, ProgramDbError> {
            s.observe(|c| Ok(c.query_one(BACKENDS_NAMED, &[&name])?.get(0)))
        };
        let pauses = limit.as_millis().max(1);
        for round in 0..2 {
            for _ in 0..pauses {
                if count(self)? == 0 {
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            if round == 0 {
                self.observe(|c| {
                    c.query(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
                        &[&name],
                    )
                    .map(drop)
                })?;
            }
        }
        Err(ProgramDbError::Postgres(format!(
            "PostgreSQL at {}: the backends of instance {instance} did not end",
            self.url
        )))
    }
}

impl Drop for ProgramSchema {
    /// Ends every backend of the run that is left (they would hold the
    /// drop up), waits for them to go, drops the schema and lets its name go.
    fn drop(&mut self) {
        let prefix = format!("{}.", self.name);
        let c = self.observer.get_mut().unwrap_or_else(|e| e.into_inner());
        let _ = c.query(END_BACKENDS_OF, &[&prefix]);
        // Bounded: the ended backends let go within moments.
        for _ in 0..5_000 {
            match c.query_one(BACKENDS_OF, &[&prefix]) {
                Ok(row) if row.get::<_, i64>(0) > 0 => std::thread::sleep(Duration::from_millis(1)),
                _ => break,
            }
        }
        let _ = c.batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {} CASCADE",
            quoted(&self.name)
        ));
        let _ = c.query(UNLOCK, &[&self.name]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Option<ProgramSchema> {
        match ProgramSchema::create(&super::super::pg_tests::test_url()) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("skipped: no PostgreSQL server for this test ({e})");
                None
            }
        }
    }

    /// The IDs a program records as handled, committed ones only, read as
    /// the server writes them in text.
    #[test]
    fn handled_ids_are_the_committed_first_column_as_text() {
        let Some(s) = schema() else { return };
        let mut a = postgres::Client::connect(&s.address_for("A"), postgres::NoTls).unwrap();
        a.batch_execute(
            "CREATE TABLE processed_messages (message_id TEXT PRIMARY KEY);
             INSERT INTO processed_messages VALUES ('m-1');",
        )
        .unwrap();
        a.batch_execute("BEGIN; INSERT INTO processed_messages VALUES ('m-2')")
            .unwrap();
        let ids = s
            .read_handled("SELECT message_id FROM processed_messages")
            .unwrap();
        assert_eq!(ids.into_keys().collect::<Vec<_>>(), ["m-1"]);
        assert_eq!(
            s.read_handled("SELECT 7")
                .unwrap()
                .into_keys()
                .collect::<Vec<_>>(),
            ["7"]
        );
        assert!(s.read_handled("SELECT message_id FROM inbox").is_err());
        // A query with no column, or one of another type, is told, not a
        // panic; nor can a second statement end the read-only transaction.
        for (query, told) in [
            ("SELECT FROM processed_messages", "gives no column"),
            ("SELECT 1.5", "of type numeric"),
        ] {
            let e = s.read_handled(query).unwrap_err();
            assert!(
                matches!(e, ProgramDbError::HandledShape { .. }) && e.to_string().contains(told),
                "{query}: {e}"
            );
        }
        assert!(matches!(
            s.read_handled("COMMIT; SELECT 'm-9'"),
            Err(ProgramDbError::Query { .. })
        ));
        drop(a);
        s.wait_gone("A", Duration::from_secs(5)).unwrap();
    }

    /// Two instances' connections, found by their names: B's insert waits
    /// for A's row, and the server names A as the holder; once B's
    /// connection closes, its backend is seen gone; the schema goes at the
    /// end and its name is free again.
    #[test]
    fn a_wait_is_seen_with_its_holder_and_a_closed_connection_goes() {
        let Some(s) = schema() else { return };
        let connect =
            |who: &str| postgres::Client::connect(&s.address_for(who), postgres::NoTls).unwrap();
        let mut a = connect("A");
        a.batch_execute("CREATE TABLE processed_messages (message_id TEXT PRIMARY KEY)")
            .unwrap();
        a.batch_execute("BEGIN; INSERT INTO processed_messages VALUES ('m-1')")
            .unwrap();
        assert_eq!(s.lock_wait("B").unwrap(), LockWait::default());
        let mut b = connect("B");
        let waiting = std::thread::spawn(move || {
            let n = b
                .execute(
                    "INSERT INTO processed_messages VALUES ('m-1') ON CONFLICT (message_id) DO NOTHING",
                    &[],
                )
                .unwrap();
            (b, n)
        });
        let seen = (0..5_000).find_map(|_| {
            let wait = s.lock_wait("B").unwrap();
            if wait.waits {
                return Some(wait);
            }
            std::thread::sleep(Duration::from_millis(1));
            None
        });
        assert_eq!(
            seen,
            Some(LockWait {
                waits: true,
                holders: vec!["A".into()],
                outside: 0
            })
        );
        a.batch_execute("COMMIT").unwrap();
        let (b, n) = waiting.join().unwrap();
        assert_eq!(n, 0, "A committed: B's insert finds the row");
        drop(b);
        s.wait_gone("B", Duration::from_secs(5)).unwrap();
        assert_eq!(
            s.read_recorded("SELECT 1042, 40 FROM processed_messages")
                .unwrap(),
            [Recorded {
                order: 1042,
                amount: 40
            }]
        );
        let e = s
            .read_recorded("SELECT message_id, 40 FROM processed_messages")
            .unwrap_err();
        assert!(e.to_string().contains("column 1 is of type text"), "{e}");
        let name = s.name().to_string();
        let url = s.url.clone();
        drop(a);
        drop(s);
        let mut c = ProgramSchema::connect(&url).unwrap();
        assert!(c.query_opt(COMMENT_OF, &[&name]).unwrap().is_none());
    }
}
