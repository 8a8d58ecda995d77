//! A `--db postgres://…` address: parsed once, shown without its password.

use std::fmt;
use std::str::FromStr;

/// A PostgreSQL server and database to run on. Its `Display` never shows a
/// password: every message that names the server goes through it.
#[derive(Clone)]
pub struct PgUrl {
    config: postgres::Config,
    /// `scheme://user@host:port/db`, password left out.
    shown: String,
    /// The address as written, password included: what a program that
    /// connects to the same server is handed (never shown).
    text: String,
}

impl PartialEq for PgUrl {
    fn eq(&self, other: &Self) -> bool {
        self.shown == other.shown && self.config.get_password() == other.config.get_password()
    }
}
impl Eq for PgUrl {}

impl fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PgUrl({})", self.shown)
    }
}

impl fmt::Display for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// Why a `--db` address is not one idem can use.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("--db {shown}: {why}")]
pub struct BadPgUrl {
    pub shown: String,
    pub why: String,
}

/// True when `text` names a PostgreSQL server rather than a SQLite file.
pub fn is_pg_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// The address with any password replaced by `***`, for messages about an
/// address that could not even be parsed.
pub fn redact(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let mut out = format!("{scheme}://");
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split_once(':').map_or(user, |(u, _)| u);
            let hidden = if authority[..authority.len() - host.len() - 1].contains(':') {
                ":***"
            } else {
                ""
            };
            out.push_str(&format!("{user}{hidden}@{host}"));
        }
        None => out.push_str(authority),
    }
    // A password can also come as a query parameter.
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some(("password", _)) => "password=***".to_string(),
                    _ => kv.to_string(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_string(),
    };
    out.push_str(&tail);
    out
}

impl FromStr for PgUrl {
    type Err = BadPgUrl;

    fn from_str(text: &str) -> Result<Self, BadPgUrl> {
        let bad = |why: &str| BadPgUrl {
            shown: redact(text),
            why: why.to_string(),
        };
        if !is_pg_url(text) {
            return Err(bad(
                "not a PostgreSQL address (postgres://USER@HOST:PORT/DB)",
            ));
        }
        let config = postgres::Config::from_str(text).map_err(|e| {
            bad(&format!(
                "cannot read it as postgres://USER@HOST:PORT/DB ({})",
                redacted(&e.to_string(), text)
            ))
        })?;
        let Some(user) = config.get_user().map(str::to_string) else {
            return Err(bad("it names no user: write postgres://USER@HOST:PORT/DB"));
        };
        let host = match config.get_hosts() {
            [postgres::config::Host::Tcp(host)] => host.clone(),
            [] => return Err(bad("it names no host: write postgres://USER@HOST:PORT/DB")),
            [_] => return Err(bad("idem connects over TCP only: name a host and port")),
            _ => return Err(bad("it names several hosts; idem needs one")),
        };
        let port = match config.get_ports() {
            [] => 5432,
            [port] => *port,
            _ => return Err(bad("it names several ports; idem needs one")),
        };
        let Some(db) = config.get_dbname().map(str::to_string) else {
            return Err(bad(
                "it names no database: write postgres://USER@HOST:PORT/DB",
            ));
        };
        let scheme = text.split("://").next().unwrap_or("postgres");
        Ok(PgUrl {
            config,
            shown: format!("{scheme}://{user}@{host}:{port}/{db}"),
            text: text.to_string(),
        })
    }
}

impl PgUrl {
    /// The address as written, with its connection parameters `options`
    /// and `application_name` replaced by `options=-csearch_path=SCHEMA`
    /// and `application_name=NAME` (percent-encoded): the address a
    /// program connects with, so that its tables land in `schema` and its
    /// backends carry `name` on the server. Read the same way by libpq
    /// (psycopg, psql), the `postgres` crate and other clients that take a
    /// libpq URL. It holds the password, if any: never show it.
    pub fn with_session(&self, schema: &str, name: &str) -> String {
        let (base, query) = self.text.split_once('?').unwrap_or((&self.text, ""));
        let mut params: Vec<String> = query
            .split('&')
            .filter(|kv| !kv.is_empty())
            .filter(|kv| {
                let key = kv.split_once('=').map_or(*kv, |(k, _)| k);
                key != "options" && key != "application_name"
            })
            .map(str::to_string)
            .collect();
        params.push(format!("options=-csearch_path%3D{}", percent(schema)));
        params.push(format!("application_name={}", percent(name)));
        format!("{base}?{}", params.join("&"))
    }

