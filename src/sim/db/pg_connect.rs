//! A connection to the server as idem opens every one: bounded in time
//! (connecting, each statement, each lock wait) and named after the run's
//! schema, so that the run's backends can be found on the server.

use super::pg_error;
use super::pg_url::PgUrl;
use super::*;
use std::time::Duration;

/// How long connecting may take before idem gives up and says so.
pub const PG_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A safety bound on every statement and every lock wait, far above any
/// wait idem causes (those end when the world's next move commits or rolls
/// back): only a lock held from outside idem can reach it, and then the
/// statement fails with a clear error instead of hanging.
pub const PG_STATEMENT_TIMEOUT: Duration = Duration::from_secs(60);

pub(super) fn connect(url: &PgUrl, schema: Option<&str>) -> Result<postgres::Client, DbError> {
    let mut config = url.config().clone();
    config.connect_timeout(PG_CONNECT_TIMEOUT);
    let ms = PG_STATEMENT_TIMEOUT.as_millis();
    // A run's schema is thrown away at its end: a commit need not wait for
    // the server to flush its log to disk (what other transactions see,
    // and when, is the same either way).
    let mut options =
        format!("-c statement_timeout={ms} -c lock_timeout={ms} -c synchronous_commit=off");
    if let Some(schema) = schema {
        options.push_str(&format!(" -c search_path={schema}"));
        config.application_name(schema);
    } else {
        config.application_name("idem");
    }
    config.options(&options);
    super::pg_connect_within::connect(&config, PG_CONNECT_TIMEOUT).map_err(|r| match r {
        super::pg_connect_within::Refused::Error(e) => {
            DbError::Postgres(pg_error::connecting(url, &e))
        }
        super::pg_connect_within::Refused::Silent(limit) => {
            DbError::Postgres(super::pg_connect_within::silent(url, limit))
        }
    })
}
