//! One thing, one name (teacher trial: the same counter was `redelivered`
//! on the screen and `redeliveries` in the transcript). A counter reads the
//! same in the simulator, `idem run`'s closing lines and `idem soak`'s
//! report; the database's total keeps one label from step to step; `idem
//! check` and the explorer head their tables with the same words.

use crate::common::{app, draw};
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use idem::tui::{Action, update};
use std::sync::atomic::AtomicU64;

/// The broker's counters as the simulator's screen names them, with the
/// figure each one shows at the end of tour 1 under `mode`.
fn screen_counters(mode: &str) -> Vec<(&'static str, u32)> {
    let mut a = app("tour-1", mode);
    update(&mut a, Action::Last);
    let c = a.frame().counters.clone();
    let screen = draw(&mut a, 120, 40);
    let named = [
        ("delivered", c.delivered),
        ("redelivered", c.redeliveries),
        ("acked", c.acked),
        ("acks lost", c.acks_lost),
        ("duplicate deliveries", c.duplicates_delivered),
    ];
    for (name, n) in named {
        assert!(
            screen.contains(&format!("{name} {n}")),
            "the screen names {name} {n}: {screen}"
        );
    }
    named.to_vec()
}

#[test]
fn the_run_transcript_names_each_counter_as_the_screen_does() {
    for mode in ["naive", "idempotent"] {
        let script = builtins().into_iter().find(|s| s.name == "tour-1").unwrap();
        let strategy = Strategy::by_name(mode).unwrap();
        let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
        let text = idem::report::transcript(&timeline, script.expect.get(mode));
        let closing = text
            .lines()
            .find(|l| l.starts_with("  delivered "))
            .expect("a counters line");
        for (name, n) in screen_counters(mode) {
            assert!(
                closing.contains(&format!("{name} {n}")),
                "{mode}: the transcript's counters say {name} {n} as the screen does: {closing}"
            );
        }
    }
}

#[test]
fn the_soak_report_names_each_counter_as_the_screen_does() {
    let config = idem::soak::Config {
        designs: vec![Strategy::by_name("naive").unwrap()],
        messages: 300,
        seed: 3,
        faults: idem::soak::FaultRates::parse(idem::soak::faults::DEFAULT).unwrap(),
        ..idem::soak::Config::default()
    };
    let report = idem::soak::run(&config, &AtomicU64::new(0)).expect("the soak runs");
    let text = report.text();
    let counters = text
        .lines()
        .find(|l| l.starts_with("delivered "))
        .unwrap_or_else(|| panic!("a counters line that leads with `delivered`: {text}"));
    for (name, _) in screen_counters("naive") {
        assert!(
            counters.contains(&format!(" {name} ")) || counters.starts_with(&format!("{name} ")),
            "the soak report names {name} as the screen does: {counters}"
        );
    }
}

/// The database panel's heading at each step of tour 1 (idempotent): the
/// words before the total, e.g. `payments · total recorded`.
fn total_labels(w: u16, h: u16) -> Vec<(usize, String)> {
    let mut a = app("tour-1", "idempotent");
    let mut out = Vec::new();
    for step in 0..=a.last_pos() {
        let screen = draw(&mut a, w, h);
        let heading = screen
            .lines()
            .filter_map(|l| l.split('│').find(|cell| cell.starts_with("payments")))
            .next()
            .unwrap_or_else(|| panic!("{w}x{h} step {step}: a payments heading: {screen}"));
        let label = heading[..heading.find('$').expect("a total")].trim_end();
        out.push((step, label.to_string()));
        update(&mut a, Action::Next);
    }
    out
}

/// Teacher trial: `payments · total $40` at one step and `payments · total
/// recorded $40` at the next, at one size. The label is chosen for the
/// panel's width, not for the step: the mark of a move gives way first.
#[test]
fn the_database_total_keeps_one_label_from_step_to_step() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let labels = total_labels(w, h);
        let first = &labels[0].1;
        for (step, label) in &labels {
            assert_eq!(label, first, "{w}x{h} step {step}: {labels:?}");
        }
        if w >= 100 {
            assert_eq!(first, "payments · total recorded", "{w}x{h}");
        }
    }
}

/// `idem check` and the explorer (`x`) head their first column alike, and
/// every column of `idem check` the explorer does not show is named in
/// `idem check`'s legend, so a reader of one can read the other.
#[test]
fn idem_check_and_the_explorer_head_their_tables_alike() {
    let report = crate::common::check::report();
    let text = idem::check::table(report);
    let heads: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    let mut a = crate::common::check::explorer_showing(report.clone());
    let screen = draw(&mut a, 120, 40);
    let explorer_heads: Vec<&str> = screen
        .lines()
        .find(|l| l.contains(" schedules ") && l.contains(" result"))
        .unwrap_or_else(|| panic!("the explorer's heading: {screen}"))
        .trim_matches(['│', ' ', '"'])
        .split_whitespace()
        .collect();
    assert_eq!(heads[0], explorer_heads[0], "{text}\n{screen}");
    assert_eq!(heads[0], "design");
    for head in &heads {
        if !explorer_heads.contains(head) {
            assert!(
                text.contains(&format!("{head}: ")),
                "`idem check` names its column {head}, which the explorer does not show: {text}"
            );
        }
    }
}

