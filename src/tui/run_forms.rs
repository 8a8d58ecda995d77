//! The forms the screen keeps for a whole run, chosen over every step of
//! every design's run `m` reaches (`DesignRuns`): the header's, the
//! one-row verdict's, the provider panel's heading and the heights the
//! other designs give that panel. Choosing one walks every step of every
//! run, so it is done once per terminal size and set of runs, not at each
//! draw: `update` fills them (`update::sync_run_forms`), the view reads them.
//!
//! Every form is kept with what it was chosen for: the state it hangs on
//! (`Stamp`: the runs, the design, the forks, the header's play state…)
//! and its own arguments (the panel's size, the step `m` would land on).
//! A form asked for under anything else is not found, and the view
//! chooses it itself, as before: a draw at a size `update` never saw (a
//! test's backend) is slower, never wrong.
//!
//! The cache knows no app (issue 17: no import circles): the caller hands
//! it the state it hangs on, borrowed from the app's parts (`Now`, built
//! by `App::forms_now`).

use super::design_runs::Run;
use super::forms::{HeaderForm, ProviderForm, RowForm};
use super::overlay::Overlay;
use super::panel::Panel;
use crate::scenario::Script;
use crate::sim::Strategy;
use crate::timeline::{Fork, Timeline};
use ratatui::layout::Rect;
use std::sync::Arc;

/// What every kept form hangs on besides its own arguments; a form kept
/// under another stamp is stale.
#[derive(Clone)]
struct Stamp {
    script: Script,
    strategy: Strategy,
    seed: u64,
    forks: Vec<Fork>,
    /// The other designs' runs, held so that a run built again (after
    /// `DesignRuns` let it go) is a new run, never an old one's address.
    others: Vec<(String, Arc<Timeline>)>,
    own_design: Option<Strategy>,
    design_file: Option<String>,
    counterexample: bool,
    theme: super::theme::Theme,
    presenter: bool,
    playing: bool,
    speed: usize,
    compare: bool,
}

/// The app's state now, as a [`Stamp`] is taken of it: borrowed from
/// the app's parts by the caller (`App::forms_now`), so that a draw
/// compares in place and clones nothing.
pub struct Now<'a> {
    pub script: &'a Script,
    pub strategy: &'a Strategy,
    pub seed: u64,
    pub forks: &'a [Fork],
    /// The kept run of each other design `m` reaches (`App::other_runs`).
    pub others: Vec<Run>,
    pub own_design: &'a Option<Strategy>,
    pub design_file: &'a Option<String>,
    pub counterexample: bool,
    pub theme: super::theme::Theme,
    pub presenter: bool,
    pub playing: bool,
    pub speed: usize,
    pub compare: bool,
}

impl Stamp {
    fn of(now: &Now) -> Stamp {
        Stamp {
            script: now.script.clone(),
            strategy: now.strategy.clone(),
            seed: now.seed,
            forks: now.forks.to_vec(),
            others: now
                .others
                .iter()
                .map(|(d, run)| (d.name.to_string(), Arc::clone(run)))
                .collect(),
            own_design: now.own_design.clone(),
            design_file: now.design_file.clone(),
            counterexample: now.counterexample,
            theme: now.theme,
            presenter: now.presenter,
            playing: now.playing,
            speed: now.speed,
            compare: now.compare,
        }
    }

    /// Whether the app is in the state this stamp was taken in, compared
    /// in place (no clone at a draw).
    fn holds(&self, now: &Now) -> bool {
        let others = &now.others;
        self.seed == now.seed
            && self.presenter == now.presenter
            && self.playing == now.playing
            && self.speed == now.speed
            && self.compare == now.compare
            && self.theme == now.theme
            && self.counterexample == now.counterexample
            && self.forks == now.forks
            && self.strategy == *now.strategy
            && self.own_design == *now.own_design
            && self.design_file == *now.design_file
            && self.others.len() == others.len()
            && self
                .others
                .iter()
                .zip(others)
                .all(|((n, a), (d, b))| *n == d.name && Arc::ptr_eq(a, b))
            && self.script == *now.script
    }
}

