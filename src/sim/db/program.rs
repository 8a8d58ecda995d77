//! A user's program's own database, seen from outside (`idem test`): idem
//! never writes it, only asks whether someone holds its write lock, reads
//! what the program recorded (and which message IDs it records as
//! handled) with the user's queries, and lists its tables
//! for a replay. Every connection here is short-lived, so it holds no lock
//! between two looks.

use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum ProgramDbError {
    #[error("the program's database {path} does not exist: the program never created it")]
    Missing { path: String },
    #[error("{query}: {message}")]
    Query { query: String, message: String },
    #[error(
        "{query}: row {row} has {found}; idem needs two integer columns, the order and the amount (whole dollars)"
    )]
    Shape {
        query: String,
        row: usize,
        found: String,
    },
    #[error(
        "{query}: column {column} is of type {found}; idem needs two integer columns, the order and the amount (whole dollars): cast it, as in order_id::bigint"
    )]
    ColumnType {
        query: String,
        column: usize,
        found: String,
    },
    /// The handled query (`--handled-query`) gave no message ID where a
    /// row should hold one.
    #[error(
        "{query}: {found}; idem reads the first column as the message ID the program recorded as handled: text or an integer"
    )]
    HandledShape { query: String, found: String },
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// One line that says what went wrong on the server and what to do.
    #[error("{0}")]
    Postgres(String),
}

/// How long a look waits for a lock the program holds for a moment (a
/// commit); longer than that, and the look fails and says so.
const LOOK_WAIT: Duration = Duration::from_millis(2_000);

fn open(path: &Path, write: bool) -> Result<Option<Connection>, ProgramDbError> {
    if !path.exists() {
        return Ok(None);
    }
    let flags = if write {
        OpenFlags::SQLITE_OPEN_READ_WRITE
    } else {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Ok(Some(Connection::open_with_flags(path, flags)?))
}

/// True when some connection holds the database's write lock (a write
/// transaction is open): a `BEGIN IMMEDIATE` that is refused at once. The
/// probe's own lock lasts one statement and is never promoted, so a writer
/// that meets it waits in its busy handler and goes on.
pub fn write_lock_held(path: &Path) -> Result<bool, ProgramDbError> {
    let Some(conn) = open(path, true)? else {
        return Ok(false);
    };
    conn.busy_timeout(Duration::ZERO)?;
    match conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;") {
        Ok(()) => Ok(false),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if matches!(e.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
        {
            Ok(true)
        }
        Err(e) => Err(e.into()),
    }
}

/// One row the program recorded: an order and an amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Recorded {
    pub order: u32,
    pub amount: u32,
}

/// Runs the user's query over what is committed and reads its first two
/// columns as (order, amount).
pub fn read_recorded(path: &Path, query: &str) -> Result<Vec<Recorded>, ProgramDbError> {
    let Some(conn) = open(path, false)? else {
        return Err(ProgramDbError::Missing {
            path: path.display().to_string(),
        });
    };
    conn.busy_timeout(LOOK_WAIT)?;
    let failed = |e: rusqlite::Error| ProgramDbError::Query {
        query: query.to_string(),
        message: e.to_string(),
    };
    let mut stmt = conn.prepare(query).map_err(failed)?;
    if stmt.column_count() < 2 {
        return Err(ProgramDbError::Shape {
            query: query.to_string(),
            row: 0,
            found: format!("{} column", stmt.column_count()),
        });
    }
    let mut rows = stmt.query([]).map_err(failed)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(failed)? {
        let n = out.len() + 1;
        let int = |i: usize| -> Result<u32, ProgramDbError> {
            let value: rusqlite::types::Value = row.get(i).map_err(failed)?;
            match value {
                rusqlite::types::Value::Integer(v) if (0..=i64::from(u32::MAX)).contains(&v) => {
                    Ok(v as u32)
                }
                other => Err(ProgramDbError::Shape {
                    query: query.to_string(),
                    row: n,
                    found: format!("{} in column {}", describe(&other), i + 1),
                }),
            }
        };
        out.push(Recorded {
            order: int(0)?,
            amount: int(1)?,
        });
    }
    Ok(out)
}

