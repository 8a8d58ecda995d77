//! Where the command line opens a scenario: the one rule for its design,
//! and `idem play --step/--chapter`.

use crate::common::cli::idem;

#[test]
fn run_opens_in_the_design_the_scenario_is_written_for() {
    let (code, out, _) = idem(&["run", "charge-first"]);
    assert_eq!(code, 0);
    assert!(out.contains("== verdict (charge-first) =="), "{out}");
    let (_, out, _) = idem(&["run", "charge-first", "--mode", "idempotent"]);
    assert!(out.contains("== verdict (idempotent) =="), "{out}");
}

#[test]
fn play_checks_the_step_and_chapter_before_it_needs_a_terminal() {
    let (code, _, err) = idem(&["play", "tour-1", "--step", "999"]);
    assert_eq!(code, 2);
    assert!(err.contains("steps 0 to"), "{err}");
    let (code, _, err) = idem(&["play", "tour-1", "--chapter", "9"]);
    assert_eq!(code, 2);
    assert!(err.contains("chapters 1 to"), "{err}");
    // A valid place gets as far as wanting a terminal.
    let (code, _, err) = idem(&["play", "tour-1", "--chapter", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a terminal"), "{err}");
    let (code, _, err) = idem(&["play", "tour-1", "--step", "1", "--chapter", "2"]);
    assert_eq!(code, 2, "{err}");
}
