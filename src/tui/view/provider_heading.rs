//! The provider panel's heading: `charges made 2 ($80)  * was 1` (or
//! `charges 1→2 $80`), with what is folded away after it (`…1 hidden`
//! charges, `keys 0`). Its form is chosen once for a whole run at one
//! panel size (`run_form`): a teacher's class saw `charges 1 ($40)  * was
//! 0`, then `charges 1→2 $80 keys 0`, then `charges 2 $80 keys 0` in one
//! run at 80x24, the same figure relabelled from step to step. The step
//! with the most to say (two charges, a moved count, the empty key store
//! folded in) chooses the form for every step, of this run and of every
//! other design's run `m` reaches (`provider::run_lines_beside`), so that
//! switching design at a moment does not relabel the figures either.

use super::marks;
use super::provider_fold::Folded;
use super::run_form;
use crate::sim::Frame;
pub use crate::tui::forms::HeadForm;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// What a step's heading says: the figures, the count moved from, and
/// what the panel folds away.
pub struct Said {
    pub n: usize,
    pub total: u64,
    pub was: Option<usize>,
    pub folded: Folded,
}

impl Said {
    pub fn of(f: &Frame, folded: Folded) -> Said {
        Said {
            n: f.provider.charges.len(),
            total: f.provider.total_charged,
            was: f.changes.charges_was,
            folded,
        }
    }
}

/// The forms of the figures after the label; the last has no label.
const COUNTS: usize = 4;

/// The heading's form whose dollar figure has no brackets to hold it
/// apart from a mark after it.
const BARE_DOLLAR: usize = 2;

/// The mark forms: three after the figures and the old count before.
const TIERS: usize = 4;
const ARROW: usize = TIERS - 1;

/// The sign forms at most (`Folded::signs`).
const SIGNS: usize = 4;

impl HeadForm {
    /// Every form, richest first: the mark of a moved count gives way to
    /// its tighter forms (its old value kept) before the sign of what is
    /// folded loses its words; the old count before the new (`1→2`) only
    /// where no sign fits beside a mark. A mark after a bare dollar figure
    /// (`$80 *was 1`) read as "$80, was 1": beside it, the old count
    /// stands before the new. Then, where none keeps room for a mark, the
    /// forms that fit as drawn, the label last of all.
    fn all() -> Vec<HeadForm> {
        let mut out = Vec::new();
        for tiers in [0..ARROW, ARROW..TIERS] {
            for sign in 0..SIGNS {
                for tier in tiers.clone() {
                    for count in 0..COUNTS - 1 {
                        let tier = if count == BARE_DOLLAR { ARROW } else { tier };
                        out.push(HeadForm {
                            count,
                            tier,
                            sign,
                            roomy: true,
                        });
                    }
                }
            }
        }
        for counts in [0..COUNTS - 1, COUNTS - 1..COUNTS] {
            for sign in 0..SIGNS {
                for count in counts.clone() {
                    out.push(HeadForm {
                        count,
                        tier: ARROW,
                        sign,
                        roomy: false,
                    });
                }
            }
        }
        out
    }

    /// The richest form in which the heading of every step in `run` fits
    /// `width`; `None` where none does, and each step takes
    /// [`HeadForm::at_step`].
    pub fn of_run(t: &Theme, run: &[Said], width: usize) -> Option<HeadForm> {
        let fits = |form: HeadForm, s: &Said| form.width(t, s) <= width;
        run_form::widest(HeadForm::all(), run, fits)
    }

    /// The richest form that fits the step `now` alone (cut to the width
    /// where none does).
    pub fn at_step(t: &Theme, now: &Said, width: usize) -> HeadForm {
        let all = HeadForm::all();
        all.iter()
            .copied()
            .find(|&form| form.width(t, now) <= width)
            .unwrap_or(all[all.len() - 1])
    }

    /// [`HeadForm::of_run`] for `run`, kept to the richest form that also
    /// fits every step of `beside` (the same run at another height)
    /// where one fits both.
    pub fn of_both(t: &Theme, run: &[Said], beside: &[Said], width: usize) -> Option<HeadForm> {
        let fits = |form: HeadForm, s: &Said| form.width(t, s) <= width;
        let both: Vec<&Said> = run.iter().chain(beside).collect();
        run_form::widest(HeadForm::all(), &both, |form, s| fits(form, s))
            .or_else(|| HeadForm::of_run(t, run, width))
    }

    /// The width this form takes at the step `s`, with the room it keeps
    /// for a mark.
    fn width(&self, t: &Theme, s: &Said) -> usize {
        let l = self.line(t, s).width();
        match (s.was, self.roomy) {
            (None, true) => {
                l + moved_forms(t, s.n.saturating_sub(1))[self.tier]
                    .span()
                    .width()
            }
            _ => l,
        }
    }

    /// The heading at the step `s` in this form.
    fn line(&self, t: &Theme, s: &Said) -> Line<'static> {
        let (n, total) = (s.n, s.total);
        let (label, count) = match self.count {
            0 => ("charges made ", format!("{n} (${total})")),
            1 => ("charges ", format!("{n} (${total})")),
            2 => ("charges ", format!("{n} ${total}")),
            _ => ("", format!("{n} ${total}")),
        };
        let style = if n > 1 { t.bad() } else { t.title() };
        let mut spans = vec![Span::styled(label, t.title()), Span::styled(count, style)];
        match s.was.map(|w| moved_forms(t, w).swap_remove(self.tier)) {
            Some(Moved::After(mark)) => spans.push(mark),
            Some(Moved::Before(from)) => spans.insert(1, from),
            None => {}
        }
        let signs = s.folded.signs(t);
        let sign = &signs[self.sign.min(signs.len() - 1)];
        if !sign.is_empty() {
            spans.push(Span::styled(sign.clone(), t.key()));
        }
        Line::from(spans)
    }
}

/// The heading of the step `s` in the run's `form`, within `width`.
pub fn heading(t: &Theme, s: &Said, form: HeadForm, width: usize) -> Line<'static> {
    let line = form.line(t, s);
    if line.width() <= width {
        line
    } else {
        super::fit(t, line, width)
    }
}

/// How the heading marks a count that moved, keeping the count it moved
/// from in every form: a mark after the figures (`  * was 1`, in three
/// widths, `marks::was_forms`), or, narrowest, the old count before the
/// new one (`charges 1→2 $80`), which leaves the word "charges" and the
/// count of folded rows their room.
enum Moved {
    After(Span<'static>),
    Before(Span<'static>),
}

impl Moved {
    fn span(&self) -> &Span<'static> {
        match self {
            Moved::After(s) | Moved::Before(s) => s,
        }
    }
}

fn moved_forms(t: &Theme, before: usize) -> Vec<Moved> {
    let mut forms: Vec<Moved> = marks::was_forms(t, before.to_string())
        .into_iter()
        .map(Moved::After)
        .collect();
    forms.push(Moved::Before(Span::styled(
        format!("{before}{}", t.g.arrow),
        t.change(),
    )));
    forms
}
