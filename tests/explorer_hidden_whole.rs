//! The explorer names every column it hides, whole. Teacher trial at
//! 80x24, with the default bounds (where in-progress breaks one fault
//! further, so the marks' legend says `! breaks further` too): the note
//! under the table read `hidden: correct, dlq=0, sta…`, a column's name
//! cut with nothing to say what was cut or where to read it.
//!
//! At every width from 80 to 200 columns, each column the table has no
//! room for is named whole in the `hidden:` note under the table.

use crate::common::check::{explorer_showing, in_progress, report};
use crate::common::draw;
use idem::tui::explorer::Column;

/// The names in the `hidden:` note on `rows`, each as drawn (`dlq=0`,
/// `states`), up to the end of its row or the next ` · `.
fn hidden_names(rows: &[String]) -> Option<Vec<String>> {
    let row = rows.iter().find(|r| r.contains("hidden: "))?;
    let list = &row[row.find("hidden: ").unwrap() + "hidden: ".len()..];
    let list = list.split(" · ").next().unwrap_or_default();
    let list = list.trim().trim_end_matches("(widen)").trim();
    Some(list.split(", ").map(str::to_string).collect())
}

#[test]
fn every_hidden_column_is_named_whole_at_every_width() {
    // The checker's report at small bounds, with in-progress as it stands
    // at the default ones: holds, and breaks one fault further.
    let mut r = report().clone();
    let mut further = in_progress()
        .strategies
        .iter()
        .find(|s| s.strategy == "in-progress")
        .expect("in-progress")
        .clone();
    // Under its own bounds, as its row and the bounds above then say.
    further.bounds = Some(in_progress().bounds.clone());
    let at = r
        .strategies
        .iter()
        .position(|s| s.strategy == "in-progress")
        .expect("in-progress");
    r.strategies[at] = further;
    let mut seen = 0;
    let mut wrong = Vec::new();
    for w in 80..=200u16 {
        let mut a = explorer_showing(r.clone());
        let screen = draw(&mut a, w, 24);
        let rows: Vec<String> = screen
            .lines()
            .map(|l| l.trim_matches('"').to_string())
            .collect();
        let heading = rows
            .iter()
            .find(|l| l.contains(" design ") && l.contains("result"))
            .expect("a heading");
        let heads: Vec<&str> = heading.split_whitespace().collect();
        let hidden: Vec<Column> = Column::IN_ORDER
            .into_iter()
            .filter(|c| c.used(&r) && !heads.contains(&c.heading()))
            .collect();
        if hidden.is_empty() {
            continue;
        }
        seen += 1;
        let names = hidden_names(&rows).unwrap_or_default();
        let whole = |c: &Column| {
            names.iter().any(|n| {
                [c.heading(), c.meaning()].iter().any(|name| {
                    n == name
                        || n.strip_prefix(name)
                            .is_some_and(|rest| rest == "=0" || rest == " (0 in every design)")
                })
            })
        };
        let missing: Vec<&Column> = hidden.iter().filter(|c| !whole(c)).collect();
        if !missing.is_empty() {
            wrong.push(format!(
                "{w}x24: {missing:?} not named whole in {names:?}\n{screen}"
            ));
        }
    }
    assert!(seen > 10, "only {seen} widths hide a column");
    assert!(
        wrong.is_empty(),
        "{} of {seen} widths that hide columns cut their names; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
