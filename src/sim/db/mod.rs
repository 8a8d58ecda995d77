//! The database the consumers share: real SQLite, real transactions.
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

mod database;
pub mod program;
mod render;
mod rows;
mod session;
pub(crate) mod sql;
mod take_over;

use database::*;
pub use database::{Database, sqlite_version};
pub use render::render_look_up;
use render::*;
use rows::*;
pub use rows::{Fresh, OrderRow, PaymentRow, ProcessedRow, RecordRow, StatusRow, Tables, Written};
pub use session::{Begin, Claim, Ran, RecordClaim, Session};
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
}

#[cfg(test)]
mod tests;
