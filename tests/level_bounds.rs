//! The level screen's verdict states its bounds at every size: a won (or
//! holding, or broken) handler's first row of the prover box says within
//! how many faults, consumers and messages, and where the box cannot hold
//! the whole verdict, it names the key that shows the rest (`w`), and that
//! key shows it whole: every bound, what was not tried, the whole chain of
//! causes drawn with the screen's arrow. Teacher trial at 80x24, level 9:
//! `✓ level won within this level's faults. No schedule breaks your …4
//! more`, and no key showed the rest.

use crate::common::{self, draw};
use idem::check::further;
use idem::levels::{self, Attempt};
use idem::tui::levels::Proved;
use idem::tui::{Action, App, Effect, update};
use std::sync::Arc;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The level screen at level `index` (from 0) with `program` proved.
pub fn proved(index: usize, program: Vec<idem::sim::Op>) -> App {
    let mut a = common::app("tour-1", "naive");
    update(&mut a, Action::Levels);
    a.levels.go_to(index);
    a.levels.program = program;
    update(&mut a, Action::Enter);
    assert_eq!(a.pending.take(), Some(Effect::Prove));
    let result = Attempt::check(a.levels.level(), &a.levels.program).map_err(|e| e.to_string());
    update(&mut a, Action::Proved(Proved(Arc::new(result))));
    a
}

/// The prover box's rows, inside its border.
fn prover_rows(screen: &str) -> Vec<String> {
    box_rows(screen, "The prover")
}

/// The rows of the box titled `title`, inside its border.
fn box_rows(screen: &str, title: &str) -> Vec<String> {
    screen
        .lines()
        .skip_while(|l| !l.contains(title))
        .skip(1)
        .take_while(|l| !l.contains('└'))
        .map(|l| {
            l.trim_matches(|c| c == '│' || c == '"')
                .trim_end()
                .to_string()
        })
        .collect()
}

