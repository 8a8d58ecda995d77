//! Nothing is cut without a sign, beyond the main screen's four panels:
//! the main screen's header and key bar, the compare view, the presenter
//! view, the explorer, the level screen and the soak dashboard, at 80x24,
//! 100x30 and 120x40. What each screen is there to show is on it whole,
//! or the place that hides it says how much is hidden.

use crate::common::check::report;
use idem::scenario;
use idem::sim::Strategy;
use idem::soak::{self, Config, FaultRates, Live};
use idem::tui::soak::Dashboard;
use idem::tui::theme::Theme;
use idem::tui::{Action, App, Options, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::atomic::AtomicU64;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];
const TOURS: [&str; 4] = ["tour-1", "tour-2", "tour-3", "tour-4"];

fn app(name: &str, mode: &str) -> App {
    let script = scenario::find(name).expect("built-in scenario");
    let strategy = Strategy::by_name(mode).expect("strategy");
    let options = Options {
        animation: false,
        color: false,
        ascii: false,
    };
    App::new(script, strategy, 0, options).expect("the timeline builds")
}

fn draw(app: &mut App, (w, h): (u16, u16)) -> Vec<String> {
    update(
        app,
        Action::Resize {
            width: w,
            height: h,
        },
    );
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(&*app, f.area())).unwrap();
    let buf = terminal.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// A sign that more is there than shown.
fn says_more(text: &str) -> bool {
    text.contains(" more") || text.contains('…')
}

fn at(name: &str, mode: &str, size: (u16, u16), what: &str, screen: &[String]) -> String {
    format!(
        "{name} {mode} at {}x{}: {what}\n{}",
        size.0,
        size.1,
        screen.join("\n")
    )
}

#[test]
fn the_header_and_key_bar_keep_the_step_the_design_and_the_way_to_help() {
    for name in TOURS.into_iter().chain(["in-progress", "poison"]) {
        for mode in scenario::find(name).unwrap().strategies() {
            let mode = mode.as_str();
            let mut a = app(name, mode);
            let last = a.timeline.frames.len() - 1;
            for size in SIZES {
                for i in 0..=last {
                    a.pos = i;
                    let screen = draw(&mut a, size);
                    let head = &screen[0];
                    let keys = screen.last().unwrap();
                    let step = format!("step {i}/{last}");
                    assert!(
                        head.contains(&step),
                        "{}",
                        at(
                            name,
                            mode,
                            size,
                            &format!("no `{step}` in the header"),
                            &screen
                        )
                    );
                    // Short of room the header drops its labels, never
                    // the design's name.
                    assert!(
                        head.contains(&format!(" {mode} ")),
                        "{}",
                        at(name, mode, size, "the design is not named", &screen)
                    );
                    // The key bar may not list every key, but it always
                    // shows where the rest are (`? help`, or `? 4 more`
                    // where keys are left out), and how to leave.
                    let help = keys.contains("? help") || counts_keys(keys);
                    assert!(
                        help && keys.contains("q quit"),
                        "{}",
                        at(name, mode, size, "the key bar lost help or quit", &screen)
                    );
                }
            }
        }
    }
}

#[test]
fn the_compare_view_keeps_both_designs_charges_and_verdicts() {
    for name in TOURS {
        for size in SIZES {
            let mut a = app(name, "naive");
            update(&mut a, Action::Compare);
            let positions = a.timeline.frames.len() + 4;
            for _ in 0..positions {
                let screen = draw(&mut a, size);
                let all = screen.join("\n");
                for side in ["naive", "idempotent"] {
                    assert!(
                        all.contains(&format!("design: {side}")),
                        "{}",
                        at(
                            name,
                            "compare",
                            size,
                            &format!("{side} is not named"),
                            &screen
                        )
                    );
                }
                // Each side's charges, or a count of what it hides.
                let charges = all.matches("charges made").count();
                assert!(
                    charges == 2 || says_more(&all),
                    "{}",
                    at(name, "compare", size, "a side's charges are gone", &screen)
                );
                // Each side's verdict leads its panel.
                let verdicts = screen
                    .iter()
                    .filter(|r| {
                        ["✕ ", "✓ ", "○ "]
                            .iter()
                            .filter(|m| r.contains(&format!("│{m}")))
                            .count()
                            > 0
                    })
                    .map(|r| r.matches('│').count())
                    .max()
                    .unwrap_or(0);
                assert!(
                    verdicts >= 2,
                    "{}",
                    at(
                        name,
                        "compare",
                        size,
                        "a side's verdict is not shown",
                        &screen
                    )
                );
                update(&mut a, Action::Next);
            }
        }
    }
}

