//! Keys in the scenario picker.

use super::{moved, on_this_engine, open};
use crate::tui::action::Action;
use crate::tui::app::{App, Overlay, PickerRow, opening_design};
use crate::tui::layout;

pub(super) fn picker_key(app: &mut App, action: Action, selected: usize, typed: Option<u8>) {
    let n = app.scripts.len();
    if let Some(selected) = moved(&action, selected, n) {
        app.overlay = Overlay::Picker {
            selected,
            typed: None,
        };
        return;
    }
    match action {
        Action::Enter => load(app, selected),
        // With more than nine scenarios a number can take two digits: the
        // first moves the highlight there and waits; Enter opens.
        Action::Digit(d) => {
            if let Some((selected, typed)) = super::typed_number::typed(n, typed, d) {
                app.overlay = Overlay::Picker { selected, typed };
            }
        }
        Action::Back | Action::Picker => app.overlay = Overlay::None,
        Action::Click { x, y } => {
            let rows = app.picker_rows();
            let selected_row = rows
                .iter()
                .position(|r| *r == PickerRow::Script(selected))
                .unwrap_or(0);
            let (popup, list, offset) = layout::picker_list(app.viewport, rows.len(), selected_row);
            if !popup.contains((x, y).into()) {
                app.overlay = Overlay::None;
            } else if list.contains((x, y).into()) {
                let row = offset + usize::from(y - list.y);
                if let Some(PickerRow::Script(i)) = rows.get(row) {
                    load(app, *i);
                }
            }
        }
        _ => {}
    }
}

pub(super) fn load(app: &mut App, index: usize) {
    let Some(script) = app.scripts.get(index).cloned() else {
        return;
    };
    let script = on_this_engine(app, script);
    // A scenario opens in the design it is written for.
    let strategy = opening_design(&script).unwrap_or_else(|| app.strategy.clone());
    let switched = strategy.name != app.strategy.name;
    let name = strategy.name.clone();
    if open(app, script, strategy) && switched {
        app.status = Some(format!(
            "design {name}: the one this scenario is written for (m: next design)"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    #[test]
    fn two_digits_choose_a_scenario_past_nine_and_enter_opens_it() {
        let mut a = app("tour-1", "idempotent");
        a.overlay = Overlay::Picker {
            selected: 0,
            typed: None,
        };
        update(&mut a, Action::Digit(1));
        update(&mut a, Action::Digit(2));
        assert!(matches!(a.overlay, Overlay::Picker { selected: 11, .. }));
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.script.name, a.scripts[11].name);
        // One digit that cannot start a two-digit number chooses at once.
        a.overlay = Overlay::Picker {
            selected: 0,
            typed: None,
        };
        update(&mut a, Action::Digit(7));
        assert_eq!(
            a.overlay,
            Overlay::Picker {
                selected: 6,
                typed: None
            }
        );
    }

    #[test]
    fn scenarios_open_in_their_own_design() {
        // A design the scenario lacks gives way to its own.
        let a = app("charge-first", "naive");
        assert_eq!(a.strategy.name, "charge-first");
        assert!(a.status.is_some());
        // The picker opens each scenario in `script.design()`.
        let mut a = app("tour-1", "naive");
        for i in 0..a.scripts.len() {
            update(&mut a, Action::Picker);
            update(&mut a, Action::Back);
            load(&mut a, i);
            assert_eq!(a.strategy.name, a.scripts[i].design(), "{}", a.script.name);
            assert_eq!(a.timeline.strategy, a.strategy.name);
        }
    }

    #[test]
    fn picker_loads_a_scenario_at_its_start() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Last);
        update(&mut a, Action::Picker);
        update(&mut a, Action::Down);
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.script.name, "tour-2");
        assert_eq!(a.pos, 0);
        assert_eq!(a.strategy.name, "naive", "the problem before the fix");
    }
}
