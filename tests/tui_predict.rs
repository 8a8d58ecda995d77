//! Predict mode on screen: a question before its action runs, and the
//! answer revealed after it, at the smallest size and the roomy one.

use crate::common::{self, both_sizes, draw};
use idem::timeline::Answer;
use idem::tui::app::Panel;
use idem::tui::predict::Stage;
use idem::tui::{Action, App, update};

fn app(name: &str, mode: &str) -> App {
    let mut a = common::app(name, mode);
    update(&mut a, Action::Predict);
    a
}

/// Steps forward until the `n`th question (0 the first) is asked,
/// answering the ones before it rightly.
fn to_question(a: &mut App, n: usize) {
    let mut answered = 0;
    for _ in 0..400 {
        match a.predict.as_ref().unwrap().stage.clone() {
            Stage::Asking { .. } if answered == n => return,
            Stage::Asking { at, .. } => {
                let right = a.predict.as_ref().unwrap().asked[at].answer;
                answer(a, right);
                answered += 1;
            }
            _ => update(a, Action::Next),
        }
    }
    panic!("question {n} never asked");
}

/// Steps on, past a reveal, to the next question asked.
fn next_question(a: &mut App) {
    for _ in 0..400 {
        if matches!(a.predict.as_ref().unwrap().stage, Stage::Asking { .. }) {
            return;
        }
        update(a, Action::Next);
    }
    panic!("no further question");
}

/// A wrong answer to the question `q`: the next choice, or one more.
pub(crate) fn wrong(q: &idem::timeline::Asked) -> Answer {
    match (q.answer, &q.kind) {
        (Answer::Choice(i), idem::scenario::question::Kind::Choice(o)) => {
            Answer::Choice((i + 1) % o.len().max(1))
        }
        (Answer::Choice(i), _) => Answer::Choice(i + 1),
        (Answer::Number(n), _) => Answer::Number(n + 1),
    }
}

pub(crate) fn answer(a: &mut App, said: Answer) {
    match said {
        Answer::Choice(i) => update(a, Action::Digit(i as u8 + 1)),
        Answer::Number(n) => {
            for d in n.to_string().bytes() {
                update(a, Action::Digit(d - b'0'));
            }
            update(a, Action::Enter);
        }
    }
}

fn asked(a: &App) -> idem::timeline::Asked {
    let p = a.predict.as_ref().unwrap();
    let Stage::Asking { at, .. } = p.stage else {
        panic!("not asking");
    };
    p.asked[at].clone()
}

#[test]
fn a_number_question_is_asked_before_its_action() {
    both_sizes!("predict_question_number", {
        let mut a = app("tour-1", "naive");
        to_question(&mut a, 1);
        update(&mut a, Action::Digit(4));
        a
    });
    let mut a = app("tour-1", "naive");
    to_question(&mut a, 1);
    let screen = draw(&mut a, 80, 24);
    assert!(screen.contains("question 2 of"), "{screen}");
    assert!(screen.contains("payments total"), "{screen}");
}

#[test]
fn a_choice_question_lists_its_choices_by_number() {
    both_sizes!("predict_question_choice", {
        let mut a = app("tour-3", "naive");
        to_question(&mut a, 2);
        a
    });
    let mut a = app("tour-3", "naive");
    to_question(&mut a, 2);
    let screen = draw(&mut a, 120, 40);
    for choice in ["1 A", "2 B", "3 no one"] {
        assert!(screen.contains(choice), "{choice}\n{screen}");
    }
}

