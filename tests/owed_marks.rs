//! What the customer owes decides what is marked wrong (teacher trial 12):
//! in content-hash, order 1042 is owed twice (two genuine instalments), so
//! a naive handler's second row is no duplicate and bears no `again`; and
//! the verdict's figures say the order is owed twice, or `1 committed
//! payment row, 1 provider charge` reads as the correct outcome.

use crate::common;
use idem::tui::{Action, update};

/// Every screen of `name` under `mode` at `w`x`h`, step by step.
fn screens(name: &str, mode: &str, w: u16, h: u16) -> Vec<String> {
    let mut a = common::app(name, mode);
    let mut out = vec![common::draw(&mut a, w, h)];
    for _ in 1..a.timeline.frames.len() {
        update(&mut a, Action::Next);
        out.push(common::render(&a));
    }
    out
}

#[test]
fn a_payment_owed_twice_is_not_marked_again() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        for (i, screen) in screens("content-hash", "naive", w, h).iter().enumerate() {
            let marked: Vec<&str> = screen
                .lines()
                .filter(|l| l.contains("1042") && l.contains("again"))
                .collect();
            assert!(
                marked.is_empty(),
                "screen {i} {w}x{h}: {marked:?}\n{screen}"
            );
        }
    }
    // Each row's mark from the observer's books: beyond what is owed.
    let mut a = common::app("content-hash", "naive");
    for _ in 1..a.timeline.frames.len() {
        update(&mut a, Action::Next);
    }
    let payments = &a.frame().db.payments;
    assert_eq!(payments.len(), 2, "{payments:?}");
    assert!(payments.iter().all(|p| !p.repeat), "{payments:?}");
}

#[test]
fn a_payment_owed_once_and_made_twice_is_still_marked_again() {
    let mut a = common::app("tour-1", "naive");
    let mut seen = false;
    for _ in 1..a.timeline.frames.len() {
        update(&mut a, Action::Next);
        seen |= a.frame().db.payments.iter().any(|p| p.repeat);
    }
    assert!(
        seen,
        "tour-1 naive charges twice: its second row is `again`"
    );
}

#[test]
fn the_verdict_says_how_many_times_an_order_is_owed() {
    for mode in ["naive", "idempotent"] {
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let screens = screens("content-hash", mode, w, h);
            let last = screens.last().unwrap();
            assert!(last.contains("owed 2"), "{mode} {w}x{h}\n{last}");
        }
        // `w`: the figures on a row of their own, the count with them.
        let mut a = common::app("content-hash", mode);
        for _ in 1..a.timeline.frames.len() {
            update(&mut a, Action::Next);
        }
        common::resize(&mut a, 100, 30);
        update(&mut a, Action::Why);
        let why = common::render(&a);
        assert!(
            why.lines()
                .any(|l| l.contains("order 1042: owed 2") && l.contains("committed")),
            "{mode}\n{why}"
        );
    }
    // Owed once, nothing to say: the figures as they were.
    let mut a = common::app("tour-1", "naive");
    for _ in 1..a.timeline.frames.len() {
        update(&mut a, Action::Next);
    }
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = common::draw(&mut a, w, h);
        // The verdict's rows, under its title: the story may say `owed`.
        let verdict = screen.rsplit(" Verdict").next().unwrap_or_default();
        assert!(!verdict.contains(": owed"), "{w}x{h}\n{screen}");
    }
}
