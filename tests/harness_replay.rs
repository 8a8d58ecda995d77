//! `idem test --replay` on screen: a saved failing schedule of a real
//! program (examples/python/naive.py under a lost charge response), run
//! again and stepped in panels: the queue, the provider's charges and keys,
//! the program's tables read after each step, its stderr, the fault marked
//! as the observer's. Snapshots at 100x30 and 120x40, and the README's
//! picture of it, which must be the program's own drawing.

use crate::common::Screen;
use crate::common::replays;
use idem::export::{self, Kind};
use idem::tui::replay::{self, Replay};
use idem::tui::theme::Theme;
use ratatui::crossterm::event::KeyCode;
use std::path::Path;

/// The schedule file the README replays; its program path is relative
/// to the repository, where cargo runs the tests.
const FILE: &str = "examples/python/naive-charged-twice.json";
/// The README's picture of it, and the command that redraws it.
const PICTURE: &str = "screenshots/test-replay.png";
const REDRAW: &str = "idem test --replay examples/python/naive-charged-twice.json --shot screenshots/test-replay.png --force";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The replay of FILE, as `idem test --replay` records it; None without
/// python3.
pub(crate) fn replayed(theme: Theme) -> Option<Replay> {
    super::harness_bad::python3()?;
    let file = replays::read(FILE);
    let report = replays::replay(&file);
    Some(Replay::of(&file, report, theme))
}

fn screen(r: &Replay, w: u16, h: u16) -> String {
    let mut s = Screen::new(w, h);
    s.show(r);
    s.text()
}

#[test]
fn a_replay_in_panels_at_100x30_and_120x40() {
    let Some(mut r) = replayed(Theme::new(false, false)) else {
        return;
    };
    // It opens where the fault falls.
    for (w, h) in [(100u16, 30u16), (120, 40)] {
        insta::assert_snapshot!(format!("fault_{w}x{h}"), screen(&r, w, h));
    }
    replay::update(&mut r, KeyCode::End);
    for (w, h) in [(100u16, 30u16), (120, 40)] {
        insta::assert_snapshot!(format!("end_{w}x{h}"), screen(&r, w, h));
    }
}

#[test]
fn the_fault_is_marked_and_the_steps_go_both_ways() {
    let Some(mut r) = replayed(Theme::new(false, false)) else {
        return;
    };
    let at_fault = screen(&r, 120, 40);
    assert!(
        at_fault.contains("◇ ✕ fault: the answer to A (start 1) is lost"),
        "{at_fault}"
    );
    assert!(at_fault.contains("only you see the fault"), "{at_fault}");
    assert!(at_fault.contains("charges made 1 ($40)"), "{at_fault}");
    assert!(at_fault.contains("payments · 0 rows"), "{at_fault}");
    replay::update(&mut r, KeyCode::End);
    let end = screen(&r, 120, 40);
    assert!(end.contains("charges made 2 ($80)"), "{end}");
    assert!(end.contains("payments · 1 row"), "{end}");
    assert!(end.contains("acked by A"), "{end}");
    assert!(!end.contains("only you see the fault"), "{end}");
    // Back to the step before the fault: the provider has charged nothing.
    replay::update(&mut r, KeyCode::Char('F'));
    replay::update(&mut r, KeyCode::Left);
    let before = screen(&r, 120, 40);
    assert!(before.contains("charges made 0 ($0)"), "{before}");
    // Every screen fits the smallest terminal the simulator allows.
    for at in 0..r.steps.len() {
        r.at = at;
        let small = screen(&r, 80, 24);
        assert!(!small.contains("too small"), "{small}");
    }
}

#[test]
fn the_readme_picture_of_a_replay_is_current() {
    let Some(r) = replayed(Theme::new(true, false)) else {
        return;
    };
    let drawn = export::render(
        &r.buffer(120, 40),
        Kind::Png,
        &format!("idem test --replay {FILE}"),
    )
    .unwrap();
    let committed = std::fs::read(root().join(PICTURE)).unwrap_or_default();
    assert!(
        drawn == committed,
        "{PICTURE} no longer matches the program; redraw it with `{REDRAW}` (from the repository) and look at it"
    );
}

/// `--shot` is checked before the program runs; a step out of range is
/// named with the range there is; a picture is written where asked.
#[test]
fn a_shot_of_a_replay_from_the_command_line() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let idem = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(root())
            .args(["test", "--replay", FILE])
            .args(args)
            .output()
            .unwrap()
    };
    let html = dir.path().join("x.html");
    let out = idem(&["--shot", html.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("must end in .png, .svg or .txt"),
        "{stderr}"
    );
    let txt = dir.path().join("x.txt");
    let out = idem(&["--shot", txt.to_str().unwrap(), "--step", "99"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--step 99: this replay has steps 1 to 8"),
        "{stderr}"
    );
    let out = idem(&[
        "--shot",
        txt.to_str().unwrap(),
        "--step",
        "6",
        "--size",
        "100x30",
    ]);
    // The run it draws ends charged twice: exit 1, as a replay's does.
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(text.lines().count(), 30);
    assert!(text.contains("step 6/8"), "{text}");
    assert!(text.contains("charges made 2 ($80)"), "{text}");
}

/// The strip shows which step is on screen in its text, not in its style
/// alone: teacher trial 30 read `steps  ··✕·····` at step 3 and at step
/// 6, the lit cell lost in a capture and on a monochrome projector.
#[test]
fn the_strip_says_which_step_is_on_screen() {
    let Some(mut r) = replayed(Theme::new(false, false)) else {
        return;
    };
    let strip = |r: &Replay, w: u16, h: u16| {
        screen(r, w, h)
            .lines()
            .find(|l| l.contains(" steps "))
            .unwrap_or_default()
            .to_string()
    };
    let mut wrong = Vec::new();
    for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
        replay::update(&mut r, KeyCode::Home);
        let mut seen = Vec::new();
        // Each step once, by the header's `step N/M`.
        let step = |r: &Replay| {
            let top = screen(r, w, h);
            let head = top.lines().next().unwrap_or_default();
            head.split(" · ")
                .find(|p| p.starts_with("step "))
                .unwrap_or_default()
                .to_string()
        };
        let mut steps = Vec::new();
        while !steps.contains(&step(&r)) {
            steps.push(step(&r));
            let row = strip(&r, w, h);
            if !row.contains('[') || !row.contains("[ ] this step") || seen.contains(&row) {
                wrong.push(format!("{w}x{h} {}: {row:?}", step(&r)));
            }
            seen.push(row);
            replay::update(&mut r, KeyCode::Right);
        }
        assert!(steps.len() > 3, "{steps:?}");
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
