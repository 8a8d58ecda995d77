//! Each side of compare keeps what its step did on screen, above the rows
//! it scrolls to. Teacher trial at 80x24: tour-1, `c`, ten steps on (the
//! lease running out), each side read `step 9/16: time passes (30s)` then
//! `… ↑ 11 more rows above`: the broker making m-7f3 visible again was
//! scrolled away with the story, only counted. tour-3's `A: charge the
//! card` and `B: receive` lost their words the same way.
//!
//! At every position of the tours' compare at 80x24 and 100x30, each side
//! shows the start of its step's own line (the story's first words on the
//! main screen, whole or in its shorter form), or says it holds: a side that stands still did nothing
//! of its own there.

use crate::common;
use idem::tui::{Action, update};

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The own line's first few words: what a reader sees first of it.
fn start(own: &str) -> String {
    own.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn each_compare_side_keeps_its_own_line_in_view() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for (w, h) in [(80, 24), (100, 30)] {
            let mut a = common::app(name, "naive");
            common::resize(&mut a, w, h);
            update(&mut a, Action::Compare);
            let pairs = a.compare.as_ref().expect("compare opens").pairs.clone();
            for pos in 0..pairs.len() {
                a.pos = pos;
                let screen = common::render(&a);
                let sides = crate::compare_in_view::side_rows(&screen);
                let c = a.compare.as_ref().unwrap();
                let (lf, rf) = c.frames(pos);
                for (i, f) in [lf, rf].into_iter().enumerate() {
                    // Whole, or in the shorter form the main screen's
                    // story tells it in where the whole one does not fit.
                    let forms = crate::common::own_line::forms(&f.events, squeeze);
                    let own = forms[0].clone();
                    if own.is_empty() {
                        continue;
                    }
                    seen += 1;
                    let text = squeeze(&sides[i].join(" "));
                    let holds = pos > 0
                        && [pairs[pos].0, pairs[pos].1][i]
                            == [pairs[pos - 1].0, pairs[pos - 1].1][i];
                    let says_holding = text.contains("holding at") || text.contains("finished at");
                    let shown = forms.iter().any(|form| text.contains(&start(form)));
                    if (holds && says_holding) || shown {
                        continue;
                    }
                    wrong.push(format!(
                        "{name} {w}x{h} position {pos}, {} side: {:?} not on screen\n{screen}",
                        ["left", "right"][i],
                        start(&own)
                    ));
                }
            }
        }
    }
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for w in &wrong {
            eprintln!("{}", w.lines().next().unwrap_or_default());
        }
    }
    assert!(seen > 200, "only {seen} sides with an own line");
    assert!(
        wrong.is_empty(),
        "{} of {seen} sides hide their own line; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
