//! A fault the user makes is applied at one step, and the screen names
//! that one step everywhere: the header's tag, the status line, the story's
//! paragraph and its later reminders, and the fault menu's title. Teacher
//! trial (tour-1, idempotent, `f` at step 5, crash A): "forked at step 5",
//! "crash A (step 6)" and later "At step 7: Your run since step 5" named
//! three steps for one crash. And the verdict in flight says what the
//! design will do, not what happens next as if it had (at step 6 it said
//! "the next delivery gets the charge back by key" seven steps before it
//! did).

use crate::common;
use idem::tui::app::Panel;
use idem::tui::{Action, App, layout, update};
use ratatui::layout::{Margin, Rect};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// Every `step N` on the screen, its number.
fn step_numbers(screen: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, _) in screen.match_indices("step ") {
        let digits: String = screen[i + 5..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        // `step 6/16` is the position, not a step named.
        let rest = &screen[i + 5 + digits.len()..];
        if let Ok(n) = digits.parse()
            && !rest.starts_with('/')
        {
            out.push(n);
        }
    }
    out
}

/// What names steps at `a`'s step, drawn at `w`x`h`: the screen outside
/// the story panel's inside (the header, the story's step line on its
/// border, the events, the status line), then the story's own words as
/// the run told them. Not the story as drawn: the marks before words
/// told at an earlier step (`at step 7: `) name the step that told them,
/// and a filter that guessed which `at step N: ` on screen was a mark
/// could pass a wrong step named by the words themselves.
fn naming(a: &mut App, w: u16, h: u16) -> String {
    common::resize(a, w, h);
    let mut screen = common::Screen::new(w, h);
    let buf = screen.show(&*a).clone();
    let area = Rect::new(0, 0, w, h);
    let story = layout::on_screen(a, area)
        .rect(Panel::Narration)
        .inner(Margin::new(1, 1));
    let mut rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .filter(|&x| !story.contains((x, y).into()))
                .map(|x| buf[(x, y)].symbol())
                .collect()
        })
        .collect();
    let f = a.frame();
    rows.push(a.theme.words(&f.narration));
    rows.extend(f.said.as_deref().map(|s| a.theme.words(s)));
    rows.join("\n")
}

#[test]
fn a_fault_names_the_one_step_it_is_applied_at() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut a = common::app("tour-1", "idempotent");
        a.pos = 5;
        update(&mut a, Action::Faults);
        let menu = common::draw(&mut a, w, h);
        // The menu's second entry: crash A.
        update(&mut a, Action::Digit(2));
        assert_eq!(a.pos, 6, "the crash is step 6");
        for pos in 6..=9 {
            a.pos = pos;
            a.status = if pos == 6 { a.status.clone() } else { None };
            let screen = naming(&mut a, w, h);
            // The step on screen names itself (`Events in step 8`).
            let named: Vec<usize> = step_numbers(&screen)
                .into_iter()
                .filter(|&n| n != pos)
                .collect();
            if named.iter().any(|&n| n != 6) || !screen.contains("step 6") {
                failures.push(format!("{w}x{h} at {pos}: steps named {named:?}\n{screen}"));
            }
        }
        // The menu is over step 5: what it makes is step 6.
        if !menu.contains("Break something at step 6") {
            failures.push(format!("{w}x{h}: the menu names another step\n{menu}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_verdict_in_flight_does_not_tell_a_delivery_before_it_comes() {
    let mut a = common::app("tour-1", "idempotent");
    a.pos = 5;
    update(&mut a, Action::Faults);
    update(&mut a, Action::Digit(2));
    let f = a.frame();
    let said = f.verdict.in_flight.join(" ");
    assert!(!said.is_empty(), "a charge with no row is in flight");
    assert!(
        !said.contains("the next delivery gets"),
        "step {}: {said}",
        f.index
    );
    assert!(said.contains("if"), "a condition, not a forecast: {said}");
}
