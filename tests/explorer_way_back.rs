//! A run replayed from the explorer has a way back to it, on the bar.
//! Teacher trial at 80x24: after `x` and Enter on naive's run, Esc said
//! "Esc closes menus and views; q quits" and stayed, and the bar no longer
//! showed `x`: no visible way back to the table.

use crate::common::check::{explorer_showing, report};
use crate::common::draw;
use idem::tui::app::Overlay;
use idem::tui::explorer::Selection;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// For every design with a run to replay, at 80x24 and 120x40: the
/// replay's bar offers `Esc explorer`, and Esc goes back to the table with
/// the same design and run selected.
#[test]
fn esc_in_a_replay_goes_back_to_the_explorer_and_the_bar_says_so() {
    let report = report();
    let (mut replays, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        for row in 0..report.strategies.len() {
            let name = &report.strategies[row].strategy;
            let mut a = explorer_showing(report.clone());
            update(&mut a, Action::First);
            for _ in 0..row {
                update(&mut a, Action::Down);
            }
            let Overlay::Explorer(sel) = a.overlay.clone() else {
                panic!("the explorer is open");
            };
            update(&mut a, Action::Enter);
            if !a.is_counterexample() {
                continue;
            }
            replays += 1;
            // The note the replay opens with, read: then the bar's keys.
            a.status = None;
            let screen = draw(&mut a, w, h);
            let bar = screen.lines().last().unwrap_or_default().to_string();
            if !bar.contains("Esc explorer") {
                wrong.push(format!("{name} at {w}x{h}: bar {bar}"));
            }
            update(&mut a, Action::Back);
            if a.overlay != Overlay::Explorer(Selection { scroll: 0, ..sel }) {
                wrong.push(format!(
                    "{name} at {w}x{h}: Esc left {:?}, status {:?}",
                    a.overlay, a.status
                ));
            }
        }
    }
    assert!(
        replays > 3,
        "only {replays} replays: the test reads nothing"
    );
    assert!(
        wrong.is_empty(),
        "{} wrong of {} (bar and Esc, each replay):\n{}",
        wrong.len(),
        replays * 2,
        wrong.join("\n")
    );
}

/// Esc keeps its other meanings there: it leaves `w` first, and on a
/// scenario opened by hand it goes nowhere and says why.
#[test]
fn esc_in_a_replay_closes_what_is_open_first_and_leaves_other_scenarios_alone() {
    let mut a = explorer_showing(report().clone());
    update(&mut a, Action::Enter);
    assert!(a.is_counterexample());
    update(&mut a, Action::Zoom);
    assert!(a.zoom);
    update(&mut a, Action::Back);
    assert!(!a.zoom, "Esc leaves w first");
    assert_eq!(a.overlay, Overlay::None);
    // A scenario opened by hand: Esc says what it does, and the bar
    // offers no explorer to go back to.
    let mut a = crate::common::app("tour-1", "naive");
    update(&mut a, Action::Back);
    assert_eq!(a.overlay, Overlay::None);
    assert!(a.status.as_deref().unwrap_or_default().contains("q quits"));
    a.status = None;
    let screen = draw(&mut a, 80, 24);
    assert!(!screen.contains("Esc explorer"), "{screen}");
    assert!(!a.quit);
}

/// Teacher trial: in a replay with the presenter view on (`p`), the status
/// line said "Esc back to the explorer" and Esc only closed the presenter.
/// Esc does what the line says, from the presenter view too. Before the
/// fix: 16 of 16 replays (8 designs, 2 sizes) stayed on the replay.
#[test]
fn esc_in_a_replay_with_the_presenter_on_goes_back_to_the_explorer() {
    let report = report();
    let (mut replays, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        for row in 0..report.strategies.len() {
            let name = &report.strategies[row].strategy;
            let mut a = explorer_showing(report.clone());
            update(&mut a, Action::First);
            for _ in 0..row {
                update(&mut a, Action::Down);
            }
            let Overlay::Explorer(sel) = a.overlay.clone() else {
                panic!("the explorer is open");
            };
            update(&mut a, Action::Enter);
            if !a.is_counterexample() {
                continue;
            }
            // The note the replay opens with says where Esc goes; `p`
            // then turns the presenter on.
            let says = draw(&mut a, w, h).contains("Esc back");
            update(&mut a, Action::Presenter);
            assert!(a.presenter, "{name}: p turns the presenter on");
            // And its key bar names the way back, as the main screen's
            // does (trial 47: the bar offered none).
            let screen = draw(&mut a, w, h);
            let bar = screen.lines().last().unwrap_or("").contains("Esc explorer");
            replays += 1;
            update(&mut a, Action::Back);
            let back = a.overlay == Overlay::Explorer(Selection { scroll: 0, ..sel });
            if !says || !back || !bar {
                wrong.push(format!(
                    "{name} at {w}x{h}: the note says Esc back: {says}, the bar: {bar}, Esc left {:?}",
                    a.overlay
                ));
            }
        }
    }
    assert!(replays > 3, "only {replays} replays");
    assert!(
        wrong.is_empty(),
        "{} of {replays} replays:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
