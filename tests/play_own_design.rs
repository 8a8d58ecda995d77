//! `idem play SCENARIO --design FILE`: the learner's own design in the
//! simulator. The scenario is only the setting: its title and story are
//! written for other designs, and one run on one schedule proves nothing.
//! Read off whole screens at the three sizes a class uses (teacher trial 11).

use crate::common::{self, cli::design, draw};
use idem::scenario;
use idem::scenario::design_file;
use idem::tui::{Action, App, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// tour-1 under a design file with these steps, as `idem play` opens it.
fn own(name: &str, steps: &str) -> App {
    // A folder for each call: tests run side by side, and one writing its
    // file while another reads the same name reads it half written.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("idem-play-own-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = design(&dir, name, steps);
    let strategy = design_file::load(std::path::Path::new(&path)).unwrap();
    let mut app = App::new(
        scenario::find("tour-1").unwrap(),
        strategy,
        0,
        common::plain(),
    )
    .unwrap();
    app.design_file = Some(path);
    app
}

/// Charges before it records anything, with no key: tour-1 breaks it.
fn naive_like() -> App {
    own(
        "my-naive",
        r#"["receive", "begin", "payment", "provider without key", "response", "commit", "ack"]"#,
    )
}

/// The ID and the payment in one transaction: tour-1 finds nothing wrong.
fn safe_like() -> App {
    own("my-safe", crate::common::cli::SOUND_STEPS)
}

/// Every step, not only the first: the screen says the story is not this
/// design's, after the status line that said so first has gone.
#[test]
fn own_design_says_the_story_is_left_out_at_every_step() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut app = naive_like();
        common::resize(&mut app, w, h);
        for _ in 0..app.timeline.frames.len() {
            let screen = common::render(&app);
            if !screen.contains("story left out") {
                failures.push(format!("step {} at {w}x{h}:\n{screen}", app.frame().index));
            }
            update(&mut app, Action::Next);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The scenario's title is a claim about its own designs; under the
/// learner's design the header names the scenario and the design instead.
#[test]
fn own_design_header_names_the_setting_not_the_scenarios_claim() {
    let title = scenario::find("tour-1").unwrap().title.clone();
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut app = naive_like();
        for pos in [0, app.last_pos()] {
            app.pos = pos;
            let screen = draw(&mut app, w, h);
            let header = screen.lines().next().unwrap_or_default();
            if screen.contains(title.as_str())
                || !header.contains("tour-1")
                || !header.contains("my-naive")
            {
                failures.push(format!("step {pos} at {w}x{h}:\n{screen}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A correct run of the learner's design is one run: the verdict says so
/// in its own line, with the command that tries every schedule, shown or
/// counted; `w` reads it whole.
#[test]
fn own_design_correct_verdict_states_it_is_one_run() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut app = safe_like();
        app.pos = app.last_pos();
        let screen = draw(&mut app, w, h);
        let rows: Vec<&str> = screen.lines().collect();
        let at = rows
            .iter()
            .position(|r| r.contains("✓ correct"))
            .unwrap_or(0);
        let verdict = rows[at..].join(" ");
        let told = verdict.contains("idem check --design");
        let counted = verdict.contains("more");
        if !rows[at].contains("✓ correct in this run") || !(told || counted) {
            failures.push(format!("at {w}x{h}:\n{screen}"));
        }
        // The header's verdict is the same claim, with the same bound.
        if !rows[0].contains("correct in this run") {
            failures.push(format!("header at {w}x{h}: {}", rows[0]));
        }
        update(&mut app, Action::Why);
        let why = common::render(&app);
        if !why.contains("idem check --design") {
            failures.push(format!("w at {w}x{h}:\n{why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A broken run found is a true counterexample: it needs no bound.
#[test]
fn own_design_failure_is_not_called_one_run() {
    let mut app = naive_like();
    app.pos = app.last_pos();
    let screen = draw(&mut app, 120, 40);
    assert!(screen.contains("✕ charged twice"), "{screen}");
    assert!(!screen.contains("in this run"), "{screen}");
}

/// At 80x24, while it plays, the header's verdict says something in
/// words, not a bare mark and an ellipsis (`○ …`).
#[test]
fn the_header_verdict_has_words_at_80x24_while_playing() {
    let mut failures = Vec::new();
    for script in scenario::load::builtins() {
        for design in script.strategies() {
            let mut app = common::app(&script.name, &design);
            common::resize(&mut app, 80, 24);
            update(&mut app, Action::PlayPause);
            for pos in [0, app.last_pos()] {
                app.pos = pos;
                let screen = common::render(&app);
                let header = screen.lines().next().unwrap_or_default().trim_matches('"');
                let last = header.rsplit(" · ").next().unwrap_or_default().trim();
                if last.chars().filter(|c| c.is_alphabetic()).count() < 2 {
                    failures.push(format!("{} {design}: {header}", script.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Words as the screen reads them over its rows: runs of spaces are one.
fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why the learner's design held, on the verdict's rows: as many of its
/// links as fit, whole and in causal order, then the rest counted with
/// the sign a failure's hidden links get (`← why: 2 more · w`). At 120x40
/// the rows held several links and showed only the count (`← why: 5
/// more · w`).
#[test]
fn own_design_correct_verdict_lists_the_links_that_fit_and_counts_the_rest() {
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        let mut app = safe_like();
        app.pos = app.last_pos();
        let screen = draw(&mut app, w, h);
        let rows: Vec<&str> = screen.lines().map(|r| r.trim_matches('"')).collect();
        let title = rows.iter().position(|r| r.contains(" Verdict ")).unwrap();
        let verdict: Vec<&str> = rows[title + 1..]
            .iter()
            .take_while(|r| !r.starts_with(" !") && !r.starts_with(" ←/→"))
            .copied()
            .collect();
        let shown = norm(&verdict.join(" "));
        // Each repeat's stop under the correct mark, why it came after
        // arrows, then the command that tries every schedule.
        let v = &app.frame().verdict;
        let mut links: Vec<String> = v
            .held
            .iter()
            .flat_map(|chain| {
                chain
                    .iter()
                    .enumerate()
                    .map(|(j, c)| norm(&format!("{} {c}", if j == 0 { "✓" } else { "←" })))
            })
            .collect();
        let path = app.design_file.clone().unwrap();
        links.push(norm(&format!(
            "· check every schedule: idem check --design {path}"
        )));
        assert!(links.len() >= 4, "{links:?}");
        // What follows the figures: the first link, or the count.
        let from = [" ✓ ", " ← "]
            .iter()
            .filter_map(|sign| shown.find(sign))
            .min()
            .unwrap_or(shown.len());
        let rest = shown[from..].trim();
        let n = links.len();
        let told = (0..=n).find(|&k| {
            let mut expected = links[..k].join(" ");
            if k < n {
                expected = norm(&format!("{expected} ← why: {} more · w", n - k));
            }
            rest == expected
        });
        match told {
            None => failures.push(format!(
                "at {w}x{h}: not whole links then their count: {rest:?}\n{screen}"
            )),
            // 120x40 gives the verdict two rows: several links fit.
            Some(k) if (w, h) == (120, 40) && k < 2 => failures.push(format!(
                "at {w}x{h}: {k} of {n} links shown where several fit\n{screen}"
            )),
            Some(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `m` offered beside the learner's design comes back to it: teacher
/// trial 13 pressed it, met naive and idempotent, and never saw the
/// design file's run again.
#[test]
fn m_comes_back_to_the_learners_design() {
    let mut app = naive_like();
    let own = app.strategy.name.clone();
    let mut met = vec![own.clone()];
    for _ in 0..4 {
        update(&mut app, Action::ToggleMode);
        met.push(app.strategy.name.clone());
        if app.strategy.name == own {
            break;
        }
    }
    assert!(
        met.len() > 2 && met.last() == Some(&own),
        "m went {met:?} and never back to {own}"
    );
    // Back on it, its check is still the one offered.
    let screen = draw(&mut app, 120, 40);
    assert!(screen.contains(own.as_ref()), "{screen}");
}
