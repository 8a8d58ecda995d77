//! What `update` keeps current after every action for the view to read:
//! the other designs' runs (`DesignRuns`) and the forms chosen over them
//! (`RunForms`). Here, not in the app, because choosing a form is the
//! view's (`view::forms_to_keep`), and the app knows no view (issue 17:
//! no import circles).

use super::super::app::App;
use super::super::{reveal, view};

/// Chooses the forms the screen draws over every design's run that are
/// not kept yet for this state and size (`RunForms`), letting go of those
/// chosen in another state: `update` calls it after every action, after
/// `sync_design_runs`.
pub fn sync_run_forms(app: &mut App) {
    let mut forms = std::mem::take(&mut app.run_forms);
    forms.restamp(&app.forms_now());
    let here = (app.viewport, app.pos, app.zoom, app.focus);
    let here = (here, reveal::action_steps(app), app.overlay.clone());
    if forms.filled_for.as_ref() != Some(&here) {
        forms.keep(view::forms_to_keep(app, app.viewport, &forms));
        forms.filled_for = Some(here);
    }
    app.run_forms = forms;
}

/// What `update` keeps after every action, for a caller that moves the
/// app by hand (`record` steps one app through a run).
pub fn sync_kept(app: &mut App) {
    app.sync_design_runs();
    sync_run_forms(app);
}
