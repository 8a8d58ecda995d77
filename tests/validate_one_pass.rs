//! One run of `idem validate` names every problem of a file: a missing
//! key (a scenario's title, a step's actions, a message's order, the
//! setup's messages, a design's summary, a level's hint) or an unknown key
//! in a message or a step hides neither the errors elsewhere in the file
//! nor its warnings. The files are in the corpora (tests/malformed,
//! tests/malformed_designs) named `one-pass-*`, and every level file of
//! tests/malformed_levels (named `NN-name.toml`, as a level must be); each
//! starts with its `# expect:` lines and then its `# warn:` lines.

use crate::common::cli::idem;
use crate::corpus;

/// The problems a file's head lists, in file order, as `L:C: words`
/// (a warning's words after `warning: `).
fn listed(text: &str) -> Vec<(usize, usize, String)> {
    let mut all: Vec<(usize, usize, String)> = text
        .lines()
        .map_while(|l| {
            l.strip_prefix("# expect: ")
                .map(|e| e.to_string())
                .or_else(|| {
                    l.strip_prefix("# warn: ")
                        .map(|w| w.replacen(": ", ": warning: ", 1))
                })
        })
        .map(|said| {
            let (line, rest) = said.split_once(':').unwrap();
            let (column, words) = rest.split_once(':').unwrap();
            (
                line.parse().unwrap(),
                column.parse().unwrap(),
                words.trim().to_string(),
            )
        })
        .collect();
    all.sort_by_key(|(line, column, _)| (*line, *column));
    all
}

#[test]
fn a_missing_key_hides_no_other_error_and_no_warning() {
    let mut files = corpus::files("malformed");
    files.extend(corpus::files("malformed_designs"));
    files.retain(|p| {
        p.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("one-pass-")
    });
    files.extend(corpus::files("malformed_levels"));
    assert!(files.len() >= 8, "{files:?}");
    let mut failures = Vec::new();
    let (mut problems, mut named) = (0, 0);
    for path in &files {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let wanted = listed(&text);
        let warnings = wanted
            .iter()
            .filter(|w| w.2.starts_with("warning: "))
            .count();
        assert!(warnings > 0 && wanted.len() > warnings + 1, "{file}");
        let (code, _, err) = idem(&["validate", &file]);
        // Each problem's first line: `FILE:L:C: words`.
        let head = format!("{file}:");
        let got: Vec<&str> = err
            .lines()
            .filter_map(|l| l.strip_prefix(&head))
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        problems += wanted.len();
        named += wanted
            .iter()
            .filter(|(line, column, words)| {
                got.iter()
                    .any(|g| g.starts_with(&format!("{line}:{column}: {words}")))
            })
            .count();
        let in_order = got.len() == wanted.len()
            && got.iter().zip(&wanted).all(|(g, (line, column, words))| {
                g.starts_with(&format!("{line}:{column}: {words}"))
            });
        let errors = wanted.len() - warnings;
        let summary = format!(
            "{file}: {errors} errors and {warnings} warning{}",
            if warnings == 1 { "" } else { "s" }
        );
        if !in_order || !err.lines().any(|l| l == summary) || code != 1 {
            failures.push(format!(
                "{file}: exit {code}, wanted {wanted:#?}\nand `{summary}`, got\n{err}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{named} of {problems} problems named\n{}",
        failures.join("\n\n")
    );
}
