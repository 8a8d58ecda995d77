//! Where `idem test` saves its failing schedules, and what it says about
//! them: several programs tested in one folder each get files of their
//! own, every `replay:` line names a file that was written for the
//! program just tested, a save that fails never hides the verdict (exit
//! 1, the reason on stderr), `--faults` given a fault kind says what it
//! takes, and the note on schedules counted twice appears only where one is.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// `idem test ARGS -- python3 examples/python/SAMPLE.py` in `dir`.
fn idem_test(dir: &Path, args: &[&str], sample: &str) -> Ran {
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir)
        .env("HOME", dir)
        .arg("test")
        .args(args)
        .arg("--")
        .arg("python3")
        .arg(root().join(format!("examples/python/{sample}.py")))
        .output()
        .unwrap();
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The files the `replay:` lines name, relative to `dir`.
fn replays(dir: &Path, stdout: &str) -> Vec<PathBuf> {
    stdout
        .lines()
        .filter_map(|l| l.trim().strip_prefix("replay: idem test --replay "))
        .map(|p| dir.join(p))
        .collect()
}

/// The program a saved schedule file names.
fn program_in(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: a replay line names it: {e}", file.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["program"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

fn sample_program(sample: &str) -> Vec<String> {
    vec![
        "python3".to_string(),
        root()
            .join(format!("examples/python/{sample}.py"))
            .display()
            .to_string(),
    ]
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|f| f.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The teacher's trial: four wrong samples one after another in one
/// folder, then the first again. Every replay line names a file that
/// holds the schedule of the program just tested; no run is refused for
/// a file an earlier run of another program wrote; a second run of the
/// same program adds no file.
#[test]
fn programs_tested_in_one_folder_each_replay_their_own_schedule() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let samples = [
        "naive",
        "new_key_per_attempt",
        "check_then_insert",
        "ack_before_commit",
    ];
    let mut wrong = Vec::new();
    let mut seen = Vec::new();
    for sample in samples {
        let ran = idem_test(dir.path(), &["--faults", "1"], sample);
        let lines = replays(dir.path(), &ran.stdout);
        let mut problems = Vec::new();
        if ran.code != Some(1) {
            problems.push(format!("exit {:?}, not 1", ran.code));
        }
        if lines.is_empty() {
            problems.push("no replay line".to_string());
        }
        for file in &lines {
            if !file.exists() {
                problems.push(format!("{} was not written", file.display()));
            } else if program_in(file) != sample_program(sample) {
                problems.push(format!(
                    "{} holds the schedule of {:?}",
                    file.display(),
                    program_in(file)
                ));
            }
        }
        if !problems.is_empty() {
            wrong.push(format!(
                "{sample}: {}\n{}{}",
                problems.join("; "),
                ran.stdout,
                ran.stderr
            ));
        }
        seen.extend(lines);
    }
    assert!(
        wrong.is_empty(),
        "{} of {} runs wrong:\n{}",
        wrong.len(),
        samples.len(),
        wrong.join("\n")
    );
    // Each program's files are still its own after the others ran.
    for file in &seen {
        let owner = program_in(file);
        assert!(
            samples.iter().any(|s| sample_program(s) == owner),
            "{}",
            file.display()
        );
    }
    let before = files_in(&dir.path().join("idem-test-failures"));
    let again = idem_test(dir.path(), &["--faults", "1"], "naive");
    assert_eq!(again.code, Some(1), "{}{}", again.stdout, again.stderr);
    assert_eq!(
        files_in(&dir.path().join("idem-test-failures")),
        before,
        "a second run of naive.py adds or removes files"
    );
    for file in replays(dir.path(), &again.stdout) {
        assert_eq!(program_in(&file), sample_program("naive"));
    }
}

/// A file idem wrote for this program in an earlier run (the program has
/// changed since) is replaced; a file of anything else under that name is
/// left as it is and the schedule goes under another name.
#[test]
fn an_earlier_schedule_of_the_same_program_is_replaced_and_nothing_else_is() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let first = idem_test(dir.path(), &["--faults", "1"], "naive");
    assert_eq!(first.code, Some(1), "{}{}", first.stdout, first.stderr);
    let files = replays(dir.path(), &first.stdout);
    assert!(!files.is_empty(), "{}", first.stdout);
    // An older run of the same program found a longer schedule.
    let mut old: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    old["verdict"] = serde_json::Value::from("an older verdict");
    std::fs::write(&files[0], old.to_string()).unwrap();
    // And a file of the user's own under the second name.
    let mine = "my notes, not a schedule\n";
    if let Some(second) = files.get(1) {
        std::fs::write(second, mine).unwrap();
    }
    let again = idem_test(dir.path(), &["--faults", "1"], "naive");
    assert_eq!(again.code, Some(1), "{}{}", again.stdout, again.stderr);
    assert!(!again.stderr.contains("--save"), "{}", again.stderr);
    let now = replays(dir.path(), &again.stdout);
    assert_eq!(now[0], files[0], "{}", again.stdout);
    let replaced = std::fs::read_to_string(&files[0]).unwrap();
    assert!(!replaced.contains("an older verdict"), "{replaced}");
    if let Some(second) = files.get(1) {
        assert_eq!(std::fs::read_to_string(second).unwrap(), mine);
        assert_ne!(&now[1], second, "{}", again.stdout);
        assert_eq!(program_in(&now[1]), sample_program("naive"));
    }
}

