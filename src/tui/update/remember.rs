//! What the learner's progress learns from each change: where they are,
//! the scenarios they saw to the end, a predict score once every question
//! of a run has its answer. Pure: the terminal layer writes the file.

use crate::learner::Score;
use crate::tui::app::App;

pub(super) fn remember(app: &mut App) {
    // A counterexample from the explorer has no name to open again.
    if app.is_counterexample() || app.compare.is_some() {
        return;
    }
    let here = app.place();
    // A visit to the level screen is no place in a scenario: the one the
    // learner left off at stays, until they move on the main screen.
    if app.stand_in.as_ref() == Some(&here) {
        return;
    }
    app.stand_in = None;
    let name = here.scenario.clone();
    app.progress.set_last(&name, &here.design, here.step);
    if app.pos >= app.last_pos() {
        app.progress.mark_finished(&name);
    }
    if let Some(p) = &app.predict
        && p.finished()
    {
        let (right, asked) = p.score();
        app.progress.record_score(
            &name,
            Score {
                design: app.strategy.name.to_string(),
                right,
                asked,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::action::Action;
    use crate::tui::app::tests::app;
    use crate::tui::predict::Stage;
    use crate::tui::update::update;

    #[test]
    fn the_place_the_end_and_the_score_are_remembered() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Next);
        let last = a.progress.last.clone().unwrap();
        assert_eq!(
            (last.scenario.as_str(), last.design.as_str(), last.step),
            ("tour-1", "naive", 1)
        );
        assert!(!a.progress.is_finished("tour-1"));
        update(&mut a, Action::Predict);
        for _ in 0..100 {
            let stage = a.predict.as_ref().unwrap().stage.clone();
            match stage {
                // Every answer "1": a number 1 or the first choice.
                Stage::Asking { .. } => {
                    update(&mut a, Action::Digit(1));
                    update(&mut a, Action::Enter);
                }
                _ => update(&mut a, Action::Next),
            }
        }
        assert!(a.progress.is_finished("tour-1"));
        let score = a.progress.best_score("tour-1").expect("scored");
        let (right, asked) = a.predict.as_ref().unwrap().score();
        assert_eq!((score.right, score.asked), (right, asked));
        assert_eq!(asked, a.predict.as_ref().unwrap().asked.len());
    }
}