/// A few entries of one kind of form, each under the arguments it was
/// chosen for, the oldest let go first.
#[derive(Clone)]
struct Memo<K, V> {
    kept: Vec<(K, V)>,
}

/// Sizes and steps a session goes back and forth between, with room to
/// spare.
const KEEP: usize = 32;

impl<K: PartialEq, V: Clone> Memo<K, V> {
    fn get(&self, key: &K) -> Option<V> {
        self.kept
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    fn has(&self, key: &K) -> bool {
        self.kept.iter().any(|(k, _)| k == key)
    }

    fn put(&mut self, key: K, value: V) {
        if self.has(&key) {
            return;
        }
        if self.kept.len() >= KEEP {
            self.kept.remove(0);
        }
        self.kept.push((key, value));
    }
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo { kept: Vec::new() }
    }
}

/// What the provider panel's form is chosen for besides the stamp: its
/// inner width and height, the main screen's height under `w`, the
/// heights the other designs give the panel. Kept for a step of the run
/// only: a reveal's span of steps told as one is chosen at the draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderKey {
    pub width: usize,
    pub height: usize,
    pub also: Option<usize>,
    pub others: Vec<usize>,
}

/// The screen and the step `m` would land on in each other design's
/// run: what the provider panel's heights there are kept for.
pub type Landing = (Rect, Vec<usize>);

/// Forms the view chose for `update` to keep (`view::forms_to_keep`),
/// each with what it was chosen for.
#[derive(Default)]
pub struct Chosen {
    pub header: Option<(u16, HeaderForm)>,
    pub row_form: Option<((u16, u16), RowForm)>,
    pub heights: Option<(Landing, Vec<usize>)>,
    pub provider: Option<(ProviderKey, ProviderForm)>,
}

/// The kept forms; see the module's comment.
#[derive(Clone, Default)]
pub struct RunForms {
    stamp: Option<Stamp>,
    /// The header's form and its widest right part, by the header's width.
    header: Memo<u16, HeaderForm>,
    /// The one-row verdict's form, by the verdict panel's inner size.
    rows: Memo<(u16, u16), RowForm>,
    /// The provider panel's inner height in each other design's run, by
    /// the screen and the step `m` would land on in each.
    heights: Memo<Landing, Vec<usize>>,
    provider: Memo<ProviderKey, ProviderForm>,
    /// The screen the forms were last filled for (`update::sync_run_forms`):
    /// a tick that moves nothing chooses nothing.
    pub(super) filled_for: Option<Filled>,
}

/// The screen, step, zoom, focus, reveal and overlay forms were filled for.
pub(super) type Filled = ((Rect, usize, bool, Panel), Option<(usize, usize)>, Overlay);

impl RunForms {
    /// Whether the kept forms were chosen in the state `now`.
    fn fresh(&self, now: &Now) -> bool {
        self.stamp.as_ref().is_some_and(|s| s.holds(now))
    }

    /// Lets every form go where the state `now` is not the one they were
    /// chosen in; true where they are kept.
    pub(super) fn restamp(&mut self, now: &Now) {
        if !self.fresh(now) {
            *self = RunForms {
                stamp: Some(Stamp::of(now)),
                ..Default::default()
            };
        }
    }

    pub fn header(&self, now: &Now, room: u16) -> Option<HeaderForm> {
        self.fresh(now).then(|| self.header.get(&room)).flatten()
    }

    pub fn row_form(&self, now: &Now, size: (u16, u16)) -> Option<RowForm> {
        self.fresh(now).then(|| self.rows.get(&size)).flatten()
    }

    pub fn heights(&self, now: &Now, key: &Landing) -> Option<Vec<usize>> {
        self.fresh(now).then(|| self.heights.get(key)).flatten()
    }

