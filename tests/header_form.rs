//! The header of one scenario at one size has one form whatever the design:
//! it read `design: naive (m)` under naive and `idempotent` alone (no
//! `design:`, no `(m)`) at the same size (teacher trial, issue 18), for
//! each design's run fitted a form of its own; pressing `m` made the
//! header jump. Only the design's name and the verdict change with it.

use crate::common::sweep::{SIZES, each_step};
use std::collections::{BTreeMap, BTreeSet};

/// Which of the header's parts a header row holds: the program's name,
/// the word `design:`, the key `(m)`, and the wide gaps around the dots.
fn form(header: &str) -> String {
    let parts = [
        ("idem", header.starts_with(" idem ")),
        ("design:", header.contains("design: ")),
        ("(m)", header.contains(" (m)")),
        ("wide gaps", header.contains("  ·  ")),
    ];
    parts
        .iter()
        .filter(|(_, shown)| *shown)
        .map(|(part, _)| *part)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn switching_design_keeps_the_headers_form() {
    let mut wrong = Vec::new();
    for size in SIZES {
        // scenario -> design -> the forms its headers took.
        let mut forms: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        each_step(size, |step| {
            let header = step.rows().into_iter().next().unwrap_or_default();
            forms
                .entry(step.app.script.name.clone())
                .or_default()
                .entry(step.app.strategy.name.to_string())
                .or_default()
                .insert(form(&header));
        });
        assert!(forms.len() > 20, "{size:?}: scenarios seen {}", forms.len());
        for (scenario, designs) in &forms {
            let all: BTreeSet<&String> = designs.values().flatten().collect();
            if all.len() > 1 {
                wrong.push(format!("{}x{} {scenario}: {designs:?}", size.0, size.1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} scenario sizes whose header changes form with the design:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// With `--ascii` the title's cut sign is `...`, three cells: a cut sized
/// for `…` overflowed the row and the header dropped its whole left part
/// (tour-3 idempotent at 80x24 read only `step 8/15 - idempotent`). Every
/// tour, every design, at each size: the header says which tour it is.
#[test]
fn an_ascii_header_keeps_its_place_in_the_tour() {
    use crate::common::{app_with, ascii, draw};
    let mut wrong = Vec::new();
    for n in 1..=4 {
        let name = format!("tour-{n}");
        for design in ["naive", "idempotent"] {
            let mut a = app_with(&name, design, ascii());
            for (w, h) in SIZES {
                for pos in 0..a.timeline.frames.len() {
                    a.pos = pos;
                    let screen = draw(&mut a, w, h);
                    let header = screen.lines().next().unwrap_or_default();
                    if !header.contains(&format!("Tour {n}/4")) {
                        wrong.push(format!("{name} {design} {w}x{h} step {pos}: {header}"));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} headers lost their tour:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// After a fork (`f`), `m` opens the other design's run with the forks
/// carried over: the header kept its form over the other designs' runs
/// as written, so at `m` it could still change form. Fork at each step
/// of each tour with a few of the menu's faults, press `m`: the header's
/// parts are the same before and after, at each size.
#[test]
fn m_after_a_fork_keeps_the_headers_form() {
    use crate::common::{app, draw};
    use idem::tui::{Action, update};
    let mut wrong = Vec::new();
    let mut seen = 0;
    for n in 1..=4 {
        let name = format!("tour-{n}");
        for design in ["naive", "idempotent"] {
            let steps = app(&name, design).timeline.frames.len();
            for at in 0..steps {
                for digit in [1, 3, 5] {
                    // One fork and one `m` for every size: the run does not
                    // depend on the screen, and each build costs a run of
                    // every design.
                    let mut a = app(&name, design);
                    a.pos = at;
                    update(&mut a, Action::Faults);
                    update(&mut a, Action::Digit(digit));
                    if a.forked_at().is_none() {
                        continue;
                    }
                    let head = |s: String| s.lines().next().unwrap_or_default().to_string();
                    let before: Vec<String> = SIZES
                        .iter()
                        .map(|&(w, h)| head(draw(&mut a, w, h)))
                        .collect();
                    update(&mut a, Action::ToggleMode);
                    if a.strategy.name == design || a.forks.is_empty() {
                        continue;
                    }
                    for (&(w, h), b) in SIZES.iter().zip(&before) {
                        seen += 1;
                        let f = head(draw(&mut a, w, h));
                        if form(b) != form(&f) {
                            wrong.push(format!(
                                "{name} {design} fork {digit} at {at}, {w}x{h}:\n  {b}\n  {f}"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} forked m's seen");
    assert!(
        wrong.is_empty(),
        "{} headers changed form at m after a fork:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
