//! A built-in design a scenario is not written for runs for real, but with
//! none of the scenario's words: they tell another design's story. Every
//! front end says so once, and shows the design asked for.

use crate::common::cli::{design, idem};
use idem::export::shot::{Moment, Shot, View};
use idem::scenario::{self, load::builtins};
use idem::sim::Strategy;
use idem::timeline::Timeline;

/// Sentences tour-1 tells of the naive run, and a chapter title of its.
const NAIVE_WORDS: [&str; 3] = ["keeps no record", "paid $80", "A handles m-7f3"];

const NOTE: &str = "tour-1 is not written for id-first: its story is left out";

#[test]
fn story_left_out_run_prints_no_other_designs_words() {
    let (code, out, err) = idem(&["run", "tour-1", "--mode", "id-first"]);
    assert_eq!(code, 0, "{err}");
    for words in NAIVE_WORDS {
        assert!(!out.contains(words), "`{words}` printed:\n{out}");
    }
    assert_eq!(out.matches(NOTE).count(), 1, "{out}");
    // Said at the top, before the first step.
    assert!(out.find(NOTE) < out.find("[0]"), "{out}");
    // The run's own events are all still there.
    assert!(out.contains("finds the unique key taken"), "{out}");
    assert!(out.contains("== verdict (id-first) ==\ncorrect"), "{out}");
}

#[test]
fn story_left_out_json_names_it_in_a_field() {
    let (code, out, err) = idem(&["run", "tour-1", "--mode", "id-first", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let run: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        run["story_left_out"].as_str().unwrap().starts_with(NOTE),
        "{}",
        run["story_left_out"]
    );
    for words in NAIVE_WORDS {
        assert!(!out.contains(words), "`{words}` in the JSON");
    }
    // A design it is written for has no such field.
    let (_, naive, _) = idem(&["run", "tour-1", "--mode", "naive", "--format", "json"]);
    let naive: serde_json::Value = serde_json::from_str(&naive).unwrap();
    assert!(naive.get("story_left_out").is_none());
}

#[test]
fn story_left_out_never_for_a_design_written_for() {
    let (code, out, _) = idem(&["run", "tour-1", "--mode", "naive"]);
    assert_eq!(code, 0);
    assert!(!out.contains("is not written for"), "{out}");
    assert!(out.contains("paid $80"), "{out}");
}

#[test]
fn story_left_out_shot_draws_the_design_asked() {
    let file = std::env::temp_dir().join(format!("idem-left-out-{}.txt", std::process::id()));
    let path = file.to_str().unwrap();
    let (code, _, err) = idem(&[
        "shot", "tour-1", "--mode", "id-first", "--step", "15", "--size", "80x24", "-o", path,
        "--force",
    ]);
    let screen = std::fs::read_to_string(&file).unwrap_or_default();
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(NOTE), "{err}");
    assert!(err.contains("written for idempotent, naive"), "{err}");
    let header = screen.lines().next().unwrap_or_default();
    assert!(header.contains("id-first"), "{header}");
    assert!(!screen.contains("naive"), "{screen}");
    assert!(!screen.contains("charged twice"), "{screen}");
    assert!(screen.contains("not written for id-first"), "{screen}");
}

/// No frame of any built-in scenario, under any built-in design it is
/// not written for, carries a word of the scenario's story.
#[test]
fn story_left_out_every_scenario_every_design() {
    let mut seen = 0;
    for script in builtins() {
        for strategy in Strategy::all() {
            if script.story_left_out(&strategy.name).is_none() {
                continue;
            }
            let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            assert!(t.story_left_out.is_some());
            for f in &t.frames[1..] {
                let at = format!(
                    "{} under {} at step {}",
                    script.name, strategy.name, f.index
                );
                assert!(f.narration.is_empty(), "{at}: {}", f.narration);
                assert!(f.said.is_none() && f.borrowed.is_none(), "{at}");
                assert!(f.chapter_title.is_empty(), "{at}: {}", f.chapter_title);
            }
            seen += 1;
        }
    }
    assert!(seen > 10, "only {seen} runs not written for");
}

/// The picture's app keeps the design asked for; `App::new` (play)
/// still opens the scenario's own.
#[test]
fn story_left_out_shot_app_keeps_the_design() {
    let shot = Shot {
        script: scenario::find("tour-1").unwrap(),
        strategy: Strategy::by_name("id-first").unwrap(),
        seed: 0,
        moment: Moment::Step(15),
        view: View::Main,
        width: 80,
        height: 24,
        ascii: false,
        color: false,
    };
    let app = shot.app().unwrap();
    assert_eq!(app.strategy.name, "id-first");
    assert!(
        app.status
            .as_deref()
            .unwrap_or_default()
            .contains("not written for")
    );
    let played = crate::common::app("tour-1", "id-first");
    assert_eq!(played.strategy.name, "naive");
}

/// A run long enough to be streamed leaves the story out the same way.
#[test]
fn story_left_out_streamed_run_too() {
    let (_, toml, _) = idem(&["generate", "--messages", "101"]);
    let file = std::env::temp_dir().join(format!("idem-left-out-{}.toml", std::process::id()));
    std::fs::write(&file, toml).unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = idem(&["run", path, "--mode", "id-first"]);
    let (_, own, _) = idem(&["run", path, "--mode", "idempotent"]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, 0, "{err}");
    assert!(own.contains("take turns"), "the file's own words changed");
    assert!(!out.contains("take turns"), "the story was printed");
    let note = format!("{path} is not written for id-first");
    // Said once, before the first step (wrapped as the text wraps).
    let top: Vec<&str> = out
        .split("[0]")
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    assert!(top.join(" ").contains(&note), "{}", top.join(" "));
    assert_eq!(out.matches("is not written for").count(), 1);
}

/// A design of the learner's own is not one tour-1 is written for: its
/// naive story ("paid $80") would stand under a run that paid once.
#[test]
fn story_left_out_of_a_design_file_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = design(dir.path(), "my-handler", crate::common::cli::SOUND_STEPS);
    let (code, out, err) = idem(&["run", "tour-1", "--design", &file]);
    assert_eq!(code, 0, "{err}");
    for words in NAIVE_WORDS {
        assert!(!out.contains(words), "`{words}` printed:\n{out}");
    }
    let note = "tour-1 is not written for my-handler: its story is left out";
    assert_eq!(out.matches(note).count(), 1, "{out}");
    assert!(out.contains("== verdict (my-handler) ==\ncorrect"), "{out}");
}

/// A design file's run is one schedule: its transcript says where every
/// schedule is tried, so a "correct" run is not read as a proof.
#[test]
fn a_design_file_run_points_to_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = design(
        dir.path(),
        "ack-early",
        r#"["receive", "ack", "begin", "payment", "provider without key", "response", "commit"]"#,
    );
    let (code, out, err) = idem(&["run", "tour-1", "--design", &path]);
    assert_eq!(code, 0, "{err}");
    let said = format!("one run of ack-early, on one schedule; idem check --design {path}");
    assert!(out.contains(&said), "{out}");
    // A built-in design's run has its expectation instead.
    let (_, naive, _) = idem(&["run", "tour-1", "--mode", "naive"]);
    assert!(!naive.contains("on one schedule"), "{naive}");
}
