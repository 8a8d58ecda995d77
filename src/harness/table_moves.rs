//! What a step did to the program's tables, as idem read them after it
//! (`payments 1 → 2 rows`). The program writes between its requests, so
//! no line of the step's own tells it; every front end (the replay's
//! panels, `--text`) says it from here, so that the step writing a second
//! payment row never reads as one that changed nothing.

use super::run::Step;

/// One table whose row count the step changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub table: String,
    pub was: usize,
    pub now: usize,
}

/// The tables whose row count moved from `before` (None: the first step,
/// after a database with no rows yet) to `step`, in the order read.
pub fn moved(before: Option<&Step>, step: &Step) -> Vec<Moved> {
    let was = |name: &str| {
        before
            .and_then(|b| b.tables.iter().find(|(x, _)| x.name == name))
            .map_or(0, |(_, n)| *n)
    };
    step.tables
        .iter()
        .filter(|(table, total)| was(&table.name) != *total)
        .map(|(table, total)| Moved {
            table: table.name.clone(),
            was: was(&table.name),
            now: *total,
        })
        .collect()
}

/// The moves in words (`payments 1 → 2 rows, processed_messages 0 → 1
/// row`), each table's name as `name` shows it; None where none moved.
pub fn said(moves: &[Moved], arrow: &str, name: impl Fn(&str) -> String) -> Option<String> {
    let rows = |n: usize| if n == 1 { "row" } else { "rows" };
    let parts: Vec<String> = moves
        .iter()
        .map(|m| {
            format!(
                "{} {} {arrow} {} {}",
                name(&m.table),
                m.was,
                m.now,
                rows(m.now)
            )
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}
