//! What a predict answer shows when it is revealed: the effect the question
//! judged still marked on screen, however many steps the action took; the
//! step's own words in view; a title that judges this question; and, at
//! the end, every wrong answer reachable at the smallest size.

use crate::common::{self, draw};
use crate::tui_predict::{answer, wrong};
use idem::timeline::{Answer, Asked};
use idem::tui::predict::Stage;
use idem::tui::{Action, App, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn app(name: &str, mode: &str) -> App {
    let mut a = common::app(name, mode);
    update(&mut a, Action::Predict);
    a
}

fn asking(a: &App) -> Option<Asked> {
    let p = a.predict.as_ref()?;
    match p.stage {
        Stage::Asking { at, .. } => Some(p.asked[at].clone()),
        _ => None,
    }
}

/// Steps on to the `n`th question (0 the first), answering the ones
/// before it rightly.
fn to_question(a: &mut App, n: usize) -> Asked {
    let mut answered = 0;
    for _ in 0..400 {
        match asking(a) {
            Some(q) if answered == n => return q,
            Some(q) => {
                answer(a, q.answer);
                answered += 1;
            }
            None => update(a, Action::Next),
        }
    }
    panic!("question {n} never asked");
}

fn line_with<'s>(screen: &'s str, needle: &str) -> &'s str {
    screen
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?}\n{screen}"))
}

/// tour-1 naive, "does the provider make a charge?" answered no: the
/// action runs A from step 11 to 14, and the charge was at step 13. The
/// answer must come with that charge still marked.
#[test]
fn the_charge_an_answer_judges_is_marked_at_the_reveal() {
    for (w, h) in SIZES {
        let mut a = app("tour-1", "naive");
        let q = to_question(&mut a, 3);
        assert!(q.answer_at > q.ask_at + 2, "the action spans several steps");
        update(&mut a, Action::Digit(2));
        let screen = draw(&mut a, w, h);
        let row = line_with(&screen, "ch_82");
        assert!(row.contains('+'), "{w}x{h}: ch_82 is new\n{screen}");
        let charges = screen
            .lines()
            // Beside the worded reveal mark at 80x24 the heading keeps its
            // figures and drops its word (`1→2 $80`: the rows below are
            // the charges).
            .find(|l| {
                l.contains("charges made 2") || l.contains("charges 2") || l.contains("1→2 $80")
            })
            .unwrap_or_else(|| panic!("{w}x{h}: no charges line\n{screen}"));
        // `* was 1`, or where the answer's mark leaves no room for it, the
        // old count before the new: either says the count moved, and from
        // what.
        assert!(
            charges.contains("was 1") || charges.contains("1→2"),
            "{w}x{h}: the count moved\n{screen}"
        );
        // The action's events, the charge among them, are listed.
        assert!(
            screen.contains("charges the card"),
            "{w}x{h}: the charge's event\n{screen}"
        );
    }
}

/// Question 5, the payments total: the commit that made it $80 ran a step
/// before the answer's frame; its row is still marked.
#[test]
fn the_commit_an_answer_judges_is_marked_at_the_reveal() {
    let mut a = app("tour-1", "naive");
    to_question(&mut a, 4);
    answer(&mut a, Answer::Number(40));
    for (w, h) in SIZES {
        let screen = draw(&mut a, w, h);
        // `✕ again  * committed` where it fits, `✕ again, committed` where
        // the row is narrow: either way the commit is marked.
        let again = line_with(&screen, " again");
        assert!(
            again.contains('*') || again.contains("✕ again, committed"),
            "{w}x{h}: its commit is marked\n{screen}"
        );
    }
}

/// Marks at a reveal are true: every `+ new` row is one that did not
/// exist when the question was asked.
#[test]
fn a_new_mark_at_a_reveal_is_a_row_new_in_the_action() {
    let mut a = app("tour-1", "naive");
    to_question(&mut a, 3);
    update(&mut a, Action::Digit(2));
    let screen = draw(&mut a, 120, 40);
    for l in screen.lines().filter(|l| l.contains("+ new")) {
        assert!(
            !l.contains("ch_81"),
            "ch_81 was there before: {l}\n{screen}"
        );
    }
}

/// The answer box never hides what the step says: tour-1 naive step 6.
#[test]
fn the_steps_own_words_stay_in_view_with_the_answer() {
    for (w, h) in SIZES {
        let mut a = app("tour-1", "naive");
        to_question(&mut a, 1);
        answer(&mut a, Answer::Number(40));
        let screen = draw(&mut a, w, h);
        let flat: String = screen
            .lines()
            .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            flat.contains("The customer has paid $40"),
            "{w}x{h}: step 6's words are hidden\n{screen}"
        );
        assert!(screen.contains("right"), "{screen}");
    }
}

