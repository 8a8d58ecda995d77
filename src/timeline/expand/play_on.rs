//! Past the script's last action. A schedule found for one design (a
//! counterexample) ends where that design went wrong; the same moves under
//! another design can leave it mid-way, a handler half done. To say how
//! that design ends, the run goes on the way it does after the user's move
//! (`play_out`): nothing more goes wrong, and every message settles.

use super::{Run, Sink};
use crate::scenario::Action;
use crate::sim::{Move, SimError};
use crate::timeline::play_out::{self, PLAY_OUT_LIMIT};

/// The chapter's title, as the compare header shows it.
pub const TITLE: &str = "played on to the end";

impl<S: Sink> Run<'_, S> {
    /// Goes on from the script's last action until every message is
    /// settled and every consumer idle. A run the user changed has been
    /// played out already; a run that ended settled makes no frame more.
    pub fn play_on(&mut self) -> Result<(), SimError> {
        if self.forked() {
            return Ok(());
        }
        // The handler that moved last keeps going, as in the play-out:
        // each delivery then reads as one story.
        self.last_stepped = self
            .script
            .steps
            .iter()
            .flat_map(|s| &s.actions)
            .rev()
            .find_map(|a| match a {
                Action::Move(Move::Step { consumer }) | Action::Run { consumer, .. } => {
                    Some(consumer.clone())
                }
                Action::Move(_) => None,
            });
        for i in 0..PLAY_OUT_LIMIT {
            let Some(mv) = play_out::next_move(&self.world, self.last_stepped.as_deref()) else {
                break;
            };
            if i == 0 {
                self.begin_play_on();
            }
            if let Move::Step { consumer } = &mv {
                self.last_stepped = Some(consumer.clone());
            }
            self.world.apply(&mv)?;
            self.push(mv.written())?;
            if i == 0 {
                // The paragraph once; after it each step is told by its
                // own events, under a reminder of where the run is.
                self.narration = "Played on past the script's end: nothing more goes wrong.".into();
            }
        }
        Ok(())
    }

    /// A chapter of its own, numbered after the script's last, so that it
    /// never pairs with one of the script's chapters.
    fn begin_play_on(&mut self) {
        self.chapter = self.script.steps.len() + 1;
        self.chapters.push(self.made);
        self.action_index = 0;
        self.title = TITLE.into();
        self.borrowed = None;
        self.narration = "The script's moves end here, before this run has settled. It goes on \
             with nothing more going wrong: each handler finishes what it started, a crashed \
             consumer restarts, an idle one takes what the queue shows it, and when only a \
             lease can bring a message back, the clock runs on to its deadline. It stops once \
             every message is settled."
            .into();
    }
}
