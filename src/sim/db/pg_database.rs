//! The run's database on a PostgreSQL server: a schema of its own (see
//! `pg_schema`), opened with its observer, and what the run reads from it.

use super::pg_connect::connect;
use super::pg_link::read_row;
use super::pg_observer::Observer;
use super::pg_rows::*;
use super::pg_schema::create_schema;
use super::pg_shared::PgShared;
use super::pg_url::PgUrl;
use super::sql_postgres::*;
use super::*;

/// A database on the server: one schema, its observer, and the sessions'
/// shared part. Sessions keep the shared part alive: the schema is dropped
/// when the last of them and the database are gone.
pub struct PgDatabase {
    pub(super) shared: Arc<PgShared>,
}

impl PgDatabase {
    /// A fresh schema on the server, with idem's tables, owned by this run.
    pub fn open(url: &PgUrl) -> Result<Self, DbError> {
        let mut observer = connect(url, None)?;
        let schema = create_schema(&mut observer, url)?;
        let shared = Arc::new(PgShared {
            url: url.clone(),
            schema,
            observer: Mutex::new(Observer::new(observer)),
            idle: Mutex::new(Vec::new()),
            changes: AtomicU64::new(0),
        });
        Ok(PgDatabase { shared })
    }

    pub fn url(&self) -> &PgUrl {
        &self.shared.url
    }

    /// The schema this run owns, for tests and messages.
    pub fn schema(&self) -> &str {
        &self.shared.schema
    }

    pub fn prune_processed(&self, cutoff: Millis) -> Result<(Vec<String>, Ran), DbError> {
        let cutoff_i = cutoff as i64;
        self.shared.changed();
        let deleted: Vec<String> = self.shared.observe(|c| {
            Ok(c.query(PG_PRUNE_PROCESSED, &[&cutoff_i])?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })?;
        let mut deleted = deleted;
        deleted.sort();
        let ran = Ran {
            sql: render(PG_PRUNE_PROCESSED, &[cutoff.to_string()]),
            result: match deleted.len() {
                1 => "1 row deleted".to_string(),
                n => format!("{n} rows deleted"),
            },
            answer: SqlAnswer::when(!deleted.is_empty()),
        };
        Ok((deleted, ran))
    }

    /// What is committed, read in one snapshot.
    pub fn committed(&self) -> Result<Tables, DbError> {
        self.shared.committed()
    }

    pub fn totals(&self) -> Result<(u64, u64), DbError> {
        self.shared.observe(|c| {
            let row = c.query_one(PG_TOTALS, &[])?;
            Ok((row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u64))
        })
    }

    pub fn bytes(&self) -> Result<u64, DbError> {
        self.shared
            .observe(|c| Ok(c.query_one(PG_BYTES, &[])?.get::<_, i64>(0) as u64))
    }

    pub fn fresh(&self, written: &Written, last_payment: i64) -> Result<Fresh, DbError> {
        self.shared.observe(|c| {
            let mut fresh = Fresh::default();
            if written.payments {
                let ids: Vec<i64> = written.payment_ids.iter().copied().collect();
                fresh.payments = c
                    .query(PG_SELECT_PAYMENTS_AFTER, &[&last_payment, &ids])?
                    .iter()
                    .map(|r| pg_payment(&read_row(r)))
                    .collect();
            }
            for id in &written.processed {
                let row = c.query_opt(PG_SELECT_PROCESSED_ROW, &[id])?;
                fresh
                    .processed
                    .push((id.clone(), row.map(|r| pg_processed(&read_row(&r)))));
            }
            for id in &written.records {
                let row = c.query_opt(PG_SELECT_RECORD_ROW, &[id])?;
                fresh
                    .records
                    .push((id.clone(), row.map(|r| pg_record(&read_row(&r)))));
            }
            for order in &written.orders {
                let key = i64::from(*order);
                let row = c.query_opt(PG_SELECT_ORDER_ROW, &[&key])?;
                fresh
                    .orders
                    .push((*order, row.map(|r| pg_order(&read_row(&r)))));
            }
            for order in &written.statuses {
                let key = i64::from(*order);
                let row = c.query_opt(PG_SELECT_STATUS_ROW, &[&key])?;
                fresh
                    .statuses
                    .push((*order, row.map(|r| pg_status(&read_row(&r)))));
            }
            if written.offset {
                fresh.last_offset = Some(
                    c.query_opt(PG_READ_OFFSET, &[])?
                        .map(|r| r.get::<_, i64>(0) as u64),
                );
            }
            Ok(fresh)
        })
    }
}
