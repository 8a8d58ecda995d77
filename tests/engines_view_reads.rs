//! The engines view (`E` on a server) reads as the main screen does and
//! its two sides read alike (teacher trial: the idempotent title over a
//! naive run, `consumer A idle` beside `A: idle`, the step's own story
//! below the fold at 80x24, the header's contrast cut mid-word). Where no
//! server answers, each test prints one `skipped:` line and passes.

use crate::common::draw;
use crate::common::server::server;
use crate::engines_side_by_side::{halves, on_server};
use idem::tui::{Action, update};

/// The header's title is the one the main screen gives the design on
/// screen: tour-3 tells its naive run as "Redelivery charges again".
#[test]
fn the_header_gives_the_title_the_main_screen_gives() {
    let Some(url) = server() else { return };
    let mut wrong = Vec::new();
    for mode in ["naive", "idempotent"] {
        let mut a = on_server("tour-3", mode, &url);
        let main = draw(&mut a, 160, 48);
        let title = a.script.title_for(mode).to_string();
        assert!(main.lines().next().unwrap().contains(&title), "{main}");
        update(&mut a, Action::CompareEngines);
        let screen = draw(&mut a, 160, 48);
        let top = screen.lines().next().unwrap().to_string();
        if !top.contains(&title) {
            wrong.push(format!("{mode}: {top}"));
        }
    }
    assert!(wrong.is_empty(), "{} of 2: {wrong:#?}", wrong.len());
}

/// Each side's rows with its border taken off, as flat text and as rows.
fn side_rows(side: &str) -> Vec<String> {
    side.lines()
        .map(|l| l.trim_matches(|c| c == '│' || c == '┃').trim().to_string())
        .collect()
}

/// Every position of the engines view of tour-3 under each design, drawn
/// at `w`x`h`, with the app there.
fn each_position(w: u16, h: u16, mut check: impl FnMut(&str, &idem::tui::App, &str)) {
    let Some(url) = server() else { return };
    for mode in ["idempotent", "naive"] {
        let mut a = on_server("tour-3", mode, &url);
        update(&mut a, Action::CompareEngines);
        for _ in 0..=a.last_pos() {
            let screen = draw(&mut a, w, h);
            check(mode, &a, &screen);
            update(&mut a, Action::Next);
        }
    }
}

/// A consumer's heading is drawn the same way on both sides (`consumer A
/// idle` on both, or `A: idle` on both): the form is chosen once for both
/// runs, the one both fit.
#[test]
fn both_sides_name_consumers_in_one_form() {
    let (mut wrong, mut seen) = (Vec::new(), 0);
    for (w, h) in [(80u16, 24u16), (80, 40)] {
        each_position(w, h, |mode, a, screen| {
            let (left, right) = halves(screen, usize::from(w));
            let form = |side: &str| {
                let rows = side_rows(side);
                let full = rows.iter().any(|r| r.starts_with("consumer "));
                let short = rows.iter().any(|r| {
                    let b = r.as_bytes();
                    b.len() > 2 && b[0].is_ascii_uppercase() && &b[1..3] == b": "
                });
                match (full, short) {
                    (true, false) => Some("consumer X"),
                    (false, true) => Some("X:"),
                    (true, true) => Some("both"),
                    (false, false) => None,
                }
            };
            if let (Some(l), Some(r)) = (form(&left), form(&right)) {
                seen += 1;
                if l != r || l == "both" {
                    wrong.push(format!("{mode} at {} {w}x{h}: {l} / {r}", a.pos));
                }
            }
        });
    }
    assert!(wrong.is_empty(), "{} of {seen}: {wrong:#?}", wrong.len());
}

