//! The database the consumers share: real SQLite, or a real PostgreSQL
//! server; real transactions either way. `engine.rs` is the seam: the same
//! typed operations on both engines. What follows is about SQLite; the
//! PostgreSQL engine's files start with `pg_` (its statements are in
//! `sql_postgres.rs`).
//!
//! Each consumer has its own connection to one shared database: an in-memory
//! database on SQLite's memdb VFS (several connections, real locking), or a
//! real file with `--db`. Writers open transactions with `BEGIN IMMEDIATE`
//! and a busy timeout of zero, so a second writer gets `SQLITE_BUSY` at once;
//! the world turns that into "blocked, waiting for the other transaction".
//!
//! `sql.rs` holds every statement the simulator runs; `database.rs` the shared database,
//! `session.rs` a consumer's connection, `rows.rs` the rows as values and
//! `render.rs` the statements as shown.

use super::Millis;
use super::db_file::{self, DbFile, DbFileError};
use super::event::SqlAnswer;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, params};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

mod answer;
mod database;
mod engine;
mod pg_connect;
mod pg_connect_within;
pub(crate) mod pg_database;
mod pg_error;
mod pg_in_flight;
mod pg_link;
mod pg_observer;
mod pg_restore;
mod pg_rows;
mod pg_schema;
mod pg_script;
mod pg_session;
mod pg_shared;
mod pg_url;
pub mod program;
pub mod program_pg;
mod program_pg_read;
mod render;
mod rows;
mod session;
pub(crate) mod sql;
mod sql_postgres;
mod take_over;

use database::*;
pub use database::{SqliteDatabase, sqlite_version};
pub use engine::{Database, Engine, Session};
pub use pg_connect::{PG_CONNECT_TIMEOUT, PG_STATEMENT_TIMEOUT};
pub use pg_database::PgDatabase;
pub use pg_schema::drop_live_schemas;
pub use pg_session::PgSession;
pub use pg_url::{BadPgUrl, PgUrl, is_pg_url, redact};
pub use render::render_look_up;
use render::*;
use rows::*;
pub use rows::{Fresh, OrderRow, PaymentRow, ProcessedRow, RecordRow, StatusRow, Tables, Written};
pub use session::{Begin, Claim, Ran, RecordClaim, SqliteSession};
pub use sql::APPLICATION_ID;
use sql::*;
use take_over::take_over;

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
    /// One line that says what went wrong and what to do; no password in it.
    #[error("{0}")]
    Postgres(String),
    /// The statement was sent and the server shows it waiting for a lock
    /// that these backends hold: the world shows the wait and asks again.
    #[error("a statement is waiting for a lock held by backends {blockers:?}")]
    Waiting { blockers: Vec<i32> },
}

#[cfg(test)]
mod pg_tests;
#[cfg(test)]
mod tests;
