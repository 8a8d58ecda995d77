//! The broker panel's counters read `duplicate deliveries 0` for ten steps,
//! `dup. deliveries 1 (+1)` at the step it moved, then `duplicate
//! deliveries 1` again (teacher trial, tour-1 naive at 100x30); at 80x24
//! the `◇ only you see:` heading came and went. A class reads a changing
//! label as a changing thing: like the header's parts and the service
//! panel's heading, each counter's name and the observer's group are
//! chosen once per run and size, for the widest figure and mark the run
//! shows.

use crate::common::sweep::{SIZES, each_step};
use idem::tui::app::Panel;
use std::collections::{BTreeMap, BTreeSet};

/// The names the duplicate-deliveries counter may take, fullest first
/// (`dup. deliv.` is also the start of `dup. deliveries`).
const DUP: [&str; 3] = ["duplicate deliveries", "dup. deliveries", "dup. deliv."];

/// How the observer's group is laid out on one screen: its heading on the
/// row of its counts, its heading on a row of its own, each count led by
/// its `◇`, or no observer's row on screen at all.
fn group(rows: &[String]) -> &'static str {
    let head = "◇ only you see:";
    if let Some(row) = rows.iter().find(|r| r.contains(head)) {
        if row.trim_end().ends_with(head) {
            "heading on its own row"
        } else {
            "heading leads the counts"
        }
    } else if rows.iter().any(|r| r.trim_start().starts_with("◇ ")) {
        "each count led by ◇"
    } else {
        // Rows the panel could not show (it says how many): no layout to
        // compare, and no heading drawn.
        ""
    }
}

