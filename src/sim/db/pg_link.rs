//! A consumer's PostgreSQL connection on a thread of its own. A statement
//! that waits for a lock blocks whoever sent it; on its own thread it
//! blocks nobody, and the world can look at the server to see that it waits.

use postgres::types::{ToSql, Type};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// A value bound to, or read from, a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    Int(i64),
    Text(String),
    Null,
}

impl Value {
    pub(super) fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            _ => 0,
        }
    }

    pub(super) fn text(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            _ => String::new(),
        }
    }

    pub(super) fn opt_text(&self) -> Option<String> {
        match self {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }
}

/// What a statement answered: its row count and the rows it returned
/// (for a batch of reads, the rows of each, in `sets`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Answer {
    pub count: u64,
    pub rows: Vec<Vec<Value>>,
    pub sets: Vec<Vec<Vec<Value>>>,
}

/// A statement to run, with its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Statement {
    pub sql: &'static str,
    pub values: Vec<Value>,
    /// Set for several reads without values sent as one text message (one
    /// round trip instead of one each): which columns of each read are
    /// integers, since such an answer comes back as text.
    pub batch: Option<Batch>,
}

/// Per read of a batch, per column: an integer (true) or text.
pub(super) type Batch = &'static [&'static [bool]];

/// The rows of each read of a batch, from its text answer: a read's rows
/// follow its row description; a statement without rows (BEGIN, COMMIT)
/// has none.
pub(super) fn read_sets(
    messages: &[postgres::SimpleQueryMessage],
    batch: Batch,
) -> Vec<Vec<Vec<Value>>> {
    let mut sets: Vec<Vec<Vec<Value>>> = Vec::with_capacity(batch.len());
    for message in messages {
        match message {
            postgres::SimpleQueryMessage::RowDescription(_) => sets.push(Vec::new()),
            postgres::SimpleQueryMessage::Row(row) => {
                let ints = batch
                    .get(sets.len().saturating_sub(1))
                    .copied()
                    .unwrap_or(&[]);
                let values = (0..row.len())
                    .map(|i| match row.get(i) {
                        None => Value::Null,
                        Some(text) if ints.get(i) == Some(&true) => {
                            text.parse().map_or(Value::Null, Value::Int)
                        }
                        Some(text) => Value::Text(text.to_string()),
                    })
                    .collect();
                if let Some(set) = sets.last_mut() {
                    set.push(values);
                }
            }
            _ => {}
        }
    }
    sets
}

pub(super) type Reply = Result<Answer, postgres::Error>;

/// The caller's end of a connection thread.
pub(super) struct Link {
    to: Option<Sender<Statement>>,
    from: Receiver<Reply>,
    thread: Option<JoinHandle<()>>,
    /// The server's process for this connection: what its lock view names.
    pub pid: i32,
}

impl Link {
    /// Takes a connected client onto its own thread.
    pub(super) fn start(mut client: postgres::Client) -> Result<Link, postgres::Error> {
        let pid: i32 = client
            .query_one(super::sql_postgres::PG_BACKEND_PID, &[])?
            .get(0);
        let (to, commands) = mpsc::channel::<Statement>();
        let (replies, from) = mpsc::channel::<Reply>();
        let thread = std::thread::Builder::new()
            .name(format!("idem-pg-{pid}"))
            .spawn(move || {
                // Each statement is prepared once per connection: a
                // statement sent as text costs three round trips (prepare,
                // run, close), a prepared one one.
                let mut prepared = Prepared::default();
                // Ends when the sender is dropped; dropping the client then
                // closes the connection, and the server ends its backend.
                for statement in commands {
                    let reply = run(&mut client, &mut prepared, &statement);
                    if replies.send(reply).is_err() {
                        break;
                    }
                }
            })
            .expect("a thread for a database connection");
        Ok(Link {
            to: Some(to),
            from,
            thread: Some(thread),
            pid,
        })
    }

    /// Sends a statement; its reply comes through `reply`.
    pub(super) fn send(&self, statement: Statement) -> bool {
        self.to
            .as_ref()
            .is_some_and(|to| to.send(statement).is_ok())
    }

    /// The reply, if it comes within `within`; `Err(())` when the thread
    /// is gone.
    pub(super) fn reply(&self, within: Duration) -> Result<Option<Reply>, ()> {
        match self.from.recv_timeout(within) {
            Ok(reply) => Ok(Some(reply)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(()),
        }
    }

    /// Moves the connection out, leaving this end closed: for a pool.
    pub(super) fn detach(&mut self) -> Link {
        Link {
            to: self.to.take(),
            from: std::mem::replace(&mut self.from, mpsc::channel().1),
            thread: self.thread.take(),
            pid: self.pid,
        }
    }

    /// Closes the connection and waits for the thread. The caller must
    /// first make sure no statement is running (or end the backend).
    pub(super) fn close(&mut self) {
        self.to = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.close();
    }
}

/// A connection's statements, each prepared on the server once.
#[derive(Default)]
pub(super) struct Prepared(std::collections::HashMap<&'static str, postgres::Statement>);

impl Prepared {
    /// `sql` prepared on `client` (the first time), for running again.
    pub(super) fn get(
        &mut self,
        client: &mut postgres::Client,
        sql: &'static str,
    ) -> Result<postgres::Statement, postgres::Error> {
        if let Some(statement) = self.0.get(sql) {
            return Ok(statement.clone());
        }
        let statement = client.prepare(sql)?;
        self.0.insert(sql, statement.clone());
        Ok(statement)
    }
}

fn run(client: &mut postgres::Client, prepared: &mut Prepared, statement: &Statement) -> Reply {
    let none: Option<String> = None;
    let values: Vec<&(dyn ToSql + Sync)> = statement
        .values
        .iter()
        .map(|v| match v {
            Value::Int(i) => i as &(dyn ToSql + Sync),
            Value::Text(t) => t as &(dyn ToSql + Sync),
            Value::Null => &none as &(dyn ToSql + Sync),
        })
        .collect();
    if let Some(batch) = statement.batch {
        let messages = client.simple_query(statement.sql)?;
        return Ok(Answer {
            sets: read_sets(&messages, batch),
            ..Answer::default()
        });
    }
    let sql = prepared.get(client, statement.sql)?;
    // The server says whether the statement returns rows: no text is read.
    if sql.columns().is_empty() {
        let count = client.execute(&sql, &values)?;
        return Ok(Answer {
            count,
            ..Answer::default()
        });
    }
    let rows = client.query(&sql, &values)?;
    Ok(Answer {
        count: rows.len() as u64,
        rows: rows.iter().map(read_row).collect(),
        sets: Vec::new(),
    })
}

/// A row as values: BIGINT and INTEGER columns as integers, the rest as text.
pub(super) fn read_row(row: &postgres::Row) -> Vec<Value> {
    (0..row.len())
        .map(|i| {
            let ty = row.columns()[i].type_();
            let value = if *ty == Type::INT8 {
                row.get::<_, Option<i64>>(i).map(Value::Int)
            } else if *ty == Type::INT4 {
                row.get::<_, Option<i32>>(i).map(|v| Value::Int(v.into()))
            } else if *ty == Type::BOOL {
                row.get::<_, Option<bool>>(i).map(|v| Value::Int(v.into()))
            } else {
                row.get::<_, Option<String>>(i).map(Value::Text)
            };
            value.unwrap_or(Value::Null)
        })
        .collect()
}
