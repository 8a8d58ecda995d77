//! Both sides of compare fold a verdict in the same words. Teacher trial
//! at 80x24: one side's verdict ended `← 4 more · w` and the other's
//! `← why: 4 more · w`, the same kind of fold told two ways on one screen,
//! as if they counted different things.
//!
//! Every built-in scenario compared from each design it lists, at every
//! position, at the three sizes: where both sides fold their verdict's
//! chain under a count, both counts are in one form.

use crate::common::sweep::SIZES;
use crate::common::{app, draw};
use idem::scenario::load::builtins;
use idem::tui::{Action, update};

/// The forms a verdict's fold takes on a side's rows: `true` for the long
/// one (`← why: 4 more`), `false` for the fewest words (`← 4 more`).
fn folds(rows: &[String]) -> Vec<bool> {
    let mut out = Vec::new();
    for row in rows {
        let words: Vec<&str> = row.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if *w != "←" {
                continue;
            }
            let rest = &words[i + 1..];
            let counted = |at: usize| {
                rest.get(at).is_some_and(|n| n.parse::<usize>().is_ok())
                    && rest.get(at + 1) == Some(&"more")
            };
            if rest.first() == Some(&"why:") && counted(1) {
                out.push(true);
            } else if counted(0) {
                out.push(false);
            }
        }
    }
    out
}

#[test]
fn both_sides_of_compare_fold_a_verdict_in_the_same_words() {
    let mut screens = 0;
    let mut both = 0;
    let mut wrong = Vec::new();
    for script in builtins() {
        for design in script.strategies() {
            for (w, h) in SIZES {
                let mut a = app(&script.name, &design);
                update(&mut a, Action::Compare);
                let Some(last) = a.compare.as_ref().map(|c| c.pairs.len()) else {
                    continue;
                };
                for pos in 0..last {
                    a.pos = pos;
                    let screen = draw(&mut a, w, h);
                    screens += 1;
                    let rows: Vec<Vec<char>> = screen
                        .lines()
                        .map(|l| l.trim_matches('"').chars().collect())
                        .collect();
                    let half = usize::from(w) / 2;
                    let side = |from: usize, to: usize| -> Vec<String> {
                        rows.iter()
                            .map(|r| r[from.min(r.len())..to.min(r.len())].iter().collect())
                            .collect()
                    };
                    let (l, r) = (folds(&side(0, half)), folds(&side(half, usize::from(w))));
                    if l.is_empty() || r.is_empty() {
                        continue;
                    }
                    both += 1;
                    if l.iter().chain(&r).any(|&f| f != l[0]) {
                        wrong.push(format!(
                            "{} from {design} at {w}x{h} step {pos}:\n{screen}",
                            script.name
                        ));
                    }
                }
            }
        }
    }
    assert!(
        both > 0,
        "no screen of {screens} folds both sides' verdicts"
    );
    assert!(
        wrong.is_empty(),
        "{} of {both} compare screens (of {screens}) fold the two sides' verdicts in different words; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