#[test]
fn a_run_names_its_counters_one_way_at_each_size() {
    let mut wrong = Vec::new();
    for size in SIZES {
        // (scenario, design) -> the names the counter took, and the
        // observer group's layouts.
        let mut names: BTreeMap<(String, String), BTreeSet<&str>> = BTreeMap::new();
        let mut groups: BTreeMap<(String, String), BTreeSet<&str>> = BTreeMap::new();
        each_step(size, |step| {
            let rows = step.rows_in(Panel::Broker);
            let run = step.run();
            if let Some(name) = DUP
                .iter()
                .find(|name| rows.iter().any(|r| r.contains(&format!("{name} "))))
            {
                names.entry(run.clone()).or_default().insert(name);
            }
            let layout = group(&rows);
            if !layout.is_empty() {
                groups.entry(run).or_default().insert(layout);
            }
        });
        assert!(names.len() > 20, "{size:?}: runs seen {}", names.len());
        let changing: Vec<_> = names
            .iter()
            .filter(|(_, n)| n.len() > 1)
            .map(|(r, n)| format!("{r:?} {n:?}"))
            .collect();
        let regrouped: Vec<_> = groups
            .iter()
            .filter(|(_, g)| g.len() > 1)
            .map(|(r, g)| format!("{r:?} {g:?}"))
            .collect();
        if !changing.is_empty() || !regrouped.is_empty() {
            wrong.push(format!(
                "{size:?}: {} runs of {} rename the duplicate count: {changing:#?}\n\
                 {} runs regroup the observer's counts: {regrouped:#?}",
                changing.len(),
                names.len(),
                regrouped.len(),
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Teacher trial (issue 18): a class switching scenarios at one size read
/// `duplicate deliveries` in one and `dup. deliveries` in the next, each
/// run having chosen the name for its own widest figure. The name is the
/// size's: every run at one size, every design, names the count alike.
#[test]
fn every_run_at_one_size_names_the_duplicate_count_alike() {
    let mut wrong = Vec::new();
    for size in SIZES {
        // name -> the runs that used it.
        let mut names: BTreeMap<&str, BTreeSet<(String, String)>> = BTreeMap::new();
        each_step(size, |step| {
            let rows = step.rows_in(Panel::Broker);
            if let Some(name) = DUP
                .iter()
                .find(|name| rows.iter().any(|r| r.contains(&format!("{name} "))))
            {
                names.entry(name).or_default().insert(step.run());
            }
        });
        assert!(!names.is_empty(), "{size:?}: no duplicate count seen");
        if names.len() > 1 {
            let counts: Vec<String> = names
                .iter()
                .map(|(n, runs)| format!("{n:?} in {} runs, e.g. {:?}", runs.len(), runs.first()))
                .collect();
            wrong.push(format!("{size:?}: {}", counts.join("; ")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Teacher trial: at 80x24 tour-1 under naive led each observer's count
/// with `◇` (`◇ acks lost 1`), tour-4 under naive headed them with `◇ only
/// you see:`, each run having chosen by the rows its own queue left. A
/// class switching tours read one fact in two forms. The form is the
/// size's: every run at one size whose panel has as many rows lays the
/// observer's counts out alike, each marked as the observer's. (At 100x30
/// one run, ordering under versioned, has a panel a row shorter than the
/// rest, too short for the heading's row beside its queue.)
#[test]
fn every_run_at_one_size_groups_the_observers_counts_alike() {
    let mut wrong = Vec::new();
    for size in SIZES {
        // (panel rows, layout) -> the runs that used it.
        let mut layouts: BTreeMap<(u16, &str), BTreeSet<(String, String)>> = BTreeMap::new();
        each_step(size, |step| {
            let rows = step.rows_in(Panel::Broker);
            let layout = group(&rows);
            if !layout.is_empty() {
                layouts
                    .entry((u16::try_from(rows.len()).unwrap(), layout))
                    .or_default()
                    .insert(step.run());
            }
        });
        assert!(!layouts.is_empty(), "{size:?}: no observer's count seen");
        // At 80x24 one form for the size; above it, one for each height
        // of panel the size gives: never two for the same rows.
        let heights: BTreeSet<u16> = layouts.keys().map(|(h, _)| *h).collect();
        let forms: BTreeSet<&str> = layouts.keys().map(|(_, l)| *l).collect();
        let alike = if size == (80, 24) {
            forms.len() == 1
        } else {
            heights.len() == layouts.len()
        };
        if !alike {
            let counts: Vec<String> = layouts
                .iter()
                .map(|(l, runs)| format!("{l:?} in {} runs, e.g. {:?}", runs.len(), runs.first()))
                .collect();
            wrong.push(format!("{size:?}: {}", counts.join("; ")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `w` gives the broker panel another height (teacher trial, tour-1
/// idempotent at 80x24, last step): the observer's counts read `◇ acks
/// lost 1` / `◇ dup. deliv. 1` on the main screen and `◇ only you see:`
/// over `acks lost 1` / `dup. deliv. 1` at a press of `w`, one fact
/// relabelled at a key press. At each step of every built-in run, at each
/// size, the observer's group is laid out under `w` as on the main
/// screen, and the duplicate count goes by the same name wherever both
/// show it.
fn under_w_at(size: (u16, u16)) {
    use crate::common::sweep::none_wrong;
    use crate::common::under_w;
    let (mut seen, mut wrong) = (0, Vec::new());
    under_w::each_step(size, Panel::Broker, |pair| {
        let (Some(main), Some(why)) = (pair.main, pair.why) else {
            return;
        };
        let (a, b) = (group(&main), group(&why));
        if a.is_empty() || b.is_empty() {
            return;
        }
        seen += 1;
        let name = |rows: &[String]| {
            DUP.iter()
                .find(|name| rows.iter().any(|r| r.contains(&format!("{name} "))))
                .copied()
        };
        let (na, nb) = (name(&main), name(&why));
        // A count the shorter panel had no row for is not renamed.
        let renamed = na.is_some() && nb.is_some() && na != nb;
        if a != b || renamed {
            wrong.push(format!(
                "{}: {a:?} ({na:?}) under w reads {b:?} ({nb:?})",
                pair.at
            ));
        }
    });
    none_wrong("broker panels under w", seen, 100, &wrong, size);
}

#[test]
fn the_observers_counts_keep_their_form_under_w_at_80x24() {
    under_w_at(SIZES[0]);
}

#[test]
fn the_observers_counts_keep_their_form_under_w_at_100x30() {
    under_w_at(SIZES[1]);
}

#[test]
fn the_observers_counts_keep_their_form_under_w_at_120x40() {
    under_w_at(SIZES[2]);
}
