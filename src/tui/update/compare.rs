//! Entering and leaving compare: the position moves to the paired frame,
//! so the same moment stays on screen.

use crate::tui::app::App;
use crate::tui::compare::Compare;

pub(super) fn toggle_compare(app: &mut App) {
    app.transition = None;
    app.zoom = false;
    app.presenter = false;
    if let Some(c) = app.compare.take() {
        app.pos = c.own_frame(app.pos, &app.strategy.name).min(app.last_pos());
        return;
    }
    match Compare::build(&app.script, &app.strategy, app.seed, &app.timeline) {
        Ok(c) => {
            let mine = app.pos;
            let left_is_mine = c.left.strategy == app.strategy.name;
            app.pos = c
                .pairs
                .iter()
                .position(|&(l, r)| if left_is_mine { l >= mine } else { r >= mine })
                .unwrap_or(c.pairs.len() - 1);
            app.compare = Some(c);
        }
        Err(e) => app.status = Some(format!("cannot compare: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::action::Action;
    use crate::tui::app::tests::app;
    use crate::tui::update::{goto, update};

    #[test]
    fn compare_steps_in_lockstep_and_returns_to_the_same_frame() {
        let mut a = app("tour-1", "idempotent");
        goto(&mut a, 5);
        update(&mut a, Action::Compare);
        let c = a.compare.as_ref().unwrap();
        assert_eq!(c.pairs[a.pos].1, 5);
        update(&mut a, Action::FirstViolation);
        assert_eq!(Some(a.pos), a.compare.as_ref().unwrap().diverge);
        update(&mut a, Action::Compare);
        assert!(a.compare.is_none());
        assert!(a.pos < a.timeline.frames.len());
    }
}
