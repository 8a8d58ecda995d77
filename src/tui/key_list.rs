//! Keys in words, for the screens whose bar may count keys it has no
//! room for and which have no help screen to send the reader to: `?`
//! there names them in the bar's note.

/// The explorer's keys, `(key, what it does)`, in the bar's order.
pub const EXPLORER_KEYS: [(&str, &str); 6] = [
    ("↑/↓", "design"),
    ("←/→", "counterexample"),
    ("Enter", "replay"),
    // The detail in place of the table, or back: the lines a held
    // design's detail has no room for are read here.
    ("z", "whole"),
    // With the detail whole, the rows past the screen's foot.
    ("PgDn/PgUp", "scroll"),
    ("Esc/q", "back"),
];

/// Every key and what it does, in one line: `keys: ↑/↓ design · ...`.
pub fn keys_note<'a>(keys: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let all: Vec<String> = keys
        .into_iter()
        .map(|(key, what)| format!("{key} {what}"))
        .collect();
    format!("keys: {}", all.join(" · "))
}
