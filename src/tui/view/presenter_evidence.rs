//! The evidence under the presenter's figures: the provider's charges, each
//! with the Idempotency-Key it came with (two charge IDs for one order are
//! the double charge itself), and the verdict with its cause chain (why it
//! went wrong). The figures say how many; these rows say which, and why.
//!
//! The band's height and its split are chosen for the whole run, so that
//! nothing on the projected screen jumps from step to step.

use super::{marks, overflow, verdict};
use crate::sim::Frame;
use crate::sim::change::Place;
use crate::sim::provider::Charge;
use crate::tui::measure;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

/// The charges' box: its title, and its narrowest width (the title whole).
const CHARGES_TITLE: &str = "Provider's charges";
const CHARGES_MIN: usize = CHARGES_TITLE.len() + 4;

/// Where the band's two boxes go, for a whole run at one screen width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// The rows the band's content takes (its rules not counted).
    pub rows: u16,
    /// The charges' box width; the verdict's box takes the rest.
    pub charges_width: u16,
}

impl Band {
    /// The band for `frames` at `width` columns: the charges' box as wide
    /// as the run's widest charge row needs (at most half the screen), and
    /// as many rows as the most charges or the longest verdict any step has.
    /// Where the verdict wraps to fewer rows beside a terser form of the
    /// charges (`#1042` for `order 1042`), the charges take that form.
    pub fn of(t: &Theme, frames: &[Frame], width: u16) -> Band {
        let all = frames.last().map_or(&[][..], |f| &f.provider.charges[..]);
        (0..FORMS)
            .map(|n| {
                let widest = all
                    .iter()
                    .map(|c| form(c, n).chars().count() + tag_width(t))
                    .max()
                    .unwrap_or(0)
                    .max(CHARGES_MIN);
                let charges_width = u16::try_from(widest).unwrap_or(u16::MAX).min(width / 2);
                let why_width = width - charges_width;
                let rows = frames
                    .iter()
                    .map(|f| {
                        let charges =
                            u16::try_from(f.provider.charges.len().max(1)).unwrap_or(u16::MAX);
                        charges.max(measure::rows(&why(t, f, "step"), why_width, true))
                    })
                    .max()
                    .unwrap_or(1);
                Band {
                    rows,
                    charges_width,
                }
            })
            // The fewest rows; of those, the roomiest form (the first).
            .min_by_key(|band| band.rows)
            .unwrap_or(Band {
                rows: 1,
                charges_width: 0,
            })
    }
}

/// Draws the band into `area`: the charges on the left, the verdict on the
/// right, each under a rule with its title; what has no room is counted.
/// `unit` is what a step of the run is called (`step`, a found
/// schedule's `move`): the chain names its causes' steps so.
pub fn render(
    t: &Theme,
    f: &Frame,
    (frames, unit): (&[Frame], &str),
    at_end: bool,
    band: Band,
    area: Rect,
    buf: &mut Buffer,
) {
    let left = Rect {
        width: band.charges_width.min(area.width),
        ..area
    };
    let right = Rect {
        x: left.right(),
        width: area.width - left.width,
        ..area
    };
    let rule = |title: &str| {
        Block::new()
            .borders(Borders::TOP)
            .border_set(t.g.border)
            .border_style(t.dim())
            .title(Span::styled(format!(" {title} "), t.title()))
    };
    let block = rule(CHARGES_TITLE);
    let inner = block.inner(left);
    block.render(left, buf);
    // A cell short of the column: its marks never run into the why
    // beside it (`+ newIdempotency-Key`).
    let room = inner.width.saturating_sub(1);
    let mut short = marks::Shortened::default();
    overflow::show(
        t,
        charges(t, f, frames, room, &mut short),
        false,
        inner,
        buf,
    );
    super::mark_legend::on_rule(t, &short, left, buf);
    let block = rule(super::verdict_title(at_end));
    let inner = block.inner(right);
    block.render(right, buf);
    overflow::show(t, why(t, f, unit), true, inner, buf);
}

/// Whether a charge came with an Idempotency-Key, and which: the point of
/// the lesson, so no form of a row leaves it out.
fn key_words(c: &Charge) -> String {
    match &c.key {
        Some(key) => format!("key {key}"),
        None => "no key".to_string(),
    }
}

/// How many forms a charge's row has.
const FORMS: usize = 3;

/// A charge's row in the `n`th form, the roomiest first: the spaces and
/// then the word "order" give way, never the key.
fn form(c: &Charge, n: usize) -> String {
    let key = key_words(c);
    match n {
        0 => format!(" {}  order {}  ${}  {key}", c.id, c.order, c.amount),
        1 => format!(" {} order {} ${} {key}", c.id, c.order, c.amount),
        _ => format!(
            " {} {} ${} {key}",
            c.id,
            super::provider::order_tag(c.order),
            c.amount
        ),
    }
}

/// The room a change mark takes after a row (` + new`).
fn tag_width(t: &Theme) -> usize {
    t.g.added.chars().count() + 2 + marks::word(crate::sim::change::Change::Added).len()
}

/// The charges as the provider holds them, one row each, all in the one
/// form in which every charge of the run fits with its change mark; the
/// charge this step made is marked; what a mark drawn short means goes to
/// `short`, for the rule above.
fn charges(
    t: &Theme,
    f: &Frame,
    frames: &[Frame],
    width: u16,
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let width = usize::from(width);
    if f.provider.charges.is_empty() {
        return vec![Line::styled(" none", t.dim())];
    }
    let all = frames
        .last()
        .map_or(&f.provider.charges, |l| &l.provider.charges);
    let n = (0..FORMS)
        .find(|&n| {
            all.iter()
                .all(|c| form(c, n).chars().count() + tag_width(t) <= width)
        })
        .unwrap_or(FORMS - 1);
    f.provider
        .charges
        .iter()
        .map(|c| {
            let row = form(c, n);
            let essential = row.chars().count();
            let change = f.changes.of(Place::Charges, &c.id);
            marks::tagged_keeping(t, Line::raw(row), Vec::new(), change, width, essential)
                .noted(short)
        })
        .collect()
}

/// The verdict's headline and the chain of causes behind it, in the words
/// of the main screen's verdict panel (the figures stand in for its counts).
fn why(t: &Theme, f: &Frame, unit: &str) -> Vec<Line<'static>> {
    // Bounded as the verdict panel's is: `✓ correct in this run`.
    let (headline, style) = verdict::bounded_headline(t, &f.verdict, None);
    // A run that held says why, as the verdict panel does (`✓ m-7f3
    // skipped at step 13: … ← m-7f3 redelivered ← …`): the class sees
    // the fix work, not only that nothing went wrong.
    // In the run's own words: a found schedule's chain names moves, as
    // its header does (trial 46: `move 7/10` beside `at step 6`).
    let words = |n: usize| format!("{unit} {n}");
    let held = verdict::held_links(t, &f.verdict, &words, &words).concat();
    vec![Line::from(vec![
        Span::styled(headline, style),
        Span::styled(verdict::chain_at(t, &f.verdict, &words), t.dim()),
        Span::styled(held, t.dim()),
    ])]
}