/// A folder that cannot be made: the schedules are not saved and no replay
/// line says they were; stderr says why, and the exit status is still 1,
/// the program's verdict.
#[test]
fn a_save_that_fails_does_not_hide_the_verdict() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("taken"), "a file, not a folder\n").unwrap();
    let ran = idem_test(dir.path(), &["--faults", "1", "--save", "taken"], "naive");
    assert_eq!(ran.code, Some(1), "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("CHARGED TWICE"), "{}", ran.stdout);
    assert!(
        replays(dir.path(), &ran.stdout).is_empty(),
        "a replay line for a file not written:\n{}",
        ran.stdout
    );
    assert!(ran.stderr.contains("--save"), "{}", ran.stderr);
    assert!(ran.stderr.contains("taken"), "{}", ran.stderr);
}

/// `--faults` of `idem test` is a bound; given a fault kind (as `idem soak
/// --faults` takes) it says what it takes and where kinds go.
#[test]
fn faults_given_a_kind_says_it_takes_a_number() {
    let dir = tempfile::tempdir().unwrap();
    for given in ["lose-ack", "lose-ack=1%", "3", "-1", "two"] {
        let out = Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .args(["test", &format!("--faults={given}"), "--", "true"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{given}: {stderr}");
        assert!(!stderr.contains("invalid digit"), "{given}: {stderr}");
        assert!(
            stderr.contains("the most faults in one schedule, 0 to 2"),
            "{given}: {stderr}"
        );
        if given.starts_with("lose-ack") {
            assert!(
                stderr.contains("--soak N --rates lose-ack=1%"),
                "{given}: {stderr}"
            );
        }
    }
    // And `--rates`, where the kinds go, names itself in its errors.
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .args(["test", "--rates", "lose-ak=1%", "--", "true"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--rates, item 1"), "{stderr}");
    assert!(stderr.contains("did you mean `lose-ack`"), "{stderr}");
}

/// "counts in both" only where a schedule counted under two outcomes.
#[test]
fn the_note_on_schedules_counted_twice_only_where_one_is() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clean = idem_test(dir.path(), &["--faults", "1", "--no-save"], "idempotent");
    assert_eq!(clean.code, Some(0), "{}{}", clean.stdout, clean.stderr);
    let outcomes = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("outcomes: "))
            .unwrap_or_else(|| panic!("no outcomes line in\n{text}"))
            .to_string()
    };
    assert_eq!(outcomes(&clean.stdout), "outcomes: correct: 10");
    // naive.py: 7 charged twice, 2 disagree, 3 correct over 10 schedules:
    // two schedules broke it both ways.
    let naive = idem_test(dir.path(), &["--faults", "1", "--no-save"], "naive");
    assert_eq!(naive.code, Some(1), "{}{}", naive.stdout, naive.stderr);
    assert_eq!(
        outcomes(&naive.stdout),
        "outcomes: charged twice: 7, provider and database disagree: 2, correct: 3 (2 schedules went wrong in more than one way and count under each)"
    );
}
