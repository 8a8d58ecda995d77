//! The run's tables as PostgreSQL gives them back: every table read in one
//! round trip (a connection's own view, or the committed tables in one
//! snapshot), and each row made a typed row again.

use super::pg_link::Value;
use super::sql_postgres::*;
use super::*;

/// The reads of every table, in the order [`tables_from`] takes them.
pub(super) const PG_READ_TABLES: [&str; 6] = [
    PG_SELECT_PAYMENTS,
    PG_SELECT_PROCESSED,
    PG_SELECT_RECORDS,
    PG_SELECT_ORDERS,
    PG_READ_OFFSET,
    PG_SELECT_STATUSES,
];

/// Per read of [`PG_READ_TABLES`], per column: an integer or text.
pub(super) const PG_TABLE_INTEGERS: [&[bool]; 6] = [
    &[true, true, true, false],
    &[false, true],
    &[false, false, false, true, false],
    &[true, false],
    &[true],
    &[true, false, true],
];

/// [`PG_READ_TABLES`] as one text of statements: sent as one message, they
/// cost one round trip to the server.
pub(super) fn pg_read_all_tables() -> &'static str {
    static ALL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| PG_READ_TABLES.join("; "));
    &ALL
}

/// Every table read in one snapshot, in one round trip.
pub(super) fn read_committed_tables(c: &mut postgres::Client) -> Result<Tables, postgres::Error> {
    static READ: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; {}; COMMIT",
            pg_read_all_tables()
        )
    });
    let messages = c.simple_query(&READ)?;
    Ok(tables_from(super::pg_link::read_sets(
        &messages,
        &PG_TABLE_INTEGERS,
    )))
}

/// The tables from the rows of [`PG_READ_TABLES`], in that order.
pub(super) fn tables_from(read: Vec<Vec<Vec<Value>>>) -> Tables {
    let [payments, processed, records, orders, offset, statuses]: [Vec<Vec<Value>>; 6] =
        read.try_into().unwrap_or_default();
    Tables {
        payments: payments.iter().map(|r| pg_payment(r)).collect(),
        processed: processed.iter().map(|r| pg_processed(r)).collect(),
        records: records.iter().map(|r| pg_record(r)).collect(),
        orders: orders.iter().map(|r| pg_order(r)).collect(),
        last_offset: offset.first().map(|r| r[0].int() as u64),
        statuses: statuses.iter().map(|r| pg_status(r)).collect(),
    }
}

pub(super) fn pg_payment(r: &[Value]) -> PaymentRow {
    PaymentRow {
        id: r[0].int(),
        order: r[1].int() as u32,
        amount: r[2].int() as u32,
        message_id: r[3].text(),
    }
}

pub(super) fn pg_processed(r: &[Value]) -> ProcessedRow {
    ProcessedRow {
        message_id: r[0].text(),
        processed_at: r[1].int() as Millis,
    }
}

pub(super) fn pg_record(r: &[Value]) -> RecordRow {
    RecordRow {
        message_id: r[0].text(),
        status: r[1].text(),
        owner: r[2].text(),
        deadline: r[3].int() as Millis,
        result: r[4].opt_text(),
    }
}

pub(super) fn pg_order(r: &[Value]) -> OrderRow {
    OrderRow {
        order: r[0].int() as u32,
        last_message_id: r[1].text(),
    }
}

pub(super) fn pg_status(r: &[Value]) -> StatusRow {
    StatusRow {
        order: r[0].int() as u32,
        status: r[1].text(),
        version: r[2].int() as u32,
    }
}
