//! A request that a fault holds (the lease runs out while its instance
//! waits for the answer) is sent once: the replay tells it sent and held
//! at the fault's step, and at the step where it finally reaches idem
//! tells it as that same request, sent at the fault's step (teacher trial:
//! `A (start 1) → charge request 1` told at steps 3 and 8 read as A
//! charging twice). In the steps' typed record, in `--text`, on screen at
//! every size and in a shot.

use crate::common::replays;
use idem::harness::faults::{Fault, Planned};
use idem::harness::run::{HeldRequest, RunReport};
use idem::harness::schedule_file::ScheduleFile;
use idem::harness::transcript;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The check-then-insert sample's saved schedule (the lease runs out at
/// its charge), and the same run with the lease running out at its ack
/// instead (point 2): a held charge, and a held ack.
fn runs() -> Vec<(String, ScheduleFile, RunReport)> {
    let saved = replays::read("tests/replays/check_then_insert-disagree.json");
    let mut at_ack = saved.clone();
    at_ack.faults = vec![Planned {
        point: 2,
        fault: Fault::ExpireLease,
    }];
    [("charge", saved), ("ack", at_ack)]
        .into_iter()
        .map(|(name, file)| {
            let report = replays::replay(&file);
            (name.to_string(), file, report)
        })
        .collect()
}

/// Step `n`'s section of the `--text` transcript (1 is the first).
pub(crate) fn section(text: &str, n: usize) -> String {
    let head = format!("── step {n}");
    text.split("\n──")
        .map(|s| s.strip_prefix('\n').unwrap_or(s))
        .map(|s| {
            if s.starts_with("──") {
                s.to_string()
            } else {
                format!("──{s}")
            }
        })
        .find(|s| {
            s.starts_with(&head)
                && s[head.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_ascii_digit())
        })
        .unwrap_or_default()
}

/// Whether `words` tell a request sent (`A (start 1) → charge request 1`,
/// `→ ack r-1`); a table's `1 → 2 rows` is no request.
fn sends(words: &str) -> bool {
    words.contains(" → charge request") || words.contains(" → ack ")
}

/// The "What happened" panel's words at the step on screen, its rows
/// joined with spaces.
fn happened(r: &Replay, w: u16, h: u16) -> String {
    let buf = r.buffer(w, h);
    let rows: Vec<String> = buf
        .content
        .chunks(usize::from(w))
        .map(|row| row.iter().map(|c| c.symbol()).collect())
        .collect();
    let Some(top) = rows
        .iter()
        .position(|r| r.contains("What happened in step"))
    else {
        return String::new();
    };
    rows[top + 1..]
        .iter()
        .take_while(|r| !r.starts_with('└'))
        .map(|r| r.trim_matches(|c| c == '│' || c == ' ').to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_held_request_is_told_sent_once_and_reaching_idem_once() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (name, file, report) in runs() {
        let text = transcript::render(&report);
        let held: Vec<usize> = (0..report.steps.len())
            .filter(|&i| report.steps[i].held == Some(HeldRequest::Held))
            .collect();
        if held.len() != 1 {
            wrong.push(format!("{name}: {} steps hold a request", held.len()));
            continue;
        }
        let sent = held[0] + 1;
        let reached: Vec<usize> = (0..report.steps.len())
            .filter(|&i| report.steps[i].held == Some(HeldRequest::Reaches { sent }))
            .collect();
        if reached.len() != 1 {
            wrong.push(format!(
                "{name}: {} steps take in the request held at step {sent}",
                reached.len()
            ));
            continue;
        }
        let arrives = reached[0] + 1;
        checked += 1;
        // The request's own line at the fault's step says it is held;
        // where it reaches idem, that it is the one sent at that step,
        // and not as a new send (`A (start 1) → …`).
        let first = |n: usize| {
            report.steps[n - 1]
                .lines
                .first()
                .cloned()
                .unwrap_or_default()
        };
        if !first(sent).contains("held") {
            wrong.push(format!(
                "{name} step {sent}: {:?} says nothing held",
                first(sent)
            ));
        }
        let later = first(arrives);
        if !later.contains(&format!("sent at step {sent}")) || sends(&later) {
            wrong.push(format!("{name} step {arrives}: {later:?}"));
        }
        if !section(&text, arrives).contains(&format!("sent at step {sent}")) {
            wrong.push(format!(
                "{name} --text step {arrives}:\n{}",
                section(&text, arrives)
            ));
        }
        let mut r = Replay::of(&file, report, Theme::new(false, false));
        for (w, h) in SIZES {
            r.open_at(sent).unwrap();
            let at_fault = happened(&r, w, h);
            if !at_fault.contains("held") {
                wrong.push(format!("{name} step {sent} at {w}x{h}: {at_fault:?}"));
            }
            r.open_at(arrives).unwrap();
            let at_arrival = happened(&r, w, h);
            if !at_arrival.contains(&format!("sent at step {sent}")) || sends(&at_arrival) {
                wrong.push(format!("{name} step {arrives} at {w}x{h}: {at_arrival:?}"));
            }
        }
        // A shot draws the replay's own screen (`--shot --step N`).
        let shot = idem::export::render(
            &r.buffer(120, 40),
            idem::export::Kind::Txt,
            "idem test --replay",
        )
        .unwrap();
        let shot = String::from_utf8(shot).unwrap();
        if !shot.contains(&format!("sent at step {sent}")) {
            wrong.push(format!("{name} shot of step {arrives}:\n{shot}"));
        }
    }
    assert_eq!(checked, 2, "{}", wrong.join("\n"));
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