#[test]
fn the_presenter_view_keeps_its_four_figures_and_the_verdict() {
    for name in TOURS {
        for mode in ["naive", "idempotent"] {
            for size in SIZES {
                let mut a = app(name, mode);
                update(&mut a, Action::Presenter);
                let last = a.timeline.frames.len() - 1;
                for i in 0..=last {
                    a.pos = i;
                    let screen = draw(&mut a, size);
                    let all = screen.join("\n");
                    for figure in [
                        "in the queue",
                        "processed",
                        "payments total",
                        "provider charges",
                    ] {
                        assert!(
                            all.contains(figure),
                            "{}",
                            at(
                                name,
                                mode,
                                size,
                                &format!("step {i}: no `{figure}`"),
                                &screen
                            )
                        );
                    }
                    let headline = a.frame().verdict.headline();
                    assert!(
                        screen[0].contains(&headline),
                        "{}",
                        at(
                            name,
                            mode,
                            size,
                            &format!("step {i}: no {headline:?}"),
                            &screen
                        )
                    );
                }
            }
        }
    }
}

#[test]
fn the_explorer_keeps_every_design_and_each_counterexample_or_counts_the_rest() {
    let report = report();
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        for s in &report.strategies {
            let screen = draw(&mut a, size);
            let all = screen.join("\n");
            // Every design's row, whichever is selected.
            for other in &report.strategies {
                assert!(
                    screen
                        .iter()
                        .any(|r| r.contains(&format!(" {} ", other.strategy))),
                    "{}",
                    at(
                        "explorer",
                        &s.strategy,
                        size,
                        &format!("no row for {}", other.strategy),
                        &screen
                    )
                );
            }
            // The selected design's counterexamples, listed or counted.
            for cx in &s.counterexamples {
                assert!(
                    all.contains(cx.class.text()) || says_more(&all),
                    "{}",
                    at(
                        "explorer",
                        &s.strategy,
                        size,
                        &format!("{} is not listed", cx.class.text()),
                        &screen
                    )
                );
            }
            // Its moves: the last one is on screen, or the lines are counted.
            if let Some(cx) = s.counterexamples.first() {
                let n = cx.moves.len();
                assert!(
                    screen
                        .iter()
                        .any(|r| r.trim_start().starts_with(&format!("{n}. ")))
                        || all.contains("more lines"),
                    "{}",
                    at(
                        "explorer",
                        &s.strategy,
                        size,
                        "the run's moves are cut without a count",
                        &screen
                    )
                );
            }
            update(&mut a, Action::Down);
        }
    }
}

#[test]
fn the_level_screen_keeps_every_block_of_the_handler_or_counts_the_rest() {
    for size in SIZES {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Levels);
        let levels = a.levels.levels.len();
        for _ in 0..levels {
            let screen = draw(&mut a, size);
            let all = screen.join("\n");
            for (i, op) in a.levels.program.iter().enumerate() {
                let line = format!("{:>2} ", i + 1);
                assert!(
                    screen
                        .iter()
                        .any(|r| r.contains(&line) && r.contains(idem::sim::step_name::label(*op)))
                        || says_more(&all),
                    "{}",
                    at(
                        &a.levels.level().slug,
                        "level",
                        size,
                        &format!(
                            "block {} `{}` is gone",
                            i + 1,
                            idem::sim::step_name::label(*op)
                        ),
                        &screen
                    )
                );
            }
            assert!(
                all.contains(&a.levels.level().title) || says_more(&all),
                "{}",
                at(
                    &a.levels.level().slug,
                    "level",
                    size,
                    "the level's title is gone",
                    &screen
                )
            );
            update(&mut a, Action::NextChapter);
        }
    }
}