#[test]
fn a_wrong_answer_is_revealed_beside_the_figure_with_why() {
    both_sizes!("predict_reveal_wrong", {
        let mut a = app("tour-1", "naive");
        to_question(&mut a, 3);
        // The naive handler charges again: "no" is wrong.
        update(&mut a, Action::Digit(2));
        next_question(&mut a);
        // The payments total: $40 is wrong, it is $80.
        answer(&mut a, Answer::Number(40));
        a
    });
    let mut a = app("tour-1", "naive");
    to_question(&mut a, 3);
    update(&mut a, Action::Digit(2));
    next_question(&mut a);
    answer(&mut a, Answer::Number(40));
    let screen = draw(&mut a, 120, 40);
    assert!(
        screen.contains("✕ wrong  payments total: $80 (was $40)"),
        "{screen}"
    );
    // The mark beside the figure, with its word: the heading keeps its
    // words (`total recorded`, `* was $40`), so the mark stands on the
    // border just over it, pointing down (teacher trial 21).
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("payments · total recorded $80  * was $40"))
        .unwrap_or_else(|| panic!("the heading keeps its words\n{screen}"));
    assert!(
        lines[at - 1].contains("✕wrong ↓"),
        "the worded mark beside the figure\n{screen}"
    );
}

#[test]
fn a_right_answer_is_revealed_and_the_score_kept() {
    both_sizes!("predict_reveal_right", {
        let mut a = app("tour-4", "idempotent");
        to_question(&mut a, 1);
        answer(&mut a, Answer::Choice(1));
        a
    });
    let mut a = app("tour-4", "idempotent");
    to_question(&mut a, 1);
    assert_eq!(
        asked(&a).answer,
        Answer::Choice(1),
        "no charge again with the key"
    );
    answer(&mut a, Answer::Choice(1));
    let screen = draw(&mut a, 80, 24);
    assert!(screen.contains("✓ right"), "{screen}");
    assert!(screen.contains("2/2 right so far"), "{screen}");
}

#[test]
fn the_score_is_shown_at_the_end() {
    // Always "0": right only where nothing was there yet.
    both_sizes!("predict_score", tour_2_answered(0));
}

/// tour-2 in predict mode at its last step, every question answered with
/// `number` (a number question) or the first choice.
fn tour_2_answered(number: u64) -> App {
    let mut a = app("tour-2", "naive");
    let n = a.predict.as_ref().unwrap().asked.len();
    for _ in 0..n {
        to_question(&mut a, 0);
        match asked(&a).answer {
            Answer::Number(_) => answer(&mut a, Answer::Number(number)),
            Answer::Choice(_) => answer(&mut a, Answer::Choice(0)),
        }
    }
    update(&mut a, Action::Enter);
    update(&mut a, Action::Last);
    a
}

/// A wrong answer in the score is shown beside what the learner said: a
/// lone value after a cross reads as the learner's own answer.
#[test]
fn the_score_says_what_was_said_beside_the_right_answer() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = tour_2_answered(7);
        let screen = draw(&mut a, w, h);
        assert!(
            screen.contains("you said 7") || screen.contains("(you: 7)"),
            "{w}x{h}: {screen}"
        );
    }
}

#[test]
fn the_picker_shows_the_tours_progress() {
    let progressed = || {
        let mut a = app("tour-1", "naive");
        a.progress.mark_finished("tour-1");
        a.progress.mark_finished("tour-2");
        a.progress.record_score(
            "tour-1",
            idem::learner::Score {
                design: "naive".into(),
                right: 3,
                asked: 4,
            },
        );
        update(&mut a, Action::Picker);
        a
    };
    both_sizes!("picker_progress", progressed());
    let screen = draw(&mut progressed(), 120, 40);
    assert!(screen.contains("2 of 4 seen to the end"), "{screen}");
    // Which design the score was made in (trial 6: `predict best 2/4`
    // alone did not say), at every size.
    assert!(screen.contains("predict best 3/4 (naive)"), "{screen}");
    for (w, h) in [(80, 24), (100, 30)] {
        let screen = draw(&mut progressed(), w, h);
        assert!(screen.contains("3/4 (naive)"), "{w}x{h}:\n{screen}");
    }
}

#[test]
fn the_bottom_line_says_predict_mode_is_on_where_it_has_room() {
    let mut a = app("tour-1", "naive");
    update(&mut a, Action::Next);
    let wide = draw(&mut a, 160, 48);
    assert!(wide.contains("predict on · 0/0 right · a off"), "{wide}");
    update(&mut a, Action::Predict);
    let off = draw(&mut a, 160, 48);
    assert!(!off.contains("predict on"), "{off}");
}

