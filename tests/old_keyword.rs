//! `charge` was the keyword of the payment row's insert, read by teachers
//! as the card's charge; `payment` took its place. A file that still
//! writes `charge` keeps its meaning, with a warning at its line and
//! column, and no built-in file writes it any more.

use crate::common::cli::{design, idem};
use std::path::Path;

/// A scenario that stops A before the payment row's insert, with words
/// told at that step: `{step}` is the keyword written in both places.
const SCENARIO: &str = r#"title = "t"
summary = "s"
[setup]
consumers = ["A"]
messages = [{ id = "m-7f3", order = 1042, amount = 40 }]
[[steps]]
title = "go"
narration = "n"
actions = [
  "run A to {run}",
  { do = "run A", say = "done", say_at = { naive = { {said} = "the row" } } },
]
[expect.naive]
outcome = "correct"
"#;

/// The scenario written with these keywords, as `name` in a directory of
/// its own (so two files differ in nothing but their words, not even
/// their paths as a run prints them).
fn scenario(dir: &Path, run: &str, said: &str) -> String {
    let path = dir.join("s.toml");
    let text = SCENARIO.replace("{run}", run).replace("{said}", said);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn warnings(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.contains(": warning: ")).collect()
}

#[test]
fn run_to_charge_is_read_as_payment_with_one_warning_at_its_word() {
    let (old, new) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let old = scenario(old.path(), "charge", "payment");
    let new = scenario(new.path(), "payment", "payment");
    let (code, out, err) = idem(&["validate", &old]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("stops before `payment`: insert payment row"),
        "{out}"
    );
    // Line 10, the `c` of `charge` in `  "run A to charge",`.
    let warned = warnings(&err);
    assert_eq!(
        warned,
        [format!(
            "{old}:10:13: warning: `charge` is the old keyword for `payment` (insert payment row); the card's charge is `provider`. Write `payment`."
        )],
        "{err}"
    );
    let (code, _, err) = idem(&["validate", &new]);
    assert_eq!((code, err.as_str()), (0, ""));
    for format in ["json", "text"] {
        let (code, old_out, old_err) = idem(&["run", &old, "--format", format]);
        let (_, new_out, new_err) = idem(&["run", &new, "--format", format]);
        assert_eq!(code, 0, "{old_out}{old_err}");
        assert_eq!(old_out.replace(&old, &new), new_out, "{format}");
        assert_eq!(warnings(&old_err).len(), 1, "{old_err}");
        assert_eq!(new_err, "");
    }
}

#[test]
fn a_say_at_charge_key_is_the_payment_steps_words_with_a_warning() {
    let (old, new) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let old = scenario(old.path(), "payment", "charge");
    let new = scenario(new.path(), "payment", "payment");
    let (code, out, err) = idem(&["validate", &old]);
    assert_eq!(code, 0, "{out}{err}");
    let warned = warnings(&err);
    assert_eq!(warned.len(), 1, "{err}");
    assert!(
        warned[0].starts_with(&format!(
            "{old}:11:54: warning: `charge` is the old keyword for `payment`"
        )),
        "{err}"
    );
    let (_, old_out, _) = idem(&["run", &old, "--format", "json"]);
    let (_, new_out, _) = idem(&["run", &new, "--format", "json"]);
    assert!(new_out.contains("the row"), "{new_out}");
    assert_eq!(old_out.replace(&old, &new), new_out);
}

