//! The event a revealed question is about. A question names a figure
//! (`scenario::question::Subject`); the party that holds the figure is
//! the one whose event changed it: the provider for its charges and
//! answers, the broker for a message's lease, place and deliveries. At a
//! reveal that event is kept whole
//! in the events panel under the answer's box (trial, tour-1 naive
//! question 3 at 100x30: the box left the panel two rows, and the
//! provider's charge the question asked about was folded under a count).

use crate::scenario::question::Subject;
use crate::sim::{Actor, Frame};
use crate::tui::app::App;
use crate::tui::predict::Stage;

/// Whether `actor` is the party whose event a question on `subject` is
/// about. A database figure has none: several of a consumer's events
/// (an insert, a commit, a rollback) move it, and the row itself is the
/// evidence, marked in the database panel by the reveal.
fn holds(subject: &Subject, actor: &Actor) -> bool {
    match subject {
        Subject::ProviderCharges | Subject::ChargesAgain | Subject::ProviderAnswer => {
            *actor == Actor::Provider
        }
        Subject::Holder(_) | Subject::MessageState(_) | Subject::Deliveries(_) => {
            *actor == Actor::Broker
        }
        Subject::PaymentsTotal
        | Subject::PaymentsRows
        | Subject::PaymentsRowsAny
        | Subject::ProcessedRows
        | Subject::ProcessedRowsAny => false,
    }
}

/// The subject event of `subject` among `f`'s events: the last one by
/// the party that holds its figure, the event that left the figure as the
/// answer gives it. None where that party did nothing in the action (no
/// call reached the provider: the answer says so itself).
pub fn subject_event(subject: &Subject, f: &Frame) -> Option<usize> {
    f.events.iter().rposition(|e| holds(subject, &e.actor))
}

/// At a reveal, the events of the frame on screen (`App::shown_frame`)
/// that the questions revealed are about, each once, in order; empty at
/// any other time.
pub fn revealed(app: &App, f: &Frame) -> Vec<usize> {
    let Some(p) = &app.predict else {
        return Vec::new();
    };
    let Stage::Revealed { from, to } = p.stage else {
        return Vec::new();
    };
    let mut at: Vec<usize> = (from..=to)
        .filter_map(|i| p.asked.get(i))
        .filter_map(|q| subject_event(&q.question.subject, f))
        .collect();
    at.sort_unstable();
    at.dedup();
    at
}
