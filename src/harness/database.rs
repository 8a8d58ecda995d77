//! The program's own database for one run: a fresh SQLite file in the
//! run's folder, or a fresh schema on a PostgreSQL server (`--db
//! postgres://…`). The seam the run uses for both: what the program is
//! told in its environment, whether a quiet instance waits for a lock,
//! what a killed instance leaves behind, what the program recorded, which
//! message IDs it records as handled, and its tables for a replay. The statements are in `sim::db::program` and
//! `sim::db::program_pg`.

use crate::sim::db::PgUrl;
use crate::sim::db::program::{self, Handled, ProgramDbError, Recorded, TableDump};
use crate::sim::db::program_pg::{LockWait, ProgramSchema};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub enum ProgramDb {
    Sqlite(PathBuf),
    /// Boxed: a server's connection is large, and a file is the usual case.
    Postgres(Box<ProgramSchema>),
}

impl ProgramDb {
    /// A fresh database: the file at `path` removed (with its journals),
    /// or a new schema on the server at `server`.
    pub fn fresh(path: &Path, server: Option<&PgUrl>) -> Result<ProgramDb, String> {
        if let Some(url) = server {
            return ProgramSchema::create(url)
                .map(|schema| ProgramDb::Postgres(Box::new(schema)))
                .map_err(|e| e.to_string());
        }
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let path = PathBuf::from(format!("{}{suffix}", path.display()));
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("cannot remove {}: {e}", path.display())),
            }
        }
        Ok(ProgramDb::Sqlite(path.to_path_buf()))
    }

    /// What instance `instance` finds in its environment about its database.
    pub fn env(&self, instance: &str) -> Vec<(String, String)> {
        match self {
            ProgramDb::Sqlite(path) => vec![
                ("IDEM_DB_KIND".into(), "sqlite".into()),
                ("IDEM_DB".into(), path.display().to_string()),
            ],
            ProgramDb::Postgres(schema) => vec![
                ("IDEM_DB_KIND".into(), "postgres".into()),
                ("IDEM_DB_URL".into(), schema.address_for(instance)),
                ("IDEM_DB_SCHEMA".into(), schema.name().to_string()),
                // For a libpq program that builds its own address: the
                // same schema and name through libpq's own variables.
                ("PGAPPNAME".into(), schema.backend_name(instance)),
                (
                    "PGOPTIONS".into(),
                    format!("-c search_path={}", schema.name()),
                ),
            ],
        }
    }

    pub fn is_server(&self) -> bool {
        matches!(self, ProgramDb::Postgres(_))
    }

    /// SQLite: whether some connection holds the write lock (a writer is
    /// in a transaction). It names no holder: the run reads it beside the
    /// instances' states.
    pub fn write_lock_held(&self) -> bool {
        match self {
            ProgramDb::Sqlite(path) => program::write_lock_held(path).unwrap_or(false),
            ProgramDb::Postgres(_) => false,
        }
    }

    /// PostgreSQL: whether a backend of `instance` waits for a lock, and
    /// whose; the server's own lock view. SQLite cannot say (no waits).
    pub fn lock_wait(&self, instance: &str) -> Result<LockWait, ProgramDbError> {
        match self {
            ProgramDb::Sqlite(_) => Ok(LockWait::default()),
            ProgramDb::Postgres(schema) => schema.lock_wait(instance),
        }
    }

    /// After an instance's process ended: on a server, wait until its
    /// backends are gone (the server has rolled back what they left
    /// open). A SQLite file's lock goes with the process.
    pub fn ended(&self, instance: &str, limit: Duration) -> Result<(), ProgramDbError> {
        match self {
            ProgramDb::Sqlite(_) => Ok(()),
            ProgramDb::Postgres(schema) => schema.wait_gone(instance, limit),
        }
    }

    pub fn read_recorded(&self, query: &str) -> Result<Vec<Recorded>, ProgramDbError> {
        match self {
            ProgramDb::Sqlite(path) => program::read_recorded(path, query),
            ProgramDb::Postgres(schema) => schema.read_recorded(query),
        }
    }

    /// The message IDs the program records as handled, by `query`, each
    /// with the rows that list it.
    pub fn read_handled(&self, query: &str) -> Result<Handled, ProgramDbError> {
        match self {
            ProgramDb::Sqlite(path) => program::read_handled(path, query),
            ProgramDb::Postgres(schema) => schema.read_handled(query),
        }
    }

    /// The names of the columns `query` reads, for a replay to find the
    /// table columns that record a payment.
    pub fn query_columns(&self, query: &str) -> Result<Vec<String>, ProgramDbError> {
        match self {
            ProgramDb::Sqlite(path) => program::query_columns(path, query),
            ProgramDb::Postgres(schema) => schema.query_columns(query),
        }
    }

    pub fn dump_tables(&self, limit: usize) -> Result<Vec<(TableDump, usize)>, ProgramDbError> {
        match self {
            ProgramDb::Sqlite(path) => program::dump_tables(path, limit),
            ProgramDb::Postgres(schema) => schema.dump_tables(limit),
        }
    }
}
