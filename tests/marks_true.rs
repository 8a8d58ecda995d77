//! Issue 18 §3, marks that are true: each mark says only what the party it
//! stands beside knows, at the moments a teacher trial found wrong, at the
//! three sizes a class uses. (Each was right again at this code; these
//! keep it so.)

use crate::common;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The screen at `step` of `scenario` under `design`, as rows.
fn screen(scenario: &str, design: &str, step: usize, (w, h): (u16, u16)) -> Vec<String> {
    let mut app = common::app(scenario, design);
    app.pos = step;
    common::draw(&mut app, w, h)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The cells of the leftmost panel (the broker's), between its borders.
fn broker(rows: &[String]) -> Vec<String> {
    rows.iter()
        .filter_map(|r| {
            let mut parts = r.split('│');
            parts.next()?;
            parts.next().map(str::to_string)
        })
        .collect()
}

/// tour-3 under idempotent, step 10: A commits while B waits. The step
/// that ran is A's commit, and `◀ this step` is on it alone, not on B's
/// `receive` (B did nothing in this step).
#[test]
fn the_step_pointer_is_on_the_commit_that_ran_only() {
    for size in SIZES {
        let rows = screen("tour-3", "idempotent", 10, size);
        let pointed: Vec<&String> = rows.iter().filter(|r| r.contains('◀')).collect();
        assert_eq!(pointed.len(), 1, "{size:?}:\n{}", rows.join("\n"));
        assert!(pointed[0].contains("commit"), "{size:?}: {}", pointed[0]);
    }
}

/// tour-1 under naive, step 8: the network drops A's ack. The broker saw
/// nothing, so its entry for m-7f3 carries no change mark; the lost ack is
/// counted under the observer's `◇`.
#[test]
fn a_lost_ack_changes_only_what_the_observer_sees() {
    for size in SIZES {
        let rows = screen("tour-1", "naive", 8, size);
        let panel = broker(&rows);
        let entry = panel
            .iter()
            .find(|r| r.contains("m-7f3"))
            .unwrap_or_else(|| panic!("{size:?}: no entry\n{}", panel.join("\n")));
        assert!(
            !entry.contains('*') && !entry.contains("changed"),
            "{size:?}: the broker's entry is marked: {entry}"
        );
        let at = panel
            .iter()
            .position(|r| r.contains("acks lost 1 (+1)"))
            .unwrap_or_else(|| panic!("{size:?}: no lost ack\n{}", panel.join("\n")));
        let under = panel[..=at].iter().rev().take(2).any(|r| r.contains('◇'));
        assert!(under, "{size:?}: not under ◇\n{}", panel.join("\n"));
    }
}

/// tour-4 under idempotent, step 8: A calls the provider again. The
/// response step runs next; the failure shown on it a step ago was the
/// first attempt's, and is not carried over to the step about to run.
#[test]
fn the_next_step_carries_no_earlier_attempt_s_failure() {
    for size in SIZES {
        let rows = screen("tour-4", "idempotent", 8, size);
        let row = rows
            .iter()
            .find(|r| r.contains("provider response"))
            .unwrap_or_else(|| panic!("{size:?}:\n{}", rows.join("\n")));
        assert!(
            !row.contains('✕') && !row.contains("failed") && !row.contains("lost"),
            "{size:?}: {row}"
        );
        assert!(row.contains("▷"), "{size:?}: not the next step: {row}");
    }
}

/// Teacher trial 6: tour-4, step 6 (naive) and 7 (idempotent). The provider charged
/// the card; only its answer was lost on the way back. The response step
/// says `lost`, not `failed`: from A's side no answer came, and that is
/// the confusion tour 4 is there to clear up.
#[test]
fn a_lost_answer_is_marked_lost_not_failed() {
    for (design, step) in [("naive", 6), ("idempotent", 7)] {
        for size in SIZES {
            let rows = screen("tour-4", design, step, size);
            let row = rows
                .iter()
                // Its name whole, or its short name (`response  lost`).
                .find(|r| r.contains("provider r") || r.contains(" response "))
                .unwrap_or_else(|| panic!("{design} {size:?}:\n{}", rows.join("\n")));
            assert!(
                row.contains("lost") && !row.contains("failed"),
                "{design} {size:?}: {row}"
            );
        }
    }
}

/// Teacher trial 6: tour-1 idempotent, crash A while it waits for the
/// provider's answer (step 5, then the faults menu's "crash consumer A
/// now"). The story says the provider answered into a closed connection,
/// so the response step cannot say it `never ran`: A never received it.
#[test]
fn a_crash_while_awaiting_the_answer_says_never_received() {
    use idem::tui::{Action, update};
    for size in SIZES {
        let mut app = common::app("tour-1", "idempotent");
        app.pos = 5;
        update(&mut app, Action::Faults);
        update(&mut app, Action::Digit(2));
        let rows: Vec<String> = common::draw(&mut app, size.0, size.1)
            .lines()
            .map(str::to_string)
            .collect();
        let all = rows.join("\n");
        let row = rows
            .iter()
            // Its name, or its short name where the name has no room.
            .find(|r| r.contains("† provider") || r.contains("† response"))
            .unwrap_or_else(|| panic!("{size:?}:\n{all}"));
        assert!(
            row.contains("never received") && !row.contains("never ran"),
            "{size:?}: {row}\n{all}"
        );
    }
}

/// Teacher trial 6: tour-2 naive, step 7. The observer's counter of copies
/// delivered again read `duplicates 1` while the story said nothing had
/// been repeated yet: a class took it for a second payment. It names
/// deliveries at every size; and since a later trial it counts only
/// deliveries of work already done, so this redelivery after a crash
/// before any work is none (`0`).
#[test]
fn the_observer_counts_duplicate_deliveries_by_name() {
    for size in SIZES {
        let rows = screen("tour-2", "naive", 7, size);
        let panel = broker(&rows);
        let row = panel
            .iter()
            .find(|r| r.contains("dup"))
            .unwrap_or_else(|| panic!("{size:?}:\n{}", rows.join("\n")));
        assert!(
            row.contains("deliveries 0") || row.contains("deliv. 0"),
            "{size:?}: {row}\n{}",
            rows.join("\n")
        );
    }
}

/// Teacher trial 8: in-progress under its own design, step 17. The
/// provider refused B's repeat with 409 while A's request with the same
/// key was still in progress. The response step says so (`⊗ 409 in
/// progress`; in the transcript `refused (409: still in progress)`), not
/// `failed`: nothing about the payment failed, B calls again later.
#[test]
fn a_409_is_a_refusal_while_in_progress_not_a_failure() {
    for size in SIZES {
        let rows = screen("in-progress", "in-progress", 17, size);
        let all = rows.join("\n");
        let row = rows
            .iter()
            .find(|r| r.contains('⊗'))
            .unwrap_or_else(|| panic!("{size:?}: no refused step\n{all}"));
        // Its name, or its short name where the name has no room.
        assert!(
            row.contains("provider") || row.contains("response"),
            "{size:?}: {row}"
        );
        assert!(row.contains("409 in progress"), "{size:?}: {row}");
        assert!(!all.contains("failed"), "{size:?}:\n{all}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["run", "in-progress", "--mode", "in-progress"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("provider response: refused (409: still in progress)"),
        "{text}"
    );
    assert!(!text.contains("failed provider response"), "{text}");
}
