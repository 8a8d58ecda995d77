//! Every key bar, in every mode and at every size, shows whole keys: a
//! key with its description, or not at all, and the keys left out are
//! counted (`? help +4`). The teacher trial read `a leave predict m…` in
//! predict mode at 80x24: a key's words cut. The same holds for the
//! soak dashboard and a harness replay, whose key lines were plain text
//! a narrow screen cut unsaid, and no box covers the bar (the scenario
//! picker at 80x24 drew its border over it: no key in sight).

use crate::common::check::{explorer_showing, report};
use crate::common::{Screen, app, draw};
use crate::tui_predict::{answer, wrong};
use idem::harness::faults::Fault;
use idem::harness::run::Step;
use idem::soak::live::{LiveState, LiveViolation};
use idem::tui::predict::Stage;
use idem::tui::replay::{self, Replay};
use idem::tui::soak::{DashAction, Dashboard};
use idem::tui::theme::Theme;
use idem::tui::{Action, App, update};
use ratatui::crossterm::event::KeyCode;
use ratatui::widgets::Widget;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The bottom row's items: runs of text two spaces apart.
pub fn items(screen: &str) -> Vec<String> {
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
        // The level screen's `?` is its hint, which lists every key.
        || item.strip_prefix("? hint +").is_some_and(n)
        || item
            .strip_prefix("? ")
            .and_then(|s| s.strip_suffix(" more"))
            .is_some_and(n)
        || item.strip_prefix('+').is_some_and(n)
        // The soak dashboard's and a replay's: `?` names them.
        || item.strip_prefix("? +").is_some_and(n)
        // A replay's, which stays as `? keys` where none is left out.
        || item.strip_prefix("? keys +").is_some_and(n)
}

/// The bar at `w`x`h` against the same state's bar on a screen wide
/// enough for every key: each item one of those, whole, and the ones
/// left out counted.
fn check(a: &mut App, what: &str, w: u16, h: u16, bad: &mut Vec<String>) {
    // The help box alone stands over the bar's row: it names its keys
    // on its own border.
    let boxed = what == "help";
    check_drawn(|w, h| draw(a, w, h), what, boxed, w, h, bad);
}

/// A note's words, without predict mode's tag at the row's end.
fn note_of(row: &str) -> &str {
    row.split("    ").next().unwrap_or_default().trim_end()
}

/// `check` for any screen drawn at a size by `draw`. A note in the bar's
/// place is whole or ends in `…`; a box over the bar's row is a bar
/// with no key, unless `boxed` (a box that carries its own keys).
fn check_drawn(
    mut draw: impl FnMut(u16, u16) -> String,
    what: &str,
    boxed: bool,
    w: u16,
    h: u16,
    bad: &mut Vec<String>,
) {
    let whole = draw(400, h);
    let wide = items(&whole);
    let screen = draw(w, h);
    let row = screen.lines().last().unwrap_or_default().trim_matches('"');
    if row.starts_with(" !") {
        let note = note_of(row);
        let full = note_of(whole.lines().last().unwrap_or_default().trim_matches('"'));
        let ok = full.trim_end() == note
            || note
                .strip_suffix('…')
                .is_some_and(|cut| full.starts_with(cut));
        if !ok {
            bad.push(format!("{what} {w}x{h}: note cut unsaid: {row:?}"));
        }
        return;
    }
    if row.starts_with('└') || row.starts_with('+') && row.contains('-') {
        if !boxed {
            bad.push(format!("{what} {w}x{h}: a box covers the bar: {row:?}"));
        }
        return;
    }
    if wide.first().is_some_and(|i| i.starts_with('!')) {
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
        bars += soak_bars(w, h, &mut bad);
        bars += replay_bars(w, h, &mut bad);
    }
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{} of {bars} bars:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// `widget` drawn at `w`x`h`, as text.
fn shown(widget: impl Widget, w: u16, h: u16) -> String {
    let mut screen = Screen::new(w, h);
    screen.show(widget);
    screen.text()
}

/// The soak dashboard's bar running, paused, finished, and with its
/// longest note (Enter on a violation with no story of its own).
fn soak_bars(w: u16, h: u16, bad: &mut Vec<String>) -> usize {
    let live = idem::soak::Live::new(600, &["naive", "idempotent"]).snapshot();
    let dash = |live: LiveState| {
        Dashboard::new(
            "600 payments · seed 1".into(),
            live,
            Theme::new(false, false),
        )
    };
    let mut done = live.clone();
    for d in &mut done.designs {
        d.finished = true;
    }
    done.violations.push(LiveViolation {
        design: "naive".into(),
        outcome: idem::sim::Outcome::ChargedTwice,
        fact: "order 1001 ($40)".into(),
        verdict: std::sync::Arc::new(idem::sim::verdict::combine(Vec::new())),
        at_ms: 1_000,
        story: None,
    });
    let running = dash(live.clone());
    let mut paused = dash(live);
    idem::tui::soak::update(&mut paused, DashAction::Key(KeyCode::Char(' ')));
    let finished = dash(done.clone());
    let mut noted = dash(done);
    idem::tui::soak::update(&mut noted, DashAction::Key(KeyCode::Enter));
    assert!(noted.notice.is_some());
    let states = [
        ("running", running),
        ("paused", paused),
        ("finished", finished),
        ("noted", noted),
    ];
    for (what, d) in &states {
        let what = format!("soak {what}");
        check_drawn(|w, h| shown(d, w, h), &what, false, w, h, bad);
    }
    states.len()
}

/// A replay's bar on its first fault, and with a note (a step back
/// from the first step).
fn replay_bars(w: u16, h: u16, bad: &mut Vec<String>) -> usize {
    let step = |fault: Option<Fault>| Step {
        fault,
        lines: vec!["the consumer received m-1".into()],
        ..Step::default()
    };
    let made = || {
        Replay::new(
            "python3 examples/python/naive.py".into(),
            "lose-ack at point 1".into(),
            idem::sim::verdict::combine(Vec::new()),
            vec![step(None), step(Some(Fault::LoseAck)), step(None)],
            Theme::new(false, false),
        )
    };
    let opened = made();
    let mut noted = made();
    replay::update(&mut noted, KeyCode::Home);
    replay::update(&mut noted, KeyCode::Left);
    assert!(noted.notice.is_some());
    let states = [("opened", opened), ("noted", noted)];
    for (what, r) in &states {
        let what = format!("replay {what}");
        check_drawn(|w, h| shown(r, w, h), &what, false, w, h, bad);
    }
    states.len()
}
