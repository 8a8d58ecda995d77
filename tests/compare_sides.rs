//! Compare as a class sees it: at the step where the designs part, each
//! side shows what its own step did, whole, at every size; and a side's
//! verdict wraps to the rows there is room for instead of being cut.

use crate::common::draw;
use idem::scenario;
use idem::sim::Strategy;
use idem::tui::{Action, App, Options, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn app(name: &str, mode: &str) -> App {
    let script = scenario::find(name).expect("built-in scenario");
    let strategy = Strategy::by_name(mode).expect("strategy");
    let options = Options {
        animation: false,
        color: false,
        ascii: false,
    };
    App::new(script, strategy, 0, options).expect("the timeline builds")
}

fn columns(screen: &str) -> (String, String) {
    crate::common::sides(screen, 3, 2)
}

#[test]
fn at_the_parting_step_each_side_shows_its_own_step_whole() {
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for design in ["naive", "charge-first", "id-first", "ack-first"] {
            for (w, h) in SIZES {
                let mut a = app(name, design);
                update(&mut a, Action::Compare);
                update(&mut a, Action::FirstViolation);
                let Some(c) = a.compare.as_ref() else {
                    panic!("{name} {design}: compare did not open")
                };
                if c.diverge.is_none() {
                    continue;
                }
                assert_eq!(Some(a.pos), c.diverge, "v stands where they part");
                let (lf, rf) = c.frames(a.pos);
                let told = |f: &idem::sim::Frame| {
                    idem::sim::event::step_told(&f.events)
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let (lt, rt) = (told(lf), told(rf));
                let screen = draw(&mut a, w, h);
                let (left, right) = columns(&screen);
                for (side, words) in [(&left, &lt), (&right, &rt)] {
                    assert!(
                        side.contains(words.as_str()),
                        "{name} {design} at {w}x{h}: a side does not show its step {words:?}\n{screen}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_sides_verdict_wraps_where_there_is_room() {
    let mut a = app("tour-1", "naive");
    update(&mut a, Action::Compare);
    for _ in 0..a.timeline.frames.len() + 4 {
        update(&mut a, Action::Next);
    }
    let screen = draw(&mut a, 120, 40);
    let (left, _) = columns(&screen);
    // Naive's whole cause chain, to its first cause.
    assert!(
        left.contains("✕ charged twice ← A did m-7f3's work again, with no record of it: another row, another charge with no Idempotency-Key ← m-7f3 redelivered ← lease expired ← ack lost at naive step 8 / idempotent step 9"),
        "{screen}"
    );
}

/// The same ack loss is naive's step 8 and the idempotent design's step
/// 9: each side names it as the moment of the compare, in the same words,
/// not as a step of its own count that the other side contradicts.
#[test]
fn both_sides_name_the_same_ack_loss_by_the_same_moment() {
    let mut a = app("tour-1", "naive");
    update(&mut a, Action::Compare);
    // The step where the lease runs out and the observer tells the loss.
    for _ in 0..a.timeline.frames.len() * 2 {
        let c = a.compare.as_ref().expect("compare is open");
        if c.frames(a.pos).0.index == 9 {
            break;
        }
        update(&mut a, Action::Next);
    }
    let screen = draw(&mut a, 120, 40);
    let (left, right) = columns(&screen);
    for side in [&left, &right] {
        assert!(
            side.contains("ack lost at naive step 8 / idempotent step 9"),
            "{screen}"
        );
        assert!(!side.contains("ack lost at step"), "{screen}");
    }
}

/// Where the designs' titles differ (ack-first tells its chapters its own
/// way), the header names each design's title and each side heads its
/// story with its own chapter title, not one design's for both.
#[test]
fn each_design_keeps_its_own_titles() {
    let mut a = app("ack-first", "ack-first");
    update(&mut a, Action::Compare);
    for _ in 0..a.timeline.frames.len() * 2 {
        update(&mut a, Action::Next);
    }
    let screen = draw(&mut a, 120, 40);
    let top = screen.lines().next().unwrap_or_default();
    assert!(
        top.contains("ack-first: Ack before commit / idempotent: Ack after commit"),
        "{top}"
    );
    let (left, right) = columns(&screen);
    assert!(
        left.contains("what happens · Nothing comes back"),
        "{screen}"
    );
    assert!(
        right.contains("what happens · m-7f3 comes back"),
        "{screen}"
    );
}

/// `play tour-1`, `x`, Enter on counterexample `cx` of the explorer's
/// design row `row` (0: naive), then `c`; `None` where there is none.
fn compare_from(row: usize, cx: usize) -> Option<App> {
    let mut a = crate::common::check::explorer_showing(crate::common::check::report().clone());
    for _ in 0..row {
        update(&mut a, Action::Down);
    }
    for _ in 0..cx {
        update(&mut a, Action::Next);
    }
    update(&mut a, Action::Enter);
    if !a.is_counterexample() {
        return None;
    }
    update(&mut a, Action::Compare);
    a.compare.is_some().then_some(a)
}

/// Naive's first counterexample, compared.
fn compare_from_counterexample() -> App {
    compare_from(0, 0).expect("naive has a counterexample")
}

/// Every counterexample of every design, compared: each side plays on to
/// a settled end.
#[test]
fn every_counterexample_compared_ends_settled_on_both_sides() {
    let report = crate::common::check::report();
    let mut opened = 0;
    for (row, s) in report.strategies.iter().enumerate() {
        // Two a design: the shortest ones, and a bound on the test's time.
        for cx in 0..s.counterexamples.len().min(2) {
            let Some(a) = compare_from(row, cx) else {
                continue;
            };
            opened += 1;
            let c = a.compare.as_ref().unwrap();
            for side in [&c.left, &c.right] {
                let end = side.last();
                assert!(
                    end.consumers
                        .iter()
                        .all(|c| c.status == idem::sim::consumer::Status::Idle),
                    "{} counterexample {cx}: {} ends with a handler half done",
                    s.strategy,
                    side.strategy
                );
                assert_ne!(
                    end.verdict.outcome,
                    idem::sim::Outcome::InProgress,
                    "{} counterexample {cx}: {} ends in progress",
                    s.strategy,
                    side.strategy
                );
            }
        }
    }
    assert!(opened > 1, "counterexamples were compared");
}

/// From a counterexample, the other design runs the same moves and then
/// plays on (no more faults) until it settles: neither side is left "in
/// progress" at the end, and where they part is something a party sees,
/// not a design's extra handler step (the trial: "they part at move 3",
/// where the idempotent side was only one step behind).
#[test]
fn from_a_counterexample_both_sides_end_on_a_verdict_and_part_where_it_shows() {
    let mut a = compare_from_counterexample();
    let c = a.compare.as_ref().unwrap();
    for side in [&c.left, &c.right] {
        let end = side.last();
        assert_ne!(
            end.verdict.outcome,
            idem::sim::Outcome::InProgress,
            "{} ends in progress",
            side.strategy
        );
        assert!(
            end.consumers
                .iter()
                .all(|c| c.status == idem::sim::consumer::Status::Idle),
            "{} ends with a handler half done",
            side.strategy
        );
    }
    // The last position shows both ends.
    let last = c.pairs.len() - 1;
    assert_eq!(
        c.pairs[last],
        (c.left.frames.len() - 1, c.right.frames.len() - 1)
    );
    // They part where the money does: naive's second charge faces the
    // idempotent design's repeat, answered from the key store.
    let d = c.diverge.expect("naive and idempotent part");
    let (l, r) = c.frames(d);
    assert_eq!(
        idem::tui::parting::apart(l, r),
        Some(idem::tui::parting::Apart::Charges {
            order: 1042,
            left: 2,
            right: 1
        })
    );
    // Before it the same handler step faces itself, whatever move of the
    // schedule it falls on.
    let ran = |t: &idem::timeline::Timeline, i: usize| {
        let f = &t.frames[i];
        let who = f.stepped.as_ref()?;
        let s = f.changes.steps.iter().find(|s| s.consumer == *who)?;
        let c = f.consumers.iter().find(|c| c.name == *who)?;
        Some(c.steps.get(s.step)?.keyword.clone())
    };
    for w in c.pairs[..=d].windows(2) {
        let ((la, ra), (lb, rb)) = (w[0], w[1]);
        if la != lb && ra != rb {
            let (x, y) = (ran(&c.left, lb), ran(&c.right, rb));
            if x.is_some() && y.is_some() {
                assert_eq!(x, y, "pairs {:?}", c.pairs);
            }
        }
    }
    update(&mut a, Action::Last);
    let screen = draw(&mut a, 120, 40);
    assert!(!screen.contains("in progress"), "{screen}");
}

/// The rows under the title before the sides' top border: the header.
fn header(screen: &str) -> String {
    screen
        .lines()
        .skip(1)
        .take_while(|l| !l.trim_matches('"').starts_with('┌'))
        .map(|l| l.trim_matches('"').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line where the designs part is read whole at every size: it wraps
/// rather than lose "then naive ✕ charged twice" to an ellipsis.
#[test]
fn the_parting_line_is_whole_at_every_size() {
    for (w, h) in SIZES {
        for mut a in [compare_from_counterexample(), {
            let mut a = app("tour-1", "naive");
            update(&mut a, Action::Compare);
            a
        }] {
            let screen = draw(&mut a, w, h);
            let top = header(&screen);
            assert!(
                top.contains("naive ✕ charged twice") && !top.contains('…'),
                "{w}x{h}: {top}\n{screen}"
            );
            assert!(top.contains("they part at "), "{w}x{h}: {top}");
        }
    }
}

/// Each side's rows, one string a row (left side, then right), as the
/// sides of a `w`-wide screen show them, signs left out.
fn side_rows(screen: &str, w: usize) -> [Vec<String>; 2] {
    let half = w / 2;
    let rows: Vec<Vec<char>> = screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect::<Vec<char>>())
        // The picked section's first row has its mark in the border.
        .filter(|r| matches!(r.first(), Some('│' | '▶')))
        .collect();
    let side = |from: usize, to: usize| -> Vec<String> {
        rows.iter()
            .map(|r| r[from..to].iter().collect::<String>())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && !s.contains("more rows"))
            .collect()
    };
    [side(1, half - 1), side(half + 1, w - 1)]
}

/// A side's rows without its service section, which a short side folds
/// (a consumer that has run nothing keeps its head line alone) rather
/// than scroll.
fn without_service(rows: &[String]) -> Vec<String> {
    let from = rows.iter().position(|r| r == "service");
    let to = rows.iter().position(|r| r == "this step");
    rows.iter()
        .enumerate()
        .filter(|(i, _)| match (from, to) {
            (Some(a), Some(b)) => *i <= a || *i >= b,
            _ => true,
        })
        .map(|(_, r)| r.clone())
        .collect()
}

/// Every row compare holds can be brought into view at 80x24: Tab picks
/// each section in turn and scrolls it into view, and `z` gives it the
/// sides' whole height, where it is whole. Before, the service's rows were
/// counted ("↓ 13 more rows below") and Tab and z did nothing.
#[test]
fn every_row_of_compare_can_be_reached_with_tab_and_z() {
    let sections = idem::tui::compare_section::Section::ALL.len();
    for name in ["counterexample", "tour-1", "tour-3", "race-rollback"] {
        let fresh = || {
            if name == "counterexample" {
                compare_from_counterexample()
            } else {
                let mut a = app(name, "naive");
                update(&mut a, Action::Compare);
                update(&mut a, Action::FirstViolation);
                a
            }
        };
        let mut a = fresh();
        let all = side_rows(&draw(&mut a, 80, 200), 80);
        let small = draw(&mut a, 80, 24);
        assert!(
            small.contains("more rows below") && small.contains(" · Tab"),
            "{name}: a short screen hides rows, and says how to see them\n{small}"
        );
        let mut seen = side_rows(&small, 80);
        let mut see = |screen: &str| {
            let [l, r] = side_rows(screen, 80);
            seen[0].extend(l);
            seen[1].extend(r);
        };
        for _ in 0..sections {
            update(&mut a, Action::FocusNext);
            let screen = draw(&mut a, 80, 24);
            // Its mark stands in a side's left border.
            assert!(
                screen.lines().any(|l| l.trim_matches('"').starts_with('▶')),
                "{name}: the picked section is in view\n{screen}"
            );
            see(&screen);
        }
        let mut z = fresh();
        update(&mut z, Action::Zoom);
        for _ in 0..sections {
            let screen = draw(&mut z, 80, 24);
            assert!(
                !screen.contains("more rows below") && !screen.contains("more rows above"),
                "{name}: an enlarged section is whole\n{screen}"
            );
            see(&screen);
            update(&mut z, Action::FocusNext);
        }
        for side in 0..2 {
            // A row cut with an ellipsis even on the tall screen (the
            // verdict's third) is whole elsewhere, enlarged.
            let missing: Vec<String> = without_service(&all[side])
                .into_iter()
                .filter(|r| !r.ends_with('…') && !seen[side].contains(r))
                .collect();
            assert!(
                missing.is_empty(),
                "{name}: never shown at 80x24: {missing:?}"
            );
        }
    }
}

/// From charge-first's counterexample the sides part where the money does:
/// at the second charge (the teacher's trial: "they part at move 3" on
/// processed_messages none vs 1 uncommitted, a table one design keeps
/// earlier than the other, five moves before anything a customer or the
/// verdict could tell apart). Before the parting, every outcome-relevant
/// figure (charges, payment rows, the message at the broker, the verdict)
/// is the same on both sides.
#[test]
fn from_charge_first_the_sides_part_at_the_double_charge_not_a_table() {
    let report = crate::common::check::report();
    let row = report
        .strategies
        .iter()
        .position(|s| s.strategy == "charge-first")
        .expect("charge-first is checked");
    let mut a = compare_from(row, 0).expect("charge-first has a counterexample");
    let c = a.compare.as_ref().unwrap();
    assert_eq!(
        (c.left.strategy.as_str(), c.right.strategy.as_str()),
        ("charge-first", "idempotent")
    );
    let d = c.diverge.expect("they part");
    let (l, r) = c.frames(d);
    assert_eq!(
        idem::tui::parting::apart(l, r),
        Some(idem::tui::parting::Apart::Charges {
            order: 1042,
            left: 2,
            right: 1
        }),
        "parted at pair {d}"
    );
    for p in 0..d {
        let (l, r) = c.frames(p);
        assert_eq!(l.provider.charges.len(), r.provider.charges.len(), "{p}");
        assert_eq!(l.db.payments.len(), r.db.payments.len(), "{p}");
        assert_eq!(l.verdict.outcome, r.verdict.outcome, "{p}");
    }
    a.pos = 0;
    let screen = draw(&mut a, 120, 40);
    let top = header(&screen);
    assert!(
        top.contains("order 1042 charges 2 vs 1") && !top.contains("processed_messages"),
        "{top}"
    );
}