    pub(super) fn config(&self) -> &postgres::Config {
        &self.config
    }

    pub(super) fn user(&self) -> &str {
        self.config.get_user().unwrap_or_default()
    }

    pub(super) fn database(&self) -> &str {
        self.config.get_dbname().unwrap_or_default()
    }

    /// The password, if the address carries one: every message about the
    /// server is scrubbed of it.
    pub(super) fn password(&self) -> Option<String> {
        self.config
            .get_password()
            .map(|p| String::from_utf8_lossy(p).into_owned())
    }
}

/// Percent-encodes all but letters, digits and `-_.~` (RFC 3986's
/// unreserved characters), for a value in an address's query.
fn percent(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Removes every copy of the address's password from `text`.
pub(super) fn redacted(text: &str, url_text: &str) -> String {
    let mut out = text.to_string();
    if let Ok(config) = url_text.parse::<postgres::Config>()
        && let Some(pw) = config.get_password()
        && !pw.is_empty()
    {
        out = out.replace(&*String::from_utf8_lossy(pw), "***");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_shown() {
        let url: PgUrl = "postgres://root:s3cret@127.0.0.1:5432/test"
            .parse()
            .unwrap();
        assert_eq!(url.to_string(), "postgres://root@127.0.0.1:5432/test");
        assert!(!format!("{url:?}").contains("s3cret"));
        let bad = "postgres://root:s3cret@127.0.0.1:5432/test?sslmode=nonsense"
            .parse::<PgUrl>()
            .unwrap_err();
        assert!(!bad.to_string().contains("s3cret"), "{bad}");
        assert_eq!(
            redact("postgresql://u:pw@h/db?password=pw2&x=1"),
            "postgresql://u:***@h/db?password=***&x=1"
        );
    }

    #[test]
    fn a_program_s_address_sets_its_schema_and_name_and_keeps_the_rest() {
        let url: PgUrl = "postgres://root:pw@127.0.0.1:5432/test?sslmode=disable&application_name=x&options=-cwork_mem%3D1MB"
            .parse()
            .unwrap();
        let given = url.with_session("idem_test_1", "idem_test_1.A");
        assert_eq!(
            given,
            "postgres://root:pw@127.0.0.1:5432/test?sslmode=disable&options=-csearch_path%3Didem_test_1&application_name=idem_test_1.A"
        );
        let read: postgres::Config = given.parse().unwrap();
        assert_eq!(read.get_options(), Some("-csearch_path=idem_test_1"));
        assert_eq!(read.get_application_name(), Some("idem_test_1.A"));
        assert_eq!(read.get_password(), Some(&b"pw"[..]));
        let bare: PgUrl = "postgresql://root@h/db".parse().unwrap();
        assert_eq!(
            bare.with_session("s", "s.B"),
            "postgresql://root@h/db?options=-csearch_path%3Ds&application_name=s.B"
        );
    }

    #[test]
    fn an_address_must_name_user_host_and_database() {
        for (text, why) in [
            ("postgres://127.0.0.1/test", "no user"),
            ("postgres://root@127.0.0.1", "no database"),
            ("mysql://root@h/db", "not a PostgreSQL address"),
            ("postgres://root@h:notaport/db", "cannot read it"),
        ] {
            let err = text.parse::<PgUrl>().unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
        let url: PgUrl = "postgresql://root@localhost/test".parse().unwrap();
        assert_eq!(url.to_string(), "postgresql://root@localhost:5432/test");
    }
}
