//! Issue 22: a file `idem validate` accepted could take 4 GiB, since every
//! frame keeps the whole state. The budget is checked when the file is
//! read: each costly shape is accepted at its longest and refused one
//! action later, at that action's line. (What the longest costs is
//! measured in `benches/budget.rs`, never here.)

use idem::scenario::limits::{MAX_NAME_CHARS, MAX_STEP_WORDS};
use idem::scenario::parse;
use idem::scenario::shapes::{Shape, write};
use idem::sim::Strategy;
use idem::timeline::Timeline;
use std::process::Command;

#[test]
fn each_costly_shape_is_accepted_at_the_limit_and_refused_one_action_past_it() {
    for shape in Shape::ALL {
        let most = shape.most_actions();
        assert!(most > 10, "{shape:?}: {most}");
        let at = write(shape, most);
        let name = format!("{}.toml", shape.name());
        if let Err(e) = parse(&name, &at.text) {
            panic!("{shape:?} with {most} actions: {e}");
        }
        let past = write(shape, most + 1);
        let e = parse(&name, &past.text).unwrap_err();
        assert_eq!(e.line, past.action_lines[most], "{shape:?}: {e}");
        assert_eq!(e.column, 3, "{shape:?}: {e}");
        assert!(e.message.starts_with("too long to keep"), "{shape:?}: {e}");
    }
}

/// The shapes of the report, at the length it gave, are refused: 1,000
/// steps of 20 actions, where 5 steps already took 39 MB.
#[test]
fn the_reported_files_are_refused() {
    for shape in [Shape::PublishRun, Shape::CrashStep, Shape::Wait] {
        let e = parse("report.toml", &write(shape, 20_000).text).unwrap_err();
        assert!(e.message.starts_with("too long to keep"), "{shape:?}: {e}");
    }
}

/// Accepted means it runs: every shape at its limit runs to its end under
/// both designs it names.
#[test]
fn each_shape_at_the_limit_runs() {
    for shape in Shape::ALL {
        let script = parse("at.toml", &write(shape, shape.most_actions()).text).unwrap();
        for design in ["naive", "idempotent"] {
            let t = Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap();
            assert!(t.frames.len() > 20, "{shape:?} under {design}");
            assert!(t.frames.len() <= idem::scenario::limits::MAX_FRAMES);
        }
    }
}

const HEAD: &str = "title = \"t\"\nsummary = \"s\"\n[setup]\n";

#[test]
fn a_name_every_frame_shows_is_at_most_64_characters() {
    let long = "m".repeat(MAX_NAME_CHARS + 1);
    let ok = "m".repeat(MAX_NAME_CHARS);
    let file = |id: &str, consumer: &str, queue: &str| {
        format!(
            "{HEAD}queue = \"{queue}\"\nconsumers = [\"{consumer}\"]\nmessages = [{{ id = \"{id}\", order = 1, amount = 1 }}]\n[[steps]]\ntitle = \"s\"\nactions = [\"run {consumer}\"]\n[expect.naive]\n"
        )
    };
    parse("ok.toml", &file(&ok, &ok, &ok)).unwrap();
    for (text, line, column, what) in [
        (file(&long, "A", "q"), 6, 20, "a message ID"),
        (file("m-1", &long, "q"), 5, 14, "a consumer name"),
        (file("m-1", "A", &long), 4, 9, "a queue name"),
    ] {
        let e = parse("long.toml", &text).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{e}");
        assert!(e.message.starts_with(what), "{e}");
    }
}

#[test]
fn the_words_a_step_repeats_on_every_frame_are_bounded() {
    let file = |narration: usize, say: usize| {
        format!(
            "{HEAD}messages = [{{ id = \"m-1\", order = 1, amount = 1 }}]\n[[steps]]\ntitle = \"s\"\nnarration = \"{}\"\nactions = [\n  \"run A\",\n  {{ do = \"wait 1s\", say = \"{}\" }},\n]\n[expect.naive]\n",
            "n".repeat(narration),
            "s".repeat(say)
        )
    };
    // The title's one character, the narration and the say.
    parse("ok.toml", &file(MAX_STEP_WORDS - 101, 100)).unwrap();
    let e = parse("say.toml", &file(MAX_STEP_WORDS - 100, 100)).unwrap_err();
    assert_eq!((e.line, e.column), (10, 3), "{e}");
    assert!(e.message.contains("too many words"), "{e}");
    let e = parse("narration.toml", &file(MAX_STEP_WORDS, 0)).unwrap_err();
    assert_eq!((e.line, e.column), (7, 13), "{e}");
    // Words for one design count on their own.
    let text = file(10, 10).replace(
        "[expect.naive]",
        &format!(
            "[steps.narration_for]\nnaive = \"{}\"\n[expect.naive]",
            "n".repeat(MAX_STEP_WORDS)
        ),
    );
    let e = parse("for.toml", &text).unwrap_err();
    assert!(e.message.contains("under naive"), "{e}");
}

/// `idem validate` says where, like every other error.
#[test]
fn validate_points_at_the_action_over_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let past = write(Shape::Wait, Shape::Wait.most_actions() + 1);
    let path = dir.path().join("long.toml");
    std::fs::write(&path, &past.text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["validate", path.to_str().unwrap()])
        .output()
        .unwrap();
    // 1: validate found an invalid file.
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let line = past.action_lines[Shape::Wait.most_actions()];
    assert!(
        err.contains(&format!("long.toml:{line}:3: too long to keep")),
        "{err}"
    );
}
