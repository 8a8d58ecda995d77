//! What the program recorded and which tables it made, read from its
//! PostgreSQL schema (`program_pg.rs`) on idem's own connection: the user's
//! queries in a read-only transaction, and each table as text for a replay.

use super::pg_error;
use super::program::{ProgramDbError, Recorded, TableDump};
use super::program_pg::{ProgramSchema, quoted};
use postgres::SimpleQueryMessage;
use postgres::types::Type;
use std::collections::BTreeSet;

const TABLES: &str = "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename";

impl ProgramSchema {
    /// Runs the user's query over what is committed, in a read-only
    /// transaction on the schema, and reads its first two columns as
    /// (order, amount): integer columns only.
    pub fn read_recorded(&self, query: &str) -> Result<Vec<Recorded>, ProgramDbError> {
        let failed = |e: postgres::Error| ProgramDbError::Query {
            query: query.to_string(),
            message: e
                .as_db_error()
                .map(|d| d.message().to_string())
                .unwrap_or_else(|| e.to_string()),
        };
        let mut c = self.observer.lock().unwrap_or_else(|e| e.into_inner());
        let mut txn = c
            .build_transaction()
            .read_only(true)
            .start()
            .map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))?;
        txn.batch_execute(&format!("SET LOCAL search_path TO {}", quoted(&self.name)))
            .map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))?;
        let statement = txn.prepare(query).map_err(failed)?;
        let columns = statement.columns();
        if columns.len() < 2 {
            return Err(ProgramDbError::Shape {
                query: query.to_string(),
                row: 0,
                found: format!("{} column", columns.len()),
            });
        }
        for (i, column) in columns.iter().take(2).enumerate() {
            let ty = column.type_();
            if ![Type::INT2, Type::INT4, Type::INT8].contains(ty) {
                return Err(ProgramDbError::ColumnType {
                    query: query.to_string(),
                    column: i + 1,
                    found: ty.name().to_string(),
                });
            }
        }
        let rows = txn.query(&statement, &[]).map_err(failed)?;
        let mut out = Vec::with_capacity(rows.len());
        for (n, row) in rows.iter().enumerate() {
            let int = |i: usize| -> Result<u32, ProgramDbError> {
                let ty = row.columns()[i].type_();
                let value: Option<i64> = if *ty == Type::INT8 {
                    row.get(i)
                } else if *ty == Type::INT4 {
                    row.get::<_, Option<i32>>(i).map(i64::from)
                } else {
                    row.get::<_, Option<i16>>(i).map(i64::from)
                };
                match value {
                    Some(v) if (0..=i64::from(u32::MAX)).contains(&v) => Ok(v as u32),
                    other => Err(ProgramDbError::Shape {
                        query: query.to_string(),
                        row: n + 1,
                        found: match other {
                            Some(v) => format!("the integer {v} in column {}", i + 1),
                            None => format!("NULL in column {}", i + 1),
                        },
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

    /// Runs the user's query for the message IDs the program records as
    /// handled, in a read-only transaction on the schema, and reads its
    /// first column as the server writes it in text.
    pub fn read_handled(&self, query: &str) -> Result<BTreeSet<String>, ProgramDbError> {
        let mut c = self.observer.lock().unwrap_or_else(|e| e.into_inner());
        let mut txn = c
            .build_transaction()
            .read_only(true)
            .start()
            .map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))?;
        txn.batch_execute(&format!("SET LOCAL search_path TO {}", quoted(&self.name)))
            .map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))?;
        let messages = txn.simple_query(query).map_err(|e| ProgramDbError::Query {
            query: query.to_string(),
            message: e
                .as_db_error()
                .map(|d| d.message().to_string())
                .unwrap_or_else(|| e.to_string()),
        })?;
        Ok(messages
            .iter()
            .filter_map(|m| match m {
                SimpleQueryMessage::Row(r) => r.get(0).map(str::to_string),
                _ => None,
            })
            .collect())
    }

    /// Every table of the schema, by name, with at most `limit` rows each
    /// as text, in the order the server stores them (the count says how
    /// many there are).
    pub fn dump_tables(&self, limit: usize) -> Result<Vec<(TableDump, usize)>, ProgramDbError> {
        self.observe(|c| {
            let names: Vec<String> = c
                .query(TABLES, &[&self.name])?
                .iter()
                .map(|r| r.get(0))
                .collect();
            let mut out = Vec::new();
            for name in names {
                let table = format!("{}.{}", quoted(&self.name), quoted(&name));
                let messages = c.simple_query(&format!(
                    "SELECT count(*) FROM {table}; SELECT * FROM {table} ORDER BY ctid LIMIT {limit}"
                ))?;
                let mut total = 0;
                let mut columns = Vec::new();
                let mut rows = Vec::new();
                let mut set = 0;
                for message in &messages {
                    match message {
                        SimpleQueryMessage::RowDescription(d) => {
                            set += 1;
                            if set == 2 {
                                columns = d.iter().map(|c| c.name().to_string()).collect();
                            }
                        }
                        SimpleQueryMessage::Row(r) if set == 1 => {
                            total = r.get(0).and_then(|t| t.parse().ok()).unwrap_or(0);
                        }
                        SimpleQueryMessage::Row(r) => rows.push(
                            (0..r.len())
                                .map(|i| r.get(i).unwrap_or("NULL").to_string())
                                .collect(),
                        ),
                        _ => {}
                    }
                }
                out.push((
                    TableDump {
                        name,
                        columns,
                        rows,
                    },
                    total,
                ));
            }
            Ok(out)
        })
    }
}