/// Teacher trial: at 80 columns the explorer headed the schedules column
/// `runs` (`runs=schedules` in its legend) where `idem check` says
/// `schedules`: one name for one figure, at every size.
#[test]
fn the_explorer_says_schedules_at_every_size() {
    let report = crate::common::check::report();
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut a = crate::common::check::explorer_showing(report.clone());
        let screen = draw(&mut a, w, h);
        let head = screen
            .lines()
            .find(|l| l.contains(" design ") && l.contains(" result"))
            .unwrap_or_else(|| panic!("{w}x{h}: the explorer's heading: {screen}"));
        assert!(head.contains(" schedules "), "{w}x{h}: {head}\n{screen}");
        assert!(!screen.contains("runs="), "{w}x{h}: {screen}");
        assert!(!head.contains(" runs "), "{w}x{h}: {head}");
    }
}

/// The marks legend says a design holds within the bounds, as its rows
/// do (`holds within 1`), at every size.
#[test]
fn the_explorers_legend_says_holds_within_the_bounds() {
    let report = crate::common::check::report();
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut a = crate::common::check::explorer_showing(report.clone());
        let screen = draw(&mut a, w, h);
        let legend = screen
            .lines()
            .find(|l| l.contains(" marks: "))
            .unwrap_or_else(|| panic!("{w}x{h}: a legend: {screen}"));
        let at = legend.find("✓ ").expect("the holds mark");
        assert!(
            legend[at..].starts_with("✓ holds within")
                || legend[at..].starts_with("✓ within bounds"),
            "{w}x{h}: the legend's ✓ is bounded: {legend}"
        );
    }
}

/// The payments heading's words before the total on `screen`, if the
/// database panel shows its heading: its words, not the dot between them
/// (beside a reveal mark the dot gives way, one column, the words stay).
fn total_label(screen: &str) -> Option<String> {
    let heading = screen
        .lines()
        .filter_map(|l| l.split('│').find(|cell| cell.starts_with("payments")))
        .next()?;
    let label = &heading[..heading.find('$')?];
    Some(
        label
            .split_whitespace()
            .filter(|w| *w != "·")
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Does the payments heading on `screen` end with a reveal mark that
/// leaves no room for the plain label beside the total and the value it
/// moved from? The mark always carries its word, and the old value is
/// evidence: only there may the label give way (`payments $0→$40
/// ✓right` at 80x24).
fn no_room_for_label(screen: &str, plain: &str) -> bool {
    let Some(cell) = screen
        .lines()
        .filter_map(|l| l.split('│').find(|cell| cell.starts_with("payments")))
        .next()
    else {
        return false;
    };
    let Some(mark) = ["✓right", "✕wrong"]
        .into_iter()
        .find(|m| cell.trim_end().ends_with(m))
    else {
        return false;
    };
    let Some(from) = cell.find('$') else {
        return false;
    };
    let figures = cell[from..].trim_end().trim_end_matches(mark).trim_end();
    let need = [plain, " ", figures, " ", mark].map(|s| s.chars().count());
    need.iter().sum::<usize>() > cell.chars().count()
}

/// Teacher trial (issue 18): predict's reveal read `payments · total $40`
/// where the steps around it read `payments · total recorded $40`. The
/// answer's mark at the end of a row takes its room from the move's mark,
/// not from the label: every screen of a predict session, questions and
/// reveals, names the total as the plain run does at that size.
#[test]
fn the_database_total_keeps_its_label_through_predict_reveals() {
    use idem::tui::predict::Stage;
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let plain = total_labels(w, h)[0].1.replace(" ·", "");
        for mode in ["naive", "idempotent"] {
            for rightly in [true, false] {
                let mut a = app("tour-1", mode);
                update(&mut a, Action::Predict);
                let mut seen = Vec::new();
                for _ in 0..400 {
                    let screen = draw(&mut a, w, h);
                    let stage = a.predict.as_ref().map(|p| p.stage.clone());
                    if let Some(label) = total_label(&screen)
                        && label != plain
                        && !no_room_for_label(&screen, &plain)
                    {
                        seen.push(format!("{stage:?}: {label:?}\n{screen}"));
                    }
                    match stage {
                        Some(Stage::Asking { at, .. }) => {
                            let q = a.predict.as_ref().unwrap().asked[at].clone();
                            let said = if rightly {
                                q.answer
                            } else {
                                crate::tui_predict::wrong(&q)
                            };
                            crate::tui_predict::answer(&mut a, said);
                        }
                        _ if a.pos >= a.last_pos() => break,
                        _ => update(&mut a, Action::Next),
                    }
                }
                assert!(
                    seen.is_empty(),
                    "{w}x{h} {mode} rightly={rightly}: plain label {plain:?}, predict showed {} others:\n{}",
                    seen.len(),
                    seen.first().unwrap()
                );
            }
        }
    }
}
