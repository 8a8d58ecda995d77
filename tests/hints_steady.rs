//! A part of the header or of the story's step line is there at every step
//! of a run at one size, or at none. Teacher trial 13: at 100x30 the
//! header's `(m)` came and went in tour-3 idempotent as the verdict beside
//! it grew, and the step line's `t=` went missing at tour-1 naive steps 4,
//! 5, 12-14 while its neighbours showed it: a hint that flickers reads as
//! a key that works at some steps only.

use crate::common::sweep::{SIZES, Step, each_step};
use std::collections::BTreeMap;

/// Per run: at which steps the part is there, at which not.
type Seen = BTreeMap<String, (Vec<usize>, Vec<usize>)>;

fn note(seen: &mut Seen, s: &Step, there: bool) {
    let run = format!("{} {}", s.app.script.name, s.app.strategy.name);
    let (with, without) = seen.entry(run).or_default();
    if there { with } else { without }.push(s.app.pos);
}

fn mixed(what: &str, seen: &Seen, size: (u16, u16)) -> Vec<String> {
    seen.iter()
        .filter(|(_, (with, without))| !with.is_empty() && !without.is_empty())
        .map(|(run, (with, without))| {
            format!(
                "{run} at {}x{}: {what} at steps {with:?}, not at {without:?}",
                size.0, size.1
            )
        })
        .collect()
}

#[test]
fn the_headers_key_and_the_step_lines_time_hold_for_the_run() {
    let mut wrong = Vec::new();
    let mut runs = 0;
    for size in SIZES {
        let (mut key, mut time) = (Seen::new(), Seen::new());
        each_step(size, |s| {
            let rows = s.rows();
            note(&mut key, s, rows[0].contains(" (m)"));
            let step = format!("step {}/", s.app.pos);
            // At 80 columns the end's hint (`end: ] next tour / s
            // scenarios`) takes the last step's time: what to press next
            // is worth more there than the clock.
            let end = size.0 < 100 && s.app.pos + 1 == s.app.timeline.frames.len();
            let line = rows.iter().find(|r| r.contains(&step) && r.contains('└'));
            if let Some(line) = line.filter(|_| !end) {
                note(&mut time, s, line.contains("t="));
            }
        });
        runs += key.len() + time.len();
        wrong.extend(mixed("`(m)`", &key, size));
        wrong.extend(mixed("`t=`", &time, size));
    }
    assert!(runs > 20, "only {runs} runs seen");
    assert!(
        wrong.is_empty(),
        "{} runs show a part at some steps only:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The key bar lists every key of the main screen, or says how many more
/// help lists (`? help +4`, or `? 4 more` where the word costs a key). Teacher trial 13: at 80x24 the bar had no
/// `x explore`, and nothing said a key was left out.
#[test]
fn the_key_bar_counts_the_keys_it_leaves_out() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for size in SIZES {
        each_step(size, |s| {
            if s.app.pos != 1 {
                return;
            }
            seen += 1;
            let rows = s.rows();
            let bar = rows.last().expect("a bar");
            let missing = ["step", "chapter", "play", "compare", "fault", "scenarios"]
                .into_iter()
                .chain(["explore", "failure", "present"])
                .filter(|w| !bar.contains(&format!(" {w} ")))
                .count();
            // The count help's item gives: `? help +4` or `? 4 more`.
            let after = bar.split("? ").nth(1).unwrap_or_default();
            let number = |n: &str| n.parse::<usize>().ok();
            let counted = after
                .strip_prefix("help +")
                .and_then(|r| number(r.split(' ').next().unwrap_or_default()))
                .or_else(|| {
                    let (n, rest) = after.split_once(' ')?;
                    rest.starts_with("more").then(|| number(n)).flatten()
                });
            // Every key these steps offer is on the bar, or the count is
            // at least the ones that are not (help lists some this list
            // does not name).
            let told = match counted {
                None => missing == 0,
                Some(n) => n >= missing.max(1),
            };
            if !told {
                wrong.push(format!("{}: {}", s.at(), bar.trim_end()));
            }
        });
    }
    assert!(seen > 20, "only {seen} bars seen");
    assert!(
        wrong.is_empty(),
        "{} key bars leave keys out unsaid; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
