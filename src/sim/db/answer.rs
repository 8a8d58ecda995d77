//! What a handler's statement answered, in words and as a typed result: the
//! same on both engines, so that only the statements differ between them.
//! Each engine runs its own SQL and hands the row counts here.

use super::*;

fn said(sql: String, done: bool, yes: &str, no: &str) -> Ran {
    Ran {
        sql,
        result: if done { yes } else { no }.into(),
        answer: SqlAnswer::when(done),
    }
}

/// The processed_messages insert: one row, or a conflict (seen before).
pub(super) fn claim(sql: String, rows: u64) -> Claim {
    let first_time = rows == 1;
    Claim {
        ran: said(
            sql,
            first_time,
            "1 row inserted",
            "0 rows: conflict, message_id already handled",
        ),
        first_time,
    }
}

/// The look-up of a message ID.
pub(super) fn look_up(sql: String, found: bool) -> (bool, Ran) {
    (
        found,
        said(
            sql,
            found,
            "1 row: already handled",
            "0 rows: not seen before",
        ),
    )
}

/// The in-progress record's insert.
pub(super) fn record_inserted(sql: String, rows: u64) -> Ran {
    said(sql, rows == 1, "1 row inserted", "0 rows: a record exists")
}

/// The existing record, as read back.
pub(super) fn record_read(sql: String, status: &str, owner: &str, deadline: i64) -> Ran {
    Ran {
        sql,
        result: format!("{status}, owner {owner}, deadline {deadline}"),
        answer: SqlAnswer::Done,
    }
}

/// The take-over of a record whose deadline passed, and what the claim
/// came to.
pub(super) fn record_taken(
    sql: String,
    rows: u64,
    previous_owner: String,
    deadline: i64,
) -> (RecordClaim, Ran) {
    let took = rows == 1;
    let ran = said(
        sql,
        took,
        "1 row updated: deadline had passed, taken over",
        "0 rows: still within its deadline",
    );
    let claim = if took {
        RecordClaim::TookOver { previous_owner }
    } else {
        RecordClaim::Busy {
            owner: previous_owner,
            deadline: deadline as Millis,
        }
    };
    (claim, ran)
}

/// The record marked completed by its owner.
pub(super) fn record_completed(sql: String, rows: u64) -> (bool, Ran) {
    (
        rows == 1,
        said(
            sql,
            rows == 1,
            "1 row updated",
            "0 rows: no longer the owner",
        ),
    )
}

/// The order row's last message ID written.
pub(super) fn order_guarded(
    sql: String,
    rows: u64,
    previous: Option<String>,
) -> (bool, Option<String>, Ran) {
    (
        rows == 1,
        previous,
        said(
            sql,
            rows == 1,
            "1 row written: last_message_id set",
            "0 rows: the row's last message is this one",
        ),
    )
}

/// The last offset read.
pub(super) fn offset_read(sql: &str, last: Option<u64>) -> Ran {
    let result = match last {
        Some(o) => format!("last_offset = {o}"),
        None => "0 rows: nothing applied yet".into(),
    };
    let mut read = ran(sql, &result);
    read.answer = SqlAnswer::when(last.is_some());
    read
}

/// The offset saved.
pub(super) fn offset_saved(sql: String, rows: u64) -> Ran {
    Ran {
        sql,
        result: format!("{rows} row written"),
        answer: SqlAnswer::when(rows > 0),
    }
}

/// An order's status written (or not: a newer version is there).
pub(super) fn status_set(sql: String, rows: u64) -> (bool, Ran) {
    (
        rows == 1,
        said(
            sql,
            rows == 1,
            "1 row written",
            "0 rows: the row already has a newer version",
        ),
    )
}

/// A payment row inserted.
pub(super) fn payment_inserted(sql: String, rows: u64) -> Ran {
    Ran {
        sql,
        result: format!("{rows} row inserted"),
        answer: SqlAnswer::when(rows > 0),
    }
}