#[test]
fn the_soak_dashboard_keeps_each_designs_progress_and_figures() {
    let config = Config {
        designs: vec![Strategy::naive(), Strategy::idempotent()],
        messages: 600,
        seed: 1,
        faults: FaultRates::parse("crash=1%,lose-ack=2%,lose-response=1%,slow=2%").unwrap(),
        ..Config::default()
    };
    let live = Live::new(config.messages, &["naive", "idempotent"]);
    soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    let state = live.snapshot();
    for size in SIZES {
        let dash = Dashboard::new(
            "600 payments · seed 1".into(),
            state.clone(),
            Theme::new(false, false),
        );
        let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
        terminal.draw(|f| f.render_widget(&dash, f.area())).unwrap();
        let buf = terminal.backend().buffer();
        let screen: Vec<String> = (0..size.1)
            .map(|y| (0..size.0).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        let all = screen.join("\n");
        for d in &state.designs {
            assert!(
                all.contains(&format!(" {} ", d.design)),
                "{}",
                at("soak", &d.design, size, "its column is gone", &screen)
            );
        }
        // Each column says how far its own run has come (`done at 1h10m59s
        // virtual · …`, or at 80 columns `done at 1h10m59s · …`, the gauge
        // saying `virtual`), or counts the figures it hides.
        let progress = all.matches("done at ").count();
        assert!(
            progress >= state.designs.len() || all.contains("more line"),
            "{}",
            at(
                "soak",
                "all",
                size,
                "a column does not say how far its run has come",
                &screen
            )
        );
        for d in &state.designs {
            let owed = format!("owed ${}", num(d.money.owed));
            assert!(
                all.contains(&owed) || all.contains("more line"),
                "{}",
                at("soak", &d.design, size, &format!("no `{owed}`"), &screen)
            );
        }
    }
}

fn num(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Compare speaks of steps, each side's own (never a "moment" numbered by
/// neither side), and a side that holds more than it shows counts the rows
/// with something in them, on a row of its own: never more than the same
/// side drawn tall enough to hold everything has below that row.
#[test]
fn compare_counts_each_sides_steps_and_the_rows_it_hides() {
    let row_sides = |row: &str| -> (String, String) {
        let cells: Vec<char> = row.chars().collect();
        let half = cells.len() / 2;
        (
            cells[1..half - 1].iter().collect(),
            cells[half + 1..cells.len() - 1].iter().collect(),
        )
    };
    let filled = |rows: &[String]| rows.iter().filter(|r| !r.trim().is_empty()).count();
    let mut signs = 0;
    for name in TOURS {
        let mut a = app(name, "naive");
        update(&mut a, Action::Compare);
        for _ in 0..a.timeline.frames.len() + 4 {
            let small = draw(&mut a, (80, 24));
            let tall = draw(&mut a, (80, 200));
            // Down to the sides' top border: each border says its side's
            // step (`design: naive · step 5/16`), and the header says them
            // only where the borders cannot.
            let top = small.iter().position(|r| r.contains('┌')).unwrap_or(1);
            let head = small[..=top].join("\n");
            assert!(!head.contains("moment"), "{head}");
            let says = |side: &str| {
                head.contains(&format!("{side} step ")) || head.contains(&format!("{side} · step "))
            };
            assert!(says("naive") && says("idempotent"), "{head}");
            // The sides' inner rows: under the two header rows and the
            // sides' top border, above their bottom border and the key bar.
            let inner = |screen: &[String]| -> (Vec<String>, Vec<String>) {
                screen[3..screen.len() - 2]
                    .iter()
                    .map(|r| row_sides(r))
                    .unzip()
            };
            let (sl, sr) = inner(&small);
            let (tl, tr) = inner(&tall);
            for (shown, whole) in [(sl, tl), (sr, tr)] {
                let last = shown.last().unwrap();
                let Some(at) = last.find("↓ ") else {
                    assert_eq!(filled(&shown), filled(&whole), "{}", small.join("\n"));
                    continue;
                };
                assert!(
                    last.trim_start().starts_with('…'),
                    "the count has a row of its own: {last}"
                );
                let n: usize = last[at + "↓ ".len()..]
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                // Drawn tall, the side's story keeps more of its rows, so
                // the rows below can only be more than the small side hides.
                let above = shown.len() - 1;
                assert!(
                    n >= 1 && n <= filled(&whole[above..]),
                    "{name}: {n} more, but {} rows below\n{}",
                    filled(&whole[above..]),
                    small.join("\n")
                );
                signs += 1;
            }
            update(&mut a, Action::Next);
        }
    }
    assert!(signs > 10, "only {signs} counts seen");
}

/// Every outcome some design has keeps its column at every size (a heading,
/// short ones explained by the table's legend, and each design's figure;
/// an outcome no design has may be named under the table with its zero),
/// and a design that holds keeps the bound that broke it one further.
#[test]
fn the_explorer_table_keeps_every_outcome_and_the_whole_claim() {
    use idem::tui::explorer::Column;
    let report = report();
    let outcomes: Vec<Column> = Column::IN_ORDER
        .into_iter()
        .filter(|c| matches!(c, Column::Outcome(_)) && c.used(report))
        .collect();
    assert!(
        outcomes.len() >= 5,
        "the report has outcomes enough to crowd the table: {outcomes:?}"
    );
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        let screen = draw(&mut a, size);
        let heading = screen
            .iter()
            .position(|r| r.trim_start().starts_with("design "))
            .unwrap_or_else(|| panic!("{}", at("explorer", "", size, "no heading", &screen)));
        let heads: Vec<&str> = screen[heading].split_whitespace().collect();
        for c in &outcomes {
            // Its heading, one word at every width.
            let shown = heads.contains(&c.heading());
            // A column of zeros may give way to the schedules, named under
            // the table with its zero: nothing it would say is lost.
            let zeros = report.strategies.iter().all(|s| c.value(s) == 0);
            let named = screen.iter().any(|r| {
                r.contains(" marks: ")
                    && (r.contains(&format!("{}=0", c.heading()))
                        || r.contains(&format!("{} (0 in every design)", c.meaning())))
            });
            assert!(
                shown || (zeros && named),
                "{}",
                at(
                    "explorer",
                    "",
                    size,
                    &format!("no column for {}", c.meaning()),
                    &screen
                )
            );
        }
        for s in &report.strategies {
            let row = screen
                .iter()
                .find(|r| {
                    r.chars()
                        .skip(2)
                        .collect::<String>()
                        .starts_with(&format!("{} ", s.strategy))
                })
                .unwrap_or_else(|| {
                    panic!("{}", at("explorer", &s.strategy, size, "no row", &screen))
                });
            let figures: Vec<&str> = row.split_whitespace().collect();
            for c in &outcomes {
                let v = c.value(s);
                if v > 0 {
                    assert!(
                        figures.contains(&num(v).as_str()),
                        "{}",
                        at(
                            "explorer",
                            &s.strategy,
                            size,
                            &format!("{} {v} missing", c.meaning()),
                            &screen
                        )
                    );
                }
            }
            for f in s
                .further
                .iter()
                .filter(|f| f.breaks() && f.widening == idem::check::further::Widening::Fault)
            {
                let words = format!("breaks at {}", f.bounds.max_faults);
                assert!(
                    row.contains(&words),
                    "{}",
                    at(
                        "explorer",
                        &s.strategy,
                        size,
                        &format!("{words} dropped"),
                        &screen
                    )
                );
            }
        }
    }
}

/// in-progress holds within 2 faults and breaks at 3: the explorer's "see
/// the shortest run" leads to that run, listed and replayed by Enter, at
/// every size; and a design with no run never offers Enter.
#[test]
fn a_claims_shortest_run_one_bound_further_is_listed_and_replays() {
    let report = crate::common::check::in_progress().clone();
    let s = &report.strategies[0];
    assert!(s.counterexamples.is_empty(), "holds within 2 faults");
    let further = s
        .further
        .iter()
        .find(|f| f.breaks())
        .expect("breaks one bound further");
    let idem::check::further::FurtherResult::Breaks {
        shortest: Some(run),
        ..
    } = &further.result
    else {
        panic!("the shortest run is kept");
    };
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        let screen = draw(&mut a, size);
        // Wrapped lines read as one text.
        let all = screen
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(all.contains("see the shortest run"), "{all}");
        assert!(
            all.contains(run.class.text()) && all.contains("at 3 faults"),
            "{}",
            at(
                "explorer",
                "in-progress",
                size,
                "the run is not listed",
                &screen
            )
        );
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, idem::tui::app::Overlay::None, "Enter opens it");
        assert!(
            a.frame().verdict.outcome.is_failure(),
            "at its first bad step"
        );
        let status = a.status.clone().unwrap_or_default();
        assert!(
            status.contains("3 faults") && !status.contains("no schedule breaks"),
            "{status}"
        );
    }
}