/// Each message ID the program records as handled, with how many rows of
/// the handled query list it: more than one says nothing refused a second
/// record of the same ID.
pub type Handled = BTreeMap<String, usize>;

/// Runs the user's query for the message IDs the program records as
/// handled (its `processed_messages`) and reads its first column as text.
pub fn read_handled(path: &Path, query: &str) -> Result<Handled, ProgramDbError> {
    let Some(conn) = open(path, false)? else {
        return Ok(Handled::new());
    };
    conn.busy_timeout(LOOK_WAIT)?;
    let failed = |e: rusqlite::Error| ProgramDbError::Query {
        query: query.to_string(),
        message: e.to_string(),
    };
    let mut stmt = conn.prepare(query).map_err(failed)?;
    if stmt.column_count() == 0 {
        return Err(ProgramDbError::HandledShape {
            query: query.to_string(),
            found: "it gives no column".into(),
        });
    }
    let mut rows = stmt.query([]).map_err(failed)?;
    let mut out = Handled::new();
    let mut n = 0;
    while let Some(row) = rows.next().map_err(failed)? {
        n += 1;
        use rusqlite::types::Value;
        // An ID kept as bytes is read as the text it holds; any other
        // value is told, not dropped: a dropped ID would turn the
        // verdict from "charge lost" to "message lost" with no word why.
        match row.get(0).map_err(failed)? {
            Value::Null => {}
            Value::Text(t) => *out.entry(t).or_default() += 1,
            Value::Integer(v) => *out.entry(v.to_string()).or_default() += 1,
            Value::Blob(b) if std::str::from_utf8(&b).is_ok() => {
                *out.entry(String::from_utf8_lossy(&b).into_owned())
                    .or_default() += 1;
            }
            other => {
                return Err(ProgramDbError::HandledShape {
                    query: query.to_string(),
                    found: format!("row {n} has {}", describe(&other)),
                });
            }
        }
    }
    Ok(out)
}

fn describe(value: &rusqlite::types::Value) -> String {
    use rusqlite::types::Value;
    match value {
        Value::Null => "NULL".into(),
        Value::Integer(v) => format!("the integer {v}"),
        Value::Real(v) => format!("the real {v}"),
        Value::Text(t) => format!("the text {:?}", t.chars().take(40).collect::<String>()),
        Value::Blob(b) => format!("a blob of {} bytes", b.len()),
    }
}

/// The names of the columns `query` reads (its aliases where it gives
/// some), without running it; none where the database or a table it
/// reads is not there yet.
pub fn query_columns(path: &Path, query: &str) -> Result<Vec<String>, ProgramDbError> {
    let Some(conn) = open(path, false)? else {
        return Ok(Vec::new());
    };
    conn.busy_timeout(LOOK_WAIT)?;
    let Ok(stmt) = conn.prepare(query) else {
        return Ok(Vec::new());
    };
    Ok(stmt.column_names().map(String::from).collect())
}

