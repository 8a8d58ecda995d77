//! Issue 18 §9: the terminal names a scenario by its title for the design
//! it is shown under (`title_for`), wherever it names it: the picker (`s`)
//! lists each scenario with its title for the design it opens in (the one
//! open now, for the design on screen), and `]` into the next tour step
//! says that step's title for the design it keeps.

use crate::common;
use idem::tui::{Action, update};

const NAIVE: &str = "Redelivery charges again";
const IDEMPOTENT: &str = "Redelivery meets the unique key";

fn picker(name: &str, design: &str, toggle: bool) -> String {
    let mut app = common::app(name, design);
    if toggle {
        update(&mut app, Action::ToggleMode);
    }
    common::resize(&mut app, 120, 40);
    update(&mut app, Action::Picker);
    common::render(&app)
}

#[test]
fn the_picker_names_each_scenario_for_the_design_it_opens_in() {
    // tour-3 opens under naive: the picker says what naive shows.
    let screen = picker("tour-1", "idempotent", false);
    assert!(screen.contains(NAIVE), "{screen}");
    assert!(!screen.contains(IDEMPOTENT), "{screen}");
    // tour-2 opens under naive too; charge-first under its own design.
    let tour_2 = idem::scenario::find("tour-2").unwrap();
    assert!(screen.contains(tour_2.title_for("naive")), "{screen}");
    assert!(
        screen.contains("The charge first, the ID second"),
        "{screen}"
    );
}

#[test]
fn the_open_scenario_is_named_for_the_design_on_screen() {
    let screen = picker("tour-3", "naive", true);
    let open = screen
        .lines()
        .find(|l| l.contains("(open now)"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(open.contains(IDEMPOTENT), "{open}");
    let screen = picker("tour-3", "naive", false);
    let open = screen.lines().find(|l| l.contains("(open now)")).unwrap();
    assert!(open.contains(NAIVE), "{open}");
}

#[test]
fn the_next_tour_step_is_announced_with_its_title_for_the_design_kept() {
    let mut app = common::app("tour-2", "naive");
    update(&mut app, Action::Last);
    update(&mut app, Action::NextChapter);
    assert_eq!(
        (app.script.name.as_str(), app.strategy.name.as_ref()),
        ("tour-3", "naive")
    );
    assert_eq!(app.status.as_deref(), Some(&*format!("Tour 3/4: {NAIVE}")));
    // And back from tour-4, under idempotent.
    let mut app = common::app("tour-4", "idempotent");
    update(&mut app, Action::PrevChapter);
    assert_eq!(app.script.name, "tour-3");
    assert_eq!(
        app.status.as_deref(),
        Some(&*format!("Tour 3/4: {IDEMPOTENT}"))
    );
}
