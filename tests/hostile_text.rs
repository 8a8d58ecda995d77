//! Text from a scenario file, a file name or an argument never reaches the
//! terminal as control sequences: validation refuses them (see the
//! `control-*` files in tests/malformed), and whatever is printed is
//! escaped as well.

use idem::report;
use idem::scenario;
use idem::sim::Strategy;
use idem::terminal_text::find_control;
use idem::timeline::Timeline;
use std::process::Command;

fn assert_clean(text: &str) {
    assert_eq!(find_control(text), None, "a control character in:\n{text}");
}

#[test]
fn a_raw_escape_in_a_broken_file_is_shown_escaped() {
    let text = "title = \"x\u{1b}]0;pwned\u{7}\"\nsummary = \"s\"\n";
    let e = scenario::parse("evil\u{1b}[31m.toml", text).unwrap_err();
    let shown = e.to_string();
    assert_clean(&shown);
    assert!(shown.contains("evil\\u{1b}[31m.toml:1:11"), "{shown}");
    assert!(
        shown.contains("title = \"x\\u{1b}]0;pwned\\u{7}\""),
        "{shown}"
    );
}

#[test]
fn crlf_line_ends_are_not_control_characters() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/ack-first.toml"
    ))
    .unwrap()
    .replace('\n', "\r\n");
    let script = scenario::parse("ack-first-crlf.toml", &text).unwrap();
    assert!(script.steps.iter().all(|s| !s.narration.contains('\r')));
}

#[test]
fn the_text_report_escapes_what_a_script_built_in_code_carries() {
    let mut script = scenario::find("tour-1").unwrap();
    script.title = "Tour\u{1b}[2J\u{1b}[H".into();
    script.steps[0].narration = "A commits.\u{9b}31m Then \u{7f}".into();
    script.steps[0].title = "go\rSPOOF".into();
    let strategy = Strategy::by_name("naive").unwrap();
    let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    let text = report::transcript(&timeline, None);
    assert_clean(&text);
    assert!(text.contains("Tour\\u{1b}[2J\\u{1b}[H"));
    assert!(text.contains("go\\u{d}SPOOF"));
}

#[test]
fn an_argument_is_echoed_escaped() {
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["run", "\u{1b}]0;pwned\u{7}"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_clean(&err.replace('\n', ""));
    assert!(
        err.contains("no scenario named `\\u{1b}]0;pwned\\u{7}`"),
        "{err}"
    );
}

#[test]
fn validate_names_a_hostile_file_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("ok\u{1b}[31m.toml");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/tour-1.toml"),
        &name,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .arg("validate")
        .arg(&name)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_clean(&text);
    assert!(text.contains("ok\\u{1b}[31m.toml: ok"), "{text}");
}