/// One of the program's tables as committed: its name, its columns and its
/// rows as text, in rowid order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDump {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Every table of the program's database, by name, with at most `limit`
/// rows each (the count says how many there are).
pub fn dump_tables(path: &Path, limit: usize) -> Result<Vec<(TableDump, usize)>, ProgramDbError> {
    let Some(conn) = open(path, false)? else {
        return Ok(Vec::new());
    };
    conn.busy_timeout(LOOK_WAIT)?;
    let names: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for name in names {
        let quoted = format!("\"{}\"", name.replace('"', "\"\""));
        let total: i64 =
            conn.query_row(&format!("SELECT count(*) FROM {quoted}"), [], |r| r.get(0))?;
        let mut stmt = conn.prepare(&format!("SELECT * FROM {quoted} LIMIT {limit}"))?;
        let columns: Vec<String> = stmt.column_names().map(|c| c.to_string()).collect();
        let width = columns.len();
        let rows = stmt
            .query_map([], |r| {
                (0..width)
                    .map(|i| {
                        let v: rusqlite::types::Value = r.get(i)?;
                        Ok(match v {
                            rusqlite::types::Value::Null => "NULL".to_string(),
                            rusqlite::types::Value::Integer(v) => v.to_string(),
                            rusqlite::types::Value::Real(v) => v.to_string(),
                            rusqlite::types::Value::Text(t) => t,
                            rusqlite::types::Value::Blob(b) => format!("<{} bytes>", b.len()),
                        })
                    })
                    .collect::<Result<Vec<String>, rusqlite::Error>>()
            })?
            .collect::<Result<Vec<_>, _>>()?;
        out.push((
            TableDump {
                name,
                columns,
                rows,
            },
            usize::try_from(total).unwrap_or(0),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The IDs a program records as handled, committed ones only, read as
    /// text whatever their type; a missing table is an error the run
    /// judges (with the default query: nothing recorded).
    #[test]
    fn handled_ids_are_the_committed_first_column_as_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        assert!(read_handled(&path, "SELECT 1").unwrap().is_empty());
        let program = Connection::open(&path).unwrap();
        program
            .execute_batch(
                "CREATE TABLE processed_messages (message_id);
                 INSERT INTO processed_messages VALUES ('m-1'), (7), (NULL), ('m-1');
                 BEGIN; INSERT INTO processed_messages VALUES ('m-2');",
            )
            .unwrap();
        // Each ID with the rows that list it: m-1 twice, no key refused it.
        let ids = read_handled(&path, "SELECT message_id FROM processed_messages").unwrap();
        assert_eq!(
            ids.into_iter().collect::<Vec<_>>(),
            [("7".to_string(), 1), ("m-1".to_string(), 2)]
        );
        assert!(read_handled(&path, "SELECT message_id FROM inbox").is_err());
        // An ID kept as bytes is its text; a value that is no ID is told.
        let bytes = read_handled(&path, "SELECT CAST('m-3' AS BLOB)").unwrap();
        assert_eq!(bytes.into_keys().collect::<Vec<_>>(), ["m-3"]);
        let e = read_handled(&path, "SELECT 1.5").unwrap_err();
        assert!(
            matches!(e, ProgramDbError::HandledShape { .. })
                && e.to_string().contains("the real 1.5"),
            "{e}"
        );
    }

    #[test]
    fn a_write_transaction_is_seen_and_a_read_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let program = Connection::open(&path).unwrap();
        program
            .execute_batch("CREATE TABLE payments (order_id INTEGER, amount INTEGER);")
            .unwrap();
        assert!(!write_lock_held(&path).unwrap());
        program
            .execute_batch("BEGIN; INSERT INTO payments VALUES (1042, 40);")
            .unwrap();
        assert!(write_lock_held(&path).unwrap());
        assert!(
            read_recorded(&path, "SELECT order_id, amount FROM payments")
                .unwrap()
                .is_empty(),
            "an open transaction's row is not committed"
        );
        program.execute_batch("COMMIT").unwrap();
        assert!(!write_lock_held(&path).unwrap());
        assert_eq!(
            read_recorded(&path, "SELECT order_id, amount FROM payments").unwrap(),
            [Recorded {
                order: 1042,
                amount: 40
            }]
        );
    }

    #[test]
    fn a_query_of_another_shape_says_what_it_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let program = Connection::open(&path).unwrap();
        program
            .execute_batch("CREATE TABLE payments (order_id TEXT, amount INTEGER); INSERT INTO payments VALUES ('x', 4);")
            .unwrap();
        let e = read_recorded(&path, "SELECT order_id, amount FROM payments").unwrap_err();
        assert!(
            e.to_string()
                .contains("row 1 has the text \"x\" in column 1"),
            "{e}"
        );
        let e = read_recorded(&path, "SELECT amount FROM payments").unwrap_err();
        assert!(e.to_string().contains("1 column"), "{e}");
        let e = read_recorded(&path, "SELECT a, b FROM nowhere").unwrap_err();
        assert!(e.to_string().contains("no such table: nowhere"), "{e}");
    }
}
