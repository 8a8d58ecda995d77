//! Keys in the fault menu, and the fork a chosen fault makes.

use super::{goto, moved};
use crate::sim::Move;
use crate::timeline::{Fork, Timeline};
use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};
use crate::tui::{faults, layout};

pub(super) fn faults_key(app: &mut App, action: Action, selected: usize, typed: Option<u8>) {
    let items = faults::menu(app.frame());
    let n = items.len();
    if let Some(selected) = moved(&action, selected, n) {
        app.overlay = Overlay::Faults {
            selected,
            typed: None,
        };
        return;
    }
    match action {
        Action::Enter => {
            if let Some(item) = items.get(selected) {
                inject(app, item.mv.clone());
            }
        }
        // Up to nine items a digit chooses at once. A longer menu takes
        // the number typed (one or two digits) as a selection, and Enter
        // chooses it: `1` must not fire while the user means `12`.
        Action::Digit(d) if n <= 9 => {
            if let Some(item) = usize::from(d).checked_sub(1).and_then(|i| items.get(i)) {
                inject(app, item.mv.clone());
            }
        }
        Action::Digit(d) => {
            if let Some((selected, typed)) = super::typed_number::typed(n, typed, d) {
                app.overlay = Overlay::Faults { selected, typed };
            }
        }
        Action::Back | Action::Faults => app.overlay = Overlay::None,
        _ if typed.is_some() => {
            app.overlay = Overlay::Faults {
                selected,
                typed: None,
            };
        }
        Action::Click { x, y } => {
            let popup = layout::faults(app.viewport, n);
            if !popup.contains((x, y).into()) {
                app.overlay = Overlay::None;
            } else if y > popup.y && usize::from(y - popup.y - 1) < n {
                let item = &items[usize::from(y - popup.y - 1)];
                inject(app, item.mv.clone());
            }
        }
        _ => {}
    }
}

/// Acting at step k forks the run: later forks go, the new move happens
/// right after frame k, and the script carries on from there.
pub fn inject(app: &mut App, mv: Move) {
    app.overlay = Overlay::None;
    let k = app.pos;
    let mut forks = app.forks.clone();
    forks.retain(|f| f.at < k);
    forks.push(Fork { at: k, mv });
    match Timeline::build(&app.script, &app.strategy, app.seed, &forks) {
        Ok(timeline) => {
            app.timeline = timeline;
            app.forks = forks;
            goto(app, k + 1);
            app.status = Some(format!(
                "forked at step {}: the script stops and the run plays out from your move; s reloads it as written",
                k + 1
            ));
        }
        Err(e) => app.status = Some(format!("cannot do that here: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    #[test]
    fn a_long_fault_menu_takes_two_digits_then_enter() {
        let mut a = app("tour-3", "idempotent");
        goto(&mut a, 3);
        let n = faults::menu(a.frame()).len();
        assert!(n >= 10, "tour 3 offers {n} faults");
        update(&mut a, Action::Faults);
        update(&mut a, Action::Digit(1));
        assert_eq!(
            a.overlay,
            Overlay::Faults {
                selected: 0,
                typed: Some(1)
            }
        );
        update(&mut a, Action::Digit(0));
        assert_eq!(
            a.overlay,
            Overlay::Faults {
                selected: 9,
                typed: None
            }
        );
        let tenth = faults::menu(a.frame())[9].mv.clone();
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.forks.last().map(|f| &f.mv), Some(&tenth));
    }

    #[test]
    fn a_fault_forks_and_drops_later_forks() {
        let mut a = app("tour-1", "idempotent");
        goto(&mut a, 3);
        inject(
            &mut a,
            Move::LoseAck {
                consumer: "A".into(),
            },
        );
        assert_eq!(a.pos, 4);
        assert_eq!(a.frame().action, "you: lose-ack A");
        goto(&mut a, 6);
        inject(
            &mut a,
            Move::Crash {
                consumer: "A".into(),
            },
        );
        assert_eq!(a.forks.len(), 2);
        // Acting in the past again discards the later fork.
        goto(&mut a, 2);
        inject(
            &mut a,
            Move::Publish {
                message: "m-7f3".into(),
            },
        );
        assert_eq!(a.forks.len(), 1);
        assert_eq!(a.forks[0].at, 2);
        assert_eq!(a.pos, 3);
        assert!(a.status.as_deref().unwrap().contains("forked at step 3"));
        assert_eq!(a.timeline.forks, a.forks);
    }
}
