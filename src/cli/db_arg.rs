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
pub fn db_arg(text: &str) -> Result<DbArg> {
    if is_pg_url(text) {
        return text
            .parse::<PgUrl>()
            .map(|url| DbArg::Postgres(Box::new(url)))
            .map_err(input_error);
    }
    Ok(DbArg::File(PathBuf::from(text)))
}

/// `--db` where only a server makes sense: the screens build many runs
/// (every design, every fork), and a file holds one.
pub fn postgres_only(text: Option<&str>) -> Result<Option<PgUrl>> {
    match text.map(db_arg).transpose()? {
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
