//! A schedule `idem check` found is a list of moves, not a story in
//! chapters: wherever its replay is shown (the story panel opened from the
//! explorer, the same schedule saved and played from its file, `idem run`'s
//! transcript, the lesson handout) each of its steps is named a move
//! (`move 2/4`), and never a chapter (teacher trial: "chapter 2/4" for one
//! move of a found schedule read as a story the checker told).

use crate::common;
use idem::export::lesson;
use idem::report;
use idem::scenario;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use idem::tui::{Action, App, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The shortest run of the first broken design in the explorer, opened.
fn opened() -> App {
    let mut a = common::check::explorer_showing(common::check::report().clone());
    update(&mut a, Action::Enter);
    assert!(a.is_counterexample(), "Enter opens a counterexample");
    a
}

/// The counterexample's script, written to a file and read back, as
/// `idem check --save` then `idem play FILE` does.
fn saved() -> scenario::Script {
    let a = opened();
    let cx = common::check::report()
        .strategies
        .iter()
        .flat_map(|s| &s.counterexamples)
        .find(|cx| cx.script.name == a.script.name)
        .expect("the opened counterexample is in the report");
    scenario::parse("saved.toml", &cx.to_toml()).expect("a saved counterexample reads back")
}

/// Every row of the screen with a step number in a part's words.
fn part_words(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|r| r.contains("chapter ") || r.contains("move "))
        .map(str::to_string)
        .collect()
}

#[test]
fn an_opened_counterexample_names_its_steps_moves() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut a = opened();
        a.pos = 1;
        let screen = common::draw(&mut a, w, h);
        let of = a.chapter().1;
        if screen.contains("chapter ") || !screen.contains(&format!("move 1/{of}")) {
            failures.push(format!("{w}x{h}: {:?}\n{screen}", part_words(&screen)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_saved_counterexample_played_from_its_file_names_its_steps_moves() {
    let script = saved();
    let strategy = Strategy::by_name(&script.design()).expect("a built-in design");
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut a = common::app("tour-1", "naive");
        a.script = script.clone();
        a.strategy = strategy.clone();
        a.timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
        a.pos = 2;
        let screen = common::draw(&mut a, w, h);
        let of = script.steps.len();
        if screen.contains("chapter ") || !screen.contains(&format!("move 2/{of}")) {
            failures.push(format!("{w}x{h}: {:?}\n{screen}", part_words(&screen)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_saved_counterexamples_transcript_and_lesson_name_moves() {
    let script = saved();
    let strategy = Strategy::by_name(&script.design()).expect("a built-in design");
    let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    let of = script.steps.len();
    let out = report::transcript(&timeline, None);
    let title = script.steps[0].title(&strategy.name);
    assert!(
        out.contains(&format!("== move 1/{of}: {title} ==")),
        "the transcript's first heading names a move:\n{out}"
    );
    assert!(!out.to_lowercase().contains("chapter"), "{out}");
    let page = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    assert!(
        page.contains(&format!("\"part\":\"Move {}/{of}: {title}\"", 1)),
        "the lesson's heading of step 1 names a move"
    );
}

/// A scenario someone wrote keeps its chapters.
#[test]
fn a_written_scenario_keeps_its_chapters() {
    let mut a = common::app("tour-1", "naive");
    a.pos = 1;
    let screen = common::draw(&mut a, 120, 40);
    assert!(screen.contains("chapter 1/"), "{screen}");
    assert!(!screen.contains("move 1/"), "{screen}");
}

/// Every row of the screen that names a step of the run by its number
/// (`step 7/10`, `SQL in step 7`, `lost at step 6`), says there was no
/// SQL in this step, or offers to go a step (`←/→ step`).
fn step_words(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|r| {
            let r = r.replace("steps ", "step ");
            r.match_indices("step ")
                .any(|(i, _)| r[i + 5..].starts_with(|c: char| c.is_ascii_digit()))
                || r.contains("←/→ step")
                || r.contains("SQL in this step")
        })
        .map(str::to_string)
        .collect()
}

/// On an opened counterexample a step of the run is a move everywhere on
/// the screen: the header, the story's step line, the SQL and events
/// titles, the verdict's causes and the key bar (teacher trial: the
/// story said "move 7/10" while its border said "step 7/10").
#[test]
fn an_opened_counterexample_says_move_for_every_step() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut a = opened();
        for pos in [1, a.last_pos()] {
            a.pos = pos;
            let screen = common::draw(&mut a, w, h);
            let rows = step_words(&screen);
            if !rows.is_empty() {
                failures.push(format!("{w}x{h} at {pos}: {rows:#?}\n{screen}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
