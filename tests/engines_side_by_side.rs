//! `E` in `idem play --db postgres://…`: the design on screen on SQLite and
//! on the PostgreSQL server side by side, stepping together, the place
//! where the lock points differ marked in words. And the scenario picker
//! (and `]` along the tour) keeping the server. Where no server answers,
//! each test prints one `skipped:` line and passes.

use crate::common::server::server;
use crate::common::{draw, plain};
use idem::scenario;
use idem::sim::Strategy;
use idem::sim::consumer::Status;
use idem::sim::db::{Engine, PgUrl};
use idem::tui::app::Overlay;
use idem::tui::compare::Sides;
use idem::tui::{Action, App, update};

/// A built-in scenario under `mode`, on the server, at its first step.
pub(crate) fn on_server(name: &str, mode: &str, url: &PgUrl) -> App {
    let mut script = scenario::find(name).expect("built-in scenario");
    script.setup.postgres = Some(url.clone());
    App::new(script, Strategy::by_name(mode).unwrap(), 0, plain()).expect("runs on the server")
}

/// The first step of the run on screen where B is held by A's transaction.
fn where_b_waits(a: &App) -> usize {
    a.timeline
        .frames
        .iter()
        .position(|f| {
            f.consumers
                .iter()
                .any(|c| c.name == "B" && matches!(&c.status, Status::Blocked { by } if by == "A"))
        })
        .expect("B waits for A")
}

/// The app at the step where B's INSERT waits on the server, with the two
/// engines side by side.
fn engines_where_b_waits(name: &str, url: &PgUrl) -> App {
    let mut a = on_server(name, "idempotent", url);
    let at = where_b_waits(&a);
    a.open_at_step(at).unwrap();
    update(&mut a, Action::CompareEngines);
    a
}

/// Each row of a screen cut in two halves, as the two sides stand.
pub(crate) fn halves(screen: &str, width: usize) -> (String, String) {
    let (mut left, mut right) = (String::new(), String::new());
    for row in screen.lines() {
        let cells: Vec<char> = row.trim_matches('"').chars().collect();
        let mid = (width / 2).min(cells.len());
        left.extend(&cells[..mid]);
        left.push('\n');
        right.extend(&cells[mid..]);
        right.push('\n');
    }
    (left, right)
}

fn the_lock_points_side_by_side(name: &str) {
    let Some(url) = server() else { return };
    let mut a = engines_where_b_waits(name, &url);
    let c = a.compare.as_ref().expect("the engines are side by side");
    assert_eq!(c.sides, Sides::Engines);
    let (l, r) = c.frames(a.pos);
    assert_eq!((l.engine, r.engine), (Engine::Sqlite, Engine::Postgres));
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let screen = draw(&mut a, w, h);
        insta::assert_snapshot!(format!("{name}_engines_where_b_waits_{w}x{h}"), screen);
    }
    let screen = draw(&mut a, 120, 40);
    let (left, right) = halves(&screen, 120);
    assert!(left.contains("SQLite · idempotent"), "{left}");
    assert!(right.contains("PostgreSQL · idempotent"), "{right}");
    // SQLite refuses B at its BEGIN; the server holds B's INSERT.
    assert!(
        left.contains("B waits for A, at \"begin transaction\""),
        "{left}"
    );
    assert!(left.contains("BEGIN IMMEDIATE"), "{left}");
    assert!(left.contains("SQLITE_BUSY"), "{left}");
    assert!(left.contains("refused: A holds the write lock"), "{left}");
    assert!(
        right.contains("B waits for A, at \"insert message ID\""),
        "{right}"
    );
    assert!(right.contains("INSERT INTO processed_messages"), "{right}");
    assert!(
        right.contains("held inside the server until A commits"),
        "{right}"
    );
    assert!(!right.contains("SQLITE_BUSY"), "{right}");
    // The difference is marked in words, not colour alone.
    assert!(screen.contains("◆ lock points differ here"), "{screen}");
    assert!(screen.contains("◆ differs here"), "{screen}");
}

#[test]
fn tour_3_shows_sqlite_refusing_b_and_postgresql_holding_its_insert() {
    the_lock_points_side_by_side("tour-3");
}

#[test]
fn race_rollback_shows_sqlite_refusing_b_and_postgresql_holding_its_insert() {
    the_lock_points_side_by_side("race-rollback");
}