/// At every size, while stepping between questions, the bottom line still
/// says predict mode is on: the key bar leaves its tag a place.
#[test]
fn predict_mode_stays_in_sight_at_every_size() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut a = app("tour-1", "naive");
        for _ in 0..4 {
            update(&mut a, Action::Next);
            if let Some(p) = a.predict.as_mut() {
                p.stage = Stage::Watching;
            }
            let screen = draw(&mut a, w, h);
            let bottom = screen.lines().last().unwrap_or_default();
            assert!(bottom.contains("predict"), "{w}x{h}: {bottom}");
        }
    }
}

/// Esc puts a question away and says so, not "Esc closes menus and views".
#[test]
fn esc_puts_a_question_away_and_says_so() {
    let mut a = app("tour-1", "naive");
    to_question(&mut a, 0);
    update(&mut a, Action::Back);
    assert!(matches!(a.predict.as_ref().unwrap().stage, Stage::Watching));
    let status = a.status.clone().unwrap_or_default();
    assert!(status.contains("question put away"), "{status}");
}

/// The question takes the story's place: its key line says Esc brings the
/// step's story back (teacher trial: Esc did, but nothing said so), at
/// every size.
#[test]
fn a_question_says_esc_shows_the_steps_story() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut a = app("tour-1", "naive");
        to_question(&mut a, 2);
        let screen = draw(&mut a, w, h);
        let keys = screen.lines().last().unwrap_or_default();
        assert!(keys.contains("Esc the step's story"), "{w}x{h}: {keys}");
        update(&mut a, Action::Back);
        let story = draw(&mut a, w, h);
        assert!(
            story.contains("A sends its acknowledgement"),
            "{w}x{h}: Esc shows step 8's story\n{story}"
        );
    }
}

