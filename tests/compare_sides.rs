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

/// Each side's column of the screen, rows joined, spaces squeezed: what a
/// reader of that side can read, in order.
fn columns(screen: &str) -> (String, String) {
    let rows: Vec<Vec<char>> = screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect())
        .collect();
    let half = rows.first().map_or(0, |r| r.len() / 2);
    let side = |from: usize, to: usize| {
        let text: Vec<String> = rows[3..rows.len().saturating_sub(2)]
            .iter()
            .map(|r| r[from.min(r.len())..to.min(r.len())].iter().collect())
            .collect();
        text.join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    (side(1, half - 1), side(half + 1, rows[0].len() - 1))
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
        left.contains("✕ charged twice ← A called the provider without an Idempotency-Key ← m-7f3 redelivered ← lease expired ← ack lost at step 8"),
        "{screen}"
    );
}
