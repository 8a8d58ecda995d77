//! Statements as shown to the user, with their values written in.

use super::*;

/// The look-up statement as shown, for a look-up that could not run.
pub fn render_look_up(message_id: &str) -> String {
    render(LOOK_UP_MESSAGE, &[quote(message_id)])
}

pub(super) fn ran(sql: &str, result: &str) -> Ran {
    Ran {
        sql: sql.into(),
        result: result.into(),
        answer: SqlAnswer::Done,
    }
}

pub(super) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Writes the bound values into the statement text for display: `?1`
/// (SQLite) or `$1` (PostgreSQL) -> `'m-7f3'`.
/// One pass over the template, so that a value is never searched again: an
/// ID such as `m-?2` stays as it is, and `?1` does not eat the front of `?10`.
pub(super) fn render(template: &str, values: &[String]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(at) = rest.find(['?', '$']) {
        out.push_str(&rest[..at]);
        let digits = rest[at + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len() - at - 1, |n| n);
        let index: Option<usize> = rest[at + 1..at + 1 + digits].parse().ok();
        match index.and_then(|i| values.get(i.checked_sub(1)?)) {
            Some(value) => out.push_str(value),
            None => out.push_str(&rest[at..at + 1 + digits]),
        }
        rest = &rest[at + 1 + digits..];
    }
    out.push_str(rest);
    out
}
