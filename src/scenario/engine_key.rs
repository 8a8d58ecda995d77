//! The keys that tell a PostgreSQL run's words apart: `say_for`,
//! `narration_for`, `title_for` and a question's `why_for` take
//! `DESIGN@postgres` beside `DESIGN`. Apart from the script and the
//! questions, which both read them, so that neither imports the other.

/// What follows `@` in such a key.
pub const POSTGRES_KEY: &str = "postgres";

/// The key of a design's words for a run on PostgreSQL.
pub fn on_engine(design: &str) -> String {
    format!("{design}@{POSTGRES_KEY}")
}

/// The design a `say_for` or `narration_for` key names, and whether it is
/// a PostgreSQL run's; `None` for an engine other than PostgreSQL.
pub(super) fn key_design(key: &str) -> Option<&str> {
    match key.split_once('@') {
        None => Some(key),
        Some((design, POSTGRES_KEY)) => Some(design),
        Some(_) => None,
    }
}
