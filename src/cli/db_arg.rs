//! `--db`: a SQLite file, or a PostgreSQL server named by its address
//! (`postgres://` or `postgresql://`): the scheme decides the engine.

use super::exit::input_error;
use anyhow::Result;
use idem::sim::db::{PgUrl, is_pg_url};
use std::path::PathBuf;

/// Where a run's database lives, as `--db` named it.
pub enum DbArg {
    File(PathBuf),
    /// Boxed: a parsed address is large, and a path is the usual case.
    Postgres(Box<PgUrl>),
}

/// Reads `--db`. Taken as plain text by clap, whose errors would echo the
/// value (a password with it); an address is checked here, and every
/// message shows it without its password.
/// A path need not be text (a file name on Unix is bytes); an address is.
pub fn db_arg(value: &std::ffi::OsStr) -> Result<DbArg> {
    if let Some(text) = value.to_str()
        && is_pg_url(text)
    {
        return text
            .parse::<PgUrl>()
            .map(|url| DbArg::Postgres(Box::new(url)))
            .map_err(input_error);
    }
    if let Some(text) = value.to_str()
        && looks_like_a_slipped_address(text)
    {
        // `postgres:/db` or `postgres:db` would otherwise make a file of
        // that name in a folder called `postgres:`.
        return Err(input_error(format!(
            "--db {}: a PostgreSQL address starts with postgres:// (postgres://USER@HOST:PORT/DB); for a SQLite file named like this, write ./{}",
            redact_slipped(text),
            redact_slipped(text)
        )));
    }
    Ok(DbArg::File(PathBuf::from(value)))
}

/// `postgres:` or `postgresql:` without the two slashes.
fn looks_like_a_slipped_address(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    ["postgres:", "postgresql:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

/// A slipped address may still hold a password (`postgres:me:pw@host`):
/// everything after the scheme up to an `@` is hidden.
fn redact_slipped(text: &str) -> String {
    match text.split_once('@') {
        Some((_, host)) => format!("postgres:***@{host}"),
        None => text.to_string(),
    }
}

/// `--db` where only a server makes sense: the screens build many runs
/// (every design, every fork), and a file holds one.
pub fn postgres_only(text: Option<&str>) -> Result<Option<PgUrl>> {
    match text.map(|t| db_arg(t.as_ref())).transpose()? {
        None => Ok(None),
        Some(DbArg::Postgres(url)) => {
            clean_up_on_signal();
            Ok(Some(*url))
        }
        Some(DbArg::File(path)) => Err(input_error(format!(
            "--db {}: here --db names a PostgreSQL server (postgres://USER@HOST:PORT/DB); a SQLite file is for `idem run --db FILE`",
            path.display()
        ))),
    }
}

/// On SIGINT, SIGTERM or SIGHUP, the run's schemas on the server are dropped
/// before the process ends (as it would have, with 128 + n). Installed by
/// the headless commands that run on a server; `idem play` does the same
/// from its own signal handling, which also puts the terminal back.
pub fn clean_up_on_signal() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])
            else {
                return;
            };
            let _ = std::thread::Builder::new()
                .name("idem-pg-signals".into())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        idem::sim::db::drop_live_schemas();
                        std::process::exit(128 + signal);
                    }
                });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_missing_its_slashes_is_named_not_made_a_file() {
        for slip in ["postgres:/bad", "postgresql:db", "POSTGRES:/x"] {
            let err = db_arg(slip.as_ref()).err().expect(slip).to_string();
            assert!(err.contains("postgres://"), "{err}");
        }
        let err = db_arg("postgres:me:secret@host/db".as_ref())
            .err()
            .unwrap()
            .to_string();
        assert!(!err.contains("secret"), "{err}");
        assert!(matches!(
            db_arg("./postgres:/bad".as_ref()),
            Ok(DbArg::File(_))
        ));
        assert!(matches!(db_arg("run.db".as_ref()), Ok(DbArg::File(_))));
    }
}
