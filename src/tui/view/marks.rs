//! The marks for what the step on screen changed: a symbol and a word, in
//! the change colour where there is colour. They stay until the next step,
//! and stepping back shows that step's marks again (they come from the
//! frame, not from the motion between frames).

use super::fit;
use crate::sim::change::{Change, ItemChange};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The word for a change, after its symbol.
pub(super) fn word(c: Change) -> &'static str {
    match c {
        Change::Added => "new",
        Change::Changed => "changed",
        Change::Committed => "committed",
        Change::RolledBack => "rolled back",
        Change::Removed => "removed",
    }
}

pub(super) fn symbol(t: &Theme, c: Change) -> &'static str {
    match c {
        Change::Added => t.g.added,
        Change::Changed | Change::Committed => t.g.changed,
        Change::RolledBack | Change::Removed => t.g.removed,
    }
}

/// The fewest cells of a row's own text that stay beside its marks, the
/// ellipsis included (`insert m…`, `m-7f3 a…`): enough to tell which row
/// it is. A row gives way down to this before any mark loses its word.
pub const MIN_TEXT: usize = 8;

/// A mark at the end of a row: its whole form (`  * changed`,
/// `  ◀ this step`) and the short one (` *`, ` ◀`) it falls back to only
/// where the row, cut to `MIN_TEXT`, still leaves no room for the whole.
pub struct Mark {
    pub whole: Span<'static>,
    pub short: Span<'static>,
    /// The cells of text the row keeps before this mark shortens:
    /// `MIN_TEXT`, or fewer for a mark that says more than the row's end
    /// (a step's `duplicate` outlasts the `◀ this step` beside it).
    pub keeps: usize,
    /// What the short form means where it is a symbol alone (`* changed`
    /// for ` *`): the words the panel's border gives it, so that a symbol
    /// never stands on screen with no word for it anywhere. `None` for a
    /// short form that says itself (`in txn A`, `  again`) or says nothing.
    pub means: Option<Span<'static>>,
}

impl Mark {
    /// A mark that shortens where the row is down to `MIN_TEXT`.
    pub fn new(whole: Span<'static>, short: Span<'static>) -> Mark {
        Mark {
            whole,
            short,
            keeps: MIN_TEXT,
            means: None,
        }
    }

    /// This mark, its short form a symbol that `means` names.
    pub fn meaning(self, means: Span<'static>) -> Mark {
        Mark {
            means: Some(means),
            ..self
        }
    }

    /// A mark that never shortens (`uncommitted (B)`, `✕ again`).
    pub fn whole(span: Span<'static>) -> Mark {
        Mark::new(span.clone(), span)
    }
}

/// The one rule for a row with marks, shared by every panel: within
/// `width`, the marks stay whole and the row's text gives way, ending in
/// an ellipsis; only once the text is down to `MIN_TEXT` cells do marks
/// take their short forms, the last first; only then is the text cut
/// further. A mark is never the part that is cut.
pub fn fit_marked(t: &Theme, text: Line<'static>, marks: Vec<Mark>, width: usize) -> Fitted {
    fit_marked_after(t, text, 0, marks, width)
}

