//! Every key bar, in every mode and at every size, shows whole keys: a
//! key with its description, or not at all, and the keys left out are
//! counted (`? help +4`). The teacher trial read `a leave predict m…` in
//! predict mode at 80x24: a key's words cut.

use crate::common::check::{explorer_showing, report};
use crate::common::{app, draw};
use crate::tui_predict::{answer, wrong};
use idem::tui::predict::Stage;
use idem::tui::{Action, App, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The bottom row's items: runs of text two spaces apart.
fn items(screen: &str) -> Vec<String> {
    let row = screen.lines().last().unwrap_or_default().trim_matches('"');
    row.split("  ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Whether an item counts the keys left out.
fn counts(item: &str) -> bool {
    let n = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    item.strip_prefix("? help +").is_some_and(n)
        || item
            .strip_prefix("? ")
            .and_then(|s| s.strip_suffix(" more"))
            .is_some_and(n)
        || item.strip_prefix('+').is_some_and(n)
}

/// The bar at `w`x`h` against the same state's bar on a screen wide
/// enough for every key: each item one of those, whole, and the ones
/// left out counted.
fn check(a: &mut App, what: &str, w: u16, h: u16, bad: &mut Vec<String>) {
    let wide = items(&draw(a, 400, h));
    let screen = draw(a, w, h);
    let row = screen.lines().last().unwrap_or_default().trim_matches('"');
    // A note in the bar's place, or a box drawn over the bar's row.
    if row.starts_with(" !")
        || row.starts_with('└')
        || wide.first().is_some_and(|i| i.starts_with('!'))
    {
        return;
    }
    let narrow = items(&screen);
    // The predict tag has forms of its own, each whole.
    // A box's border over part of the row is no key.
    let key = |i: &&String| !i.starts_with("predict ") && !i.contains('─');
    let cut: Vec<&String> = narrow
        .iter()
        .filter(key)
        .filter(|i| !wide.contains(i) && !counts(i))
        .collect();
    let shown = narrow.iter().filter(key).filter(|i| !counts(i)).count();
    let left_out = wide.iter().filter(key).count() > shown;
    if !cut.is_empty() || (left_out && !narrow.iter().any(|i| counts(i))) {
        bad.push(format!("{what} {w}x{h}: {row:?} (whole: {wide:?})"));
    }
}

/// Predict mode through a whole tour: each question asked, its answer
/// revealed (one wrong, the next right), the steps between, the score.
fn predict_sweep(name: &str, w: u16, h: u16, bad: &mut Vec<String>, bars: &mut usize) {
    let mut a = app(name, "naive");
    update(&mut a, Action::Predict);
    let mut flip = false;
    for _ in 0..400 {
        let stage = a.predict.as_ref().unwrap().stage.clone();
        check(&mut a, &format!("predict {name} {stage:?}"), w, h, bad);
        *bars += 1;
        match stage {
            Stage::Asking { at, .. } => {
                let q = a.predict.as_ref().unwrap().asked[at].clone();
                flip = !flip;
                answer(&mut a, if flip { wrong(&q) } else { q.answer });
            }
            _ => {
                let at = a.pos;
                update(&mut a, Action::Next);
                if a.pos == at && !matches!(a.predict.as_ref().unwrap().stage, Stage::Asking { .. })
                {
                    check(&mut a, &format!("predict {name} end"), w, h, bad);
                    *bars += 1;
                    return;
                }
            }
        }
    }
}

#[test]
fn every_key_bar_shows_whole_keys_and_counts_the_rest() {
    let mut bad = Vec::new();
    let mut bars = 0;
    for (w, h) in SIZES {
        for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
            predict_sweep(name, w, h, &mut bad, &mut bars);
        }
        let modes: [(&str, &[Action]); 7] = [
            ("main", &[]),
            ("compare", &[Action::Compare]),
            ("faults", &[Action::Faults]),
            ("picker", &[Action::Picker]),
            ("help", &[Action::Help]),
            ("levels", &[Action::Levels]),
            ("presenter", &[Action::Presenter]),
        ];
        for (what, actions) in modes {
            let mut a = app("tour-1", "naive");
            for act in actions {
                update(&mut a, act.clone());
            }
            check(&mut a, what, w, h, &mut bad);
            bars += 1;
        }
        let mut a = explorer_showing(report().clone());
        check(&mut a, "explorer", w, h, &mut bad);
        bars += 1;
    }
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{} of {bars} bars:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
