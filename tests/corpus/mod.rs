//! The corpora of broken files (tests/malformed, tests/malformed_designs):
//! each file starts with the errors it must get, one line each, in file
//! order: `# expect: LINE:COL: words`, then, where it has too many to list,
//! `# more: N` for the count of the rest. The file must get exactly those,
//! so that a cascade (an error that fixing another would remove) fails as
//! surely as a missing one.

use idem::scenario::{ScenarioError, ScenarioErrors};
use std::path::Path;

/// What a corpus file says it must get: its errors as (line, column,
/// words), and how many more there are beyond them.
pub struct Expected {
    pub errors: Vec<(String, String, String)>,
    pub more: usize,
}

/// The `# expect:` and `# more:` lines at the head of a corpus file.
pub fn expectations(path: &Path, text: &str) -> Expected {
    let expected: Vec<(String, String, String)> = text
        .lines()
        .map_while(|l| l.strip_prefix("# expect: "))
        .map(|expect| {
            let (line, rest) = expect.split_once(':').unwrap();
            let (column, words) = rest.split_once(':').unwrap();
            (line.into(), column.into(), words.trim().into())
        })
        .collect();
    assert!(
        !expected.is_empty(),
        "{} lacks its # expect: line",
        path.display()
    );
    let more = text
        .lines()
        .nth(expected.len())
        .and_then(|l| l.strip_prefix("# more: "))
        .map_or(0, |n| n.trim().parse().unwrap());
    Expected {
        errors: expected,
        more,
    }
}

/// Where `errors` differ from what `expected` says, in words.
pub fn mismatch(name: &str, expected: &Expected, errors: &ScenarioErrors) -> Option<String> {
    let matches = |(line, column, words): &(String, String, String), e: &ScenarioError| {
        (e.line.to_string(), e.column.to_string()) == (line.clone(), column.clone())
            && e.message.contains(words.as_str())
            && e.file == name
    };
    let count = expected.errors.len() + expected.more;
    let all_match = errors.count() == count
        && expected
            .errors
            .iter()
            .zip(errors.iter())
            .all(|(x, e)| matches(x, e));
    (!all_match).then(|| {
        let wanted: Vec<String> = expected
            .errors
            .iter()
            .map(|(l, c, w)| format!("{l}:{c}: {w}"))
            .collect();
        format!(
            "{name}: expected {count} error(s)\n{}\ngot {}\n{errors}",
            wanted.join("\n"),
            errors.count()
        )
    })
}

/// The `.toml` files of a corpus folder under tests/, in name order.
pub fn files(folder: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}
