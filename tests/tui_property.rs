//! Random key sequences (with resizes, clicks and the fault menu) through
//! `update` and a full render: nothing panics, positions stay in range, and
//! the idempotent design, on a scenario meant to show it safe, is never
//! shown charging twice, whatever the user breaks.

use crate::common::check::report;
use crate::common::{self, render};
use idem::scenario::load::builtins;
use idem::sim::{Outcome, Strategy as Design};
use idem::tui::explorer::Explored;
use idem::tui::{Action, App, Effect, Options, update};
use proptest::prelude::*;

fn action() -> impl proptest::strategy::Strategy<Value = Action> {
    prop_oneof![
        8 => Just(Action::Next),
        3 => Just(Action::Prev),
        1 => Just(Action::NextChapter),
        1 => Just(Action::PrevChapter),
        1 => Just(Action::First),
        1 => Just(Action::Last),
        1 => Just(Action::PlayPause),
        1 => Just(Action::Faster),
        1 => Just(Action::Slower),
        2 => Just(Action::ToggleMode),
        1 => Just(Action::Compare),
        1 => Just(Action::Picker),
        4 => Just(Action::Faults),
        1 => Just(Action::FirstViolation),
        2 => Just(Action::Explore),
        1 => Just(Action::Help),
        1 => Just(Action::FocusNext),
        1 => Just(Action::FocusPrev),
        1 => Just(Action::Zoom),
        2 => Just(Action::Up),
        2 => Just(Action::Down),
        3 => Just(Action::Enter),
        1 => Just(Action::Back),
        1 => Just(Action::ScrollUp),
        1 => Just(Action::ScrollDown),
        3 => (1u8..=9).prop_map(Action::Digit),
        2 => (0u16..200, 0u16..60).prop_map(|(x, y)| Action::Click { x, y }),
        2 => (1u16..200, 1u16..60).prop_map(|(width, height)| Action::Resize { width, height }),
        2 => (0u64..3000).prop_map(|ms| Action::Tick { ms }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_sessions_never_break_the_screen(
        start in 0usize..4,
        idempotent in any::<bool>(),
        animation in any::<bool>(),
        actions in proptest::collection::vec(action(), 1..60),
    ) {
        let script = builtins().into_iter().nth(start).unwrap();
        let strategy = if idempotent { Design::idempotent() } else { Design::naive() };
        let mut app = App::new(
            script,
            strategy,
            0,
            Options { animation, ..common::plain() },
        )
        .unwrap();
        update(&mut app, Action::Resize { width: 120, height: 40 });
        for a in actions {
            update(&mut app, a);
            // What the terminal layer does with the request, at once.
            if app.pending.take() == Some(Effect::Explore) {
                update(&mut app, Action::ExploreDone(Explored::new(Ok(report().clone()))));
            }
            prop_assert!(app.pos <= app.last_pos());
            let screen = render(&app);
            let safe_here = app
                .script
                .expect
                .get("idempotent")
                .is_some_and(|e| e.outcomes == Some(vec![Outcome::Correct]));
            if app.strategy.name == "idempotent" && app.compare.is_none() && safe_here {
                prop_assert_ne!(
                    app.frame().verdict.outcome,
                    Outcome::ChargedTwice,
                    "forks {:?}",
                    app.forks
                );
                prop_assert!(!screen.contains("✕ charged twice"), "{}", screen);
            }
        }
    }
}
