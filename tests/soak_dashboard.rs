//! The soak dashboard, drawn into a TestBackend from the live figures a
//! real (small) soak left at its end: the same on every machine.

use crate::common::Screen;
use idem::sim::Strategy;
use idem::soak::{self, Config, FaultRates, Live};
use idem::tui::soak::{DashAction, Dashboard, settings, update};
use idem::tui::theme::Theme;
use ratatui::crossterm::event::KeyCode;
use std::sync::atomic::AtomicU64;

fn finished_soak() -> Live {
    let config = Config {
        designs: vec![Strategy::naive(), Strategy::idempotent()],
        messages: 1_500,
        seed: 1,
        faults: FaultRates::parse("crash=1%,lose-ack=2%,lose-response=1%,slow=2%").unwrap(),
        ..Config::default()
    };
    let live = Live::new(config.messages, &["naive", "idempotent"]);
    soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    live
}

fn draw(dash: &Dashboard, width: u16, height: u16) -> String {
    let mut screen = Screen::new(width, height);
    screen.show(dash);
    screen.text()
}

#[test]
fn the_dashboard_at_the_end_of_a_soak() {
    let live = finished_soak();
    let state = live.snapshot();
    assert!(state.designs.iter().all(|d| d.finished));
    assert!(!state.violations.is_empty());
    // Only naive breaks here, so the list's order is the order naive found them.
    assert!(state.violations.iter().all(|v| v.design == "naive"));
    assert!(state.violations.iter().all(|v| v.story.is_some()));
    for (ascii, (w, h)) in [(false, (120u16, 40u16)), (true, (80, 24))] {
        let mut dash = Dashboard::new(
            "1,500 payments · 3 consumers · seed 1".into(),
            state.clone(),
            Theme::new(false, ascii),
        );
        update(&mut dash, DashAction::Key(KeyCode::Down));
        let screen = draw(&dash, w, h);
        assert!(screen.contains("finished"), "{screen}");
        assert!(screen.contains("naive") && screen.contains("idempotent"));
        insta::assert_snapshot!(format!("soak_dashboard_{w}x{h}"), screen);
    }
}

