//! A correct run is one run, on one schedule, whoever wrote the design:
//! the verdict of a built-in design says `correct in this run` as a
//! learner's design's does (`play_own_design`), in the verdict panel, in
//! the presenter view and in the lesson handout, as `idem run` does. A
//! bare `✓ correct` claims every schedule, which one run cannot show.

use crate::common;
use idem::export::lesson;
use idem::scenario;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The main screen's verdict panel, at the last step of tour-1 under the
/// idempotent design, at every size: the row under its title.
#[test]
fn a_builtin_designs_correct_verdict_says_in_this_run() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut app = common::app("tour-1", "idempotent");
        app.pos = app.last_pos();
        let screen = common::draw(&mut app, w, h);
        let rows: Vec<&str> = screen.lines().collect();
        let Some(at) = rows.iter().position(|r| r.contains("Verdict")) else {
            failures.push(format!("no verdict panel at {w}x{h}:\n{screen}"));
            continue;
        };
        // The header too, at every size: its fewest words keep the bound.
        if rows[0].contains("✓ correct") && !rows[0].contains("✓ correct in this run") {
            failures.push(format!("header at {w}x{h}: {}", rows[0]));
        }
        let panel = rows[at + 1..].join(" ");
        if !panel.contains("✓ correct in this run") {
            failures.push(format!("verdict panel at {w}x{h}:\n{screen}"));
        }
        // `w` reads the verdict whole: the same claim, the same bound.
        update(&mut app, Action::Why);
        let why = common::render(&app);
        if !why.contains("✓ correct in this run") {
            failures.push(format!("w at {w}x{h}:\n{why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The presenter view's verdict, for the same run's end.
#[test]
fn the_presenter_says_in_this_run() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut app = common::app("tour-1", "idempotent");
        update(&mut app, Action::Presenter);
        app.pos = app.last_pos();
        let screen = common::draw(&mut app, w, h);
        // The header and, below it, the presenter's own verdict.
        let below: String = screen.lines().collect::<Vec<_>>().join("\n");
        if below.contains("✓ correct") && !below.contains("✓ correct in this run") {
            failures.push(format!("presenter at {w}x{h}:\n{screen}"));
        }
        if !below.contains("correct") {
            failures.push(format!("presenter at {w}x{h} shows no verdict:\n{screen}"));
        }
        // And why it held, as the verdict panel says it (teacher trial 14:
        // the presenter showed the bare headline).
        let flat = below
            .replace('"', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !flat.contains("m-7f3 skipped at step 13") {
            failures.push(format!(
                "presenter at {w}x{h} says not why it held:\n{screen}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The handout's verdict under each step of a correct end, in its words.
#[test]
fn the_lesson_says_in_this_run() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    let mut seen = 0;
    for design in data[0]["designs"].as_array().unwrap() {
        for step in design["steps"].as_array().unwrap() {
            let verdict = step["verdict"].as_str().unwrap();
            if verdict.starts_with("correct") {
                seen += 1;
                assert!(
                    verdict.starts_with("correct in this run"),
                    "{}: {verdict}",
                    design["name"]
                );
            }
        }
    }
    assert!(seen > 0, "no correct verdict in tour-1's lesson");
}

/// Compare, at the end of every tour, at every size: a side that ends
/// correct says `in this run` whole, its count of links in fewer words
/// where the side is narrow (`← 4 more · w`), never `correct in this…`.
#[test]
fn a_correct_side_of_compare_keeps_its_bound_whole() {
    let mut sides = 0;
    let mut failures = Vec::new();
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for (w, h) in SIZES {
            let mut app = common::app(name, "naive");
            update(&mut app, Action::Compare);
            let last = app.compare.as_ref().map_or(0, |c| c.pairs.len()) - 1;
            app.pos = last;
            let screen = common::draw(&mut app, w, h);
            let (left, right) = common::sides(&screen, 3, 2);
            for side in [left, right] {
                if !side.contains("✓ correct") {
                    continue;
                }
                sides += 1;
                if !side.contains("✓ correct in this run") {
                    failures.push(format!("{name} at {w}x{h}:\n{screen}"));
                }
            }
        }
    }
    // tour-1, tour-3 and tour-4 end correct on their idempotent side.
    assert!(sides >= 9, "only {sides} correct sides");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