/// A wrong answer to this question is titled wrong, whatever the score.
#[test]
fn the_title_judges_this_question_not_the_score() {
    let mut a = app("tour-1", "naive");
    let q = to_question(&mut a, 2);
    answer(&mut a, wrong(&q));
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("Predict · wrong"), "{screen}");
    assert!(!screen.contains("Predict · answers"), "{screen}");
}

/// `name` under `mode` at 80x24 in predict mode, every question answered
/// wrongly, at the last step with the score shown.
fn every_answer_wrong_at_the_end(name: &str, mode: &str) -> App {
    let mut a = app(name, mode);
    common::resize(&mut a, 80, 24);
    let n = a.predict.as_ref().unwrap().asked.len();
    for _ in 0..n {
        let q = to_question(&mut a, 0);
        answer(&mut a, wrong(&q));
    }
    update(&mut a, Action::Enter);
    update(&mut a, Action::Last);
    a
}

/// At 80x24 every wrong answer of the end's score can be seen.
#[test]
fn every_wrong_answer_is_reachable_at_80x24() {
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for mode in ["naive", "idempotent"] {
            let a = every_answer_wrong_at_the_end(name, mode);
            let screen = common::render(&a);
            let score: String = screen
                .lines()
                .skip_while(|l| !l.contains("your score"))
                .take_while(|l| !l.contains("Verdict"))
                .collect::<Vec<_>>()
                .join("\n");
            assert!(
                !score.is_empty() && !score.contains("more") && !score.contains('↓'),
                "{name} {mode}: part of the score is cut\n{screen}"
            );
            let chapters: Vec<usize> = {
                let p = a.predict.as_ref().unwrap();
                p.given.keys().map(|&i| p.asked[i].chapter).collect()
            };
            for c in chapters {
                assert!(
                    score.contains(&format!("ch {c}")) || score.contains(&format!("chapter {c}")),
                    "{name} {mode}: the wrong answer of chapter {c}\n{screen}"
                );
            }
        }
    }
}

/// tour-1 naive, question 4 (A runs from step 11 to 14) and the one after
/// it (steps 15-16), answered: the reveal's events panel lists the
/// action's events, and where it has no room for all of them it counts
/// the ones it hides (`↑ N more`), as every screen does; it once showed
/// the newest alone, with no count, in a panel one row tall.
#[test]
fn the_reveal_counts_the_events_it_hides() {
    for n in [3, 4] {
        for (w, h) in SIZES {
            let mut a = app("tour-1", "naive");
            let q = to_question(&mut a, n);
            answer(&mut a, q.answer);
            let screen = draw(&mut a, w, h);
            let frames = &a.timeline.frames;
            let events: usize = frames[q.ask_at + 1..=q.answer_at]
                .iter()
                .map(|f| f.events.len())
                .sum();
            // 80x24 has no room for the SQL and events panels at a reveal.
            let Some(title) = screen.lines().find(|l| l.contains("Events in steps")) else {
                assert_eq!((w, h), (80, 24), "no events panel\n{screen}");
                continue;
            };
            let at = screen.lines().position(|l| l == title).unwrap();
            // The panel's border column: the `┌` before its title.
            let col = title[..title.find("Events in steps").unwrap()]
                .chars()
                .count()
                - 2;
            // The panel's rows inside its borders, up to its bottom border.
            let rows: Vec<String> = screen
                .lines()
                .skip(at + 1)
                .map(|l| l.chars().skip(col).collect::<String>())
                .take_while(|l| !l.starts_with('└'))
                .map(|l| l.chars().skip(1).take_while(|c| *c != '│').collect())
                .collect();
            let shown = rows.iter().filter(|r| !r.trim().is_empty()).count();
            let counted = rows.iter().any(|r| r.contains("more"));
            assert!(
                shown >= events || counted,
                "question {} at {w}x{h}: {shown} of {events} events shown, none counted\n{screen}",
                n + 1
            );
        }
    }
}

/// Teacher trial at 80x24: `w` on the end's score drew the score's box
/// over the header, as `w` does nowhere else. The header stays where it
/// was, row for row, when `w` opens the verdict under the score.
#[test]
fn w_on_the_score_keeps_the_header() {
    let mut wrong_screens = Vec::new();
    let mut seen = 0;
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for mode in ["naive", "idempotent"] {
            let mut a = every_answer_wrong_at_the_end(name, mode);
            let before = common::render(&a);
            assert!(before.contains("your score"), "{name} {mode}\n{before}");
            update(&mut a, Action::Why);
            let after = common::render(&a);
            seen += 1;
            let head = |s: &str| s.lines().next().unwrap_or_default().to_string();
            if head(&after) != head(&before) {
                wrong_screens.push(format!("{name} {mode}\n{after}"));
            }
        }
    }
    assert!(
        wrong_screens.is_empty(),
        "{} of {seen} screens lost the header under w; the first:\n{}",
        wrong_screens.len(),
        wrong_screens.first().cloned().unwrap_or_default()
    );
}
