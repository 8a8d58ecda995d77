//! Teacher trial of `idem soak --headless` at 80 columns: "charged twice: 1
//! payments", a faults line in flag syntax (`crash=0.5%,lose-ack=1%`), 13
//! lines wider than the terminal, and a published line that took three
//! readings. The report reads as words, counts agree with their nouns, and
//! it wraps to the width `idem check` wraps to.

use std::process::Command;

fn soak_at(columns: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args([
            "soak",
            "--messages",
            "200",
            "--consumers",
            "3",
            "--seed",
            "1",
        ])
        .arg("--headless")
        .env("COLUMNS", columns)
        .output()
        .expect("idem runs");
    String::from_utf8(out.stdout).expect("text")
}

#[test]
fn the_soak_report_fits_80_columns_and_reads_as_words() {
    let text = soak_at("80");
    let wide: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "lines wider than 80: {wide:#?}\n{text}");
    for (n, noun) in [("1", "payments"), ("1", "ticks"), ("1", "crashes")] {
        assert!(
            !text.contains(&format!(" {n} {noun} ")),
            "`{n} {noun}` in:\n{text}"
        );
    }
    assert!(
        text.contains("charged twice or more: 1 payment ·"),
        "{text}"
    );
    let faults = text
        .lines()
        .find(|l| l.starts_with("faults (chance per payment)"))
        .expect("a faults line");
    assert!(
        faults.contains("crash 0.5%, lost ack 1%, lost response 0.5%"),
        "{faults}"
    );
    assert!(
        !text.contains("lose-ack"),
        "flag words in the report: {text}"
    );
    assert!(
        !text.contains("judged once and owed twice"),
        "the published line in plain words: {text}"
    );
    assert!(text.contains("1 was paid twice on purpose"), "{text}");
}

/// A wrapped line goes on indented under its own start, at a word's end.
#[test]
fn the_soak_report_wraps_at_word_ends_indented() {
    let text = soak_at("80");
    let lines: Vec<&str> = text.lines().collect();
    let cont = lines
        .iter()
        .position(|l| l.starts_with("    e.g. "))
        .expect("an example line");
    assert!(lines[cont + 1].starts_with("        "), "{text}");
    let wide = soak_at("200");
    let joined = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let (a, b) = (joined(&text), joined(&wide));
    let cut = |t: &str| t[..t.find("== measured").unwrap()].to_string();
    assert_eq!(cut(&a), cut(&b), "wrapping keeps every word");
}

/// Teacher trial: the outcomes line read `correct 9,646 · provider and
/// database disagree 39 · charged twice 261`, the reverse of `idem
/// check`'s table, and its `charged twice` counted payments charged three
/// times too. The outcomes come in the check table's column order, the
/// failures first and correct last, and the count of payments charged
/// more than once says `or more`, as the check's legend does.
#[test]
fn the_outcomes_come_in_the_check_tables_order_and_say_or_more() {
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["soak", "--messages", "400", "--seed", "1", "--headless"])
        .arg("--mode")
        .arg("naive")
        .output()
        .expect("idem runs");
    let text = String::from_utf8(out.stdout).expect("text");
    let line = text
        .lines()
        .find(|l| l.starts_with("outcomes: "))
        .expect("an outcomes line");
    let names: Vec<String> = line["outcomes: ".len()..]
        .split(" · ")
        .map(|part| {
            part.trim_end_matches(|c: char| c.is_ascii_digit() || c == ',')
                .trim()
                .to_string()
        })
        .collect();
    assert_eq!(
        names,
        [
            "charged twice or more",
            "provider and database disagree",
            "correct"
        ],
        "{line}"
    );
    let twice = text
        .lines()
        .find(|l| l.trim_start().starts_with("charged twice"))
        .filter(|l| l.contains(" payments · "))
        .expect("the violation's count");
    assert!(
        twice.trim_start().starts_with("charged twice or more: "),
        "{twice}"
    );
}