/// A design nothing breaks, even one bound further, has no run: the pane's
/// count of more lines does not promise that Enter replays one.
#[test]
fn the_explorer_offers_enter_only_where_there_is_a_run() {
    let report = report();
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        for s in &report.strategies {
            let screen = draw(&mut a, size);
            let runs = idem::tui::explorer::runs(s).len();
            if runs == 0 {
                assert!(
                    !screen.join("\n").contains("Enter replays this run"),
                    "{}",
                    at(
                        "explorer",
                        &s.strategy,
                        size,
                        "Enter promised, no run",
                        &screen
                    )
                );
            }
            update(&mut a, Action::Down);
        }
    }
}

/// The scenario picker at every size: each scenario's title is in the list,
/// or the popup's border counts the ones above and below. Walks the
/// highlight from the first scenario to the last.
#[test]
fn the_picker_shows_every_scenario_or_counts_the_rest() {
    let titles: Vec<String> = scenario::load::builtins()
        .iter()
        // Each is listed by its title for the design it opens in (tour-1,
        // open now, is shown in its own design too).
        .map(|s| s.title_for(&s.design()).to_string())
        .collect();
    for size in SIZES {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Picker);
        for step in 0..titles.len() {
            let screen = draw(&mut a, size).join("\n");
            let hidden = titles
                .iter()
                .filter(|t| !screen.contains(t.as_str()))
                .count();
            let counted: usize = ["above", "below"]
                .iter()
                .filter_map(|side| {
                    let at = screen.find(&format!(" more {side}"))?;
                    let digits: String = screen[..at]
                        .chars()
                        .rev()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    digits
                        .chars()
                        .rev()
                        .collect::<String>()
                        .parse::<usize>()
                        .ok()
                })
                .sum();
            assert_eq!(
                hidden,
                counted,
                "picker at {size:?}, highlight on scenario {}: {hidden} titles hidden, {counted} counted\n{screen}",
                step + 1
            );
            update(&mut a, Action::Down);
        }
    }
}