/// Each design's outcomes are the soak's verdict: they stay on screen at
/// every size, before the broker's counts (trial 32: at 80x24 the naive
/// column ended `↓ 3 more lines` with its `charged twice` count among
/// them, and nothing to read them by).
#[test]
fn every_outcome_count_is_on_screen_at_every_size() {
    // The trial's soak: ten thousand payments, the default faults, whose
    // five-figure counts take more room than `finished_soak`'s.
    let config = Config {
        designs: vec![Strategy::naive(), Strategy::idempotent()],
        messages: 10_000,
        ..Config::default()
    };
    let live = Live::new(config.messages, &["naive", "idempotent"]);
    soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    let state = live.snapshot();
    let mut wrong = Vec::new();
    for ascii in [false, true] {
        let dash = Dashboard::new(settings(&config), state.clone(), Theme::new(false, ascii));
        for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
            let screen = draw(&dash, w, h);
            for d in &state.designs {
                assert!(d.outcomes.len() > usize::from(d.violations > 0));
                for (o, n) in &d.outcomes {
                    let n = idem::check::num(*n);
                    // The count's words (`charged twice or more`, short
                    // `twice or more`) or the check's column heading.
                    let shown = [
                        o.count_text(),
                        o.count_text().trim_start_matches("charged "),
                        idem::tui::explorer::Column::Outcome(*o).heading(),
                    ]
                    .iter()
                    .any(|word| screen.contains(&format!("{word} {n}")));
                    if !shown {
                        wrong.push(format!(
                            "{w}x{h} ascii={ascii}: {} {} {n}",
                            d.design,
                            o.text()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} hidden:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // A column that folds lines says where they are read (trial 33:
    // `↓ 2 more lines` at 80x24, and no key showed them).
    let dash = Dashboard::new(settings(&config), state.clone(), Theme::new(false, false));
    let screen = draw(&dash, 80, 24);
    let folds: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains(" more") && l.contains('└') && !l.contains("below"))
        .collect();
    assert!(!folds.is_empty(), "no column folds:\n{screen}");
    for fold in folds {
        assert!(fold.contains("report"), "{fold}");
    }
}

/// The settings line at the top wraps rather than lose anything: at every
/// size, the state and each setting (the default faults are one long word)
/// are on screen whole.
#[test]
fn the_settings_are_never_cut() {
    let live = finished_soak();
    let config = Config {
        retention_ms: Some(3_600_000),
        ..Config::default()
    };
    let line = settings(&config);
    for ascii in [false, true] {
        let dash = Dashboard::new(line.clone(), live.snapshot(), Theme::new(false, ascii));
        for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
            let screen = draw(&dash, w, h);
            let rows: Vec<String> = screen
                .lines()
                .map(|l| l.trim_matches('"').trim_end().to_string())
                .collect();
            let joined = rows.join(" ");
            assert!(joined.contains("finished"), "{w}x{h}:\n{screen}");
            let sep = if ascii { " - " } else { " · " };
            for part in line.split(" · ") {
                let part = part.replace(" · ", sep);
                assert!(joined.contains(&part), "{w}x{h}: `{part}` cut:\n{screen}");
            }
        }
    }
}

/// Designs run on threads of their own, yet the list of violations is the
/// same for the same seed: ordered by virtual time, each design's first.
#[test]
fn the_violations_listed_are_the_same_for_the_same_seed() {
    let run = || {
        let config = Config {
            designs: vec![
                Strategy::naive(),
                Strategy::by_name("no-provider-key").unwrap(),
                Strategy::by_name("charge-first").unwrap(),
            ],
            messages: 800,
            seed: 4,
            faults: FaultRates::parse("crash=2%,lose-ack=3%,lose-response=2%").unwrap(),
            ..Config::default()
        };
        let live = Live::new(
            config.messages,
            &["naive", "no-provider-key", "charge-first"],
        );
        soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
        live.snapshot()
            .violations
            .iter()
            .map(|v| (v.at_ms, v.design.clone(), v.fact.clone()))
            .collect::<Vec<_>>()
    };
    let first = run();
    let designs: std::collections::BTreeSet<&str> =
        first.iter().map(|(_, d, _)| d.as_str()).collect();
    assert!(designs.len() >= 2, "two designs break here: {first:?}");
    assert!(
        first.windows(2).all(|w| w[0].0 <= w[1].0),
        "in virtual time"
    );
    for _ in 0..4 {
        assert_eq!(run(), first);
    }
}

/// A design that breaks lists its first violations up to the whole
/// list's limit, whatever the other designs find: trial 32 read
/// "100 listed of 504" beside an idempotent column with none, naive's
/// list cut at half for a share nobody used.
#[test]
fn a_design_lists_its_violations_up_to_the_whole_limit() {
    let config = Config {
        designs: vec![Strategy::naive(), Strategy::by_name("idempotent").unwrap()],
        messages: 3000,
        seed: 4,
        faults: FaultRates::parse("lose-ack=10%,lose-response=5%").unwrap(),
        ..Config::default()
    };
    let live = Live::new(config.messages, &["naive", "idempotent"]);
    soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    let state = live.snapshot();
    let found = state.designs[0].violations as usize;
    assert!(found > idem::soak::live::MAX_LISTED, "{found} violations");
    assert_eq!(state.designs[1].violations, 0);
    let listed = state
        .violations
        .iter()
        .filter(|v| v.design == "naive")
        .count();
    assert_eq!(listed, idem::soak::live::MAX_LISTED, "of {found}");
}

/// The dashboard's settings line names the faults as the report does
/// (`lost ack 2%`), not in the flag's syntax (`lose-ack=2%`): teacher
/// trial 17 read `crash=0.5%,lose-ack=1%,…` in the soak's words.
#[test]
fn the_settings_line_names_the_faults_in_words() {
    let config = Config {
        faults: FaultRates::parse("crash=1%,lose-ack=2%").unwrap(),
        ..Config::default()
    };
    let line = settings(&config);
    assert!(line.contains("faults crash 1%, lost ack 2%"), "{line}");
    assert!(!line.contains('='), "{line}");
}

/// A chart's title is whole (or a shorter form of it, whole), or cut at a
/// word's end with its sign, at every size (teacher trial 22: `…per virtual minute, the whole r` at
/// 100x30, cut by the border).
#[test]
fn the_chart_titles_are_cut_at_words() {
    let state = finished_soak().snapshot();
    let titles = [
        "payments settled per virtual minute, the whole run",
        "dollars charged beyond what was owed so far, by virtual minute",
    ];
    let shorter = [
        "payments settled per virtual minute",
        "dollars charged beyond what was owed, by virtual minute",
    ];
    let mut broken = Vec::new();
    for (w, h) in [(80u16, 24u16), (100, 30), (120, 40), (140, 45)] {
        let dash = Dashboard::new(
            "1,500 payments · 3 consumers · seed 1".into(),
            state.clone(),
            Theme::new(false, false),
        );
        let screen = draw(&dash, w, h);
        for line in screen.lines() {
            for title in titles {
                // The title's first three words mark its row; what follows
                // them must be the title's own words, whole, up to `…`.
                let head: String = title.split(' ').take(3).collect::<Vec<_>>().join(" ");
                let Some(at) = line.find(&head) else { continue };
                let shown = line[at..].split('│').next().unwrap_or("").trim_end();
                // A shorter form of the title, whole, is chosen where the
                // full one has no room.
                let ok = shown == title
                    || shorter.contains(&shown)
                    || shown.strip_suffix('…').is_some_and(|kept| {
                        let kept = kept.trim_end_matches([',', ' ']);
                        title.starts_with(kept) && title[kept.len()..].starts_with([' ', ','])
                    });
                if !ok {
                    broken.push(format!("{w}x{h}: {shown:?}"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} titles cut mid-word: {broken:#?}",
        broken.len()
    );
}

/// A count never parts from its label: where the outcomes do not fit one
/// row, each `label figure` goes whole onto the next (teacher trial: at
/// 80x24 the naive column read `correct 4,076 · disagree 21 · twice`,
/// its 106 wrapped out of sight).
#[test]
fn an_outcome_and_its_count_stay_on_one_row() {
    let mut state = finished_soak().snapshot();
    state.designs[0].outcomes = [
        (idem::sim::Outcome::Correct, 4_076),
        (idem::sim::Outcome::Disagree, 21),
        (idem::sim::Outcome::ChargedTwice, 106),
    ]
    .into();
    let mut parted = Vec::new();
    for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
        let dash = Dashboard::new("seed 1".into(), state.clone(), Theme::new(false, false));
        let screen = draw(&dash, w, h);
        for count in ["4,076", "21", "106"] {
            let whole = screen.lines().any(|l| {
                l.split(['│', '·'])
                    .any(|part| part.trim().ends_with(&format!(" {count}")))
            });
            if !whole {
                parted.push(format!("{w}x{h}: {count}\n{screen}"));
            }
        }
    }
    assert!(parted.is_empty(), "{} parted: {parted:#?}", parted.len());
}

/// A chart of a flat $0 line says $0 on its axis, never a $1 it never
/// reached (teacher trial: the idempotent chart's axis read `$1`).
#[test]
fn a_flat_zero_chart_says_zero() {
    let state = finished_soak().snapshot();
    assert!(state.designs[1].drift_per_minute.iter().all(|d| *d == 0));
    for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
        let dash = Dashboard::new("seed 1".into(), state.clone(), Theme::new(false, false));
        let screen = draw(&dash, w, h);
        let labels: Vec<&str> = screen
            .lines()
            .filter_map(|l| l.split("││").nth(1))
            .filter_map(|right| right.split('│').next())
            .map(str::trim)
            .filter(|label| label.starts_with('$'))
            .collect();
        assert!(
            labels.iter().all(|l| *l == "$0"),
            "{w}x{h}: {labels:?}\n{screen}"
        );
    }
}

/// Each violation's row names its outcome as its chain does (`charged 3
/// times`, not `charged twice`), and the chain names a step by the soak's
/// count, which the story opened with Enter does not share (teacher trial:
/// `A crashed at step 645` on the dashboard, `at step 7` in its story).
#[test]
fn a_violation_row_reads_as_its_chain() {
    let state = finished_soak().snapshot();
    let mut dash = Dashboard::new("seed 1".into(), state.clone(), Theme::new(false, false));
    let mut wrong = Vec::new();
    let mut soak_steps = 0;
    for (i, v) in state.violations.iter().enumerate() {
        let screen = draw(&dash, 120, 40);
        let row = screen
            .lines()
            .find(|l| l.contains('▶'))
            .unwrap_or_default()
            .to_string();
        let lead = v.verdict.headline_short();
        if !row.contains(&format!("✕ {lead} ")) {
            wrong.push(format!("{i}: {lead:?} not in {row}"));
        }
        let rows: Vec<&str> = screen.lines().collect();
        let at = rows.iter().position(|l| l.contains('▶')).unwrap();
        let after: String = rows[at..].join(" ");
        if after.contains(" at step ") {
            wrong.push(format!("{i}: a bare step in {after}"));
        }
        if after.contains("at soak step ") {
            soak_steps += 1;
        }
        update(&mut dash, DashAction::Key(KeyCode::Down));
    }
    assert!(soak_steps > 0, "some chain names a step");
    assert!(wrong.is_empty(), "{} rows: {wrong:#?}", wrong.len());
}

/// A violation's story reads as a built-in tour does: each event told
/// once (by the step's own words, no saying repeating them in the form
/// `consumer A: acks m-45.`), short chapter titles in prose, and the
/// intro's chain with the screen's arrow, saying whose steps it counts.
#[test]
fn a_soak_story_reads_as_a_tour() {
    let state = finished_soak().snapshot();
    let mut wrong = Vec::new();
    for v in &state.violations {
        let story = v.story.as_deref().expect("a story");
        for (i, step) in story.steps.iter().enumerate() {
            let title = &step.title;
            let labelled = ["consumer ", "broker: ", "provider: ", "clock: "]
                .iter()
                .any(|label| title.contains(label));
            if labelled || title.ends_with('.') || title.chars().count() > 40 {
                wrong.push(format!("{}: title {i} {title:?}", story.name));
            }
            for s in step.sayings.iter().flatten() {
                let said = s.text_for.values().chain([&s.text]).any(|t| !t.is_empty());
                if said {
                    wrong.push(format!("{}: step {i} has a saying {s:?}", story.name));
                }
            }
        }
        if story.intro.contains("<-") || !story.intro.contains('←') {
            wrong.push(format!("{}: intro {}", story.name, story.intro));
        }
        if story.intro.contains(" at step ") && !story.intro.contains("this story's") {
            wrong.push(format!("{}: whose steps? {}", story.name, story.intro));
        }
    }
    assert!(wrong.is_empty(), "{} wrong: {wrong:#?}", wrong.len());
}
