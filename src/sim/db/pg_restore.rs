//! Putting a run's tables back on the server: what the checker does to
//! each world it copies, thousands of times, so only what differs is
//! rewritten, in one transaction of prepared statements.

use super::pg_database::PgDatabase;
use super::pg_link::Value;
use super::rows::Tables;
use super::sql_postgres::*;
use super::*;

impl PgDatabase {
    /// Puts `tables` in the schema. `have` is what it holds now, when
    /// known: then only the tables that differ are rewritten, each emptied
    /// by a DELETE (cheap on a few rows; a TRUNCATE makes new files on the
    /// server, and the checker restores thousands of times).
    pub fn restore_over(&self, have: Option<&Tables>, tables: &Tables) -> Result<(), DbError> {
        if have == Some(tables) {
            return Ok(());
        }
        let differs = |same: fn(&Tables, &Tables) -> bool| have.is_none_or(|h| !same(h, tables));
        let mut script: Vec<(&'static str, Vec<Value>)> = Vec::new();
        if differs(|a, b| a.payments == b.payments) {
            script.push((PG_EMPTY_PAYMENTS, vec![]));
            for p in &tables.payments {
                script.push((
                    PG_RESTORE_PAYMENT,
                    vec![
                        Value::Int(p.id),
                        Value::Int(p.order.into()),
                        Value::Int(p.amount.into()),
                        Value::Text(p.message_id.clone()),
                    ],
                ));
            }
            // Past the rows put back (an id is never shown: only the
            // order of the rows is, and the sequence only goes up).
            script.push((PG_RESTART_PAYMENT_IDS, vec![]));
        }
        if differs(|a, b| a.processed == b.processed) {
            script.push((PG_EMPTY_PROCESSED, vec![]));
            for p in &tables.processed {
                script.push((
                    PG_RESTORE_PROCESSED,
                    vec![
                        Value::Text(p.message_id.clone()),
                        Value::Int(p.processed_at as i64),
                    ],
                ));
            }
        }
        if differs(|a, b| a.records == b.records) {
            script.push((PG_EMPTY_RECORDS, vec![]));
            for r in &tables.records {
                script.push((
                    PG_RESTORE_RECORD,
                    vec![
                        Value::Text(r.message_id.clone()),
                        Value::Text(r.status.clone()),
                        Value::Text(r.owner.clone()),
                        Value::Int(r.deadline as i64),
                        r.result.clone().map_or(Value::Null, Value::Text),
                    ],
                ));
            }
        }
        if differs(|a, b| a.orders == b.orders) {
            script.push((PG_EMPTY_ORDERS, vec![]));
            for o in &tables.orders {
                script.push((
                    PG_RESTORE_ORDER,
                    vec![
                        Value::Int(o.order.into()),
                        Value::Text(o.last_message_id.clone()),
                    ],
                ));
            }
        }
        if differs(|a, b| a.last_offset == b.last_offset) {
            script.push((PG_EMPTY_OFFSETS, vec![]));
            if let Some(offset) = tables.last_offset {
                script.push((PG_RESTORE_OFFSET, vec![Value::Int(offset as i64)]));
            }
        }
        if differs(|a, b| a.statuses == b.statuses) {
            script.push((PG_EMPTY_STATUSES, vec![]));
            for s in &tables.statuses {
                script.push((
                    PG_RESTORE_STATUS,
                    vec![
                        Value::Int(s.order.into()),
                        Value::Text(s.status.clone()),
                        Value::Int(s.version.into()),
                    ],
                ));
            }
        }
        self.shared.changed();
        // One text, one round trip (see pg_script).
        let text = super::pg_script::one_text(&script);
        self.shared.observe(|c| c.client.batch_execute(&text))
    }
}
