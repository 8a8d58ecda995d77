//! `w`: the verdict with every cause of its chain in one key, where a
//! small screen gives it one row and counts the causes (Tab would reach it
//! only after every panel before it). Left again, by `w`, `z` or Esc, the
//! screen is as it was: a teacher trial at 80x24 pressed `w` twice and
//! `z` then enlarged the verdict, not the story it had enlarged before,
//! whose hint had quietly become `· click, z`.

use crate::tui::app::{App, Panel};
use crate::tui::compare::Sides;
use crate::tui::compare_section::Section;
use crate::tui::why_from::WhyFrom;

pub(super) fn why(app: &mut App) {
    let from = WhyFrom {
        focus: app.focus,
        presenter: app.presenter,
        section: app.compare.as_ref().and_then(|c| c.section),
    };
    match app.compare.as_mut() {
        // Each side's outcome section holds its verdict and causes.
        Some(c) if c.sides == Sides::Designs => {
            let open = app.zoom && c.section == Some(Section::Outcome);
            if !open {
                app.why_from = Some(from);
            }
            c.section = Some(Section::Outcome);
            app.zoom = !open;
        }
        Some(_) => {
            app.status =
                Some("w reads one run's verdict: press E to leave the engines first".into());
        }
        None => {
            let open = app.zoom && app.focus == Panel::Verdict && !app.presenter;
            if !open {
                app.why_from = Some(from);
            }
            app.presenter = false;
            app.focus = Panel::Verdict;
            app.zoom = !open;
        }
    }
}

/// After every action: where the verdict `w` enlarged is no longer
/// enlarged, and nothing else has been picked in its place (Tab, a
/// click), the screen gets back what `w` found.
pub(super) fn left(app: &mut App) {
    let Some(from) = app.why_from else {
        return;
    };
    let section = app.compare.as_ref().and_then(|c| c.section);
    let open = app.zoom
        && match app.compare {
            Some(_) => section == Some(Section::Outcome),
            None => app.focus == Panel::Verdict,
        };
    if open {
        return;
    }
    app.why_from = None;
    if app.zoom {
        // Another panel or section enlarged: the user moved on.
        return;
    }
    if let Some(c) = app.compare.as_mut() {
        if c.section == Some(Section::Outcome) {
            c.section = from.section;
        }
    } else if app.focus == Panel::Verdict {
        app.focus = from.focus;
        app.presenter = from.presenter;
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::action::Action;
    use crate::tui::app::Panel;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    #[test]
    fn tab_while_the_verdict_is_enlarged_keeps_the_panel_it_went_to() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Why);
        update(&mut a, Action::FocusNext);
        assert!(a.zoom);
        let went = a.focus;
        assert_ne!(went, Panel::Verdict);
        update(&mut a, Action::Zoom);
        assert_eq!(a.focus, went);
    }

    #[test]
    fn esc_and_z_leave_the_verdict_as_w_does() {
        for leave in [Action::Back, Action::Zoom, Action::Why] {
            let mut a = app("tour-1", "naive");
            let before = a.focus;
            update(&mut a, Action::Why);
            assert_eq!(a.focus, Panel::Verdict);
            update(&mut a, leave.clone());
            assert!(!a.zoom);
            assert_eq!(a.focus, before, "{leave:?}");
        }
    }
}
