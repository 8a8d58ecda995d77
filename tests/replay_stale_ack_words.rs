//! An ack with an out-of-date receipt: idem's test broker answers
//! `rejected` (docs/consumer-protocol.md), where the simulator's broker,
//! like SQS, answers OK. The replay says which broker refused it, so the
//! two do not read as disagreeing (teacher trial: `broker: ack refused:
//! out-of-date receipt` beside the simulator's "like SQS it answers OK").
//! In `--text` and on screen at every size.

use super::replay_clock_true::{runs, screen_text};
use super::replay_held_told::section;
use idem::harness::transcript;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;

#[test]
fn a_refused_ack_says_sqs_would_answer_ok() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let mut wrong = Vec::new();
    let mut refused = 0;
    for (name, file, report) in runs() {
        let text = transcript::render(&report);
        let mut r = Replay::of(&file, report, Theme::new(false, false));
        let steps = r.steps.clone();
        for (i, step) in steps.iter().enumerate() {
            if !step.lines.iter().any(|l| l.contains("ack_result rejected")) {
                continue;
            }
            refused += 1;
            let n = i + 1;
            if !section(&text, n).contains("SQS would answer OK") {
                wrong.push(format!("{name} --text step {n}:\n{}", section(&text, n)));
            }
            r.open_at(n).unwrap();
            for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
                let screen = screen_text(&r, w, h);
                if !screen.contains("SQS would answer OK") {
                    wrong.push(format!("{name} step {n} at {w}x{h}:\n{screen}"));
                }
            }
        }
    }
    assert!(refused >= 1, "no refused ack in the runs");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
