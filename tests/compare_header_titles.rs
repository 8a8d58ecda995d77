//! Compare's header keeps both designs' titles whole. Teacher trial at
//! 100x30, tour-3 from naive: ` Compare · naive step 5/16, idempotent
//! step 6/15 · naive: Redelivery charges again / idempotent: Re…`: the
//! idempotent design's title was gone, behind step positions the sides'
//! borders already say.
//!
//! Every built-in scenario compared from each design it lists, at every
//! position: at 100x30 and 120x40 the rows over the sides (and their top
//! borders) hold each design's title whole; at every size each side's
//! step position is read somewhere there, as a step number.

use crate::common::sweep::SIZES;
use crate::common::{app, draw};
use idem::scenario::load::builtins;
use idem::tui::{Action, update};

/// The screen's rows down to the sides' top border, that one included.
fn top_rows(screen: &str) -> Vec<String> {
    let mut rows = Vec::new();
    for line in screen.lines().map(|l| l.trim_matches('"')) {
        rows.push(line.to_string());
        if line.starts_with('┌') {
            break;
        }
    }
    rows
}

#[test]
fn compare_headers_keep_both_titles_whole() {
    let (mut screens, mut pairs) = (0, 0);
    let (mut cut, mut lost_step) = (Vec::new(), Vec::new());
    let mut cut_pairs = std::collections::BTreeSet::new();
    for script in builtins() {
        for design in script.strategies() {
            for (w, h) in SIZES {
                let mut a = app(&script.name, &design);
                update(&mut a, Action::Compare);
                let Some(c) = a.compare.as_ref() else {
                    continue;
                };
                let (ln, rn) = (c.left.strategy.clone(), c.right.strategy.clone());
                let (lt, rt) = (
                    script.title_for(&ln).to_string(),
                    script.title_for(&rn).to_string(),
                );
                let last = c.pairs.len();
                pairs += usize::from(w == 100);
                for pos in 0..last {
                    a.pos = pos;
                    let screen = draw(&mut a, w, h);
                    screens += 1;
                    let top = top_rows(&screen);
                    let c = a.compare.as_ref().expect("compare stays open");
                    let (lf, rf) = c.frames(pos);
                    let unit = if idem::tui::compare::is_schedule(&a.script) {
                        "move"
                    } else {
                        "step"
                    };
                    // Each side's place, as a step of its own run.
                    for (side, f, frames) in [
                        (&ln, lf, c.left.frames.len()),
                        (&rn, rf, c.right.frames.len()),
                    ] {
                        let at = format!("{unit} {}/{}", f.index, frames - 1);
                        let named = top.iter().any(|r| {
                            r.contains(&format!("design: {side} · {at}"))
                                || r.contains(&format!("{side} {at}"))
                        });
                        if !named {
                            lost_step.push(format!(
                                "{} from {design} at {w}x{h} pos {pos}: no `{side} … {at}`\n{}",
                                script.name,
                                top.join("\n")
                            ));
                        }
                    }
                    if w < 100 {
                        continue;
                    }
                    let whole = |title: &str, name: &str| {
                        top.iter().any(|r| {
                            if lt == rt {
                                r.contains(title)
                            } else {
                                r.contains(&format!("{name}: {title}"))
                            }
                        })
                    };
                    if !whole(&lt, &ln) || !whole(&rt, &rn) {
                        cut_pairs.insert(format!("{} {ln}/{rn} {w}x{h}", script.name));
                        cut.push(format!(
                            "{} from {design} at {w}x{h} pos {pos}: {lt:?} / {rt:?}\n{}",
                            script.name,
                            top.join("\n")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        pairs > 20 && screens > 500,
        "{pairs} pairs, {screens} screens"
    );
    assert!(
        cut.is_empty(),
        "{} of {screens} compare screens ({} pair-sizes: {:?}) cut a design's title at 100x30 or 120x40; the first:\n{}",
        cut.len(),
        cut_pairs.len(),
        cut_pairs,
        cut[0]
    );
    assert!(
        lost_step.is_empty(),
        "{} of {screens} compare screens lose a side's step; the first:\n{}",
        lost_step.len(),
        lost_step[0]
    );
}
