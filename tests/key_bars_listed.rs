//! A bar that leaves keys out says so (`? +2`), and `?` names them:
//! on the soak dashboard and in the explorer, as on the main screen, where
//! `? help +3` opens help. Before, their bars counted `+2` and `?` did
//! nothing: the keys left out could not be read anywhere on the screen.

use crate::common::check::{explorer_showing, report};
use crate::common::{Screen, draw};
use idem::soak::live::LiveState;
use idem::tui::soak::{DashAction, Dashboard};
use idem::tui::theme::Theme;
use idem::tui::{Action, update};
use ratatui::crossterm::event::KeyCode;
use ratatui::widgets::Widget;

use crate::key_bars_whole::items;

fn bottom(screen: &str) -> String {
    screen
        .lines()
        .last()
        .unwrap_or_default()
        .trim_matches('"')
        .to_string()
}

/// How many of the keys a bar leaves out the bottom row names, whole,
/// once `?` was pressed, and of how many, at the widest screen that
/// leaves a key out (every key, at 80 columns, where none does); and
/// whether the count there names `?`.
fn listed_after_asking(
    what: &str,
    mut at: impl FnMut(u16) -> String,
    ask: impl FnOnce(),
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let wide: Vec<String> = items(&at(400))
        .into_iter()
        .filter(|i| !i.starts_with('?'))
        .collect();
    // Down to where the screen is too small to draw anything but saying so.
    let narrow = (40..=80)
        .rev()
        .map(|w| (w, items(&at(w))))
        .find(|(_, n)| n.len() > 1 && wide.iter().any(|i| !n.contains(i)));
    let w = match &narrow {
        Some((w, n)) => {
            if !n.iter().any(|i| i.starts_with("? +")) {
                failures.push(format!("{what} at {w}: the count does not name `?`: {n:?}"));
            }
            *w
        }
        None => 80,
    };
    // The keys left out, or every key where none is.
    let wanted: Vec<&String> = match &narrow {
        Some((_, n)) => wide.iter().filter(|i| !n.contains(i)).collect(),
        None => wide.iter().collect(),
    };
    ask();
    let row = bottom(&at(w));
    let listed = wanted.iter().filter(|k| row.contains(k.as_str())).count();
    if listed < wanted.len() || !row.starts_with(" !") {
        failures.push(format!(
            "{what} at {w}: `?` lists {listed} of {wanted:?}: {row:?}"
        ));
    }
    (wanted.len(), listed)
}

fn shown(widget: impl Widget, w: u16) -> String {
    let mut screen = Screen::new(w, 24);
    screen.show(widget);
    screen.text()
}

#[test]
fn question_mark_lists_the_keys_a_bar_leaves_out() {
    let mut failures = Vec::new();
    let (mut left, mut listed) = (0, 0);
    // The soak dashboard while it runs: five keys.
    let live = idem::soak::Live::new(600, &["naive", "idempotent"]).snapshot();
    let dash = std::cell::RefCell::new(Dashboard::new(
        "600 payments · seed 1".into(),
        live.clone(),
        Theme::new(false, false),
    ));
    let (l, n) = listed_after_asking(
        "soak",
        |w| shown(&*dash.borrow(), w),
        || idem::tui::soak::update(&mut dash.borrow_mut(), DashAction::Key(KeyCode::Char('?'))),
        &mut failures,
    );
    left += l;
    listed += n;
    let _: LiveState = live;
    // The explorer: four keys.
    let app = std::cell::RefCell::new(explorer_showing(report().clone()));
    let (l, n) = listed_after_asking(
        "explorer",
        |w| draw(&mut app.borrow_mut(), w, 24),
        || update(&mut app.borrow_mut(), Action::Help),
        &mut failures,
    );
    left += l;
    listed += n;
    assert!(
        failures.is_empty(),
        "{listed} of {left} keys named after `?`\n{}",
        failures.join("\n")
    );
}
