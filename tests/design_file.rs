//! Design files: a corpus of broken ones, each with the errors it must get
//! (the format is in tests/corpus/mod.rs), and good ones that load and
//! prove.

use crate::common::cli::{design, idem};
use crate::corpus::{self, expectations, mismatch};
use idem::scenario::design_file;

#[test]
fn each_malformed_design_gets_its_errors() {
    let files = corpus::files("malformed_designs");
    assert!(files.len() >= 20, "the corpus shrank to {}", files.len());
    let mut failures = Vec::new();
    let mut several = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let expected = expectations(path, &text);
        several += usize::from(expected.errors.len() > 1);
        let name = path.file_name().unwrap().to_str().unwrap();
        match design_file::parse_all(name, &text) {
            Ok(_) => failures.push(format!("{name}: parsed without error")),
            Err(errors) => {
                failures.extend(mismatch(name, &expected, &errors));
                let first = design_file::parse(name, &text).unwrap_err();
                if first != errors[0] {
                    failures.push(format!("{name}: parse gave another first error: {first}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    assert!(several >= 3, "only {several} files expect several errors");
}

#[test]
fn check_proves_a_design_file_or_breaks_it() {
    let dir = tempfile::tempdir().unwrap();
    let safe = design(dir.path(), "mine", crate::common::cli::SOUND_STEPS);
    let (code, out, err) = idem(&["check", "--design", &safe]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("== mine (promises an exactly-once effect)"),
        "{out}"
    );
    // Each try with its own figures (the line wraps: read it whole).
    let whole = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        whole.contains("holds within 2 consumers, 1 message and 2 faults, assuming one payment per message ID (")
            && whole.contains("; also holds at 3 faults (still at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry): 1,133 states")
            && whole.contains("; also holds with a producer retry (within 2 consumers, 1 message and 2 faults: at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry, 1 producer retry): 1,266 states"),
        "{out}"
    );
    // Acked before the work: accepted, and proven wrong (exit 1).
    let early = design(
        dir.path(),
        "early",
        r#"["receive", "ack", "begin", "claim", "payment", "provider with key", "response", "commit"]"#,
    );
    let (code, out, _) = idem(&["check", "--design", &early]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("shortest schedule to \"message lost\""),
        "{out}"
    );
    // A run and a play in any scenario under it.
    let (code, out, _) = idem(&["run", "tour-1", "--design", &early]);
    assert_eq!(code, 0);
    assert!(out.contains("== verdict (early) =="), "{out}");
    let (code, _, err) = idem(&["play", "tour-3", "--design", &early]);
    assert_eq!(code, 2);
    assert!(err.contains("--design"), "{err}");
}

/// A scenario with no expectation for the design is refused before the
/// run: nothing to read on stdout that `--check` would then disown.
#[test]
fn run_check_without_an_expectation_refuses_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let mine = design(dir.path(), "my-handler", crate::common::cli::SOUND_STEPS);
    let (code, out, err) = idem(&["run", "tour-1", "--design", &mine, "--check"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "", "nothing is run");
    assert!(
        err.contains("tour-1 has no expectation for my-handler"),
        "{err}"
    );
}

#[test]
fn a_broken_design_file_is_an_input_error_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let bad = design(dir.path(), "bad", r#"["receive", "comit", "ack"]"#);
    for args in [
        vec!["check", "--design", &bad],
        vec!["run", "tour-1", "--design", &bad],
    ] {
        let (code, _, err) = idem(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            err.contains("bad.toml:3:21: unknown step `comit` (did you mean `commit`?)"),
            "{err}"
        );
    }
}

#[test]
fn every_error_of_a_design_file_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slips.toml");
    std::fs::write(
        &path,
        "name = \"Mine\"\nsummary = 5\nsteps = [\"receive\", 3, \"ack\"]\nstepz = []\n",
    )
    .unwrap();
    let (code, _, err) = idem(&["check", "--design", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let places: Vec<&str> = err
        .lines()
        .filter_map(|l| l.split("slips.toml:").nth(1))
        .map(|rest| rest.split(": ").next().unwrap())
        .collect();
    // The types and keys first: the name's rule waits until they are sound.
    assert_eq!(places, ["2:11", "3:21", "4:1"], "{err}");
}

#[test]
fn levels_list_and_a_level_out_of_range() {
    let (code, out, _) = idem(&["levels", "--list"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(" 8  No table, only an offset (without a processed_messages table)"),
        "{out}"
    );
    let (code, _, err) = idem(&["play", "--level", "99"]);
    assert_eq!(code, 2);
    assert!(err.contains("the levels are 1 to 9"), "{err}");
    let (code, _, err) = idem(&["play", "--level", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a terminal"), "{err}");
}

/// A run is one schedule: its verdict line bounds a correct end to that
/// run (`correct in this run`), as `play` does, for a design file and for a
/// built-in design alike (the same transcript); the run's last state says
/// the same. A wrong end needs no bound: one run that breaks is proof.
#[test]
fn a_correct_run_says_in_this_run_on_its_verdict_line() {
    let dir = tempfile::tempdir().unwrap();
    let mine = design(dir.path(), "mine", crate::common::cli::SOUND_STEPS);
    let (code, own, err) = idem(&["run", "tour-1", "--design", &mine]);
    assert_eq!(code, 0, "{err}");
    let (code, built_in, err) = idem(&["run", "tour-1", "--mode", "idempotent"]);
    assert_eq!(code, 0, "{err}");
    for (name, out) in [("mine", &own), ("idempotent", &built_in)] {
        assert!(
            out.contains(&format!(
                "== verdict ({name}) ==\ncorrect in this run; held: "
            )),
            "{out}"
        );
        assert!(
            out.contains("    verdict   correct in this run; held: "),
            "{out}"
        );
        // No bare "correct" verdict left anywhere in the transcript, the
        // order's own line included (teacher trial 14: `…: correct`).
        assert!(
            !out.lines().any(|l| l.starts_with("correct;")
                || l.trim_start().starts_with("verdict   correct;")
                || l.ends_with(": correct")),
            "{out}"
        );
        assert!(
            out.contains("provider charges 1: correct in this run"),
            "{out}"
        );
    }
    let (_, naive, _) = idem(&["run", "tour-1", "--mode", "naive"]);
    assert!(
        naive.contains("== verdict (naive) ==\ncharged twice <- "),
        "{naive}"
    );
    assert!(!naive.contains("in this run"), "{naive}");
    // A run long enough to be streamed: the same bound, and the same
    // pointer to the check at its end.
    let (_, toml, _) = idem(&["generate", "--messages", "101"]);
    let long = dir.path().join("long.toml");
    std::fs::write(&long, toml).unwrap();
    let long = long.to_str().unwrap();
    let (code, out, err) = idem(&["run", long, "--design", &mine]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("== verdict (mine) ==\ncorrect in this run; held: "),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with(&format!("one run of mine, on one schedule; idem check --design {mine} tries every crash point and interleaving within its bounds")),
        "{out}"
    );
}

/// The design files the README points a learner to (teacher trial 14:
/// examples/ had none) are sound, and the check tells the two apart.
#[test]
fn the_example_designs_validate_and_the_check_tells_them_apart() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/designs");
    for (file, holds) in [("my-handler.toml", true), ("ack-first-handler.toml", false)] {
        let path = format!("{dir}/{file}");
        let (code, out, err) = idem(&["validate", &path]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        let (code, out, err) = idem(&["check", "--design", &path]);
        if holds {
            assert_eq!(code, 0, "{file}: {out}{err}");
            assert!(out.contains("holds within"), "{file}: {out}");
        } else {
            assert_ne!(code, 0, "{file}: {out}{err}");
            assert!(out.contains("CONTRADICTS ITS PROMISE"), "{file}: {out}");
        }
    }
}