/// The explorer's bounds at every size: the faults, the consumers, the
/// messages and the dead-letter limit, and the designs checked under
/// bounds of their own, whole (at 80x24 it was cut after the first).
#[test]
fn the_explorer_states_every_bound_at_every_size() {
    let report = report();
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        let screen = draw(&mut a, size);
        let bounds: String = screen
            .iter()
            .skip_while(|r| !r.contains("bounds:"))
            .take_while(|r| !r.contains("design "))
            .map(|r| r.trim())
            .collect::<Vec<_>>()
            .join(" ");
        for word in ["fault", "consumers", "message", "after 3", "row-version"] {
            assert!(
                bounds.contains(word) && !bounds.contains('…'),
                "{}",
                at(
                    "explorer",
                    "bounds",
                    size,
                    &format!("no {word:?} whole"),
                    &screen
                )
            );
        }
    }
}

/// The counterexample pane cuts nothing at 80x24, 100x30 and 120x40: a
/// move too long for its row wraps, its continuation indented under the
/// move's words, and a listed run keeps its ending (what the database and
/// the provider hold at its end: the proof) whole. Before, at 120x40 a move
/// read "The provider char…" and at 100x30 a run "ends with $40 in
/// payments, 2 provide…", with no way to read the rest. Where the pane
/// has no rows left it counts the lines below; every move above that
/// count is whole.
#[test]
fn the_explorers_moves_and_run_endings_are_never_cut() {
    let report = report();
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        for s in &report.strategies {
            let runs = idem::tui::explorer::runs(s);
            for run in &runs {
                let screen = draw(&mut a, size);
                // The pane: under its title rule, above the key bar.
                let top = screen
                    .iter()
                    .position(|r| r.contains(&format!(" {} · promises ", s.strategy)))
                    .unwrap_or_else(|| {
                        panic!("{}", at("explorer", &s.strategy, size, "no pane", &screen))
                    });
                let pane = &screen[top + 1..screen.len() - 1];
                for row in pane {
                    assert!(
                        !row.contains('…'),
                        "{}",
                        at("explorer", &s.strategy, size, "a row is cut", &screen)
                    );
                }
                let flat = |rows: &[String]| {
                    rows.join(" ")
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let counted = pane.iter().position(|r| r.contains("more lines"));
                let shown = flat(&pane[..counted.unwrap_or(pane.len())]);
                // The run's ending, in long words or short.
                let cx = run.cx;
                let plural = if cx.charges == 1 { "" } else { "s" };
                assert!(
                    (shown.contains(&format!("${} in payments", cx.total))
                        || shown.contains(&format!("${} in db", cx.total)))
                        && (shown.contains(&format!("{} provider charge{plural}", cx.charges))
                            || shown.contains(&format!("{} charge{plural}", cx.charges))),
                    "{}",
                    at("explorer", &s.strategy, size, "the ending is gone", &screen)
                );
                // Every move that starts above the count is there whole
                // (all but the last one shown, which the count may split).
                // The moves are listed under the run's cause chain.
                // Where the pane has room only for the list of runs (no
                // chain), no move is shown, and the count says so.
                let why = pane
                    .iter()
                    .position(|r| r.contains("why: "))
                    .unwrap_or(counted.unwrap_or(pane.len()));
                let starts: Vec<usize> = (1..=cx.steps.len())
                    .filter(|n| {
                        pane[why..counted.unwrap_or(pane.len())]
                            .iter()
                            .any(|r| r.trim_start().starts_with(&format!("{n}. ")))
                    })
                    .collect();
                let whole = if counted.is_some() {
                    &starts[..starts.len().saturating_sub(1)]
                } else {
                    &starts[..]
                };
                for n in whole {
                    let said = flat(&[cx.steps[n - 1].happened.join(" ")]);
                    assert!(
                        shown.contains(&said),
                        "{}",
                        at(
                            "explorer",
                            &s.strategy,
                            size,
                            &format!("move {n} is not whole: {said}"),
                            &screen
                        )
                    );
                }
                update(&mut a, Action::Next);
            }
            update(&mut a, Action::Down);
        }
    }
}