/// While a question is asked, the evidence stays in view: the four panels
/// above, the SQL and events of the step shown and the verdict are drawn
/// exactly as without the question; the box takes the story's place (at
/// 80x24 also the rows it needs of the SQL and events).
#[test]
fn a_question_covers_only_the_story() {
    let runs = [
        ("tour-1", "naive"),
        ("tour-1", "idempotent"),
        ("in-progress", "in-progress"),
        ("tour-3", "naive"),
    ];
    let checked = each_question_asked(&runs, |q| {
        // At 80x24 the story has three rows, fewer than a question with
        // its choices: the box takes what it needs of the SQL and events
        // of the step before (never the figures above, nor the verdict).
        // From 100x30 it covers the story alone, unless the run's long SQL
        // took the story's rows (in-progress at 100x30 keeps four); then it
        // may take the SQL and events too, as at 80x24.
        let story = q.main.rect(Panel::Narration).height;
        let lower: &[Panel] = if q.size.0 >= 100 && story > 6 {
            &[Panel::Sql, Panel::Events]
        } else {
            &[]
        };
        for &p in [
            Panel::Broker,
            Panel::Service,
            Panel::Database,
            Panel::Provider,
            Panel::Verdict,
        ]
        .iter()
        .chain(lower)
        {
            let r = q.main.rect(p);
            // The events' fold sign names the story where the story is
            // read (`↑ 2 events, told in the story above`); under the box
            // it is not, and the sign counts them as more above: the
            // sign's words differ, its row does not.
            let signless = |screen: &str| {
                rows(screen, r)
                    .into_iter()
                    .map(|row| match row.find('↑') {
                        Some(at) if p == Panel::Events => row[..at].to_string(),
                        _ => row,
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                signless(&q.with),
                signless(&q.without),
                "{}: the box covers {p:?}\n{}",
                q.place,
                q.with
            );
        }
    });
    assert!(checked >= 20, "only {checked} questions");
}

/// One question on screen: where, the screen with its box and without it,
/// and the main screen's layout there.
struct Shown {
    place: String,
    size: (u16, u16),
    step: usize,
    with: String,
    without: String,
    main: idem::tui::layout::Main,
}

/// Every question of each run at 80x24, 100x30 and 120x40, each answered
/// rightly before the next is asked; how many were checked.
fn each_question_asked(runs: &[(&str, &str)], mut check: impl FnMut(Shown)) -> usize {
    use idem::tui::layout;
    use ratatui::layout::Rect;
    let mut checked = 0;
    for &(name, mode) in runs {
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let mut a = app(name, mode);
            common::resize(&mut a, w, h);
            let total = a.predict.as_ref().unwrap().asked.len();
            for n in 0..total {
                if n == 0 {
                    to_question(&mut a, 0);
                } else {
                    let right = asked(&a).answer;
                    answer(&mut a, right);
                    next_question(&mut a);
                }
                let with = common::render(&a);
                let kept = a.predict.take();
                let without = common::render(&a);
                a.predict = kept;
                check(Shown {
                    place: format!("{name} {mode} at {w}x{h}, question {}", n + 1),
                    size: (w, h),
                    step: a.frame().index,
                    with,
                    without,
                    main: layout::on_screen(&a, Rect::new(0, 0, w, h)),
                });
                checked += 1;
            }
        }
    }
    checked
}

/// The rows of `screen` inside panel `r` (inside its left border).
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn rows(screen: &str, r: ratatui::layout::Rect) -> Vec<String> {
    screen
        .lines()
        .skip(usize::from(r.y))
        .take(usize::from(r.height))
        .map(|l| {
            l.chars()
                .skip(usize::from(r.x) + 1)
                .take(usize::from(r.width))
                .collect()
        })
        .collect()
}

/// A reveal mark never runs into other words: not a row's, and not a panel
/// title's when it goes up on the border (`payments✓right` read as one word).
#[test]
fn a_reveal_mark_stands_apart_from_every_word() {
    for name in ["tour-1", "tour-2", "tour-3", "tour-4", "in-progress"] {
        for mode in ["naive", "idempotent"] {
            for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
                let mut a = app(name, mode);
                let mut steps = 0;
                while steps < 400 {
                    steps += 1;
                    match a.predict.as_ref().unwrap().stage.clone() {
                        Stage::Asking { at, .. } => {
                            let right = a.predict.as_ref().unwrap().asked[at].answer;
                            answer(&mut a, right);
                        }
                        Stage::Revealed { .. } => {
                            let screen = draw(&mut a, w, h);
                            for line in screen.lines() {
                                for mark in ["✓right", "✕wrong"] {
                                    if let Some(i) = line.find(mark) {
                                        let before = line[..i].chars().last().unwrap_or(' ');
                                        assert!(
                                            !before.is_alphanumeric() && before != '$',
                                            "{name} {mode} {w}x{h}: {line}\n{screen}"
                                        );
                                    }
                                }
                            }
                            update(&mut a, Action::Next);
                        }
                        Stage::Watching => {
                            if a.pos >= a.last_pos() {
                                break;
                            }
                            update(&mut a, Action::Next)
                        }
                    }
                }
            }
        }
    }
}

/// At 80x24 the answer's key line keeps whole keys and counts the rest
/// (`? help +1`): never a key cut in its words, nor one left out unsaid.
#[test]
fn the_answer_keys_are_whole_and_counted_at_80x24() {
    let mut a = app("tour-1", "naive");
    to_question(&mut a, 0);
    let right = asked(&a).answer;
    answer(&mut a, right);
    assert!(matches!(
        a.predict.as_ref().unwrap().stage,
        Stage::Revealed { .. }
    ));
    let screen = draw(&mut a, 80, 24);
    let bottom = screen.lines().last().unwrap_or_default().trim_end();
    let bottom = bottom.trim_end_matches('"').trim_end();
    assert!(!bottom.contains('…'), "{bottom}");
    assert!(
        bottom.contains("? help +") || bottom.ends_with("quit"),
        "{bottom}"
    );
}

