//! The replay's clock tells the truth (teacher trial: every step said
//! `virtual time 0s`, yet a lease "ran out" at step 3 and the next lease
//! read `lease to 30s`). A lease runs out only once the clock reaches its
//! end: the step where an expire-lease fault falls reads at least that
//! deadline, and a lease taken later is measured from then. In the steps'
//! typed record, in `--text` and on screen.

use crate::common::replays;
use idem::harness::faults::{Fault, Planned};
use idem::harness::run::{RunReport, Step};
use idem::harness::schedule_file::ScheduleFile;
use idem::harness::transcript;
use idem::sim::broker::MessageState;
use idem::sim::format_duration;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;

/// Every saved schedule under tests/replays, and the check-then-insert
/// one with its lease running out at the ack instead (point 2).
pub(crate) fn runs() -> Vec<(String, ScheduleFile, RunReport)> {
    let mut files: Vec<(String, ScheduleFile)> = [
        "check_then_insert-disagree",
        "ack_before_commit-disagree",
        "new_key_per_attempt-charged-twice",
    ]
    .into_iter()
    .map(|name| {
        let file = replays::read(&format!("tests/replays/{name}.json"));
        (name.to_string(), file)
    })
    .collect();
    let mut at_ack = files[0].1.clone();
    at_ack.faults = vec![Planned {
        point: 2,
        fault: Fault::ExpireLease,
    }];
    files.push(("check_then_insert at its ack".into(), at_ack));
    files
        .into_iter()
        .map(|(name, file)| {
            let report = replays::replay(&file);
            (name, file, report)
        })
        .collect()
}

/// The lease's receipt and end for each message in flight after step `i`.
fn leases(steps: &[Step], i: usize) -> Vec<(String, String, u64)> {
    steps[i]
        .queue
        .iter()
        .filter_map(|m| match &m.state {
            MessageState::InFlight { receipt, until, .. } => {
                Some((m.message.id.clone(), receipt.clone(), *until))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_clock_reaches_a_lease_end_before_the_lease_runs_out() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let mut wrong = Vec::new();
    let mut faults = 0;
    for (name, file, report) in runs() {
        let text = transcript::render(&report);
        let mut r = Replay::of(&file, report, Theme::new(false, false));
        let steps = r.steps.clone();
        let mut lease_len = None;
        for i in 0..steps.len() {
            let step = &steps[i];
            let n = i + 1;
            if step.fault == Some(Fault::ExpireLease) && i > 0 {
                faults += 1;
                // Whichever lease ran out at this step: the clock is past
                // its end.
                let now_held = leases(&steps, i);
                for (id, receipt, until) in leases(&steps, i - 1) {
                    let gone = !now_held.iter().any(|(_, r, _)| *r == receipt);
                    if gone && step.now < until {
                        wrong.push(format!(
                            "{name} step {n}: the lease on {id} runs out at {} before its end {}",
                            format_duration(step.now),
                            format_duration(until)
                        ));
                    }
                }
            }
            // A lease taken at this step runs its whole length from now.
            let before = if i == 0 {
                Vec::new()
            } else {
                leases(&steps, i - 1)
            };
            for (id, receipt, until) in leases(&steps, i) {
                if before.iter().any(|(_, r, _)| *r == receipt) {
                    continue;
                }
                let len = until.saturating_sub(step.now);
                let first = *lease_len.get_or_insert(len);
                if len != first {
                    wrong.push(format!(
                        "{name} step {n}: {id}'s lease taken at {} ends at {}",
                        format_duration(step.now),
                        format_duration(until)
                    ));
                }
            }
            // The time after the step is said in --text and on screen.
            let said = format!("virtual time {}", format_duration(step.now));
            let section = super::replay_held_told::section(&text, n);
            if !section.contains(&said) {
                wrong.push(format!("{name} --text step {n} does not say {said:?}"));
            }
            r.open_at(n).unwrap();
            let screen = screen_text(&r, 80, 24);
            if !screen.contains(&said) {
                wrong.push(format!("{name} step {n} at 80x24 does not say {said:?}"));
            }
        }
    }
    assert!(faults >= 2, "{faults} expire-lease faults checked");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The replay's screen at a step, its rows joined with newlines.
pub(crate) fn screen_text(r: &Replay, w: u16, h: u16) -> String {
    let buf = r.buffer(w, h);
    buf.content
        .chunks(usize::from(w))
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}
