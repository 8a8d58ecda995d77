//! Keys on the main screen (and on compare, which shares its stepping):
//! stepping, chapters, playback, the design, and the ways into the overlays.

use super::compare::toggle_compare;
use super::design::toggle_mode;
use super::explorer::open_explorer;
use super::goto;
use super::tour::{next_tour_scenario, prev_tour_scenario};
use crate::tui::action::Action;
use crate::tui::app::{App, Effect, Overlay, Panel, SPEEDS, seconds_per_step};
use crate::tui::compare::Sides;
use crate::tui::compare_section::Section;
use crate::tui::layout;

pub(super) fn main_key(app: &mut App, action: Action) {
    match action {
        Action::Next | Action::ScrollDown => goto(app, app.pos + 1),
        Action::Prev | Action::ScrollUp => goto(app, app.pos.saturating_sub(1)),
        Action::NextChapter => match app.chapter_starts().into_iter().find(|&s| s > app.pos) {
            Some(target) => goto(app, target),
            // The last chapter: its end first, where the verdict is.
            None if app.pos < app.last_pos() => goto(app, app.last_pos()),
            None => next_tour_scenario(app),
        },
        Action::PrevChapter if app.pos == 0 => prev_tour_scenario(app),
        Action::PrevChapter => {
            let target = app
                .chapter_starts()
                .into_iter()
                .rfind(|&s| s < app.pos)
                .unwrap_or(0);
            goto(app, target);
        }
        Action::First => goto(app, 0),
        Action::Last => goto(app, app.last_pos()),
        Action::PlayPause => {
            if app.playing {
                app.playing = false;
            } else {
                if app.pos >= app.last_pos() {
                    app.pos = 0;
                    app.transition = None;
                }
                app.playing = true;
                app.play_ms = 0;
            }
        }
        Action::Faster | Action::Slower => {
            app.speed = if matches!(action, Action::Faster) {
                (app.speed + 1).min(SPEEDS.len() - 1)
            } else {
                app.speed.saturating_sub(1)
            };
            app.status = Some(format!(
                "playback: one step every {}",
                seconds_per_step(app.speed)
            ));
        }
        Action::ToggleMode => toggle_mode(app),
        Action::Compare => toggle_compare(app),
        Action::CompareEngines => super::compare_engines::toggle_engines(app),
        Action::Picker => {
            let selected = app
                .scripts
                .iter()
                .position(|s| s.name == app.script.name)
                .unwrap_or(0);
            app.playing = false;
            app.overlay = Overlay::Picker {
                selected,
                typed: None,
            };
        }
        Action::Faults => {
            if app.compare.is_some() {
                app.status = Some("faults act on one run: press c to leave compare first".into());
            } else {
                app.playing = false;
                app.overlay = Overlay::Faults {
                    selected: 0,
                    typed: None,
                };
            }
        }
        Action::FirstViolation => first_violation(app),
        Action::Explore => open_explorer(app),
        Action::Help => {
            app.help_scroll = 0;
            app.overlay = Overlay::Help;
        }
        Action::FocusNext | Action::FocusPrev
            if let Some(c) = app.compare.as_mut().filter(|c| c.sides == Sides::Designs) =>
        {
            c.section = Some(Section::after(
                c.section,
                matches!(action, Action::FocusNext),
            ));
        }
        Action::FocusNext | Action::FocusPrev => {
            let all = Panel::ALL;
            let i = all.iter().position(|p| *p == app.focus).unwrap_or(0);
            let n = all.len();
            let j = if matches!(action, Action::FocusNext) {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            };
            app.focus = all[j];
        }
        Action::Zoom => match app.compare.as_mut() {
            None => app.zoom = !app.zoom,
            // The picked section fills each side; with none picked yet,
            // the first, and Tab goes on from there.
            Some(c) if c.sides == Sides::Designs => {
                app.zoom = !app.zoom;
                if app.zoom && c.section.is_none() {
                    c.section = Some(Section::ALL[0]);
                }
            }
            Some(_) => {}
        },
        Action::Why => super::why::why(app),
        Action::Export => app.pending = Some(Effect::Export),
        Action::Levels => super::levels::open_levels(app),
        Action::Presenter => {
            let on = !app.presenter;
            if app.compare.is_some() {
                toggle_compare(app);
            }
            app.presenter = on;
        }
        Action::Back => {
            // A replay from the explorer says "Esc back to the explorer"
            // on its note: Esc goes there from the presenter view too, not
            // only out of it (teacher trial), and the explorer's table
            // comes back on the usual screen.
            if app.presenter {
                // Off either way; back to the table where there is one.
                super::explorer::back_to_explorer(app);
                app.presenter = false;
            } else if app.zoom {
                app.zoom = false;
            } else if app.compare.is_some() {
                toggle_compare(app);
            } else if !super::explorer::back_to_explorer(app) {
                app.status = Some("Esc closes menus and views; q quits".into());
            }
        }
        Action::Click { x, y } => {
            if app.compare.is_none() && !app.presenter {
                // The layout the screen was drawn with: a click lands on
                // the panel drawn there, at a step without SQL too.
                if let Some(p) = layout::on_screen(app, app.viewport).hit(x, y) {
                    // Under `w` the panels above the verdict show too: a
                    // click on one leaves `w` for it, rather than fill the
                    // screen with it.
                    if app.zoom && p != app.focus {
                        app.zoom = false;
                    }
                    app.focus = p;
                }
            }
        }
        Action::Up
        | Action::Predict
        | Action::Backspace
        | Action::Down
        | Action::Enter
        | Action::Digit(_)
        | Action::Proved(_)
        | Action::Remove
        | Action::MoveUp
        | Action::MoveDown
        | Action::Reset
        | Action::Quit
        | Action::QuitKey
        | Action::ExploreDone(_)
        | Action::Exported(_)
        | Action::Resize { .. }
        | Action::Tick { .. } => {}
    }
}

