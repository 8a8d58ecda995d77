//! Design files: a corpus of broken ones, each with the error it must get
//! (`# expect: LINE:COL: words` on its first line), and good ones that load
//! and prove.

use idem::scenario::design_file;
use std::path::Path;

#[test]
fn each_malformed_design_gets_its_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed_designs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the corpus shrank to {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} lacks its # expect: line", path.display()));
        let (line, rest) = expect.split_once(':').unwrap();
        let (column, words) = rest.split_once(':').unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        match design_file::parse(name, &text) {
            Ok(_) => failures.push(format!("{name}: parsed without error")),
            Err(e) => {
                let place = (e.line.to_string(), e.column.to_string());
                if place != (line.to_string(), column.to_string())
                    || !e.message.contains(words.trim())
                    || e.file != name
                {
                    failures.push(format!(
                        "{name}: expected {line}:{column}:{words}, got\n{e}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