/// At 80x24 each side shows what its step did (the first line of its own
/// story) at every step: it matters more than the rows under it.
#[test]
fn each_side_shows_what_its_step_did_at_80x24() {
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (mut wrong, mut seen) = (Vec::new(), 0);
    each_position(80, 24, |mode, a, screen| {
        let (left, right) = halves(screen, 80);
        let c = a.compare.as_ref().unwrap();
        let (li, ri) = c.pairs[a.pos];
        for (side, tl, at) in [(&left, &c.left, li), (&right, &c.right, ri)] {
            let told = idem::sim::event::step_told(&tl.frames[at].events);
            let lead: String = flat(&told).chars().take(20).collect();
            if lead.is_empty() {
                continue;
            }
            seen += 1;
            if !flat(&side_rows(side).join(" ")).contains(&lead) {
                wrong.push(format!("{mode} at {}: {lead:?} not on\n{screen}", a.pos));
            }
        }
    });
    assert!(
        wrong.is_empty(),
        "{} of {seen}: {}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Where the lock points differ, the header says each engine's fact whole
/// at 80 columns: wrapped, never cut with an ellipsis.
#[test]
fn the_headers_contrast_is_whole_at_80_columns() {
    let (mut wrong, mut seen) = (Vec::new(), 0);
    each_position(80, 24, |mode, a, screen| {
        let header: Vec<&str> = screen
            .lines()
            .take_while(|l| !l.contains('┌'))
            .skip(1)
            .collect();
        let text = header
            .iter()
            .map(|l| l.trim_matches('"').trim())
            .collect::<Vec<_>>()
            .join(" ");
        if !text.contains("lock points differ here") {
            return;
        }
        seen += 1;
        let whole = |engine: &str| {
            text.split(&format!("{engine}: "))
                .nth(1)
                .and_then(|fact| fact.split(" · ").next())
                .is_some_and(|fact| {
                    let fact = fact.split(" PostgreSQL: ").next().unwrap_or(fact).trim();
                    fact.ends_with('"') || fact == "nobody waits"
                })
        };
        if text.contains('…') || !whole("SQLite") || !whole("PostgreSQL") {
            wrong.push(format!("{mode} at {}: {text}", a.pos));
        }
    });
    assert!(wrong.is_empty(), "{} of {seen}: {wrong:#?}", wrong.len());
}

/// Each side's step line names the handler step its step ran first, as the
/// main screen's step line does (`provider response (A) · part of: run A
/// up to acknowledge`), not the scripted action alone: teacher trial 34
/// read `step 9 · run A up to acknowledge` at A's provider response, and
/// `run B up to begin transaction` at B's receive, as "B began".
#[test]
fn each_side_names_the_handler_step_it_ran() {
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (mut wrong, mut seen) = (Vec::new(), 0);
    each_position(160, 48, |mode, a, screen| {
        let (left, right) = halves(screen, 160);
        let c = a.compare.as_ref().unwrap();
        let (li, ri) = c.pairs[a.pos];
        for (side, tl, at) in [(&left, &c.left, li), (&right, &c.right, ri)] {
            let f = &tl.frames[at];
            let Some(who) = f.stepped.as_deref() else {
                continue;
            };
            let Some(ran) = f.changes.steps.iter().find(|s| s.consumer == who) else {
                continue;
            };
            let c = f.consumers.iter().find(|c| c.name == who).unwrap();
            let label = c.steps[ran.step].label.trim_end_matches(" (key)");
            // A run that stops at the step it ran names that step already.
            if !f.action.starts_with(&format!("run {who}"))
                || f.action == format!("run {who} to before {label}")
            {
                continue;
            }
            seen += 1;
            let text = flat(&side_rows(side).join(" "));
            if text.contains(&format!("step {} · {}", f.index, f.action)) {
                wrong.push(format!(
                    "{mode} at {}: step {} · {}",
                    a.pos, f.index, f.action
                ));
            }
        }
    });
    assert!(seen > 0, "no multi-step action ran a handler step");
    assert!(wrong.is_empty(), "{} of {seen}: {wrong:#?}", wrong.len());
}
