//! A found schedule's header names what is replayed and for which design
//! whole at every size: the teacher trial read `… · naiv…` at 80x24, the
//! design's name cut. What gives way is the less important part (how the
//! found schedule ends, which the verdict beside it says too), and it is
//! cut at a word's end, signed.
//!
//! Teacher trial (replay opened with Enter from the explorer at the
//! default bounds): in-progress's run found one fault further read
//! `Counterex` at 80 columns, unsigned, and `✕ …` at 120x40 beside a
//! title that could have given way: the outcome is never a bare mark.
//! The sweep takes every design at the default bounds too, and the
//! presenter view. Before the fix: 121 of 1926 steps (93 bare marks at
//! 100x30 and 120x40, 28 presenter headers at 80x24 run over `Counterex`).

use crate::common::check::{at_default, explorer_showing, report};
use crate::common::draw;
use idem::check::CheckReport;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The verdict at the header's end is a bare mark and a sign (`✕ …`).
fn bare_verdict(head: &str) -> bool {
    let last = head.trim_end().rsplit(" · ").next().unwrap_or_default();
    let mut words = last.split(' ');
    words.next().is_some_and(|m| m.chars().count() == 1) && words.next() == Some("…")
}

#[test]
fn a_found_schedules_header_keeps_its_design_and_what_it_is_whole() {
    let (mut steps, mut failing, mut bad) = (0, 0, Vec::new());
    let names = [
        "naive",
        "idempotent",
        "id-first",
        "charge-first",
        "ack-first",
        "no-provider-key",
        "cache-claim-first",
        "cache-work-first",
        "row-version",
        "offset",
        "versioned",
        "in-progress",
    ];
    for report in std::iter::once(report()).chain(names.iter().map(|n| at_default(n))) {
        sweep(report, &mut steps, &mut failing, &mut bad);
    }
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{failing} of {steps} steps:\n{}",
        bad.join("\n")
    );
}

fn sweep(report: &CheckReport, steps: &mut usize, failing: &mut usize, bad: &mut Vec<String>) {
    for (row, s) in report.strategies.iter().enumerate() {
        let runs = idem::tui::explorer::runs(s).len().min(3);
        for cx in 0..runs {
            for ((w, h), presenter) in SIZES.into_iter().flat_map(|s| [(s, false), (s, true)]) {
                let mut a = explorer_showing(report.clone());
                update(&mut a, Action::First);
                for _ in 0..row {
                    update(&mut a, Action::Down);
                }
                update(&mut a, Action::Digit(u8::try_from(cx + 1).unwrap()));
                assert!(a.is_counterexample(), "{} #{cx} opens", s.strategy);
                let title = a.script.title.clone();
                assert!(title.starts_with(&format!("{}: ", s.strategy)));
                let design = format!("{}:", s.strategy);
                update(&mut a, Action::First);
                if presenter {
                    update(&mut a, Action::Presenter);
                }
                loop {
                    let screen = draw(&mut a, w, h);
                    let head = screen.lines().next().unwrap().trim_matches('"');
                    *steps += 1;
                    // The left part: up to the step's count.
                    // A right part run over the left leaves no step's
                    // count whole: nothing on the left is.
                    let left = head.find(" move ").map_or("", |at| &head[..at]);
                    let ok = left.contains("Counterexample")
                        && if let Some(from) = left.find(&format!(" {design}")) {
                            // The title from the design's name on: whole,
                            // or cut at a word's end and signed.
                            let shown = left[from + 1..].trim_end();
                            shown == title
                                || shown.strip_suffix('…').is_some_and(|kept| {
                                    title.starts_with(kept)
                                        && title[kept.len()..].starts_with([' ', ','])
                                })
                        } else {
                            // No title: the design is named whole beside
                            // the step, and nothing is cut on the left.
                            !left.contains('…') && head.contains(&format!(" {} ", s.strategy))
                        };
                    let ok = ok && !bare_verdict(head);
                    if !ok {
                        *failing += 1;
                        bad.push(format!(
                            "{w}x{h}{} {}: {head}",
                            if presenter { " presenter" } else { "" },
                            a.script.name
                        ));
                    }
                    let at = a.pos;
                    update(&mut a, Action::Next);
                    if a.pos == at {
                        break;
                    }
                }
            }
        }
    }
}
