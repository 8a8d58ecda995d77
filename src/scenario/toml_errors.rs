//! The TOML reader's errors in a scenario file's words: TOML's tables and
//! arrays, not serde's maps and sequences or Rust's types; a duration
//! written as a bare number pointed at its quotes; a near-miss key named.

use super::closer_hint::with_closer;
use super::error::ScenarioErrors;
use crate::suggest::did_you_mean;

/// The TOML reader's errors, each at its place and in a scenario file's
/// words.
pub(super) fn toml_errors(
    file: &str,
    text: &str,
    found: super::every_error::TomlErrors,
) -> ScenarioErrors {
    let syntax = found.syntax;
    let placed: Vec<_> = found
        .errors
        .into_iter()
        .map(|e| {
            let span = e.span();
            let at = span.clone().and_then(|s| text.get(s));
            let message = match span.as_ref().and_then(|s| duration_key(text, s.start)) {
                Some(key) if e.message().contains("expected a string") => {
                    format!("`{key}` is a duration in quotes, like \"30s\", \"1m30s\" or \"250ms\"")
                }
                _ => match span.as_ref().and_then(|s| design_key(text, s.start)) {
                    Some(design)
                        if e.message().contains("expected a map")
                            || e.message().contains("expected a table") =>
                    {
                        expectations_hint(design, at.unwrap_or_default())
                    }
                    _ => toml_message(e.message(), at),
                },
            };
            // The parser names the one token it can take next, which is
            // not always the fix: a `}` left out reads as a `,` missing.
            let message = span
                .as_ref()
                .filter(|_| syntax)
                .and_then(|s| with_closer(&message, text, s.start))
                .unwrap_or(message);
            (span, message)
        })
        .collect();
    let errors = ScenarioErrors::at(file, text, placed).cut_short(found.cut_short);
    let line = errors.first().map_or(1, |e| e.line);
    errors.syntax_after(found.syntax_after, line)
}

/// The setup's keys that hold a duration.
const DURATION_KEYS: [&str; 6] = [
    "lease",
    "step",
    "key_lifetime",
    "dedup_window",
    "cache_ttl",
    "record_timeout",
];

/// The duration key whose value starts at `at`, if the line reads
/// `key = value` (how a wrong number of seconds is written).
fn duration_key(text: &str, at: usize) -> Option<&'static str> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text.get(line_start..at)?.split_once('=')?;
    let key = key.trim();
    DURATION_KEYS.into_iter().find(|k| *k == key)
}

/// The design whose name is the key of the line `at` is on, if it reads
/// `design = value`: how a design's expectations are written in one
/// line under `[expect]`.
fn design_key(text: &str, at: usize) -> Option<&str> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text.get(line_start..at)?.split_once('=')?;
    let key = key.trim();
    crate::sim::Strategy::by_name(key).map(|_| key)
}

/// A design's expectations written as a value, not a table: the form
/// that works, with the value in it where it is an outcome.
fn expectations_hint(design: &str, value: &str) -> String {
    let value = value.trim();
    let first = if value.starts_with('"') {
        format!("outcome = {value}")
    } else {
        "outcome = \"correct\"".to_string()
    };
    format!(
        "the expectations for `{design}` are a table, not `{value}`: write [expect.{design}] on a line of its own and under it {first} (and `total`, `charges` as you need)"
    )
}

/// The TOML reader's message in the words of a scenario file: TOML's
/// tables and arrays, not serde's maps and sequences or Rust's types; a
/// duplicate key named.
fn toml_message(message: &str, at: Option<&str>) -> String {
    let message = message.trim();
    if message == "duplicate key"
        && let Some(key) = at.filter(|k| !k.is_empty() && !k.contains('\n'))
    {
        return format!("duplicate key `{key}`: a key may be set once in a table");
    }
    // `unknown field `lese`, expected one of `queue`, `lease`, ...`: the
    // key that was probably meant goes first.
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((key, known)) = rest.split_once("`, expected ")
    {
        let names: Vec<&str> = known
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|n| !n.is_empty())
            .collect();
        return format!(
            "unknown key `{key}`{}: the keys here are {}",
            did_you_mean(key, names.iter().copied()),
            names.join(", ")
        );
    }
    let mut plain = message.to_string();
    // TOML's date-times reach serde as a table of their own.
    if at.is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit())) {
        plain = plain.replace("map, expected", "date-time, expected");
    }
    for (from, to) in [
        (" as i128", ""),
        ("expected i64", "expected a whole number"),
        ("expected u32", "expected a positive whole number"),
        ("map, expected", "table, expected"),
        ("expected a map", "expected a table"),
        ("sequence, expected", "array, expected"),
        ("expected a sequence", "expected an array"),
    ] {
        plain = plain.replace(from, to);
    }
    plain
}
