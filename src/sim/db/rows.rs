//! The tables' rows as Rust values, how they are read and written back
//! whole, and what a commit wrote.

use super::*;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PaymentRow {
    pub id: i64,
    pub order: u32,
    pub amount: u32,
    pub message_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProcessedRow {
    pub message_id: String,
    pub processed_at: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordRow {
    pub message_id: String,
    pub status: String,
    pub owner: String,
    pub deadline: Millis,
    pub result: Option<String>,
}

/// A business row that remembers the last message applied to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderRow {
    pub order: u32,
    pub last_message_id: String,
}

/// The contents of the tables, in a stable order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tables {
    pub payments: Vec<PaymentRow>,
    pub processed: Vec<ProcessedRow>,
    pub records: Vec<RecordRow>,
    pub orders: Vec<OrderRow>,
    /// The offset-tracking design's last applied offset of partition 0.
    pub last_offset: Option<u64>,
    pub statuses: Vec<StatusRow>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusRow {
    pub order: u32,
    pub status: String,
    pub version: u32,
}

pub(super) fn payment_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PaymentRow> {
    Ok(PaymentRow {
        id: r.get(0)?,
        order: r.get(1)?,
        amount: r.get(2)?,
        message_id: r.get(3)?,
    })
}

pub(super) fn processed_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ProcessedRow> {
    Ok(ProcessedRow {
        message_id: r.get(0)?,
        processed_at: r.get::<_, i64>(1)? as Millis,
    })
}

pub(super) fn record_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RecordRow> {
    Ok(RecordRow {
        message_id: r.get(0)?,
        status: r.get(1)?,
        owner: r.get(2)?,
        deadline: r.get::<_, i64>(3)? as Millis,
        result: r.get(4)?,
    })
}

pub(super) fn order_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<OrderRow> {
    Ok(OrderRow {
        order: r.get(0)?,
        last_message_id: r.get(1)?,
    })
}

pub(super) fn status_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StatusRow> {
    Ok(StatusRow {
        order: r.get(0)?,
        status: r.get(1)?,
        version: r.get(2)?,
    })
}

/// Rewrites each table of `tables` that differs from `have` (all of them
/// when `have` is unknown).
pub(super) fn write_tables(
    db: &Connection,
    have: Option<&Tables>,
    tables: &Tables,
) -> Result<(), DbError> {
    let [processed, records, orders, offsets, statuses, payments] = EMPTY_TABLES;
    rewrite(
        db,
        have.map(|h| &h.payments[..]),
        &tables.payments,
        (payments, RESTORE_PAYMENT),
        |s, p| s.execute(params![p.id, p.order, p.amount, p.message_id]),
    )?;
    rewrite(
        db,
        have.map(|h| &h.processed[..]),
        &tables.processed,
        (processed, RESTORE_PROCESSED),
        |s, p| s.execute(params![p.message_id, p.processed_at as i64]),
    )?;
    rewrite(
        db,
        have.map(|h| &h.records[..]),
        &tables.records,
        (records, RESTORE_RECORD),
        |s, r| {
            s.execute(params![
                r.message_id,
                r.status,
                r.owner,
                r.deadline as i64,
                r.result
            ])
        },
    )?;
    rewrite(
        db,
        have.map(|h| &h.orders[..]),
        &tables.orders,
        (orders, RESTORE_ORDER),
        |s, o| s.execute(params![o.order, o.last_message_id]),
    )?;
    rewrite(
        db,
        have.map(|h| h.last_offset.as_slice()),
        tables.last_offset.as_slice(),
        (offsets, RESTORE_OFFSET),
        |s, offset| s.execute(params![*offset as i64]),
    )?;
    rewrite(
        db,
        have.map(|h| &h.statuses[..]),
        &tables.statuses,
        (statuses, RESTORE_STATUS),
        |s, r| s.execute(params![r.order, r.status, r.version]),
    )
}

/// Empties one table and inserts `rows`, unless it holds them already.
pub(super) fn rewrite<T: PartialEq>(
    db: &Connection,
    have: Option<&[T]>,
    rows: &[T],
    (delete, insert): (&str, &str),
    put: impl Fn(&mut rusqlite::Statement<'_>, &T) -> rusqlite::Result<usize>,
) -> Result<(), DbError> {
    if have == Some(rows) {
        return Ok(());
    }
    db.prepare_cached(delete)?.execute([])?;
    let mut stmt = db.prepare_cached(insert)?;
    for row in rows {
        put(&mut stmt, row)?;
    }
    Ok(())
}

/// Opens no write lock: a reader's transaction only.
pub(super) const BEGIN_READ: &str = "BEGIN";

/// The six reads in one read transaction: one shared lock taken and
/// released instead of six. Inside an open transaction, they are part of it.
pub(super) fn read_tables(conn: &Connection) -> Result<Tables, DbError> {
    if !conn.is_autocommit() {
        return read_each_table(conn);
    }
    conn.prepare_cached(BEGIN_READ)?.execute([])?;
    let read = read_each_table(conn);
    let end = if read.is_ok() { COMMIT } else { ROLLBACK };
    conn.prepare_cached(end)?.execute([])?;
    read
}

pub(super) fn read_each_table(conn: &Connection) -> Result<Tables, DbError> {
    Ok(Tables {
        payments: rows(conn, SELECT_PAYMENTS, payment_row)?,
        processed: rows(conn, SELECT_PROCESSED, processed_row)?,
        records: rows(conn, SELECT_RECORDS, record_row)?,
        orders: rows(conn, SELECT_ORDERS, order_row)?,
        last_offset: read_last_offset(conn)?,
        statuses: rows(conn, SELECT_STATUSES, status_row)?,
    })
}

/// One row by its key, if it exists.
pub(super) fn row_by<T, P: rusqlite::Params>(
    conn: &Connection,
    sql: &str,
    key: P,
    row: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, DbError> {
    match conn.prepare_cached(sql)?.query_row(key, row) {
        Ok(found) => Ok(Some(found)),
        Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The keys of the rows a connection wrote since its last commit: what a
/// commit makes new in the committed tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub payments: bool,
    /// The ids of the payment rows written (PostgreSQL): its transactions
    /// run side by side, so ids need not commit in order. Empty on SQLite,
    /// whose one writer at a time commits them in order.
    pub payment_ids: std::collections::BTreeSet<i64>,
    pub processed: std::collections::BTreeSet<String>,
    pub records: std::collections::BTreeSet<String>,
    pub orders: std::collections::BTreeSet<u32>,
    pub statuses: std::collections::BTreeSet<u32>,
    pub offset: bool,
}

impl Written {
    pub fn is_empty(&self) -> bool {
        *self == Written::default()
    }
}

/// The committed rows under the keys a commit wrote, as they are now:
/// `None` for a row that no longer exists.
#[derive(Debug, Default)]
pub struct Fresh {
    pub payments: Vec<PaymentRow>,
    pub processed: Vec<(String, Option<ProcessedRow>)>,
    pub records: Vec<(String, Option<RecordRow>)>,
    pub orders: Vec<(u32, Option<OrderRow>)>,
    pub statuses: Vec<(u32, Option<StatusRow>)>,
    pub last_offset: Option<Option<u64>>,
}

/// Every row a statement returns, mapped; statements are cached per
/// connection, since the same few reads run after every step.
pub(super) fn rows<T>(
    conn: &Connection,
    sql: &str,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, DbError> {
    let mut stmt = conn.prepare_cached(sql)?;
    let out = stmt.query_map([], row)?.collect::<Result<_, _>>()?;
    Ok(out)
}

pub(super) fn read_last_offset(conn: &Connection) -> Result<Option<u64>, DbError> {
    match conn
        .prepare_cached(READ_OFFSET)?
        .query_row([], |r| r.get::<_, i64>(0))
    {
        Ok(offset) => Ok(Some(offset as u64)),
        Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
