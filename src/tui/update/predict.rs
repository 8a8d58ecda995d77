//! Keys in predict mode: the run stops before an action that asks, takes
//! the answer (a choice by its number, or digits and Enter), runs the
//! action and reveals. Anything that would step past an unanswered
//! question stops at it instead, playback included: on the step it is
//! asked at, whose story is read first; the question opens when the
//! learner goes on from there.

use super::goto;
use crate::scenario::question::Kind;
use crate::timeline::Answer;
use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};
use crate::tui::predict::{MAX_TYPED, Predict, Stage, run_of};

/// `a`: predict mode on, or off.
pub(super) fn toggle(app: &mut App) {
    if app.predict.take().is_some() {
        app.status = Some("predict mode off: a turns it on again".into());
        return;
    }
    if app.compare.is_some() {
        app.status = Some("predict mode works on one run: press c to leave compare first".into());
        return;
    }
    let asked = app.timeline.asked(&app.script);
    app.status = Some(if asked.is_empty() {
        format!(
            "predict mode on, but {} asks no questions under {}",
            app.script.name, app.strategy.name
        )
    } else {
        format!(
            "predict mode on: {} questions; the run stops before each",
            asked.len()
        )
    });
    app.predict = Some(Predict::new(run_of(&app.timeline), asked));
    app.presenter = false;
}

/// A key while a question is asked or an answer shown: `true` when it was
/// predict mode's to handle.
pub(super) fn key(app: &mut App, action: &Action) -> bool {
    if app.overlay != Overlay::None || app.compare.is_some() {
        return false;
    }
    let Some(p) = &mut app.predict else {
        return false;
    };
    match p.stage.clone() {
        Stage::Watching => false,
        Stage::Revealed { .. } => {
            p.stage = Stage::Watching;
            // Enter and Esc only close the answer; any other key goes on.
            matches!(action, Action::Enter | Action::Back)
        }
        Stage::Asking { at, mut typed } => {
            let kind = p.asked[at].kind.clone();
            let said = match (action, &kind) {
                (Action::Digit(d), Kind::Choice(_)) if *d > 0 => {
                    Some(Answer::Choice(*d as usize - 1))
                }
                (Action::Digit(d), Kind::Number { .. }) => {
                    if typed.len() < MAX_TYPED && typed != "0" {
                        typed.push(char::from(b'0' + d));
                    }
                    p.stage = Stage::Asking { at, typed };
                    return true;
                }
                (Action::Backspace, Kind::Number { .. }) => {
                    typed.pop();
                    p.stage = Stage::Asking { at, typed };
                    return true;
                }
                (Action::Enter, Kind::Number { .. }) if !typed.is_empty() => {
                    typed.parse().ok().map(Answer::Number)
                }
                // Esc puts the question away; the next step forward asks again.
                (Action::Back, _) | (Action::Prev | Action::ScrollUp, _) => {
                    p.stage = Stage::Watching;
                    if matches!(action, Action::Back) {
                        // Said, so that Esc never reads as a key that did nothing.
                        app.status = Some("question put away: → asks it again".into());
                        return true;
                    }
                    return false;
                }
                (Action::Predict | Action::Quit | Action::QuitKey | Action::Help, _) => {
                    return false;
                }
                (Action::Resize { .. } | Action::Tick { .. }, _) => return false,
                _ => None,
            };
            let Some(said) = said else {
                app.status = Some(match kind {
                    Kind::Choice(options) => format!(
                        "answer first: 1-{} chooses; Esc puts the question away",
                        options.len()
                    ),
                    Kind::Number { .. } => {
                        "answer first: type a number, then Enter; Esc puts the question away".into()
                    }
                });
                return true;
            };
            if p.answer(said).is_none() {
                app.status = Some("not one of the choices: press one of the numbers shown".into());
                return true;
            }
            match p.next_on_same_action(at) {
                Some(next) => {
                    p.stage = Stage::Asking {
                        at: next,
                        typed: String::new(),
                    }
                }
                None => {
                    // Every question of this action has its answer: run it.
                    let from = p.first_on_action(at);
                    let target = p.asked[at].answer_at;
                    p.stage = Stage::Revealed { from, to: at };
                    goto(app, target);
                }
            }
            true
        }
    }
}

/// After any change: questions that belong to the run on screen, and no
/// stepping past one without an answer.
pub(super) fn guard(app: &mut App, before: usize) {
    if app.compare.is_some() {
        return;
    }
    let Some(p) = &mut app.predict else {
        return;
    };
    let run = run_of(&app.timeline);
    if p.run != run {
        *p = Predict::new(run, app.timeline.asked(&app.script));
        return;
    }
    if p.stage != Stage::Watching || app.pos <= before {
        return;
    }
    if let Some(at) = p.passed(before, app.pos) {
        let ask_at = p.asked[at].ask_at;
        app.pos = ask_at;
        app.transition = None;
        app.playing = false;
        if ask_at > before {
            // A jump (a chapter, the end) landed on the step: its story is
            // read first, and the next → asks, as on any step walked to.
            app.status = Some("stopped here: a question comes next, → asks it".into());
            return;
        }
        // The question is drawn on the main screen: it must be in view,
        // and the room is told why its view changed.
        if app.presenter {
            app.presenter = false;
            app.status =
                Some("a question: the presenter view closed for it (p opens it again)".into());
        }
        p.stage = Stage::Asking {
            at,
            typed: String::new(),
        };
    }
}

