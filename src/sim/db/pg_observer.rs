//! The run's observer connection: it reads the committed tables, restores
//! them, and looks at the server's locks, several times a step. Each of its
//! statements is prepared once, so that a read costs one round trip to the
//! server instead of three.

use super::pg_link::Prepared;
use postgres::types::ToSql;
use postgres::{Client, Row};

pub(super) struct Observer {
    pub client: Client,
    prepared: Prepared,
}

type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

impl Observer {
    pub fn new(client: Client) -> Self {
        Observer {
            client,
            prepared: Prepared::default(),
        }
    }

    /// `sql` prepared on this connection, for a transaction of its own.
    pub fn prepare(&mut self, sql: &'static str) -> Result<postgres::Statement, postgres::Error> {
        self.prepared.get(&mut self.client, sql)
    }

    pub fn query(
        &mut self,
        sql: &'static str,
        values: Params,
    ) -> Result<Vec<Row>, postgres::Error> {
        let statement = self.prepare(sql)?;
        self.client.query(&statement, values)
    }

    pub fn query_one(&mut self, sql: &'static str, values: Params) -> Result<Row, postgres::Error> {
        let statement = self.prepare(sql)?;
        self.client.query_one(&statement, values)
    }

    pub fn query_opt(
        &mut self,
        sql: &'static str,
        values: Params,
    ) -> Result<Option<Row>, postgres::Error> {
        let statement = self.prepare(sql)?;
        self.client.query_opt(&statement, values)
    }
}