pub(super) fn first_violation(app: &mut App) {
    let found = match &app.compare {
        Some(c) => c.diverge,
        None => app.timeline.first_violation(),
    };
    match found {
        Some(i) => {
            app.playing = false;
            app.transition = None;
            app.pos = i;
        }
        None if app
            .compare
            .as_ref()
            .is_some_and(|c| c.sides == Sides::Engines) =>
        {
            app.status =
                Some("the two engines make the same consumers wait at the same steps here".into());
        }
        None if app.compare.is_some() => {
            app.status = Some("the two designs never part ways in this scenario".into());
        }
        None => {
            app.status = Some(format!(
                "nothing goes wrong in this run under {}",
                app.strategy.name
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    #[test]
    fn chapters_jump_to_their_first_frame() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::NextChapter);
        assert_eq!(a.pos, a.timeline.chapters[1]);
        assert_eq!(a.frame().chapter, 1);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.pos, a.timeline.chapters[2]);
        update(&mut a, Action::Next);
        update(&mut a, Action::PrevChapter);
        assert_eq!(
            a.pos, a.timeline.chapters[2],
            "back to this chapter's start"
        );
        update(&mut a, Action::PrevChapter);
        assert_eq!(a.pos, a.timeline.chapters[1]);
    }

    #[test]
    fn escape_only_closes_and_q_quits_only_from_the_main_screen() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Help);
        assert_eq!(a.overlay, Overlay::Help);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
        assert!(!a.quit);
        update(&mut a, Action::Back);
        assert!(!a.quit, "Esc on the main screen does not quit");
        assert!(a.status.as_deref().unwrap().contains("q quits"));
        update(&mut a, Action::Picker);
        update(&mut a, Action::QuitKey);
        assert_eq!(a.overlay, Overlay::None, "q closes the picker");
        assert!(!a.quit);
        update(&mut a, Action::QuitKey);
        assert!(a.quit);
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Faults);
        update(&mut a, Action::Quit);
        assert!(a.quit, "Ctrl-C quits from anywhere");
    }

    #[test]
    fn first_violation_jumps_or_explains() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::FirstViolation);
        assert_eq!(Some(a.pos), a.timeline.first_violation());
        assert!(a.frame().verdict.outcome.is_failure());
        let mut a = app("tour-1", "idempotent");
        update(&mut a, Action::FirstViolation);
        assert_eq!(a.pos, 0);
        assert!(a.status.is_some());
    }

    #[test]
    fn clicks_focus_the_panel_under_the_pointer() {
        let mut a = app("tour-1", "naive");
        update(
            &mut a,
            Action::Resize {
                width: 120,
                height: 40,
            },
        );
        let m = layout::main(a.viewport, None);
        let r = m.rect(Panel::Provider);
        update(
            &mut a,
            Action::Click {
                x: r.x + 1,
                y: r.y + 1,
            },
        );
        assert_eq!(a.focus, Panel::Provider);
    }
}