/// As `fit_marked`, for a row whose first `lead` cells are a sign of its
/// own (a step's `✓ ` glyph) that does not tell which row it is: the text
/// keeps `MIN_TEXT` cells after it.
pub fn fit_marked_after(
    t: &Theme,
    text: Line<'static>,
    lead: usize,
    marks: Vec<Mark>,
    width: usize,
) -> Fitted {
    let text_w = text.width();
    // Each mark whole, then tight (one space before it, not two: `1042
    // $40 m-7f3 * committed` beside `m-7f3  * committed` reads as one
    // fact, where a bare `*` read as another), then short.
    let mark_keeps: Vec<usize> = marks.iter().map(|m| m.keeps).collect();
    let means: Vec<Option<Span<'static>>> = marks.iter().map(|m| m.means.clone()).collect();
    let forms: Vec<[Span<'static>; 3]> = marks
        .into_iter()
        .map(|m| [m.whole.clone(), tight(&m.whole), m.short])
        .collect();
    let mut form = vec![0usize; forms.len()];
    let marks_w =
        |form: &[usize]| -> usize { forms.iter().zip(form).map(|(m, &f)| m[f].width()).sum() };
    for k in (0..forms.len()).rev() {
        let keep = text_w.min(lead + mark_keeps[k]);
        while form[k] < 2 && marks_w(&form) + keep > width {
            form[k] += 1;
        }
    }
    let room = width.saturating_sub(marks_w(&form));
    let mut line = fit_words(t, text, room, lead + 3);
    let mut shortened = Shortened::default();
    for ((m, f), means) in forms.into_iter().zip(form).zip(means) {
        if f == 2 {
            shortened.extend(means);
        }
        line.spans.extend(m.into_iter().nth(f));
    }
    Fitted { line, shortened }
}

/// A row fitted with its marks, and the meanings of those it drew short.
pub struct Fitted {
    pub line: Line<'static>,
    pub shortened: Shortened,
}

impl Fitted {
    /// A row with no mark drawn short.
    pub fn plain(line: Line<'static>) -> Fitted {
        Fitted {
            line,
            shortened: Shortened::default(),
        }
    }

    /// The row, its short marks' meanings added to its panel's `into`.
    pub fn noted(self, into: &mut Shortened) -> Line<'static> {
        into.extend(self.shortened.into_spans());
        self.line
    }
}

/// What the marks a panel drew short stand for (`* changed`, `◀ this
/// step`), each once, in the order its rows met them: data the panel's
/// rows hand back with them, which its border then names (`legend`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shortened(Vec<Span<'static>>);

impl Shortened {
    /// Adds meanings not named yet.
    pub fn extend(&mut self, means: impl IntoIterator<Item = Span<'static>>) {
        for m in means {
            if !self.0.iter().any(|k| k.content == m.content) {
                self.0.push(m);
            }
        }
    }

    /// The meanings `spans` holds, each once.
    pub fn from_spans(spans: impl IntoIterator<Item = Span<'static>>) -> Shortened {
        let mut s = Shortened::default();
        s.extend(spans);
        s
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `legend(room)` names every meaning, none left off.
    pub fn fits(&self, room: usize) -> bool {
        let words: usize = self.0.iter().map(Span::width).sum();
        self.0.is_empty() || 2 + words + 2 * (self.0.len() - 1) <= room
    }

    /// The meanings, each once, in the order met.
    pub fn into_spans(self) -> Vec<Span<'static>> {
        self.0
    }

    /// The meanings as a border's text within `room` cells, a space at
    /// each end (` * changed, ◀ this step `): where they do not all fit,
    /// the ones met first, the row nearest the top; where not even one
    /// fits, none (the panel is then narrower than any of its marks' words).
    /// A comma between them, not the theme's dot: under `--ascii` that is
    /// `-`, the sign of a removed row.
    pub fn legend(&self, room: usize) -> Option<Line<'static>> {
        let sep = ", ".to_string();
        let mut spans = vec![Span::raw(" ")];
        let mut used = 2;
        for m in &self.0 {
            let w = m.width()
                + if spans.len() > 1 {
                    sep.chars().count()
                } else {
                    0
                };
            if used + w > room {
                break;
            }
            if spans.len() > 1 {
                spans.push(Span::raw(sep.clone()));
            }
            spans.push(m.clone());
            used += w;
        }
        (spans.len() > 1).then(|| {
            spans.push(Span::raw(" "));
            Line::from(spans)
        })
    }
}

impl Shortened {
    /// As `legend`, without the space at either end (`* changed`): for a
    /// border that holds the legend beside another mark, each against its
    /// corner (`mark_legend::beside_mark`).
    pub fn tight_legend(&self, room: usize) -> Option<Line<'static>> {
        let mut line = self.legend(room + 2)?;
        line.spans.pop();
        line.spans.remove(0);
        Some(line)
    }
}