#[cfg(test)]
mod tests {
    use crate::timeline::Answer;
    use crate::tui::action::Action;
    use crate::tui::app::tests::app;
    use crate::tui::predict::Stage;
    use crate::tui::update::update;

    /// Steps forward until a question is asked.
    fn to_question(a: &mut crate::tui::App) -> usize {
        for _ in 0..200 {
            update(a, Action::Next);
            if let Some(Stage::Asking { at, .. }) = a.predict.as_ref().map(|p| p.stage.clone()) {
                return at;
            }
        }
        panic!("no question asked");
    }

    /// Steps forward to the first question answered by a number (tour-1's
    /// payments total), answering the ones before it rightly; with how
    /// many were answered on the way.
    fn to_number_question(a: &mut crate::tui::App) -> (usize, usize) {
        let mut answered = 0;
        loop {
            let at = to_question(a);
            let answer = a.predict.as_ref().unwrap().asked[at].answer;
            let Answer::Choice(i) = answer else {
                return (at, answered);
            };
            update(a, Action::Digit(i as u8 + 1));
            answered += 1;
        }
    }

    #[test]
    fn stepping_stops_before_a_question_and_the_answer_runs_the_action() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Predict);
        let (at, before) = to_number_question(&mut a);
        let asked = a.predict.as_ref().unwrap().asked[at].clone();
        assert_eq!(
            a.pos, asked.ask_at,
            "stopped on the frame before the action"
        );
        // Nothing moves past it without an answer.
        update(&mut a, Action::Next);
        update(&mut a, Action::Last);
        assert_eq!(a.pos, asked.ask_at);
        let Answer::Number(n) = asked.answer else {
            panic!("tour-1 asks the payments total first");
        };
        for d in n.to_string().bytes() {
            update(&mut a, Action::Digit(d - b'0'));
        }
        update(&mut a, Action::Enter);
        assert_eq!(a.pos, asked.answer_at, "the action ran");
        let p = a.predict.as_ref().unwrap();
        assert!(matches!(p.stage, Stage::Revealed { .. }));
        assert_eq!(p.score(), (before + 1, before + 1));
    }

    #[test]
    fn playback_stops_at_a_question_and_a_choice_is_taken_by_number() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Predict);
        let (first, before) = to_number_question(&mut a);
        let right = a.predict.as_ref().unwrap().asked[first].answer;
        if let Answer::Number(n) = right {
            for d in n.to_string().bytes() {
                update(&mut a, Action::Digit(d - b'0'));
            }
        }
        update(&mut a, Action::Enter);
        update(&mut a, Action::Enter);
        update(&mut a, Action::PlayPause);
        for _ in 0..50 {
            update(&mut a, Action::Tick { ms: 5000 });
        }
        let p = a.predict.as_ref().unwrap();
        let Stage::Asking { at, .. } = p.stage else {
            panic!("playback ran past a question");
        };
        assert!(!a.playing);
        assert!(matches!(p.asked[at].answer, Answer::Choice(_)));
        // "no one" is the third choice (A, B is not in tour-1: A, no one).
        update(&mut a, Action::Digit(9));
        assert!(
            a.status
                .as_deref()
                .unwrap()
                .contains("not one of the choices")
        );
        update(&mut a, Action::Digit(2));
        let p = a.predict.as_ref().unwrap();
        assert_eq!(
            p.score(),
            (before + 2, before + 2),
            "the lease ran out: no one holds m-7f3"
        );
    }

    #[test]
    fn a_jump_stops_on_the_questions_step_and_the_next_step_forward_asks() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Predict);
        update(&mut a, Action::Last);
        let p = a.predict.as_ref().unwrap();
        let first = p.passed(0, usize::MAX).unwrap();
        assert_eq!(a.pos, p.asked[first].ask_at, "stopped at the question");
        assert_eq!(p.stage, Stage::Watching, "the step's story is shown first");
        assert!(a.status.as_deref().unwrap().contains("→ asks it"));
        update(&mut a, Action::Next);
        let p = a.predict.as_ref().unwrap();
        assert!(matches!(p.stage, Stage::Asking { at, .. } if at == first));
        assert_eq!(a.pos, p.asked[first].ask_at);
    }

    #[test]
    fn a_question_comes_out_of_the_presenter_view() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Predict);
        update(&mut a, Action::Presenter);
        assert!(a.presenter);
        to_question(&mut a);
        assert!(!a.presenter, "the question is on the main screen");
        let said = a.status.as_deref().unwrap_or_default();
        assert!(said.contains("presenter view closed"), "told: {said:?}");
    }

    #[test]
    fn another_design_asks_afresh() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Predict);
        to_question(&mut a);
        update(&mut a, Action::Digit(1));
        update(&mut a, Action::Enter);
        assert_eq!(a.predict.as_ref().unwrap().given.len(), 1);
        update(&mut a, Action::ToggleMode);
        let p = a.predict.as_ref().unwrap();
        assert_eq!(p.run.1, "idempotent");
        assert!(p.given.is_empty());
        update(&mut a, Action::Predict);
        assert!(a.predict.is_none());
    }
}
