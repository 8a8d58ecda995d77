//! Every predict reveal of every built-in scenario and design at given
//! sizes, drawn twice: as shown, and with the reveal's mark taken away
//! (the same frame with the same change marks, predict mode off). The
//! reveal tests judge the difference.

use crate::common::{self, draw};
use crate::tui_predict::{answer, wrong};
use idem::tui::app::App;
use idem::tui::layout::{self, Main};
use idem::tui::predict::Stage;
use idem::tui::{Action, update};
use ratatui::layout::Rect;

/// One reveal on screen.
pub struct Reveal<'a> {
    pub scenario: &'a str,
    pub design: &'a str,
    pub size: (u16, u16),
    pub app: &'a App,
    /// The questions of the action revealed, first and last.
    pub from: usize,
    pub to: usize,
    /// The screen with the reveal's marks, and without them.
    pub with: String,
    pub without: String,
    pub main: Main,
}

/// Walks every reveal; questions are answered right and wrong in turn, so
/// both marks are drawn.
pub fn each_reveal(sizes: &[(u16, u16)], mut visit: impl FnMut(&Reveal<'_>)) {
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
            for &(w, h) in sizes {
                let mut a = common::app(&script.name, &design);
                update(&mut a, Action::Predict);
                common::resize(&mut a, w, h);
                let mut asked = 0;
                for _ in 0..600 {
                    let stage = a.predict.as_ref().unwrap().stage.clone();
                    match stage {
                        Stage::Asking { at, .. } => {
                            let q = a.predict.as_ref().unwrap().asked[at].clone();
                            let said = if asked % 2 == 0 { q.answer } else { wrong(&q) };
                            asked += 1;
                            answer(&mut a, said);
                        }
                        Stage::Revealed { from, to } => {
                            let with = draw(&mut a, w, h);
                            let at = a.frame_at();
                            let mut shown = a.timeline.frames[at].clone();
                            shown.changes = a.shown_frame().changes.clone();
                            let own = std::mem::replace(&mut a.timeline.frames[at], shown);
                            let kept = a.predict.take();
                            let without = common::render(&a);
                            a.predict = kept;
                            a.timeline.frames[at] = own;
                            let main = layout::on_screen(&a, Rect::new(0, 0, w, h));
                            visit(&Reveal {
                                scenario: &script.name,
                                design: &design,
                                size: (w, h),
                                app: &a,
                                from,
                                to,
                                with,
                                without,
                                main,
                            });
                            update(&mut a, Action::Next);
                        }
                        Stage::Watching => {
                            if a.pos >= a.last_pos() {
                                break;
                            }
                            update(&mut a, Action::Next);
                        }
                    }
                }
            }
        }
    }
}
