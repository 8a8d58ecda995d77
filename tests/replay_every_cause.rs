//! A replay's verdict tells a cause for every outcome its headline names
//! (teacher trial 31): `charged twice, provider and database disagree`
//! under `w` ("every cause") listed the double charge's chain alone,
//! where the schedule file's own verdict ends `; and ← order 1042: the
//! provider charged twice, the database has 1 committed payment`. Every
//! view reads the same chains in the same order: `w` at 80x24 and
//! 120x40, the verdict line of `--text`, with `<-` under `--ascii`.

use super::harness_replay::replayed;
use crate::common::Screen;
use idem::harness::schedule_file::ScheduleFile;
use idem::tui::replay;
use idem::tui::theme::Theme;
use ratatui::crossterm::event::KeyCode;
use std::path::Path;
use std::process::Command;

const FILE: &str = "examples/python/naive-charged-twice.json";
/// The disagreement's own cause, as the file's verdict ends.
const DISAGREE: &str =
    "order 1042: the provider charged twice, the database has 1 committed payment";
/// The last link of the double charge's chain, told before it.
const CHARGE: &str = "A (start 1)'s charge response was lost (the call timed out)";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The screen's words in reading order, its borders and wraps gone:
/// a link wrapped over two rows reads whole.
fn words(screen: &str) -> String {
    screen
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '"' || c == '│' || c == '|' || c.is_whitespace()))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `text` tells the double charge's chain, then the
/// disagreement's, each led by `arrow`.
fn both_in_order(text: &str, arrow: &str) -> bool {
    let charge = text.find(&format!("{arrow} {CHARGE}"));
    let disagree = text.find(&format!("{arrow} {DISAGREE}"));
    matches!((charge, disagree), (Some(c), Some(d)) if c < d)
}

#[test]
fn w_tells_every_outcome_its_cause() {
    let mut wrong = Vec::new();
    let mut tried = 0;
    for (ascii, arrow) in [(false, "←"), (true, "<-")] {
        let Some(mut r) = replayed(Theme::new(false, ascii)) else {
            return;
        };
        replay::update(&mut r, KeyCode::End);
        replay::update(&mut r, KeyCode::Char('w'));
        for (w, h) in [(80u16, 24u16), (120, 40)] {
            tried += 1;
            let mut s = Screen::new(w, h);
            s.show(&r);
            let text = s.text();
            if !text.contains("every cause") || !both_in_order(&words(&text), arrow) {
                wrong.push(format!("{w}x{h} ascii={ascii}:\n{text}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong of {tried}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_text_verdict_is_the_files_with_every_cause() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let saved = ScheduleFile::read(&root().join(FILE)).unwrap().verdict;
    assert!(saved.ends_with(&format!("; and ← {DISAGREE}")), "{saved}");
    let mut wrong = Vec::new();
    for (global, arrow) in [(None, "←"), (Some("--ascii"), "<-")] {
        let out = Command::new(env!("CARGO_BIN_EXE_idem"))
            .current_dir(root())
            .env("HOME", tempfile::tempdir().unwrap().path())
            .args(global)
            .args(["test", "--replay", FILE, "--text"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("verdict: "))
            .unwrap_or_default();
        if line != saved.replace('←', arrow) {
            wrong.push(format!("{global:?}: {line}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong of 2:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