/// A run one bound further names its bound in its row ("at 3 faults:"), so
/// its row is the longest the list has: at 80x24 too it keeps its ending
/// (before, "$0 in db, 1 char…").
#[test]
fn a_run_one_bound_further_keeps_its_ending_at_every_size() {
    let report = crate::common::check::in_progress().clone();
    for size in SIZES {
        let mut a = crate::common::check::explorer_showing(report.clone());
        let screen = draw(&mut a, size);
        let listed: Vec<&String> = screen
            .iter()
            // The list's rows (`▶ 1. … at 3 faults: …`), not the
            // sentence under them that says it breaks at 3 faults.
            .filter(|r| {
                let item = r.trim_start().trim_start_matches('▶').trim_start();
                let numbered = item
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok());
                numbered && r.contains("at 3 faults:")
            })
            .collect();
        assert!(
            !listed.is_empty(),
            "{}",
            at("explorer", "in-progress", size, "no run", &screen)
        );
        for row in listed {
            assert!(
                !row.contains('…') && row.contains(" in ") && row.contains(" charge"),
                "{}",
                at(
                    "explorer",
                    "in-progress",
                    size,
                    "a run's ending is cut",
                    &screen
                )
            );
        }
    }
}

/// Whether the key bar's help item counts the keys it leaves out in
/// its fewest words (`? 4 more`).
fn counts_keys(bar: &str) -> bool {
    bar.split("? ").nth(1).is_some_and(|r| {
        r.split_once(' ').is_some_and(|(n, rest)| {
            n.parse::<usize>().is_ok_and(|n| n > 0) && rest.starts_with("more")
        })
    })
}
