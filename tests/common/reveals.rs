//! Every predict reveal of every built-in scenario and design at given
//! sizes, drawn twice: as shown, and with the reveal's mark taken away
//! (the same frame with the same change marks, predict mode off). The
//! reveal tests judge the difference.

use crate::common::sweep::SIZES;
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
    pub with: &'a str,
    pub without: &'a str,
    pub main: &'a Main,
}

/// A reveal as the walk met it, kept for the test binary: the app as it
/// stood there (a copy), and its screens with and without the marks.
struct Kept {
    scenario: String,
    design: String,
    size: (u16, u16),
    app: App,
    from: usize,
    to: usize,
    with: String,
    without: String,
    main: Main,
}

/// Walks every reveal; questions are answered right and wrong in turn, so
/// both marks are drawn. The reveals at each of `sweep::SIZES` are walked
/// once for the test binary, whichever test asks first: several tests
/// judge the same reveals, and drawing them is most of their time.
pub fn each_reveal(sizes: &[(u16, u16)], mut visit: impl FnMut(&Reveal<'_>)) {
    use std::sync::OnceLock;
    static KEPT: [OnceLock<Vec<Kept>>; SIZES.len()] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    for &size in sizes {
        let fresh;
        let kept = match SIZES.iter().position(|&s| s == size) {
            Some(i) => KEPT[i].get_or_init(|| walk(size)),
            None => {
                fresh = walk(size);
                &fresh
            }
        };
        for k in kept {
            visit(&Reveal {
                scenario: &k.scenario,
                design: &k.design,
                size: k.size,
                app: &k.app,
                from: k.from,
                to: k.to,
                with: &k.with,
                without: &k.without,
                main: &k.main,
            });
        }
    }
}

/// Every reveal at one size, in the walk's order: scenario, design, step.
fn walk((w, h): (u16, u16)) -> Vec<Kept> {
    let mut kept = Vec::new();
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
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
                        let kept_predict = a.predict.take();
                        let without = common::render(&a);
                        a.predict = kept_predict;
                        a.timeline.frames[at] = own;
                        kept.push(Kept {
                            scenario: script.name.clone(),
                            design: design.clone(),
                            size: (w, h),
                            main: layout::on_screen(&a, Rect::new(0, 0, w, h)),
                            app: a.clone(),
                            from,
                            to,
                            with,
                            without,
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
    kept
}
