//! The names `idem test` saves failing schedules under, so that several
//! programs tested in one folder never collide and a `replay:` line always
//! names the schedule of the program just tested.
//!
//! A name is `<program>-<outcome>.json` (`naive-charged-twice.json`), the
//! program's part taken from the script it runs. A file already there is
//! taken over only when idem wrote it for the same program (the same
//! words after `--`): that is this program's older result, stale once the
//! program changed, and a user who fixes a program and tests it again
//! expects the newest schedule under the same name. Anything else there
//! (another program's schedule whose script has the same name, a file of
//! the user's) is left alone and the schedule takes the next free
//! number: `naive-charged-twice-2.json`.

use idem::harness::schedule_file::ScheduleFile;
use std::path::Path;

/// Numbered names tried before giving up: far more programs of one name
/// than anyone tests in one folder.
const MOST: usize = 99;

/// True when `old` is a schedule idem saved for `program`.
pub(super) fn same_program(old: &[u8], program: &[String]) -> bool {
    serde_json::from_slice::<ScheduleFile>(old).is_ok_and(|f| f.program == program)
}

/// The name in `dir` for the schedule of `program` ending in the outcome
/// `slug`: the numbered name that holds this schedule already or an older
/// one of this program (even past a gap a removed file left), else the
/// first free one.
pub(super) fn choose(dir: &Path, program: &[String], slug: &str, text: &str) -> String {
    let stem = program_stem(program);
    let mut free = None;
    let mut last = String::new();
    for n in 1..=MOST {
        let name = match n {
            1 => format!("{stem}-{slug}.json"),
            n => format!("{stem}-{slug}-{n}.json"),
        };
        match std::fs::read(dir.join(&name)) {
            Ok(old) if old == text.as_bytes() || same_program(&old, program) => return name,
            Ok(_) => {}
            // Free, or unreadable: the save says why if it cannot write it.
            Err(_) => {
                free.get_or_insert_with(|| name.clone());
            }
        }
        last = name;
    }
    // All taken by others: the save refuses the last one, by its name.
    free.unwrap_or(last)
}

/// A short, safe name for a program: the file name (without extension)
/// of the first argument that names a file, the script an interpreter
/// runs (`python3 examples/python/naive.py` is `naive`), else of the
/// command itself (`target/release/examples/consumer_naive`).
pub(super) fn program_stem(program: &[String]) -> String {
    let script = program
        .iter()
        .skip(1)
        .map(Path::new)
        .find(|p| p.is_file())
        .and_then(Path::file_stem);
    let command = program.first().map(Path::new).and_then(Path::file_name);
    let raw = script
        .or(command)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let safe: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let safe = safe.trim_start_matches('.').to_string();
    if safe.is_empty() {
        "program".to_string()
    } else {
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_program_is_named_for_its_script_or_its_command() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("my consumer.py");
        std::fs::write(&script, "").unwrap();
        let s = script.to_str().unwrap();
        assert_eq!(program_stem(&words(&["python3", "-u", s])), "my_consumer");
        assert_eq!(
            program_stem(&words(&["target/release/examples/consumer_naive"])),
            "consumer_naive"
        );
        assert_eq!(
            program_stem(&words(&["python3", "-m", "nowhere"])),
            "python3"
        );
        assert_eq!(program_stem(&words(&["/"])), "program");
        assert_eq!(program_stem(&words(&[".hidden"])), "hidden");
    }

    #[test]
    fn a_name_held_by_another_program_or_file_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let mine = words(&["./consumer"]);
        let other = words(&["other/consumer"]);
        let file = |program: &[String], verdict: &str| {
            ScheduleFile {
                idem_test_schedule: idem::harness::schedule_file::FORMAT,
                program: program.to_vec(),
                messages: 1,
                instances: 2,
                recorded_query: String::new(),
                handled_query: None,
                faults: Vec::new(),
                database: None,
                outcome: "charged twice".to_string(),
                verdict: verdict.to_string(),
            }
            .to_text()
        };
        let text = file(&mine, "new");
        let at = |name: &str| dir.path().join(name);
        assert_eq!(
            choose(dir.path(), &mine, "charged-twice", &text),
            "consumer-charged-twice.json"
        );
        std::fs::write(at("consumer-charged-twice.json"), file(&other, "x")).unwrap();
        std::fs::write(at("consumer-charged-twice-2.json"), "notes").unwrap();
        assert_eq!(
            choose(dir.path(), &mine, "charged-twice", &text),
            "consumer-charged-twice-3.json"
        );
        std::fs::write(at("consumer-charged-twice-3.json"), file(&mine, "old")).unwrap();
        assert_eq!(
            choose(dir.path(), &mine, "charged-twice", &text),
            "consumer-charged-twice-3.json"
        );
        assert_eq!(
            choose(dir.path(), &other, "charged-twice", &file(&other, "y")),
            "consumer-charged-twice.json"
        );
    }
}
