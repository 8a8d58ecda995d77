//! Connecting to a PostgreSQL server with a bound on the whole of it. The
//! client's own connect timeout bounds only the TCP connection: a listener
//! that takes the connection and never answers the startup message (not a
//! PostgreSQL server, or one that hangs) would hold idem for ever. The
//! connection is made on a thread of its own and waited for up to the
//! bound; past it, the thread is left to the process's end (idem stops
//! with the error), blocked on a socket nobody else uses.

use super::pg_url::PgUrl;
use std::time::Duration;

pub(super) enum Refused {
    /// The server or the network said no: the client's error.
    Error(postgres::Error),
    /// Nothing came back within the bound.
    Silent(Duration),
}

/// `config` connected, or why not, within `limit`.
pub(super) fn connect(
    config: &postgres::Config,
    limit: Duration,
) -> Result<postgres::Client, Refused> {
    let config = config.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let started = std::thread::Builder::new()
        .name("idem-pg-connect".into())
        .spawn(move || {
            let _ = tx.send(config.connect(postgres::NoTls));
        });
    if started.is_err() {
        return Err(Refused::Silent(Duration::ZERO));
    }
    match rx.recv_timeout(limit) {
        Ok(result) => result.map_err(Refused::Error),
        Err(_) => Err(Refused::Silent(limit)),
    }
}

/// The one line for a server that stayed silent.
pub(super) fn silent(url: &PgUrl, limit: Duration) -> String {
    format!(
        "--db {url}: something at this address took the connection and did not answer within {}s; is it a PostgreSQL server?",
        limit.as_secs()
    )
}
