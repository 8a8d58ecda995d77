//! The PostgreSQL server the tests run against: `IDEM_TEST_PG`, else the
//! local one. Where none answers, a test that needs it prints one
//! `skipped:` line and passes.

use idem::sim::db::{Database, PgUrl};

/// The server's address as a command line takes it (with its password,
/// if it has one: a parsed `PgUrl` shows itself without).
pub fn address() -> String {
    std::env::var("IDEM_TEST_PG").unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
}

pub fn server() -> Option<PgUrl> {
    let url: PgUrl = address()
        .parse()
        .expect("IDEM_TEST_PG is a postgres:// address");
    match Database::postgres(&url) {
        Ok(_) => Some(url),
        Err(e) => {
            eprintln!("skipped: no PostgreSQL server to test against ({e})");
            None
        }
    }
}
