//! What the main screen shows while a predict answer is revealed: the
//! answer's frame, marked with what the whole action changed (from the
//! frame the question was asked on), not only its last step, and with the
//! SQL and events of every step the action took. An action such as "run A to
//! commit" takes several steps, and the charge or commit a question is
//! about may come before the last; the answer must come with it marked.

use crate::sim::Frame;
use crate::sim::change::Changes;
use crate::tui::app::App;
use crate::tui::predict::Stage;
use std::borrow::Cow;

/// The steps of the action whose answers are shown, first and last, when
/// the frame on screen is that action's last and it took more than one.
pub fn action_steps(app: &App) -> Option<(usize, usize)> {
    let p = app.predict.as_ref()?;
    let Stage::Revealed { from, .. } = p.stage else {
        return None;
    };
    let asked = p.asked.get(from)?;
    let first = asked.ask_at + 1;
    (app.compare.is_none() && app.frame_at() == asked.answer_at && asked.answer_at > first)
        .then_some((first, asked.answer_at))
}

impl App {
    /// The frame the main screen draws: the frame at the position, or at
    /// a reveal after an action of several steps, that frame with the
    /// action's changes, statements and events: the second INSERT a
    /// question is about may be sent a step before the last.
    pub fn shown_frame(&self) -> Cow<'_, Frame> {
        let Some((first, last)) = action_steps(self) else {
            return Cow::Borrowed(self.frame());
        };
        let frames = &self.timeline.frames;
        let mut f = frames[last].clone();
        // The handler step marked is still the one the last step ran: one
        // step is "this step" in the service panel, and it is that one.
        let steps = std::mem::take(&mut f.changes.steps);
        f.changes = Changes::between(&frames[first - 1], &frames[last]);
        f.changes.steps = steps;
        f.sql = frames[first..=last]
            .iter()
            .flat_map(|f| f.sql.iter().cloned())
            .collect();
        f.events = frames[first..=last]
            .iter()
            .flat_map(|f| f.events.iter().cloned())
            .collect();
        Cow::Owned(f)
    }
}