    pub fn provider(&self, now: &Now, key: &ProviderKey) -> Option<ProviderForm> {
        self.fresh(now).then(|| self.provider.get(key)).flatten()
    }

    pub(super) fn has_header(&self, room: u16) -> bool {
        self.header.has(&room)
    }

    pub(super) fn has_row_form(&self, size: (u16, u16)) -> bool {
        self.rows.has(&size)
    }

    pub(super) fn has_heights(&self, key: &Landing) -> bool {
        self.heights.has(key)
    }

    pub(super) fn has_provider(&self, key: &ProviderKey) -> bool {
        self.provider.has(key)
    }

    /// Keeps what the view chose (`view::forms_to_keep`).
    pub(super) fn keep(&mut self, chosen: Chosen) {
        if let Some((room, form)) = chosen.header {
            self.header.put(room, form);
        }
        if let Some((size, form)) = chosen.row_form {
            self.rows.put(size, form);
        }
        if let Some((at, heights)) = chosen.heights {
            self.heights.put(at, heights);
        }
        if let Some((key, form)) = chosen.provider {
            self.provider.put(key, form);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::app::App;
    use crate::tui::app::tests::app;
    use crate::tui::{Action, update};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;

    fn draw(app: &App) -> Buffer {
        let (w, h) = (app.viewport.width, app.viewport.height);
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
        terminal.backend().buffer().clone()
    }

    /// The screen as drawn with the forms `update` kept, against the
    /// same state drawn with none kept (every form chosen at the draw, as
    /// a fresh app's first draw at a size it never saw): a kept form that
    /// outlived what it was chosen for shows as a difference. Returns
    /// whether the two screens are the same, and whether a kept form was
    /// there to be used.
    fn same_as_fresh(app: &mut App) -> (bool, bool) {
        let kept = draw(app);
        let used = app
            .run_forms
            .header(&app.forms_now(), app.viewport.width)
            .is_some();
        let history = std::mem::take(&mut app.run_forms);
        let fresh = draw(app);
        app.run_forms = history;
        (kept == fresh, used)
    }

    /// Resizes, steps, forks, `m` round the designs, play, presenter and
    /// `w`, each screen drawn with the kept forms and without.
    #[test]
    fn kept_forms_draw_what_a_fresh_app_draws() {
        use Action::*;
        let (mut screens, mut used, mut stale) = (0, 0, Vec::new());
        for (name, mode) in [
            ("tour-4", "naive"),
            ("tour-1", "idempotent"),
            ("crash-after-provider", "naive"),
            ("ordering", "versioned"),
        ] {
            let mut a = app(name, mode);
            let moves = [
                Resize {
                    width: 80,
                    height: 24,
                },
                Next,
                Next,
                Next,
                Resize {
                    width: 100,
                    height: 30,
                },
                Next,
                Resize {
                    width: 80,
                    height: 24,
                },
                ToggleMode,
                Next,
                ToggleMode,
                ToggleMode,
                Resize {
                    width: 120,
                    height: 40,
                },
                Faults,
                Enter,
                Next,
                ToggleMode,
                Resize {
                    width: 80,
                    height: 24,
                },
                ToggleMode,
                Last,
                PlayPause,
                PlayPause,
                Why,
                Why,
                Presenter,
                Presenter,
                First,
            ];
            let n = moves.len();
            for (i, mv) in moves.into_iter().enumerate() {
                let what = format!("{name} {mode} move {i} {mv:?}");
                update(&mut a, mv);
                let (same, kept) = same_as_fresh(&mut a);
                screens += 1;
                used += usize::from(kept);
                if !same {
                    stale.push(what);
                }
            }
            // A check that never met a kept form could not fail.
            assert!(used > n / 2, "{name}: kept forms used {used} of {n} times");
            used = 0;
        }
        assert!(
            stale.is_empty(),
            "{} of {screens} screens drawn with stale forms: {stale:#?}",
            stale.len()
        );
    }
}