/// Stepping moves both sides; leaving comes back to the server's run at
/// the frame that was on the right.
#[test]
fn both_sides_step_together_and_e_comes_back_to_the_same_frame() {
    let Some(url) = server() else { return };
    let mut a = engines_where_b_waits("tour-3", &url);
    let on_screen = where_b_waits(&a);
    let c = a.compare.as_ref().unwrap();
    assert_eq!(c.pairs[a.pos].1, on_screen);
    let before = c.pairs[a.pos];
    update(&mut a, Action::Next);
    let after = a.compare.as_ref().unwrap().pairs[a.pos];
    assert!(
        after.0 >= before.0 && after.1 > before.1,
        "{before:?} {after:?}"
    );
    // To the end, both runs reach their last frame, and end the same.
    update(&mut a, Action::Last);
    let c = a.compare.as_ref().unwrap();
    let (l, r) = c.frames(a.pos);
    assert_eq!(l.index, c.left.frames.len() - 1);
    assert_eq!(r.index, c.right.frames.len() - 1);
    assert_eq!(l.verdict.outcome, r.verdict.outcome);
    // v jumps to where the lock points first differ.
    update(&mut a, Action::FirstViolation);
    let d = a.compare.as_ref().unwrap().diverge.expect("they differ");
    assert_eq!(a.pos, d);
    let right_there = a.compare.as_ref().unwrap().pairs[d].1;
    update(&mut a, Action::CompareEngines);
    assert!(a.compare.is_none());
    assert_eq!(a.pos, right_there, "back on the server's run, same frame");
    assert_eq!(a.frame().engine, Engine::Postgres);
}

/// The screens are the same, byte for byte, run after run: no backend
/// pid, no schema name, no server version reaches them.
#[test]
fn the_two_sides_are_the_same_every_time() {
    let Some(url) = server() else { return };
    let first = draw(&mut engines_where_b_waits("race-rollback", &url), 120, 40);
    let again = draw(&mut engines_where_b_waits("race-rollback", &url), 120, 40);
    assert_eq!(first, again);
    assert!(!first.contains("idem_"), "a schema name: {first}");
    assert!(!first.to_lowercase().contains("pid"), "{first}");
}

/// The key bar offers E only on a server, and the help lists it.
#[test]
fn e_is_offered_in_the_bar_on_a_server_and_named_in_help() {
    let Some(url) = server() else { return };
    let mut a = on_server("tour-3", "idempotent", &url);
    let screen = draw(&mut a, 200, 40);
    assert!(screen.contains("E engines"), "{screen}");
    let mut local = crate::common::app("tour-3", "idempotent");
    assert!(!draw(&mut local, 200, 40).contains("E engines"));
    update(&mut a, Action::Help);
    assert!(draw(&mut a, 120, 40).contains("SQLite beside PostgreSQL (needs --db postgres://URL)"));
}

/// `s` in `play --db postgres://…`: the scenario picked runs on the same
/// server, as does the next one along the tour (`]` at the end).
#[test]
fn the_picker_and_the_tour_keep_the_server() {
    let Some(url) = server() else { return };
    let mut a = on_server("tour-3", "idempotent", &url);
    let i = a
        .scripts
        .iter()
        .position(|s| s.name == "race-rollback")
        .unwrap();
    update(&mut a, Action::Picker);
    a.overlay = Overlay::Picker {
        selected: i,
        typed: None,
    };
    update(&mut a, Action::Enter);
    assert_eq!(a.script.name, "race-rollback");
    assert_eq!(a.frame().engine, Engine::Postgres, "the picked scenario");
    let mut a = on_server("tour-3", "idempotent", &url);
    update(&mut a, Action::Last);
    update(&mut a, Action::NextChapter);
    assert_eq!(a.script.name, "tour-4");
    assert_eq!(a.frame().engine, Engine::Postgres, "the next tour step");
}