/// At the end of a run, the score has a place of its own: the story's
/// closing words (how the run ended, and why) stay in view exactly as
/// without predict mode, with the end's hint on the story's border, and the
/// verdict too; the score is on screen beside them. One difference: the
/// score covers the events panel, so a story that, beside those events,
/// cut the step's own line to one row (`story_own_line`) keeps it whole
/// over the score, the rest counted on its border.
#[test]
fn the_end_keeps_the_storys_closing_words_beside_the_score() {
    use idem::tui::layout;
    use ratatui::layout::Rect;
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for mode in ["naive", "idempotent"] {
            for (w, h) in [(80u16, 24u16), (100, 30), (120, 40), (160, 48)] {
                let mut a = app(name, mode);
                common::resize(&mut a, w, h);
                let n = a.predict.as_ref().unwrap().asked.len();
                for _ in 0..n {
                    to_question(&mut a, 0);
                    // Wrong answers, so the score has a list to show.
                    let said = wrong(&asked(&a));
                    answer(&mut a, said);
                }
                update(&mut a, Action::Enter);
                update(&mut a, Action::Last);
                assert!(a.pos >= a.last_pos(), "{name} {mode}: at the end");
                let with = common::render(&a);
                let kept = a.predict.take();
                let without = common::render(&a);
                a.predict = kept;
                let m = layout::on_screen(&a, Rect::new(0, 0, w, h));
                // The verdict: exactly as without predict mode.
                let r = m.rect(Panel::Verdict);
                assert_eq!(
                    rows(&with, r),
                    rows(&without, r),
                    "{name} {mode} at {w}x{h}: the score covers the verdict\n{with}"
                );
                // The story: as without predict mode, or (the one exception)
                // as with no events panel beside it; the unit test
                // `the_story_over_the_score_is_drawn_as_with_no_events_panel`
                // pins those rows exactly. Here: the same first row and
                // height, nothing cut to lean on events, the step's own
                // line whole, and what is folded counted on the border.
                let r = m.rect(Panel::Narration);
                let (story, plain) = (rows(&with, r), rows(&without, r));
                if story != plain {
                    let own = squeeze(
                        &a.theme
                            .text(&idem::sim::event::step_told(&a.frame().events)),
                    );
                    let body = squeeze(&story.join(" ").replace(['│', '|'], " "));
                    let why = format!("{name} {mode} at {w}x{h}\n{with}\n{without}");
                    assert_eq!(story.len(), plain.len(), "{why}");
                    assert_eq!(story.first(), plain.first(), "{why}: its title");
                    // Leaned on the events panel: the own line cut to a
                    // row, or given way to the closing words at the end
                    // (`closing_words_at_the_end`).
                    let flat = squeeze(&plain.join(" ").replace(['│', '|'], " "));
                    let leaned = plain.iter().any(|l| l.contains('…')) || !flat.contains(&own);
                    assert!(leaned, "{why}: not leaned");
                    assert!(body.contains(&own), "{why}: own line not whole: {own}");
                    assert!(
                        story.last().is_some_and(|b| b.contains(" more sentence")),
                        "{why}: no fold count"
                    );
                }
                assert!(
                    with.contains(&format!("{name} ({mode}): ")) && with.contains(" right"),
                    "{name} {mode} at {w}x{h}: no score\n{with}"
                );
            }
        }
    }
}

/// A question box that reaches into the SQL and events never leaves them
/// on screen without their titles (80x24: the box took the title row and
/// left the rows under it, unnamed): they are drawn again under the box,
/// titled, or the box covers them whole.
#[test]
fn a_question_box_never_hides_a_panels_title() {
    let runs = [
        ("tour-1", "naive"),
        ("tour-1", "idempotent"),
        ("in-progress", "in-progress"),
    ];
    let checked = each_question_asked(&runs, |q| {
        let step = q.step;
        for (p, titles) in [
            (Panel::Sql, vec![format!(" SQL in step {step} ")]),
            (
                Panel::Events,
                vec![
                    format!(" Events in step {step} "),
                    format!(" Events, step {step} "),
                ],
            ),
        ] {
            let r = q.main.rect(p);
            let titled = titles.iter().any(|t| q.with.contains(t.as_str()));
            let (shown, before) = (rows(&q.with, r), rows(&q.without, r));
            let dropped = shown.iter().zip(&before).all(|(a, b)| a != b);
            assert!(
                titled || dropped,
                "{}: {p:?} shown without its title\n{}",
                q.place,
                q.with
            );
        }
    });
    assert!(checked >= 15, "only {checked} questions");
}