#[test]
fn a_design_with_charge_is_read_as_payment_with_one_warning_at_its_word() {
    let (old_dir, new_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let steps =
        r#"["receive", "begin", "claim", "{}", "provider with key", "response", "commit", "ack"]"#;
    let old = design(old_dir.path(), "mine", &steps.replace("{}", "charge"));
    let new = design(new_dir.path(), "mine", &steps.replace("{}", "payment"));
    let (code, out, err) = idem(&["validate", &old]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        warnings(&err),
        [format!(
            "{old}:3:40: warning: `charge` is the old keyword for `payment` (insert payment row); the card's charge is `provider`. Write `payment`."
        )],
        "{err}"
    );
    let (code, _, err) = idem(&["validate", &new]);
    assert_eq!((code, err.as_str()), (0, ""));
    for args in [
        &["check", "--design", "{}", "--format", "json"][..],
        &["run", "tour-1", "--design", "{}", "--format", "json"],
    ] {
        let with =
            |file: &str| -> Vec<String> { args.iter().map(|a| a.replace("{}", file)).collect() };
        let (old_args, new_args) = (with(&old), with(&new));
        let strs = |v: &[String]| v.iter().map(String::to_string).collect::<Vec<_>>();
        let run = |v: Vec<String>| {
            let v: Vec<&str> = v.iter().map(String::as_str).collect();
            idem(&v)
        };
        let (old_code, old_out, old_err) = run(strs(&old_args));
        let (new_code, new_out, new_err) = run(strs(&new_args));
        assert_eq!(old_code, new_code, "{args:?}");
        // The check's timings are the wall clock's, no part of the run.
        let timeless = |out: &str| -> String {
            out.lines()
                .filter(|l| !l.trim_start().starts_with("\"seconds\":"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            timeless(&old_out.replace(&old, &new)),
            timeless(&new_out),
            "{args:?}"
        );
        assert_eq!(warnings(&old_err).len(), 1, "{args:?}: {old_err}");
        assert!(warnings(&new_err).is_empty(), "{args:?}: {new_err}");
    }
}

/// Every step a built-in file names: `run X to <step>` actions and
/// `say_at` keys of scenarios, the `steps` of designs, a level's lists.
fn steps_named(value: &toml::Value, out: &mut Vec<String>) {
    match value {
        toml::Value::String(s) => {
            if let Some((_, step)) = s.trim().split_once(" to ")
                && s.trim_start().starts_with("run ")
            {
                out.push(step.trim().to_string());
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|v| steps_named(v, out)),
        toml::Value::Table(table) => {
            for (key, v) in table {
                match (key.as_str(), v) {
                    ("steps" | "start" | "solution", toml::Value::Array(words))
                        if words.iter().all(|w| w.is_str()) =>
                    {
                        out.extend(words.iter().map(|w| w.as_str().unwrap().to_string()));
                    }
                    ("say_at", toml::Value::Table(designs)) => {
                        for steps in designs.values().filter_map(toml::Value::as_table) {
                            out.extend(
                                steps
                                    .keys()
                                    .map(|k| k.split('#').next().unwrap().to_string()),
                            );
                        }
                    }
                    _ => steps_named(v, out),
                }
            }
        }
        _ => {}
    }
}

#[test]
fn no_built_in_file_names_a_step_charge() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["scenarios", "examples/designs", "levels"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                files.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    // The README's TOML examples, each a file of its own.
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for (i, block) in readme.split("```toml\n").skip(1).enumerate() {
        let block = block.split("```").next().unwrap();
        files.push((format!("README.md toml block {}", i + 1), block.to_string()));
    }
    assert!(files.len() > 30, "only {} files", files.len());
    let mut found = Vec::new();
    let mut steps = 0;
    for (name, text) in &files {
        let Ok(value) = toml::from_str::<toml::Value>(text) else {
            continue;
        };
        let mut named = Vec::new();
        steps_named(&value, &mut named);
        steps += named.len();
        found.extend(
            named
                .iter()
                .filter(|s| *s == "charge")
                .map(|_| name.clone()),
        );
    }
    assert!(steps > 300, "only {steps} steps seen");
    // The README's prose and its action table: `run A to charge` nowhere.
    for line in readme.lines() {
        if line.contains("to charge`")
            || line.contains("| `charge` |")
            || line.contains("before `charge`")
        {
            found.push(format!("README.md: {line}"));
        }
    }
    assert!(
        found.is_empty(),
        "{} uses of `charge` as a step:\n{}",
        found.len(),
        found.join("\n")
    );
}