/// Without a server the flag and the view say in one line what they need,
/// and exit 2; nothing is drawn or written.
#[test]
fn without_a_server_the_flag_and_the_view_say_what_they_need() {
    let out = std::env::temp_dir().join(format!("idem-engines-{}.txt", std::process::id()));
    let out = out.to_str().unwrap();
    let (code, _, err) =
        crate::common::cli::idem(&["shot", "tour-3", "--view", "engines", "-o", out]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--db postgres://"), "{err}");
    assert!(!std::path::Path::new(out).exists());
    let (code, _, err) = crate::common::cli::idem(&["play", "tour-3", "--compare-engines"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--db <URL>"), "{err}");
}

/// Both sides' transcripts, text and JSON, are the same byte for byte run
/// after run: each run gets a fresh schema and fresh backends, and none of
/// their names, pids or the server's version reaches the transcript.
#[test]
fn both_transcripts_are_the_same_every_time() {
    let Some(_) = server() else { return };
    let url = crate::common::server::address();
    for name in ["tour-3", "race-rollback"] {
        for format in ["text", "json"] {
            let run = |db: Option<&str>| {
                let mut args = vec!["run", name, "--format", format];
                args.extend(db.map(|d| ["--db", d]).into_iter().flatten());
                let (code, out, err) = crate::common::cli::idem(&args);
                assert_eq!(code, 0, "{err}");
                out
            };
            for db in [None, Some(url.as_str())] {
                let (first, again) = (run(db), run(db));
                assert_eq!(first, again, "{name} {format} on {db:?}");
                assert!(!first.contains("idem_"), "a schema name in {name}");
                assert!(
                    !first.contains("PostgreSQL 1"),
                    "a server version in {name}"
                );
            }
        }
    }
}

/// Under naive nobody waits on the server (it records no key), so the
/// PostgreSQL side never says that a second writer waits at the INSERT:
/// at every step it says nobody waits in this run.
#[test]
fn a_design_that_writes_no_shared_key_is_not_said_to_wait_on_the_server() {
    let Some(url) = server() else { return };
    let mut a = on_server("tour-3", "naive", &url);
    a.open_at_step(1).unwrap();
    update(&mut a, Action::CompareEngines);
    for _ in 0..a.last_pos() {
        let screen = draw(&mut a, 120, 40);
        let (_, right) = halves(&screen, 120);
        let right: String = right.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            !right.contains("of the same key waits at"),
            "at {}:\n{screen}",
            a.pos
        );
        assert!(right.contains("nobody waits"), "at {}:\n{screen}", a.pos);
        update(&mut a, Action::Next);
    }
}

/// PostgreSQL's rule (a second writer of the same key waits at the
/// INSERT) is said while a transaction is open on the server, and only
/// then, as SQLite's is: beside `nobody waits` with every transaction
/// ended it read as a wait still going on (teacher trial 29, tour-3
/// idempotent steps 11 and 12).
#[test]
fn the_servers_lock_rule_is_said_only_while_a_transaction_is_open() {
    let Some(url) = server() else { return };
    let mut a = on_server("tour-3", "idempotent", &url);
    a.open_at_step(1).unwrap();
    update(&mut a, Action::CompareEngines);
    let (mut wrong, mut open, mut steps) = (Vec::new(), 0, 0);
    for _ in 0..a.last_pos() {
        let screen = draw(&mut a, 120, 40);
        let (_, right) = halves(&screen, 120);
        let right: String = right.split_whitespace().collect::<Vec<_>>().join(" ");
        let said = right.contains("of the same key waits at");
        // The right side's frame: the view pairs the engines' steps, so
        // it need not be the run's own frame at this position.
        let compare = a.compare.as_ref().expect("comparing");
        let (_, rf) = compare.frames(a.pos);
        let held = rf.consumers.iter().any(|c| c.in_txn);
        open += usize::from(held);
        steps += 1;
        if said != held {
            wrong.push(format!("at {}: said {said}, open {held}", a.pos));
        }
        update(&mut a, Action::Next);
    }
    assert!(open > 0 && open < steps, "{open} of {steps} open");
    assert!(wrong.is_empty(), "{} of {steps}: {wrong:#?}", wrong.len());
}

/// Each side's "what happens" tells its own step first: the PostgreSQL
/// side, where B opens its transaction, says so, not the words of the step
/// before it (B receiving the message).
#[test]
fn each_side_tells_its_own_step_first() {
    let Some(url) = server() else { return };
    for mode in ["idempotent", "naive"] {
        let mut a = on_server("tour-3", mode, &url);
        a.open_at_step(1).unwrap();
        update(&mut a, Action::CompareEngines);
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        for _ in 0..a.last_pos() {
            let screen = draw(&mut a, 120, 40);
            let (left, right) = halves(&screen, 120);
            let c = a.compare.as_ref().unwrap();
            let (li, ri) = c.pairs[a.pos];
            for (side, tl, at) in [(&left, &c.left, li), (&right, &c.right, ri)] {
                let told = idem::sim::event::step_told(&tl.frames[at].events);
                let lead: String = flat(&told).chars().take(24).collect();
                let side = flat(&side.replace(['│', '┃'], " "));
                let story = side.split("what happens").nth(1).unwrap_or_default();
                assert!(
                    lead.is_empty() || story.trim_start().starts_with(&lead),
                    "{mode} at {}: {lead:?} is not the first line of\n{screen}",
                    a.pos
                );
            }
            update(&mut a, Action::Next);
        }
    }
}
