//! Issue 18, trial 5: the story's words name a key by what it does,
//! `{key:switch-design}`, and each medium tells it as its own key: the
//! terminal (and `shot`, `run`, its JSON) as `m`, the lesson page as `d`,
//! the key its own script binds. Before, the page's story said "Press m",
//! a key that does nothing there.

use crate::common::{self, cli::idem};
use idem::export::lesson;
use idem::scenario::{self, load::builtins};
use idem::tui::{Action, update};

/// Every piece of a script's own words: intros and narrations, per design too.
fn words(script: &scenario::Script) -> Vec<String> {
    let mut all = vec![script.intro.clone()];
    all.extend(script.intro_for.values().cloned());
    for step in &script.steps {
        all.push(step.narration.clone());
        all.extend(step.narration_for.values().cloned());
        for saying in step.sayings.iter().flatten() {
            all.push(saying.text.clone());
            all.extend(saying.text_for.values().cloned());
            all.extend(saying.at.values().flat_map(|at| at.values().cloned()));
        }
    }
    all
}

/// "press m" as words say it, any case, as a whole word.
fn says_press_m(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices("press m").any(|(at, _)| {
        lower[at + "press m".len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

#[test]
fn the_built_in_stories_name_the_switch_by_what_it_does() {
    let mut naming = 0;
    for script in builtins() {
        for text in words(&script) {
            assert!(
                !says_press_m(&text),
                "{}: a bare key in {text:?}",
                script.name
            );
            naming += text.matches("{key:switch-design}").count();
        }
    }
    assert!(naming >= 20, "only {naming} words name the switch");
}

#[test]
fn the_page_tells_its_own_key_where_the_terminal_tells_m() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (100, 30), "t").unwrap();
    assert!(html.contains(r#"<kbd id="switch-key">d</kbd>"#));
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let data = &html[start..start + html[start..].find("</script>").unwrap()];
    assert!(!data.contains("{key:"), "a raw key name reached the page");
    assert!(
        !says_press_m(data),
        "the page's story names the terminal's key"
    );
    let lessons: serde_json::Value = serde_json::from_str(data).unwrap();
    let naive = &lessons[0]["designs"][0];
    assert_eq!(naive["name"], "naive");
    let steps = naive["steps"].as_array().unwrap();
    let at = steps
        .iter()
        .position(|s| {
            s["said"]
                .as_str()
                .is_some_and(|s| s.contains("Press d to see"))
        })
        .expect("a naive step of tour-1 says to press d");
    // Its screen on the page says the same, not the terminal's key.
    let svg = steps[at]["svg"].as_str().unwrap();
    assert!(
        svg.contains("Press d") && !svg.contains("Press m"),
        "step {at}"
    );
    // The terminal, at that step, names its own key.
    let mut app = common::app("tour-1", "naive");
    for _ in 0..at {
        update(&mut app, Action::Next);
    }
    let screen = common::draw(&mut app, 120, 40);
    assert!(screen.contains("Press m"), "step {at}:\n{screen}");
    assert!(!screen.contains("{key:"), "step {at}:\n{screen}");
}

#[test]
fn no_run_report_shows_a_raw_key_name() {
    for script in builtins() {
        if !words(&script).iter().any(|w| w.contains("{key:")) {
            continue;
        }
        for design in script.expect.keys() {
            for format in ["text", "json"] {
                let (_, out, err) =
                    idem(&["run", &script.name, "--mode", design, "--format", format]);
                assert!(
                    !out.contains("{key:") && !err.contains("{key:"),
                    "{} {design} {format}",
                    script.name
                );
            }
        }
    }
}

/// A transcript has no key to press (teacher trial 13: `idem run tour-1`
/// printed "Press m to see the naive handler meet the same delivery."):
/// a sentence that names a key is left out of the text transcript.
#[test]
fn a_transcript_names_no_key() {
    let mut seen = 0;
    for script in builtins() {
        if !words(&script).iter().any(|w| w.contains("{key:")) {
            continue;
        }
        for design in script.expect.keys() {
            let (_, out, _) = idem(&["run", &script.name, "--mode", design]);
            seen += 1;
            assert!(
                !says_press_m(&out.split_whitespace().collect::<Vec<_>>().join(" ")),
                "{} {design}:\n{out}",
                script.name
            );
        }
    }
    assert!(seen > 3, "only {seen} runs with a key in their words");
}

/// The hint names `1`–`9` only where there are scenarios to pick.
#[test]
fn the_page_names_the_scenario_keys_only_with_several_scenarios() {
    let one = vec![scenario::find("tour-1").unwrap()];
    let two = vec![one[0].clone(), scenario::find("tour-2").unwrap()];
    for (scripts, hidden) in [(one, true), (two, false)] {
        let html = lesson::render(&scripts, (80, 24), "t").unwrap();
        let Some(state) = crate::lesson_design_switch::run_page(&html, &[]) else {
            return;
        };
        assert_eq!(
            state["pick_hint_hidden"],
            hidden,
            "{} scenarios",
            scripts.len()
        );
    }
}

/// Every screen predict mode draws, asking and revealing, in every run that
/// asks: the story's words in the answer box are told as the terminal's,
/// never as the raw `{key:…}` (the trial saw it at tour-1's last reveal).
#[test]
fn predict_mode_tells_the_terminals_key() {
    use idem::tui::predict::Stage;
    let mut reveals = 0;
    for script in builtins() {
        for design in script.strategies() {
            let mut app = common::app(&script.name, &design);
            update(&mut app, Action::Predict);
            if app.predict.as_ref().is_none_or(|p| p.asked.is_empty()) {
                continue;
            }
            for _ in 0..2_000 {
                let stage = app.predict.as_ref().unwrap().stage.clone();
                // The answer box is drawn at a reveal; the story panel's
                // own words are swept by `no_silent_cuts`.
                if matches!(stage, Stage::Revealed { .. }) {
                    reveals += 1;
                    let screen = common::draw(&mut app, 100, 30);
                    assert!(
                        !screen.contains("{key:"),
                        "{} {design} step {}:\n{screen}",
                        script.name,
                        app.pos
                    );
                }
                match stage {
                    Stage::Asking { at, .. } => {
                        let right = app.predict.as_ref().unwrap().asked[at].answer;
                        crate::tui_predict::answer(&mut app, right);
                    }
                    _ if app.pos + 1 >= app.timeline.frames.len() => break,
                    _ => update(&mut app, Action::Next),
                }
            }
        }
    }
    assert!(reveals > 50, "only {reveals} reveals drawn");
}
