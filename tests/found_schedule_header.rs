//! A found schedule's header names what is replayed and for which design
//! whole at every size: the teacher trial read `… · naiv…` at 80x24, the
//! design's name cut. What gives way is the less important part (how the
//! found schedule ends, which the verdict beside it says too), and it is
//! cut at a word's end, signed.

use crate::common::check::{explorer_showing, report};
use crate::common::draw;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

#[test]
fn a_found_schedules_header_keeps_its_design_and_what_it_is_whole() {
    let report = report();
    let (mut steps, mut failing, mut bad) = (0, 0, Vec::new());
    for (row, s) in report.strategies.iter().enumerate() {
        let runs = idem::tui::explorer::runs(s).len().min(3);
        for cx in 0..runs {
            for (w, h) in SIZES {
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
                loop {
                    let screen = draw(&mut a, w, h);
                    let head = screen.lines().next().unwrap().trim_matches('"');
                    steps += 1;
                    // The left part: up to the step's count.
                    let left = &head[..head.find(" move ").expect("the step")];
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
                    if !ok {
                        failing += 1;
                        bad.push(format!("{w}x{h} {}: {head}", a.script.name));
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
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{failing} of {steps} steps:\n{}",
        bad.join("\n")
    );
}
