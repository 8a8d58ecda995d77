//! One key table (`idem::tui::keys::KEYS`) drives the main screen's key
//! bar and the help overlay: each shows exactly the table's rows, in its
//! order, so a key added to the table is in both, and a key the table
//! lacks is in neither.

use crate::common::{Screen, app, resize};
use idem::tui::keys::{KEYS, KeyHelp};
use idem::tui::{Action, App, update};
use ratatui::buffer::Buffer;

/// The screen's cells, row by row.
fn screen(a: &mut App, width: u16, height: u16) -> Vec<Vec<String>> {
    resize(a, width, height);
    let mut screen = Screen::new(width, height);
    let buf: &Buffer = screen.show(&*a);
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

/// Whether a row of the table is help's or quit's: the bar keeps them at
/// its right end.
fn at_the_end(k: &KeyHelp) -> bool {
    k.binds
        .iter()
        .any(|(_, a)| matches!(a, Action::Help | Action::QuitKey))
}

/// Runs of spaces as one: a help row pads its keys and may wrap.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_key_bar_is_the_tables_hints_in_its_order() {
    let mut a = app("tour-1", "naive");
    // Wide enough for every hint, so none is dropped for room.
    let bar: String = screen(&mut a, 200, 50).last().unwrap().concat();
    let bar = bar.trim_end();
    // The engines key is offered only on a PostgreSQL server, and this
    // run is on SQLite (tests/engines_side_by_side.rs checks it there).
    let on_a_server = |k: &KeyHelp| {
        k.binds
            .iter()
            .any(|(_, a)| matches!(a, Action::CompareEngines))
    };
    let hinted: Vec<&KeyHelp> = KEYS
        .iter()
        .filter(|k| k.hint.is_some() && !on_a_server(k))
        .collect();
    assert!(hinted.len() >= 8, "{} hints", hinted.len());
    // Help and quit stand at the right end; the rest as the table has them.
    let (last, first): (Vec<_>, Vec<_>) = hinted.into_iter().partition(|k| at_the_end(k));
    let expected: Vec<String> = first
        .iter()
        .chain(&last)
        .filter_map(|k| k.hint)
        .map(|(key, what)| format!("{key} {what}"))
        .collect();
    assert_eq!(bar, format!(" {}", expected.join("  ")));
}

#[test]
fn help_lists_every_row_of_the_table_in_its_order() {
    let mut a = app("tour-1", "naive");
    update(&mut a, Action::Help);
    let shown = screen(&mut a, 200, 60);
    // The overlay's inside, row after row, as one text: from its titled
    // top border to its bottom one.
    let top = shown
        .iter()
        .position(|row| row.concat().contains("┌ Keys "))
        .expect("the help overlay is open");
    let left = shown[top].iter().position(|c| c == "┌").unwrap();
    let right = left + shown[top][left..].iter().position(|c| c == "┐").unwrap();
    let inside: Vec<String> = shown[top + 1..]
        .iter()
        .take_while(|row| row[left] == "│")
        .map(|row| row[left + 1..right].concat())
        .collect();
    let text = words(&inside.join(" "));
    let helped: Vec<(&str, &str)> = KEYS.iter().filter_map(|k| k.help).collect();
    assert!(helped.len() >= 20, "{helped:?}");
    let mut from = 0;
    for (keys, what) in &helped {
        let row = words(&format!("{keys} {what}"));
        let at = text[from..]
            .find(&row)
            .unwrap_or_else(|| panic!("help lacks `{row}` (in order) in: {text}"));
        from += at + row.len();
    }
    // Nothing but the table's rows before the marks' legend.
    let keys_part = &text[..text.find("Marks").expect("the legend follows")];
    let table = words(
        &helped
            .iter()
            .map(|(keys, what)| format!("{keys} {what}"))
            .collect::<Vec<_>>()
            .join(" "),
    );
    assert_eq!(words(keys_part), table);
}
