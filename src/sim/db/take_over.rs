//! Taking over a claimed `--db` file from SQLite's side. idem's `flock`
//! keeps other idem runs out, but a program such as `sqlite3` locks the
//! file with SQLite's own record locks, which that lock does not see. So
//! nothing changes the file until this connection holds SQLite's exclusive
//! lock, got without waiting: a file another program has open in a
//! transaction is refused exactly as it was, byte for byte. An earlier idem
//! database is then emptied through SQLite itself, under that lock, so no
//! reader ever sees a half-replaced file.

use super::*;

/// Takes SQLite's exclusive lock on the claimed file through `conn`,
/// empties an earlier idem database, writes idem's schema, and lets the
/// lock go again for the consumers' connections.
pub(super) fn take_over(conn: &Connection, file: &DbFile) -> Result<(), DbError> {
    conn.execute_batch(HOLD_LOCKS)?;
    match conn.execute_batch(BEGIN_EXCLUSIVE) {
        Err(e) if is_locked(&e) => return Err(file.locked().into()),
        other => other?,
    }
    // Read under the lock: the file is still the one checked before.
    let id: i32 = conn.query_row(READ_APPLICATION_ID, [], |r| r.get(0))?;
    conn.execute_batch(COMMIT)?;
    if file.found == db_file::Found::Earlier && id != APPLICATION_ID {
        return Err(DbFileError::NotOurs {
            path: file.path.display().to_string(),
            why: "it changed into a database without idem's application_id",
        }
        .into());
    }
    // From here to `RELEASE_LOCKS`, SQLite keeps the exclusive lock.
    conn.execute_batch(ROLLBACK_JOURNAL)?;
    if file.found == db_file::Found::Earlier {
        use rusqlite::config::DbConfig::SQLITE_DBCONFIG_RESET_DATABASE as RESET;
        conn.set_db_config(RESET, true)?;
        let emptied = conn.execute_batch(VACUUM);
        conn.set_db_config(RESET, false)?;
        emptied?;
    }
    conn.execute_batch(SCHEMA)?;
    conn.pragma_update(None, "application_id", APPLICATION_ID)?;
    conn.execute_batch(RELEASE_LOCKS)?;
    conn.query_row(TOUCH, [], |_| Ok(()))?;
    Ok(())
}

/// `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds the file.
fn is_locked(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}