/// Rows read as one paragraph, spaces squeezed.
fn joined(rows: &[String]) -> String {
    rows.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_verdict_states_its_bounds_and_the_key_that_shows_them_whole() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut failing = 0;
    for (index, level) in levels::all().into_iter().enumerate() {
        for program in [level.solution.clone(), level.start.clone()] {
            let mut a = proved(index, program);
            let attempt = a.levels.attempt().expect("proved").clone();
            let r = &attempt.report;
            let used = r.bounds.clone().unwrap_or_else(|| level.bounds());
            let whole_bounds = further::within_all(r, &level.bounds());
            let fault = format!("{} fault", used.max_faults);
            let every = levels::Fault::ALL.iter().all(|f| level.faults.contains(f));
            // The kinds of fault on the first row, in the words the whole
            // verdict uses (teacher trial 28: at 80x24 `✓ level won within
            // 2 consumers, 1 message and 2 faults` read as safe against 2
            // faults of any kind; level 7 at 100x30 dropped them too).
            // With the caps per kind, or that there are none (teacher
            // trial: level 4's `(crashes only)` left the cap unsaid).
            let kinds = further::kinds_capped(&used, every);
            // A win that the try one more fault further broke says so on
            // its first row and in the header, with `!` and words, as the
            // explorer marks a design that holds only within its bounds.
            let breaks_at = r
                .further
                .iter()
                .find(|f| f.breaks() && f.widening == further::Widening::Fault)
                .filter(|_| attempt.verdict == idem::levels::Verdict::Won)
                // The unit may go at 80x24 (`; ! breaks at 3`): the faults
                // just before it name it.
                .map(|f| format!("! breaks at {}", f.bounds.max_faults));
            let broken = attempt.verdict == idem::levels::Verdict::Broken;
            let chain = attempt.counterexample().filter(|_| broken).map(|cx| {
                cx.verdict
                    .chain_at(idem::sim::Arrow::Drawn, &idem::check::move_words)
            });
            for (w, h) in SIZES {
                checked += 1;
                let before = failures.len();
                let at = format!("level {} {w}x{h} {:?}", level.number, attempt.verdict);
                let screen = draw(&mut a, w, h);
                let rows = prover_rows(&screen);
                let first = rows.first().cloned().unwrap_or_default();
                // The claim (won, holds, broken) and its bounds share a row.
                if !(first.contains("within") && first.contains(&fault)) {
                    failures.push(format!("{at}: first row has no bounds: {first:?}"));
                }
                // One order everywhere: consumers, messages, then faults
                // (teacher trial 26: `within 1 fault, 2 consumers, 2
                // messages` beside `within 2 consumers, 1 message and 2
                // faults`).
                let few = further::kinds_capped_short(&used, every);
                // A broken run claims nothing: its fewest words may give
                // up the caps, never the kinds.
                let bare = (attempt.verdict != idem::levels::Verdict::Won)
                    .then(|| further::kinds_words(&used));
                if !first.contains(&format!("({kinds})"))
                    && !few.is_some_and(|few| first.contains(&format!("({few})")))
                    && !bare.is_some_and(|b| first.contains(&format!("({b})")))
                {
                    failures.push(format!("{at}: first row has no ({kinds}): {first:?}"));
                }
                if let Some(breaks) = &breaks_at {
                    if !first.contains(breaks.as_str()) {
                        failures.push(format!("{at}: first row has no {breaks:?}: {first:?}"));
                    }
                    let header = screen.lines().next().unwrap_or_default();
                    if !(header.contains("! won") && header.contains("further")) {
                        failures.push(format!("{at}: header has no `! won …further`: {header:?}"));
                    }
                }
                // The bounds before the kinds (whose caps may name a
                // consumer: `crashes per consumer`).
                let within = first.split("within").nth(1).unwrap_or_default();
                let within = within.split('(').next().unwrap_or_default();
                if let (Some(c), Some(f)) = (within.find("consumer"), within.find(" fault"))
                    && f < c
                {
                    failures.push(format!("{at}: faults before consumers: {first:?}"));
                }
                // The kinds in the same words as the first row's (`crashes
                // only`), where the level throws some kinds, not all.
                if !every && !whole_bounds.contains(" only, ") {
                    failures.push(format!("{at}: {whole_bounds:?} says no `only`"));
                }
                if screen.contains("<-") {
                    failures.push(format!("{at}: `<-` drawn where the arrow is `←`"));
                }
                let text = joined(&rows);
                let mut whole = vec![whole_bounds.clone()];
                whole.extend(chain.clone());
                let folded = whole.iter().any(|part| !text.contains(part.as_str()));
                if folded && !text.contains("· w") {
                    failures.push(format!("{at}: folded, and names no key: {text:?}"));
                }
                // `w` shows the whole verdict, and `w` again goes back.
                counts_explained(&at, &text, &mut failures);
                update(&mut a, Action::Why);
                let enlarged = draw(&mut a, w, h);
                let text = joined(&prover_rows(&enlarged));
                counts_explained(&format!("{at} after w"), &text, &mut failures);
                for part in &whole {
                    if !text.contains(part.as_str()) {
                        failures.push(format!("{at}: after w, no {part:?} in {text:?}"));
                    }
                }
                update(&mut a, Action::Why);
                if draw(&mut a, w, h) != screen {
                    failures.push(format!("{at}: w again did not go back"));
                }
                if failures.len() > before {
                    failing += 1;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{failing} of {checked} screens:\n{}",
        failures.join("\n")
    );
}

/// Where the prover box gives a count of schedules (`2 of 3 schedules`,
/// `54 schedules, 119 states`), it says what one is in `idem check`'s
/// words: "3 schedules" of "every interleaving of two consumers" read as
/// wrong to students (teacher trial 28) until told that identical
/// consumers are counted once.
fn counts_explained(at: &str, text: &str, failures: &mut Vec<String>) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let counted = words.windows(2).any(|p| {
        p[1].starts_with("schedules")
            && p[0]
                .trim_start_matches('(')
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',')
    });
    let told = text.contains("identical consumers counted once")
        && text.contains("complete run")
        && text.contains("start to quiet");
    if counted && !told {
        failures.push(format!("{at}: a count of schedules, unexplained: {text:?}"));
    }
}

/// The key bar leaves keys out where it is narrow; it says how many, and
/// `?` shows each one it left out.
#[test]
fn every_key_the_level_bar_leaves_out_is_shown_by_question_mark() {
    let keys = [
        "↑/↓ step",
        "1-0 add",
        "d remove",
        "K/J move",
        "Enter prove",
        "v watch",
        "w whole",
        "[/] level",
        "r reset",
        "Esc back",
    ];
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut a = proved(0, levels::all()[0].start.clone());
        let screen = draw(&mut a, w, h);
        let bar = screen
            .lines()
            .last()
            .unwrap_or_default()
            .trim_matches('"')
            .to_string();
        update(&mut a, Action::Help);
        let asked = draw(&mut a, w, h);
        for key in keys {
            if !bar.contains(key) && !joined(&box_rows(&asked, "Goal")).contains(key) {
                failures.push(format!(
                    "{w}x{h}: {key:?} neither on the bar ({bar:?}) nor shown by ?"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
