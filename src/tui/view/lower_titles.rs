//! The titles of the row under the story (the SQL and the events): the
//! view draws them and the layout sizes the two panels to keep them whole,
//! so they live apart from both.

/// The SQL panel's title: the step it belongs to, or at a reveal the
/// steps of the whole action the answer judges; `short` where the panel is
/// too narrow for the long form (`SQL, 11-14`). The layout keeps the panel
/// wide enough for one step's long title, which is never narrower than a
/// span's short one.
/// `unit` names a step of the run (`step`, or `move` in a found
/// schedule: the same width, so the layout sizes either).
pub fn sql_title(unit: &str, first: usize, last: usize, short: bool) -> String {
    match (first == last, short) {
        (true, _) => format!("SQL in {unit} {first}"),
        (false, false) => format!("SQL in {unit}s {first}-{last}"),
        (false, true) => format!("SQL, {first}-{last}"),
    }
}

/// The events panel's title: the step they belong to, or at a reveal the
/// steps of the whole action the answer judges; `short` where the panel is
/// too narrow for the long form (`Events, step 15`). The layout keeps the
/// panel wide enough for the short one at least.
pub fn events_title(unit: &str, first: usize, last: usize, short: bool) -> String {
    match (first == last, short) {
        (true, false) => format!("Events in {unit} {first}"),
        (false, false) => format!("Events in {unit}s {first}-{last}"),
        (true, true) => format!("Events, {unit} {first}"),
        (false, true) => format!("Events, {first}-{last}"),
    }
}

/// Columns a panel needs to draw `title` whole: a space each side of it,
/// inside its two corners.
pub fn title_room(title: &str) -> u16 {
    title.chars().count() as u16 + 4
}