/// A mark's whole form with one space before it where it has two: its
/// word kept in a row one cell short of the room for both.
fn tight(whole: &Span<'static>) -> Span<'static> {
    match whole.content.strip_prefix("  ") {
        Some(rest) => Span::styled(format!(" {rest}"), whole.style),
        None => whole.clone(),
    }
}

/// `text` within `room`, cut where a word ends where it can be: `$…` or
/// `m-7…` reads as another figure, so the row loses whole figures, keeping
/// at least `least` cells of its own before the ellipsis.
fn fit_words(t: &Theme, text: Line<'static>, room: usize, least: usize) -> Line<'static> {
    if text.width() <= room {
        return text;
    }
    let plain: Vec<char> = text.spans.iter().flat_map(|s| s.content.chars()).collect();
    let keep = room.saturating_sub(t.g.ellipsis.chars().count());
    let mid_word = keep > 0
        && plain.get(keep).is_some_and(|c| *c != ' ')
        && plain.get(keep - 1).is_some_and(|c| *c != ' ');
    // Only a figure (a digit or a sum in the cut word) loses the whole
    // word; a name keeps what it can (`insert messa…`).
    let start = (0..keep)
        .rev()
        .find(|&i| plain[i] == ' ')
        .map_or(0, |i| i + 1);
    let end = (keep..plain.len())
        .find(|&i| plain[i] == ' ')
        .unwrap_or(plain.len());
    let figure = plain[start..end]
        .iter()
        .any(|c| c.is_ascii_digit() || *c == '$');
    if mid_word && figure {
        // Back to the space before the cut word, the space kept.
        if let Some(space) = (least..keep).rev().find(|&i| plain[i] == ' ') {
            let ell = t.g.ellipsis.chars().count();
            return fit(t, text, space + 1 + ell);
        }
    }
    fit(t, text, room)
}

/// A step's change as a mark: `  + new`, or ` +` alone at the narrowest.
pub fn change_mark(t: &Theme, c: Change) -> Mark {
    Mark::new(
        Span::styled(format!("  {} {}", symbol(t, c), word(c)), t.change()),
        Span::styled(format!(" {}", symbol(t, c)), t.change()),
    )
    .meaning(Span::styled(
        format!("{} {}", symbol(t, c), word(c)),
        t.change(),
    ))
}

/// A line with a change tag, if there is one, and marks of the row's own
/// (`uncommitted (B)`, `✕ again`) between the row and the tag, within
/// `width`: every mark stays whole, and the row gives way (ending in an
/// ellipsis) if it must.
pub fn tagged_with(
    t: &Theme,
    line: Line<'static>,
    kept: Vec<Span<'static>>,
    c: Option<Change>,
    width: usize,
) -> Fitted {
    let mut marks: Vec<Mark> = kept.into_iter().map(Mark::whole).collect();
    marks.extend(c.map(|c| change_mark(t, c)));
    fit_marked(t, line, marks, width)
}

/// As `tagged_with`, for a row whose first `essential` cells are facts
/// that must not be cut (an amount: `$4…` reads as another sum; whether a
/// charge carried a key): the marks shorten before those are cut, and the
/// row gives way only after its end beyond them.
pub fn tagged_keeping(
    t: &Theme,
    line: Line<'static>,
    kept: Vec<Span<'static>>,
    c: Option<Change>,
    width: usize,
    essential: usize,
) -> Fitted {
    let mut marks: Vec<Mark> = kept.into_iter().map(Mark::whole).collect();
    marks.extend(c.map(|c| change_mark(t, c)));
    fit_marked_after(t, line, essential.saturating_sub(MIN_TEXT), marks, width)
}

/// A row's own text in two parts: `essential`, the evidence (which row it
/// is and what happened to it, its figures), and `rest`, filler beside it.
/// The row says which is which; the one rule does the rest.
pub struct Parts {
    pub essential: Line<'static>,
    pub rest: Line<'static>,
}

impl Parts {
    /// The cells a row keeps of its parts before a mark folds to its sign:
    /// the essential part whole, and where filler follows, a space and an
    /// ellipsis after it to say the filler was cut.
    pub fn keeps(&self) -> usize {
        let w = self.essential.width();
        if self.rest.width() == 0 { w } else { w + 2 }
    }
}

/// `parts` with their marks within `width`: the filler gives way first
/// (its figures whole or not at all); a mark's word folds to its sign
/// before an essential part is cut; a mark is never the part that is cut.
pub fn fit_parts(
    t: &Theme,
    parts: Parts,
    mut marks: Vec<Mark>,
    c: Option<Change>,
    width: usize,
) -> Fitted {
    let essential = parts.keeps();
    let mut text = parts.essential;
    text.spans.extend(parts.rest.spans);
    marks.extend(c.map(|c| change_mark(t, c)));
    fit_marked_after(t, text, essential.saturating_sub(MIN_TEXT), marks, width)
}

/// An item the step removed, shown once more for the step that removed it.
pub fn gone(t: &Theme, item: &ItemChange, width: usize) -> Fitted {
    let was = Line::styled(format!(" {}", t.text(&item.was)), t.dim());
    // The row is the evidence (which payment, for which message ID): the
    // words fold to their sign before it is cut, as `fit_parts` does.
    let parts = Parts {
        essential: was,
        rest: Line::default(),
    };
    fit_parts(t, parts, Vec::new(), Some(item.change), width)
}

/// A figure that moved: `(was $40)`.
pub fn was(t: &Theme, before: String) -> Span<'static> {
    Span::styled(format!("  {} was {before}", t.g.changed), t.change())
}

/// The forms of `was`, roomiest first: `  * was 1`, ` * was 1`, ` *was 1`.
/// Every form keeps the old value: a sign alone (` *`) said the figure
/// moved but not from where, and a class asked from what.
pub fn was_forms(t: &Theme, before: String) -> [Span<'static>; 3] {
    let g = t.g.changed;
    [
        was(t, before.clone()),
        Span::styled(format!(" {g} was {before}"), t.change()),
        Span::styled(format!(" {g}was {before}"), t.change()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row fitted with its mark whole reports nothing; the same row too
    /// narrow for the word reports what its bare symbol means, once.
    #[test]
    fn a_fitted_row_says_which_marks_it_drew_short() {
        let t = Theme::new(false, false);
        let row = || Line::raw("m-7f3 leased to A");
        let whole = fit_marked(&t, row(), vec![change_mark(&t, Change::Changed)], 40);
        assert!(whole.line.to_string().ends_with("* changed"));
        assert!(whole.shortened.is_empty());
        let short = fit_marked(&t, row(), vec![change_mark(&t, Change::Changed)], 12);
        assert!(short.line.to_string().ends_with(" *"), "{}", short.line);
        let mut panel = Shortened::default();
        let _ = short.noted(&mut panel);
        let again = fit_marked(&t, row(), vec![change_mark(&t, Change::Changed)], 12);
        let _ = again.noted(&mut panel);
        assert_eq!(panel.clone().into_spans().len(), 1);
        assert_eq!(panel.legend(40).unwrap().to_string(), " * changed ");
    }

    /// A mark whose short form says itself (`in txn A`) is no symbol to
    /// name.
    #[test]
    fn a_short_form_in_words_needs_no_legend() {
        let t = Theme::new(false, false);
        let mark = Mark::new(Span::raw("  uncommitted (A)"), Span::raw(" in txn A"));
        let fitted = fit_marked(&t, Line::raw("1042 $40 m-7f3"), vec![mark], 20);
        assert!(
            fitted.line.to_string().ends_with("in txn A"),
            "{}",
            fitted.line
        );
        assert!(fitted.shortened.is_empty());
    }

    /// The legend keeps the meanings met first that fit its room, each
    /// whole; none where not even one fits.
    #[test]
    fn the_legend_drops_whole_meanings_from_its_end() {
        let t = Theme::new(false, true);
        let mut s = Shortened::default();
        s.extend([
            Span::raw(format!("{} changed", t.g.changed)),
            Span::raw(format!("{} this step", t.g.ran)),
        ]);
        let all = s.legend(40).unwrap().to_string();
        assert_eq!(all, " * changed, < this step ");
        assert_eq!(s.legend(20).unwrap().to_string(), " * changed ");
        assert!(s.legend(10).is_none());
        assert_eq!(s.tight_legend(9).unwrap().to_string(), "* changed");
        assert!(s.tight_legend(8).is_none());
    }
}
