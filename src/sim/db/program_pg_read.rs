//! What the program recorded and which tables it made, read from its
//! PostgreSQL schema (`program_pg.rs`) on idem's own connection: the user's
//! queries in a read-only transaction, and each table as text for a replay.

use super::pg_error;
use super::program::{Handled, ProgramDbError, Recorded, TableDump};
use super::program_pg::{ProgramSchema, quoted};
use postgres::SimpleQueryMessage;
use postgres::types::Type;

/// The integer types a query's column may have where idem reads a number.
const INTEGERS: [Type; 3] = [Type::INT2, Type::INT4, Type::INT8];

/// The user's query failed: the server's own words where it gave some.
fn failed(query: &str, e: postgres::Error) -> ProgramDbError {
    ProgramDbError::Query {
        query: query.to_string(),
        message: e
            .as_db_error()
            .map(|d| d.message().to_string())
            .unwrap_or_else(|| e.to_string()),
    }
}

/// Column `i` of `row`, one of `INTEGERS`, as an i64; `None` for NULL.
fn integer(row: &postgres::Row, i: usize) -> Option<i64> {
    let ty = row.columns()[i].type_();
    if *ty == Type::INT8 {
        row.get(i)
    } else if *ty == Type::INT4 {
        row.get::<_, Option<i32>>(i).map(i64::from)
    } else {
        row.get::<_, Option<i16>>(i).map(i64::from)
    }
}

const TABLES: &str = "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename";

impl ProgramSchema {
    /// Runs `read` in a read-only transaction on the schema: the user's
    /// queries see what is committed and can change nothing. Ended on
    /// drop, which rolls the read-only transaction back.
    fn read_only<T>(
        &self,
        read: impl FnOnce(&mut postgres::Transaction) -> Result<T, ProgramDbError>,
    ) -> Result<T, ProgramDbError> {
        let mut c = self.observer.lock().unwrap_or_else(|e| e.into_inner());
        let mut txn = c
            .build_transaction()
            .read_only(true)
            .start()
            .map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))?;
        txn.batch_execute(&format!("SET LOCAL search_path TO {}", quoted(&self.name)))
            .map_err(|e| ProgramDbError::Postgres(pg_error::running(&self.url, &e)))?;
        read(&mut txn)
    }

    /// Runs the user's query over what is committed, in a read-only
    /// transaction on the schema, and reads its first two columns as
    /// (order, amount): integer columns only.
    pub fn read_recorded(&self, query: &str) -> Result<Vec<Recorded>, ProgramDbError> {
        self.read_only(|txn| {
            // One statement, prepared: a query cannot end the read-only
            // transaction (`COMMIT; …`) and write.
            let statement = txn.prepare(query).map_err(|e| failed(query, e))?;
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
                if !INTEGERS.contains(ty) {
                    return Err(ProgramDbError::ColumnType {
                        query: query.to_string(),
                        column: i + 1,
                        found: ty.name().to_string(),
                    });
                }
            }
            let rows = txn.query(&statement, &[]).map_err(|e| failed(query, e))?;
            let mut out = Vec::with_capacity(rows.len());
            for (n, row) in rows.iter().enumerate() {
                let int = |i: usize| -> Result<u32, ProgramDbError> {
                    match integer(row, i) {
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
        })
    }

    /// Runs the user's query for the message IDs the program records as
    /// handled, in a read-only transaction on the schema, and reads its
    /// first column: text or an integer.
    pub fn read_handled(&self, query: &str) -> Result<Handled, ProgramDbError> {
        self.read_only(|txn| {
            let statement = txn.prepare(query).map_err(|e| failed(query, e))?;
            let Some(ty) = statement.columns().first().map(|c| c.type_().clone()) else {
                return Err(ProgramDbError::HandledShape {
                    query: query.to_string(),
                    found: "it gives no column".into(),
                });
            };
            let text = [Type::TEXT, Type::VARCHAR, Type::BPCHAR, Type::NAME].contains(&ty);
            if !text && !INTEGERS.contains(&ty) {
                return Err(ProgramDbError::HandledShape {
                    query: query.to_string(),
                    found: format!("its first column is of type {}", ty.name()),
                });
            }
            let rows = txn.query(&statement, &[]).map_err(|e| failed(query, e))?;
            let mut out = Handled::new();
            for row in &rows {
                let id = if text {
                    row.get::<_, Option<String>>(0)
                } else {
                    integer(row, 0).map(|v| v.to_string())
                };
                if let Some(id) = id {
                    *out.entry(id).or_default() += 1;
                }
            }
            Ok(out)
        })
    }

    /// The names of the columns `query` reads, prepared and not run; none
    /// where a table it reads is not there yet.
    pub fn query_columns(&self, query: &str) -> Result<Vec<String>, ProgramDbError> {
        self.read_only(|txn| {
            Ok(txn
                .prepare(query)
                .map(|s| s.columns().iter().map(|c| c.name().to_string()).collect())
                .unwrap_or_default())
        })
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
