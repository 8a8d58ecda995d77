//! What went wrong on the PostgreSQL server, in one line that says what to
//! do, and never with the password in it.

use super::pg_url::PgUrl;
use postgres::error::SqlState;

/// A failure while opening the run's schema or a consumer's connection.
pub(super) fn connecting(url: &PgUrl, e: &postgres::Error) -> String {
    connecting_else(url, e, "Leave out --db to run on SQLite in memory")
}

/// The same, ending with what to do instead when no server answers.
pub(super) fn connecting_else(url: &PgUrl, e: &postgres::Error, otherwise: &str) -> String {
    let code = e.code();
    let scrub = |text: String| match url.password() {
        Some(pw) if !pw.is_empty() => text.replace(&pw, "***"),
        _ => text,
    };
    let detail = scrub(
        e.as_db_error()
            .map(|d| d.message().to_string())
            .unwrap_or_else(|| source_text(e)),
    );
    if code == Some(&SqlState::INVALID_PASSWORD)
        || code == Some(&SqlState::INVALID_AUTHORIZATION_SPECIFICATION)
    {
        return format!(
            "--db {url}: the server refused user {} ({detail}); check the user and password",
            url.user()
        );
    }
    if code == Some(&SqlState::INVALID_CATALOG_NAME) {
        return format!(
            "--db {url}: the server has no database {} ({detail}); create it or name another",
            url.database()
        );
    }
    if code == Some(&SqlState::INSUFFICIENT_PRIVILEGE) {
        return format!(
            "--db {url}: user {} may not create a schema in {} ({detail}); grant it CREATE on the database or use another user",
            url.user(),
            url.database()
        );
    }
    if e.as_db_error().is_none() {
        return format!(
            "--db {url}: cannot reach the PostgreSQL server ({detail}); is it running? {otherwise}"
        );
    }
    format!("--db {url}: {detail}")
}

/// A statement that failed in the middle of a run.
pub(super) fn running(url: &PgUrl, e: &postgres::Error) -> String {
    let code = e.code();
    let text = e
        .as_db_error()
        .map(|d| d.message().to_string())
        .unwrap_or_else(|| source_text(e));
    let text = match url.password() {
        Some(pw) if !pw.is_empty() => text.replace(&pw, "***"),
        _ => text,
    };
    if code == Some(&SqlState::ADMIN_SHUTDOWN)
        || code == Some(&SqlState::CRASH_SHUTDOWN)
        || code == Some(&SqlState::CANNOT_CONNECT_NOW)
        || e.is_closed()
        || e.as_db_error().is_none()
    {
        return format!(
            "PostgreSQL at {url} went away in the middle of the run ({text}); start the server and run again"
        );
    }
    if code == Some(&SqlState::QUERY_CANCELED) || code == Some(&SqlState::LOCK_NOT_AVAILABLE) {
        return format!(
            "PostgreSQL at {url}: a statement passed idem's safety bound ({text}); something outside idem may hold a lock in its schema"
        );
    }
    format!("PostgreSQL at {url}: {text}")
}

/// The error and its causes, one line: the client's own text is short
/// ("error connecting to server") and the cause says why.
fn source_text(e: &postgres::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}
