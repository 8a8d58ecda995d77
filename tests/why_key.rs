//! `w` reads the verdict's whole chain of causes in one press. At 80x24
//! the verdict has one row and counts its causes (`← why: 4 more · w`);
//! the teacher's trial found that reading them took Tab after Tab to reach
//! the verdict, then `z`. The row names the key, the key is bound, and
//! after it every cause of the chain is on screen; pressed again, the
//! panels are back.

use crate::common::{self, Screen};
use idem::scenario::{self, load::builtins};
use idem::sim::{Outcome, Strategy};
use idem::tui::app::Panel;
use idem::tui::forms::FIGURE_WORDS;
use idem::tui::keys::from_key;
use idem::tui::{App, layout, update};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
use ratatui::layout::Rect;

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `w` as the terminal reports it, through the key table.
fn press_w(app: &mut App) {
    let key = KeyEvent {
        code: KeyCode::Char('w'),
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    };
    let action = from_key(&key).expect("w is bound");
    update(app, action);
}

/// The rows of `r` as one line of words: a chain wrapped over rows reads
/// as it is written.
fn words_in(buf: &Buffer, r: Rect) -> String {
    let rows: Vec<String> = (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect();
    norm(&rows.join(" "))
}

/// Where the verdict is drawn, zoomed or not, as the app lays it out.
fn verdict_rect(app: &App) -> Rect {
    let zoom = app.zoom.then_some(app.focus);
    let need = layout::Need::of(app.frame(), &app.timeline.frames);
    layout::main_for(app.viewport, zoom, need).rect(Panel::Verdict)
}

/// The causes of the verdict that are not in `shown`.
fn missing(app: &App, shown: &str) -> Vec<String> {
    app.frame()
        .verdict
        .causes
        .iter()
        .flatten()
        .map(|c| norm(&c.to_string()))
        .filter(|c| !shown.contains(c.as_str()))
        .collect()
}

#[test]
fn the_one_row_verdict_names_w_and_w_shows_the_whole_chain() {
    let mut app = common::app("tour-1", "naive");
    app.pos = 13;
    let before = common::draw(&mut app, 80, 24);
    let row = before
        .lines()
        .find(|l| {
            l.contains("charged twice")
                && (l.contains("2 provider charges") || l.contains("2 charges"))
        })
        .unwrap_or_else(|| panic!("no verdict row:\n{before}"));
    assert!(row.contains("← why: 4 more · w"), "{row}");
    assert!(!row.contains("Tab"), "{row}");

    press_w(&mut app);
    assert_eq!(app.focus, Panel::Verdict);
    let mut screen = Screen::new(80, 24);
    let buf = screen.show(&app);
    let shown = words_in(buf, verdict_rect(&app));
    let lost = missing(&app, &shown);
    assert!(
        lost.is_empty(),
        "after w, {lost:?} is not on screen:\n{}",
        screen.text()
    );
    assert!(!app.frame().verdict.causes.is_empty());

    // Again: the panels are back and the verdict's one row is as it was.
    press_w(&mut app);
    assert!(!app.zoom);
    let after = common::render(&app);
    assert!(after.contains(row), "w again: back as it was\n{after}");
}

/// `w` pressed twice leaves the screen as it found it: the panel `z`
/// enlarges and the story's hint (`· z`) included. A teacher trial at
/// 80x24: after `w`, `w`, `z` enlarged the verdict, not the story, and
/// the story's hint had quietly become `· click, z`. The same in compare,
/// whose sides followed the step again only once a section was picked.
#[test]
fn w_twice_gives_z_back_its_panel() {
    let mut wrong = Vec::new();
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        for compare in [false, true] {
            let mut app = common::app("tour-1", "naive");
            common::resize(&mut app, w, h);
            if compare {
                update(&mut app, idem::tui::Action::Compare);
            }
            app.pos = 13;
            let before = common::render(&app);
            let focus = app.focus;
            press_w(&mut app);
            press_w(&mut app);
            let after = common::render(&app);
            if after != before {
                wrong.push(format!(
                    "{w}x{h} compare {compare}: w, w changed the screen\n{before}\n{after}"
                ));
            }
            if !compare {
                update(&mut app, idem::tui::Action::Zoom);
                if app.focus != focus {
                    wrong.push(format!(
                        "{w}x{h}: z after w, w enlarges {:?}, not {focus:?}",
                        app.focus
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 9 wrong (6 screens, 3 presses of z); the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}

/// Every screen of every built-in run at 80x24 whose verdict counts its
/// causes on one row reads them all after `w`.
#[test]
fn w_reads_every_counted_chain_at_80x24() {
    let (w, h) = (80, 24);
    let mut seen = 0;
    let mut wrong = Vec::new();
    let mut screen = Screen::new(w, h);
    for script in builtins() {
        for design in script.strategies() {
            let script = scenario::find(&script.name).unwrap();
            let strategy = Strategy::by_name(&design).unwrap();
            let mut app = App::new(script, strategy, 0, common::plain()).unwrap();
            common::resize(&mut app, w, h);
            for i in 0..app.timeline.frames.len() {
                app.pos = i;
                if app.frame().verdict.causes.is_empty() {
                    continue;
                }
                let r = verdict_rect(&app);
                let row = words_in(screen.show(&app), r);
                // One row under the title's rule that hides a cause: it
                // keeps every figure whole and names the key that reads the
                // rest (tour-4 naive step 9 cut `order 1042: 1` and dropped
                // the `w`: a headline with two outcomes took the room).
                if r.height == 2 && !missing(&app, &row).is_empty() {
                    // The figures of every order the headline is about
                    // (those of a correct order may give way; `w` reads them).
                    let facts = &app.frame().verdict.facts;
                    let about: Vec<_> = facts
                        .iter()
                        .filter(|f| !matches!(f.outcome, Outcome::Correct | Outcome::InProgress))
                        .collect();
                    let about = if about.is_empty() {
                        facts.iter().collect()
                    } else {
                        about
                    };
                    // In the words the run counts in, each naming what it
                    // counts (`verdict_names_counts`).
                    let whole = about.iter().all(|f| {
                        FIGURE_WORDS.iter().any(|words| {
                            row.contains(&format!(
                                "{}, {}",
                                words.rows(f.payments),
                                words.charges(f.charges)
                            ))
                        })
                    });
                    if !whole || !row.contains("more · w") {
                        wrong.push(format!(
                            "{} {} step {i}: the one-row verdict cuts a figure or names no w: {row}",
                            app.script.name, app.strategy.name
                        ));
                        continue;
                    }
                }
                if !row.contains("more · w") {
                    continue;
                }
                seen += 1;
                press_w(&mut app);
                let shown = words_in(screen.show(&app), verdict_rect(&app));
                let lost = missing(&app, &shown);
                if !lost.is_empty() {
                    wrong.push(format!(
                        "{} {} step {i}: {:?} is not on screen after w:\n{}",
                        app.script.name,
                        app.strategy.name,
                        lost[0],
                        screen.text()
                    ));
                }
                press_w(&mut app);
                assert!(!app.zoom, "w again closes it");
            }
        }
    }
    crate::common::sweep::none_wrong("counted verdicts", seen, 20, &wrong, (w, h));
}

/// The teacher's trial: `w` showed the same lines the verdict had, over
/// twenty blank rows, and the payment rows and ch_81/ch_82 the chain is
/// about were gone. Under `w` each link of the chain starts a row of its
/// own after its arrow, in the order the chain reads; the verdict takes
/// the rows it needs and no more; the database's rows and the provider's
/// charges stay on screen above it.
#[test]
fn w_reads_a_link_a_row_above_the_evidence() {
    for ((w, h), step) in [((80, 24), 13), ((100, 30), 13), ((120, 40), 16)] {
        let mut app = common::app("tour-1", "naive");
        app.pos = step;
        common::resize(&mut app, w, h);
        press_w(&mut app);
        let mut screen = Screen::new(w, h);
        let buf = screen.show(&app).clone();
        let text = screen.text();
        let at = format!("{w}x{h} step {step}:\n{text}");
        let zoom = app.zoom.then_some(app.focus);
        let need = layout::Need::of(app.frame(), &app.timeline.frames);
        let m = layout::main_for(app.viewport, zoom, need);
        for charge in ["ch_81", "ch_82"] {
            assert!(
                words_in(&buf, m.rect(Panel::Provider)).contains(charge),
                "{charge} is not in the provider panel at {at}"
            );
        }
        let db = words_in(&buf, m.rect(Panel::Database));
        let rows = app.frame().db.payments.len();
        assert!(rows >= 1 && db.matches("1042").count() >= rows, "{at}");
        // A row of the verdict per link, each starting with the arrow, in
        // the chain's order.
        let r = m.rect(Panel::Verdict);
        let lines: Vec<String> = (r.y + 1..r.bottom())
            .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        let mut from = 0;
        for link in app.frame().verdict.causes.iter().flatten() {
            let words = norm(&link.to_string());
            let first: String = words.chars().take(12).collect();
            let found = lines[from..]
                .iter()
                .position(|l| l.trim_start().starts_with(&format!("← {first}")))
                .unwrap_or_else(|| panic!("no row starts with ← {first} after row {from} at {at}"));
            from += found + 1;
        }
        let blank = lines
            .iter()
            .rev()
            .take_while(|l| l.trim().is_empty())
            .count();
        assert!(blank <= 1, "{blank} blank rows under the verdict at {at}");
    }
}

/// A correct verdict has no cause chain, and `w` said nothing more than
/// `✓ correct`. Under `w` it says why from what happened in the run: the
/// repeat the handler skipped, or the charge the provider gave back for
/// its key, each with why that repeat came.
#[test]
fn w_on_a_correct_verdict_says_why_it_held() {
    for (name, design, says) in [
        ("tour-1", "idempotent", "m-7f3 skipped at step"),
        (
            "crash-after-provider",
            "idempotent",
            "the provider replayed ch_81 for key m-7f3",
        ),
    ] {
        let mut app = common::app(name, design);
        app.pos = app.last_pos();
        common::resize(&mut app, 80, 24);
        assert_eq!(app.frame().verdict.outcome, Outcome::Correct, "{name}");
        press_w(&mut app);
        let mut screen = Screen::new(80, 24);
        let shown = words_in(screen.show(&app), verdict_rect(&app));
        assert!(shown.contains(says), "{name}: {shown}\n{}", screen.text());
        assert!(shown.contains("← m-7f3 redelivered"), "{name}: {shown}");
    }
}

/// Without `w`, a correct verdict says why where its rows hold it, and
/// else names the key that does.
#[test]
fn a_correct_verdict_says_why_where_it_has_room() {
    for ((w, h), says) in [
        ((80, 24), "← why: 4 more · w"),
        ((120, 40), "✓ m-7f3 skipped at step 13"),
    ] {
        let mut app = common::app("tour-1", "idempotent");
        app.pos = app.last_pos();
        common::resize(&mut app, w, h);
        let mut screen = Screen::new(w, h);
        let shown = words_in(screen.show(&app), verdict_rect(&app));
        assert!(shown.contains(says), "{w}x{h}: {shown}");
    }
}

/// The run's transcript says why a correct verdict held, as the terminal
/// does: every skip and replay the run made, under its end verdict. Before,
/// `idem run tour-1 --mode idempotent` ended on a bare `correct`.
#[test]
fn every_medium_says_why_a_correct_verdict_held() {
    let mut told = 0;
    for script in builtins() {
        for name in script.expect.keys() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = idem::timeline::Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let end = &timeline.frames.last().unwrap().verdict;
            if end.outcome.is_failure() || end.held.is_empty() {
                continue;
            }
            let text = idem::report::transcript(&timeline, None);
            let verdict = text
                .split("== verdict")
                .nth(1)
                .and_then(|v| v.lines().nth(1))
                .unwrap_or_default();
            for chain in &end.held {
                let link = chain[0].to_string();
                assert!(
                    verdict.contains(&link),
                    "{} under {name}: `{link}` not under the end verdict: {verdict}",
                    script.name
                );
            }
            let page = end.chain_with(idem::sim::Arrow::Drawn);
            assert!(page.contains("held: "), "{page}");
            told += 1;
        }
    }
    assert!(told >= 10, "only {told} correct runs with a repeat");
}

/// In compare, a side that held names its own stop in its own count: the
/// moment both sides share ("naive step 12 / idempotent step 13") would
/// say the skip happened at naive's step 12, where naive paid again.
#[test]
fn compare_names_a_sides_own_stop_in_its_own_steps() {
    let file = std::env::temp_dir().join(format!("idem-held-{}.txt", std::process::id()));
    let path = file.to_str().unwrap();
    let (code, _, err) = crate::common::cli::idem(&[
        "shot", "tour-1", "--mode", "naive", "--end", "--view", "compare", "--size", "120x40",
        "-o", path, "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    let screen = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).ok();
    // Each side read down its own column (120 columns, two halves): a
    // row of one side wraps onto its next row, not the other side's.
    let side = |right: bool| {
        let rows: Vec<String> = screen
            .lines()
            .map(|l| {
                let chars: Vec<char> = l.chars().collect();
                let (from, to) = if right { (60, 120) } else { (0, 60) };
                chars[from.min(chars.len())..to.min(chars.len())]
                    .iter()
                    .collect()
            })
            .collect();
        norm(&rows.join(" ").replace('│', " "))
    };
    let (naive, idempotent) = (side(false), side(true));
    assert!(
        idempotent.contains("skipped at idempotent step 13"),
        "{screen}"
    );
    assert!(!naive.contains("skipped at naive"), "{screen}");
    assert!(!idempotent.contains("skipped at naive"), "{screen}");
}
