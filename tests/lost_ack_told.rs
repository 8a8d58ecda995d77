//! A lost ack is told at the step it is lost, where A is: A's step reads
//! `✓ acknowledge` (A sent it, and from where A stands it is done) with
//! the observer's fact beside it under the observer's mark, `◇ never
//! arrived`. A teacher found the loss told only by the broker's `acks
//! lost` counter, which a class watching A's list does not read.

use crate::common::sweep::{SIZES, each_step, none_wrong};
use idem::tui::app::Panel;

#[test]
fn a_lost_ack_is_told_beside_the_consumers_acknowledge_step() {
    for size in SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        each_step(size, |step| {
            let f = &step.frame;
            let lost_now = f
                .changes
                .counter_was("acks_lost")
                .is_some_and(|was| f.counters.acks_lost > was);
            if !lost_now {
                return;
            }
            seen += 1;
            let service = step.words_in(Panel::Service);
            // `◇ lost` where the row has no room for the whole words.
            if !service.contains("acknowledge ◇ never arrived")
                && !service.contains("acknowledge ◇ lost")
            {
                wrong.push(format!(
                    "{}: the service panel does not say the ack never arrived: {service}\n{}",
                    step.at(),
                    step.screen()
                ));
            }
        });
        none_wrong("lost acks", seen, 0, &wrong, size);
    }
}

/// The transcript tells it in the same order: A's view (done), then the
/// observer's fact. Before, it read `sent, never arrived acknowledge`.
#[test]
fn a_lost_ack_reads_in_order_in_the_transcript() {
    let (code, out, err) = crate::common::cli::idem(&["run", "tour-1", "--mode", "naive"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("done acknowledge (observer: it never arrived)"),
        "{out}"
    );
    assert!(!out.contains("arrived acknowledge"), "{out}");
}

/// Teacher trial 14: a consumer's panel said `! armed: next ack will be
/// lost`, which the consumer cannot know; the observer armed it, and the
/// line carries the observer's mark.
#[test]
fn an_armed_fault_is_the_observers_line() {
    let mut seen = 0;
    each_step((100, 30), |step| {
        if step.frame.consumers.iter().all(|c| c.armed.is_empty()) {
            return;
        }
        let service = step.words_in(Panel::Service);
        if !service.contains("armed:") {
            return;
        }
        seen += 1;
        assert!(
            service.contains("◇ ! armed:"),
            "{}: {service}\n{}",
            step.at(),
            step.screen()
        );
    });
    assert!(seen > 0, "no armed fault on screen");
}

/// The broker's words at a lease's end say only what it saw, that no ack
/// came before the lease ran out: `ran out with no ack` read as "the
/// holder forgot to ack" in tour-3, where A was still in its slow
/// provider call (trial 36).
#[test]
fn a_lease_end_says_no_ack_came_not_that_none_was_sent() {
    let (mut seen, mut wrong) = (0, Vec::new());
    crate::common::sweep::each_timeline(|tl| {
        for f in &tl.frames {
            for e in &f.events {
                if e.text.contains("visible again: the lease") {
                    seen += 1;
                    if !e.text.contains("ran out before an ack came") {
                        wrong.push(format!(
                            "{} {} step {}: {}",
                            tl.scenario, tl.strategy, f.index, e.text
                        ));
                    }
                }
            }
        }
    });
    assert!(seen > 0);
    assert!(wrong.is_empty(), "{} of {seen}: {wrong:#?}", wrong.len());
}
