//! The payment provider: the charges it made and its Idempotency-Key store.

use super::marks;
use super::provider_fold::Folded;
use super::provider_heading::{HeadForm, Said, heading};
use crate::sim::Frame;
use crate::sim::change::{Change, Place};
use crate::sim::frame::KeyView;
use crate::sim::provider::Charge;
use crate::tui::forms::Replay;
pub use crate::tui::forms::{KeyForm, ProviderForm};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The panel's lines within `width` x `height` (`usize::MAX` rows where
/// the panel grows to fit, as in compare), sized for `f` alone: a screen
/// with no run behind it. Every screen has a run now: the tests below
/// read one frame alone.
#[cfg(test)]
fn lines(t: &Theme, f: &Frame, width: usize, height: usize) -> Vec<Line<'static>> {
    run_lines(t, &[], f, width, height)
}

/// The panel's lines for `f`, a step of the run `frames`: a key's row
/// (`KeyForm`) and the heading (`HeadForm`) take one form for the whole
/// run at this size, and the empty key store is said in one place.
#[cfg(test)]
fn run_lines(
    t: &Theme,
    frames: &[Frame],
    f: &Frame,
    width: usize,
    height: usize,
) -> Vec<Line<'static>> {
    run_lines_noting(
        t,
        frames,
        f,
        (width, height),
        &mut marks::Shortened::default(),
    )
}

/// As `run_lines`, the meanings of the marks its rows on screen drew
/// short added to `short`, for the border around them to name.
pub fn run_lines_noting(
    t: &Theme,
    frames: &[Frame],
    f: &Frame,
    size: (usize, usize),
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    run_lines_beside(t, (frames, &[]), f, size, None, short)
}

/// [`run_lines`], the heading's form and where the empty key store is
/// said chosen over the runs `others` too (those of the other designs
/// `m` reaches: teacher trial, tour-4 at 80x24, naive's heading read
/// `charges 0→1 $40 keys 0` and idempotent's `charges 1 ($40)  * was 0`
/// over `key store: empty`; each at its own panel's height, its design
/// laying the screen out its own way), and over the run at `also` rows where it
/// fits both: the main screen's height, for the panel under `w` (teacher
/// trial: `charges 1 $40` on the main screen read `charges 1 ($40)` at a
/// press of `w`). Where no form fits both heights, this height's own.
/// What its marks drawn short mean goes to `short`.
pub fn run_lines_beside(
    t: &Theme,
    (frames, others): (&[Frame], &[(&[Frame], usize)]),
    f: &Frame,
    (width, height): (usize, usize),
    also: Option<usize>,
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let form = run_form(t, frames, others, Some(f), width, height, also);
    lines_in(t, f, &form, (width, height), short)
}

/// [`ProviderForm`] over `frames`, `others` and the run at `also` rows;
/// `f`, the step on screen, where it may be no step of `frames` (a
/// reveal's span of steps told as one).
pub fn run_form(
    t: &Theme,
    frames: &[Frame],
    others: &[(&[Frame], usize)],
    f: Option<&Frame>,
    width: usize,
    height: usize,
    also: Option<usize>,
) -> ProviderForm {
    // The store folded as at the shorter of this height and the main
    // screen's: where the main screen folds it, so does `w`.
    let store_rows = also.map_or(height, |also| also.min(height));
    let run: Vec<&Frame> = frames.iter().chain(f).collect();
    // Every run the heading is chosen over, each with its key rows' form
    // at `height` (a key row's words are its own run's), this run's store
    // folded as at `store_rows`.
    let runs_at = |height: usize, store_rows: usize| -> Vec<(KeyForm, Vec<&Frame>, usize)> {
        let theirs = others.iter().filter_map(|&(o, h)| {
            let last = o.last()?;
            Some((KeyForm::of(t, o, last, width, h), o.iter().collect(), h))
        });
        let own = KeyForm::of_run(t, &run, width, store_rows);
        std::iter::once((own, run.clone(), height))
            .chain(theirs)
            .collect()
    };
    // The empty key store's line gives way to `keys 0` in the heading at
    // every step of every run where one step has no room for it.
    let in_heading = |runs: &[(KeyForm, Vec<&Frame>, usize)]| {
        runs.iter().any(|(form, run, h)| {
            run.iter().any(|g| {
                g.provider.keys.is_empty()
                    && folded_rows(t, g, form, width, *h, false).1.empty_store
            })
        })
    };
    let said_at = |runs: &[(KeyForm, Vec<&Frame>, usize)], in_heading: bool| {
        runs.iter()
            .flat_map(|(form, run, h)| {
                run.iter()
                    .map(move |g| Said::of(g, folded_rows(t, g, form, width, *h, in_heading).1))
            })
            .collect::<Vec<Said>>()
    };
    let here = runs_at(height, store_rows);
    // This run's key rows, as the heading was chosen with them.
    let keys = here[0].0;
    let other = also.map(|also| runs_at(also, also));
    let other_in_heading = other.as_ref().is_some_and(|runs| in_heading(runs));
    // Said in the heading on the main screen, it is said there under `w`.
    let store_in_heading = in_heading(&here) || other_in_heading;
    let said = said_at(&here, store_in_heading);
    let head = match &other {
        Some(runs) => {
            let theirs = said_at(runs, other_in_heading);
            HeadForm::of_both(t, &said, &theirs, width)
        }
        None => HeadForm::of_run(t, &said, width),
    };
    ProviderForm {
        keys,
        store_in_heading,
        head,
    }
}

/// The panel's lines at `f` in the run's `form`; the meanings of the
/// marks its rows on screen drew short go to `short`, for the panel's
/// border to name.
pub fn lines_in(
    t: &Theme,
    f: &Frame,
    form: &ProviderForm,
    (width, height): (usize, usize),
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let head = form.head.unwrap_or_else(|| {
        // No form holds every step: this step's own heading's richest.
        let now = Said::of(
            f,
            folded_rows(t, f, &form.keys, width, height, form.store_in_heading).1,
        );
        HeadForm::at_step(t, &now, width)
    });
    let drawn = drawn(
        t,
        f,
        &form.keys,
        form.store_in_heading,
        Some(head),
        width,
        height,
    );
    short.extend(drawn.short.into_spans());
    drawn.lines
}

/// The line of the panel that holds the charge `id`, if it is drawn (not
/// folded behind the heading's count): predict mode marks it when a
/// question asked what the provider answers, and the answer made or
/// replayed that charge.
pub fn charge_line(t: &Theme, f: &Frame, width: usize, height: usize, id: &str) -> Option<usize> {
    // Where a charge's row is hangs neither on the key rows' words nor on
    // the heading's (the empty store's row comes after every charge).
    let form = KeyForm::of(t, &[], f, width, height);
    drawn(t, f, &form, false, None, width, height)
        .charges
        .into_iter()
        .find_map(|(c, at)| (c == id).then_some(at))
}

/// A row below the panel's heading.
struct Row {
    line: Line<'static>,
    /// What its marks drawn short mean.
    short: marks::Shortened,
    /// What this step changed or replayed: never folded away.
    now: bool,
    /// Part of the key store (not a charge).
    store: bool,
    /// The empty key store's one row (`key store: empty`).
    empty: bool,
    /// The charge this row shows, if it is a charge's row.
    charge: Option<String>,
}

/// The panel as drawn: its lines, and the line of each charge's row that
/// is not folded away.
struct Drawn {
    lines: Vec<Line<'static>>,
    charges: Vec<(String, usize)>,
    /// What the marks drawn short on the rows kept mean.
    short: marks::Shortened,
}

/// The rows below the heading that fit, and what was folded away;
/// `store_in_heading`: the empty key store's row is left to the heading.
fn folded_rows(
    t: &Theme,
    f: &Frame,
    form: &KeyForm,
    width: usize,
    height: usize,
    store_in_heading: bool,
) -> (Vec<Row>, Folded) {
    let slots = height.saturating_sub(1);
    let mut rows = charge_rows(t, f, width);
    // The key store's heading gets a line of its own where there is room;
    // where there is not, each key's row says "key" itself.
    let store = key_rows(t, f, form, width, store_folded(f, form.store_rows));
    rows.extend(store);
    let count = |rows: &[Row], what: fn(&Row) -> bool| rows.iter().filter(|r| what(r)).count();
    let kinds: [fn(&Row) -> bool; 3] = [|r| !r.store, |r| r.store && !r.empty, |r| r.empty];
    let before = kinds.map(|k| count(&rows, k));
    if store_in_heading {
        rows.retain(|r| !r.empty);
    }
    fold(&mut rows, slots);
    let after = kinds.map(|k| count(&rows, k));
    let folded = Folded {
        charges: before[0] - after[0],
        keys: before[1] - after[1],
        empty_store: before[2] > after[2],
        keyless: f.provider.charges.iter().all(|c| c.key.is_none()),
    };
    (rows, folded)
}

/// The panel's lines, and where each charge is; the heading in the run's
/// form `head` (`None`: in the form that fits this step alone).
fn drawn(
    t: &Theme,
    f: &Frame,
    form: &KeyForm,
    store_in_heading: bool,
    head: Option<HeadForm>,
    width: usize,
    height: usize,
) -> Drawn {
    let (rows, folded) = folded_rows(t, f, form, width, height, store_in_heading);
    let said = Said::of(f, folded);
    let head = head.unwrap_or_else(|| HeadForm::at_step(t, &said, width));
    let mut out = vec![heading(t, &said, head, width)];
    // Line 0 is the heading: a row's line is one after its place.
    let charges = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((r.charge.clone()?, i + 1)))
        .collect();
    let mut short = marks::Shortened::default();
    out.extend(rows.into_iter().map(|r| {
        short.extend(r.short.into_spans());
        r.line
    }));
    Drawn {
        lines: out,
        charges,
        short,
    }
}

/// Keeps at most `slots` rows: every row this step changed, then the
/// others in their order. The heading says what was left out (`Folded`),
/// so nothing is dropped without a sign and the rows kept are never cut to
/// make room for one.
fn fold(rows: &mut Vec<Row>, slots: usize) {
    if rows.len() <= slots {
        return;
    }
    let now = rows.iter().filter(|r| r.now).count().min(slots);
    let mut others = slots - now;
    let mut kept_now = 0;
    rows.retain(|r| {
        if r.now && kept_now < now {
            kept_now += 1;
            true
        } else if !r.now && others > 0 {
            others -= 1;
            true
        } else {
            false
        }
    });
}

/// An order number where the row has no room for the word "order":
/// `#1042`.
pub(crate) fn order_tag(order: impl std::fmt::Display) -> String {
    format!("#{order}")
}

/// The words for whether a charge carried an Idempotency-Key, long and
/// short: the point of the lesson, so no form of a row leaves them out.
fn key_words(c: &Charge, short: bool) -> &'static str {
    match (&c.key, short) {
        (Some(_), false) => "with key",
        (Some(_), true) => "key",
        (None, _) => "no key",
    }
}

/// One row a charge, all in the same form (`charge_lines`), each kept
/// whole with this step's change mark.
fn charge_rows(t: &Theme, f: &Frame, width: usize) -> Vec<Row> {
    let change = |c: &Charge| f.changes.of(Place::Charges, &c.id);
    charge_lines(t, &f.provider.charges, &change, width)
        .into_iter()
        .zip(&f.provider.charges)
        .map(|(fitted, c)| Row {
            line: fitted.line,
            short: fitted.shortened,
            now: change(c).is_some(),
            store: false,
            empty: false,
            charge: Some(c.id.clone()),
        })
        .collect()
}

/// The charges' rows, all in the same form: the richest form in which
/// every row fits with its change mark whole (its sign at least). The
/// order gives way first (`order 1042` to `#1042`), then "with", never
/// the key words. Shared with `idem test --replay`, whose provider panel
/// shows the same charges (`change`: what the step did to each).
pub(crate) fn charge_lines(
    t: &Theme,
    charges: &[Charge],
    change: &dyn Fn(&Charge) -> Option<Change>,
    width: usize,
) -> Vec<marks::Fitted> {
    let form = |c: &Charge, n: usize| match n {
        0 => format!(
            " {} order {} ${} {}",
            c.id,
            c.order,
            c.amount,
            key_words(c, false)
        ),
        1 => format!(
            " {} {} ${} {}",
            c.id,
            order_tag(c.order),
            c.amount,
            key_words(c, false)
        ),
        2 => format!(
            " {} {} ${} {}",
            c.id,
            order_tag(c.order),
            c.amount,
            key_words(c, true)
        ),
        _ => format!(
            "{} {} ${} {}",
            c.id,
            order_tag(c.order),
            c.amount,
            key_words(c, true)
        ),
    };
    // Measured as if every row had this step's mark, so that the form
    // stays put from step to step: the eye finds each row where it was.
    let sym = t.g.added.chars().count();
    let tag_width = |words: bool| {
        if words {
            sym + 3 + marks::word(Change::Added).chars().count()
        } else {
            sym + 1
        }
    };
    let fits = |n: usize, words: bool| {
        charges
            .iter()
            .all(|c| form(c, n).chars().count() + tag_width(words) <= width)
    };
    // A mark's word ("new") gives way before any of the row's own words.
    // The mark keeps its word where some form leaves room for it: the
    // order gives way to it first (`order 1042` to `#1042`), then "with".
    let n = (0..4)
        .find(|&n| fits(n, true))
        .or_else(|| (0..4).find(|&n| fits(n, false)))
        .unwrap_or(3);
    charges
        .iter()
        .map(|c| {
            // Every word of a charge's row is a fact, to its key at the
            // end: where no form leaves room for the mark's word, the mark
            // keeps its sign alone rather than cut the row.
            let row = form(c, n);
            let essential = row.chars().count();
            marks::tagged_keeping(t, Line::raw(row), Vec::new(), change(c), width, essential)
        })
        .collect()
}

/// Whether the key store's heading gives up its line at `height`: the
/// charges' rows, the heading and the store's rows (a key each, a key the
/// step removed, or the empty store's one row) do not fit below the
/// panel's own heading.
fn store_folded(f: &Frame, height: usize) -> bool {
    let p = &f.provider;
    let store = if p.keys.is_empty() {
        1
    } else {
        1 + p.keys.len()
    };
    let gone = f.changes.gone(Place::Keys).count();
    p.charges.len() + store + gone > height.saturating_sub(1)
}

impl KeyForm {
    /// The richest form in which every key row of every step of `frames`
    /// (and `f`, which may be no step of them, as a fork's) fits `width`
    /// with its change mark's sign, each step folded as `height` folds
    /// it. Richest: the replay's words, then its sign and count, then its
    /// sign alone; the arrow's spaces go last.
    pub fn of(t: &Theme, frames: &[Frame], f: &Frame, width: usize, height: usize) -> KeyForm {
        let run: Vec<&Frame> = frames.iter().chain(std::iter::once(f)).collect();
        KeyForm::of_run(t, &run, width, height)
    }

    /// [`KeyForm::of`] over the steps `run`.
    fn of_run(t: &Theme, run: &[&Frame], width: usize, height: usize) -> KeyForm {
        let forms = KeyForm::forms(height);
        super::run_form::widest(forms, run, |form, g| {
            let folded = store_folded(g, height);
            g.provider.keys.iter().all(|k| {
                let change = g.changes.of(Place::Keys, &k.key);
                key_fits(t, k, change, folded, form, width)
            })
        })
        // Where none fits (a scenario's own long key), the row keeps its
        // `key ` and its mark, and its result's end gives way.
        .unwrap_or(forms[forms.len() - 1])
    }

    /// Every form of a key's row, richest first: the replay's words, then
    /// its sign and count, then its sign alone; the arrow's spaces go
    /// last. `store_rows`: see [`KeyForm`].
    pub(crate) fn forms(store_rows: usize) -> [KeyForm; 6] {
        let form = |replay, spaced| KeyForm {
            replay,
            spaced,
            store_rows,
        };
        [
            form(Replay::Now, true),
            form(Replay::Sign, true),
            form(Replay::Bare, true),
            form(Replay::Sign, false),
            form(Replay::Bare, false),
            form(Replay::Alone, false),
        ]
    }
}

/// Whether `k`'s row in `form` fits `width` with its change mark's sign;
/// `folded`: the store has no heading line, and the row says `key`.
pub(crate) fn key_fits(
    t: &Theme,
    k: &KeyView,
    change: Option<Change>,
    folded: bool,
    form: KeyForm,
    width: usize,
) -> bool {
    let mark = change.map_or(0, |c| marks::symbol(t, c).chars().count() + 1);
    Line::from(key_spans(t, k, lead(folded), form)).width() + mark <= width
}

/// A key's row in the run's `form`, its change mark kept whole (the row's
/// result gives way first). Shared with `idem test --replay`.
pub(crate) fn key_line(
    t: &Theme,
    k: &KeyView,
    change: Option<Change>,
    folded: bool,
    form: KeyForm,
    width: usize,
) -> marks::Fitted {
    let line = Line::from(key_spans(t, k, lead(folded), form));
    let essential = line.width();
    marks::tagged_keeping(t, line, Vec::new(), change, width, essential)
}

/// The empty key store's one row, whole in `width` (it once read
/// `Idempotency-Key store: emp…`): its name shortens first.
pub(crate) fn empty_store(t: &Theme, width: usize) -> Line<'static> {
    let name = if width < "Idempotency-Key store: empty".len() {
        "key store"
    } else {
        "Idempotency-Key store"
    };
    Line::from(vec![
        Span::styled(name, t.title()),
        Span::styled(": empty", t.dim()),
    ])
}

/// A key row's lead: `key ` where the store has no heading line, an
/// indent under it.
fn lead(folded: bool) -> &'static str {
    if folded { "key " } else { " " }
}

/// A key's row: `m-7f3 → ch_81`, and how often the provider replayed it,
/// in the run's `form`.
fn key_spans(t: &Theme, k: &KeyView, lead: &str, form: KeyForm) -> Vec<Span<'static>> {
    let g = &t.g;
    let arrow = if form.spaced {
        format!(" {} ", g.arrow)
    } else {
        g.arrow.to_string()
    };
    let mut spans = vec![Span::raw(format!("{lead}{}{arrow}{}", k.key, k.result))];
    if k.replays == 0 && !k.replayed_now {
        return spans;
    }
    let times = format!("{}{}", g.times, k.replays.max(1));
    let text = match form.replay {
        Replay::Now if k.replayed_now => format!(" {} replayed {times} now", g.replay),
        Replay::Now => format!(" {} replayed {times}", g.replay),
        // The step it happens in says so in a word, not in its colour
        // alone (trial 35: `key m-7f3 → ch_81 ↺ ×1` at 80x24 was this
        // step's only effect, unmarked under NO_COLOR).
        Replay::Sign if k.replayed_now => format!(" {} {times} now", g.replay),
        Replay::Sign => format!(" {} {times}", g.replay),
        Replay::Bare if k.replayed_now => format!(" {} now", g.replay),
        Replay::Bare | Replay::Alone => format!(" {}", g.replay),
    };
    // The step it happens in stands out; after it, the count is a record.
    let style = if k.replayed_now {
        t.warn().patch(t.highlight())
    } else {
        t.dim()
    };
    spans.push(Span::styled(text, style));
    spans
}

/// The key store: a heading and a row a key, or (`folded`) no heading and
/// rows that say "key" themselves, in the run's `form`.
fn key_rows(t: &Theme, f: &Frame, form: &KeyForm, width: usize, folded: bool) -> Vec<Row> {
    let p = &f.provider;
    let ch = &f.changes;
    let mut out = Vec::new();
    let row = |fitted: marks::Fitted, now| Row {
        line: fitted.line,
        short: fitted.shortened,
        now,
        store: true,
        empty: false,
        charge: None,
    };
    if p.keys.is_empty() {
        out.push(Row {
            empty: true,
            ..row(marks::Fitted::plain(empty_store(t, width)), false)
        });
    } else if !folded {
        let title = Line::styled("Idempotency-Key store", t.title());
        out.push(row(marks::Fitted::plain(title), false));
    }
    for k in &p.keys {
        let change = ch.of(Place::Keys, &k.key);
        out.push(row(
            key_line(t, k, change, folded, *form, width),
            change.is_some() || k.replayed_now,
        ));
    }
    // A key the step removed says "key" as the kept keys do.
    out.extend(ch.gone(Place::Keys).map(|g| {
        let mut g = g.clone();
        g.was = format!("{}{}", lead(folded).trim_start(), g.was);
        row(marks::gone(t, &g, width), true)
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty key store says so whole at every panel width, 80x24's 27
    /// columns included (it once read `Idempotency-Key store: emp…` there).
    #[test]
    fn an_empty_key_store_says_so_whole_at_every_width() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            if !f.provider.keys.is_empty() {
                return;
            }
            for (w, h) in (22..=44).flat_map(|w| [(w, 3), (w, usize::MAX)]) {
                let all = lines(&t, f, w, h);
                // Folded away in a short panel: counted by the heading.
                let Some(line) = all.iter().skip(1).find(|l| {
                    let s = l.to_string();
                    s.starts_with("Idempotency-Key store") || s.starts_with("key store")
                }) else {
                    continue;
                };
                let text = line.to_string();
                assert!(line.width() <= w, "{at_step} at {w}x{h}: {text:?}");
                // The store's own line (not a key this step removed) says
                // it is empty, whole.
                if text.contains("store") || text.contains("Keys") {
                    assert!(
                        text.trim_end().ends_with("empty") || text.trim_end().ends_with("none"),
                        "{at_step} at {w}x{h}: {text:?}"
                    );
                }
            }
        });
    }

    /// The step where the provider answers a repeat from its key store
    /// says `now` on the key's row in every form, at 80x24's 27 columns
    /// and wider: its colour alone marked it (trial 35).
    #[test]
    fn a_replay_in_its_step_says_now_at_every_width() {
        let t = Theme::new(false, false);
        let (mut wrong, mut seen) = (Vec::new(), 0);
        super::super::each_builtin_frame(|at_step, f| {
            if !f.provider.keys.iter().any(|k| k.replayed_now) {
                return;
            }
            for (w, h) in (27..=44).flat_map(|w| [(w, 3), (w, usize::MAX)]) {
                // Where its narrowest form with the word fits at all.
                let fits =
                    |k: &KeyView| format!("key {}→{} ↺ now", k.key, k.result).chars().count() <= w;
                if !f.provider.keys.iter().any(|k| k.replayed_now && fits(k)) {
                    continue;
                }
                seen += 1;
                let rows: Vec<String> = lines(&t, f, w, h).iter().map(|l| l.to_string()).collect();
                if !rows
                    .iter()
                    .any(|r| r.contains('↺') && r.trim_end().ends_with("now"))
                {
                    wrong.push(format!("{at_step} at {w}x{h}: {rows:?}"));
                }
            }
        });
        assert!(seen > 0);
        assert!(
            wrong.is_empty(),
            "{} of {seen}: {:#?}",
            wrong.len(),
            &wrong[..wrong.len().min(3)]
        );
    }

    /// The step where the provider answers a repeat from its key store
    /// says so in a word in a short panel (3 rows, as at 80x24), not in
    /// its sign alone, wherever the key's row, its `key ` word kept,
    /// leaves room for the word: 80x24's 27 columns do not
    /// (`key m-7f3 → ch_81 ↺ ×1` there), a few more do.
    #[test]
    fn a_replay_says_replayed_in_a_narrow_panel() {
        let t = Theme::new(false, false);
        let mut seen = 0;
        super::super::each_builtin_frame(|at_step, f| {
            for w in 27..=36 {
                // Where the words can fit at all: `key m-8a1 → 402 card
                // declined` leaves room for the sign alone (the `?` help
                // explains it).
                let fits = |k: &KeyView| {
                    format!("key {} → {} ↺ replayed ×{} now", k.key, k.result, k.replays)
                        .chars()
                        .count()
                        <= w
                };
                if !f.provider.keys.iter().any(|k| k.replayed_now && fits(k)) {
                    continue;
                }
                seen += 1;
                let rows: Vec<String> = lines(&t, f, w, 3).iter().map(|l| l.to_string()).collect();
                assert!(
                    rows.iter().any(|r| r.contains("↺ replayed")),
                    "{at_step} at {w}x3:\n{}",
                    rows.join("\n")
                );
            }
        });
        assert!(seen > 3, "{seen} replays");
    }

    /// A moved count's mark never follows a bare dollar figure: `charges 2
    /// $80 *was 1` read as "$80, was 1" (teacher trial, tour-1 naive step
    /// 13 at 80x24). The mark follows the count in brackets (`2 ($80)  *
    /// was 1`), or the old count stands before the new (`charges 1→2 $80`),
    /// at every width.
    #[test]
    fn a_moved_count_reads_as_a_change_of_the_count() {
        let t = Theme::new(false, false);
        let mut seen = 0;
        let mut wrong = Vec::new();
        super::super::each_builtin_frame(|at_step, f| {
            let Some(was) = f.changes.charges_was else {
                return;
            };
            let n = f.provider.charges.len();
            for (w, h) in (18..=60).flat_map(|w| [(w, 3), (w, 6), (w, usize::MAX)]) {
                seen += 1;
                let heading = lines(&t, f, w, h)[0].to_string();
                let words: Vec<&str> = heading.split_whitespace().collect();
                let glued = words
                    .windows(2)
                    .any(|p| p[0].starts_with('$') && (p[1].starts_with('*') || p[1] == "was"));
                let said = heading.contains(&format!("was {was}"))
                    || heading.contains(&format!("{was}→{n}"));
                if glued || !said {
                    wrong.push(format!("{at_step} at {w}x{h}: {heading:?}"));
                }
            }
        });
        assert!(seen > 100, "{seen}");
        assert!(
            wrong.is_empty(),
            "{} of {seen}:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// The words of a row, split at spaces.
    fn words(row: &str) -> Vec<&str> {
        row.split_whitespace().collect()
    }

    /// What is wrong with the provider panel as drawn on `rows`, if
    /// anything: a charge row that does not say whether the charge carried
    /// an Idempotency-Key or loses its change mark, or the charge or key
    /// this step made off screen.
    fn wrong(f: &Frame, rows: &[String]) -> Option<String> {
        let t = Theme::new(false, false);
        // A charge's row starts with its ID (a key's row may name it too).
        let row_of = |id: &str| rows.iter().find(|r| words(r).first() == Some(&id));
        // The heading counts folded charges as hidden, or with the key
        // store's rows as rows (`provider_fold`).
        let more = rows.iter().any(|r| {
            r.contains(" hidden")
                || r.contains(" not shown")
                || r.contains(" rows")
                || r.contains('↓')
        });
        for c in &f.provider.charges {
            let change = f.changes.of(Place::Charges, &c.id);
            let Some(row) = row_of(&c.id) else {
                if change.is_some() {
                    return Some(format!("{} (this step's charge) is off screen", c.id));
                }
                if !more {
                    return Some(format!("{} is off screen without a count", c.id));
                }
                continue;
            };
            let said = match c.key {
                Some(_) => row.contains(" key") && !row.contains("no key"),
                None => row.contains("no key"),
            };
            if !said {
                return Some(format!("{}'s row does not say whether it had a key", c.id));
            }
            if let Some(change) = change {
                let sym = marks::symbol(&t, change);
                let w = words(row);
                let at = w.iter().rposition(|x| *x == sym);
                // The mark ends the row (a count of hidden rows may follow).
                let ends = at.is_some_and(|i| {
                    w[i + 1..]
                        .iter()
                        .all(|x| *x == marks::word(change) || x.starts_with('↓') || *x == "more")
                });
                if !ends || row.contains('…') {
                    return Some(format!("{}'s change mark is cut", c.id));
                }
            }
        }
        for k in &f.provider.keys {
            let change = f.changes.of(Place::Keys, &k.key);
            if change.is_none() && !k.replayed_now {
                continue;
            }
            let shown = rows.iter().any(|r| {
                let w = words(r);
                // `h-73dd31a8→processing`: a long key's arrow may lose
                // its spaces, so the key is not always a word of its own.
                (r.contains(&format!("{}{}", k.key, t.g.arrow)) || w.contains(&k.key.as_str()))
                    && r.contains(&k.result)
                    && change.is_none_or(|c| w.contains(&marks::symbol(&t, c)))
                    && (!k.replayed_now || w.contains(&t.g.replay))
            });
            if !shown {
                return Some(format!(
                    "key {} (stored or replayed now) is not on screen whole",
                    k.key
                ));
            }
        }
        None
    }

    /// At 80x24, 100x30 and 120x40, at every step of every built-in run
    /// as the main screen draws it: each charge row says whether the
    /// charge carried an Idempotency-Key (the point of the lesson) and keeps
    /// its change mark whole, and the charge the step made and the key it
    /// stored or replayed are on screen, not folded behind a count.
    #[test]
    fn every_charge_on_screen_says_whether_it_carried_a_key() {
        use crate::tui::app::{App, Options, Panel};
        use crate::tui::layout;
        use ratatui::buffer::Buffer;
        use ratatui::layout::{Margin, Rect};
        use ratatui::widgets::Widget;
        let plain = Options {
            animation: false,
            color: false,
            ascii: false,
        };
        let mut failures = Vec::new();
        let mut screens = 0;
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let s = crate::sim::Strategy::by_name(&design).unwrap();
                let mut app = App::new(script.clone(), s, 0, plain).unwrap();
                for (w, h) in [(80, 24), (100, 30), (120, 40)] {
                    let area = Rect::new(0, 0, w, h);
                    app.viewport = area;
                    for pos in 0..app.timeline.frames.len() {
                        app.pos = pos;
                        let mut buf = Buffer::empty(area);
                        (&app).render(area, &mut buf);
                        let f = app.frame();
                        let r = layout::on_screen(&app, area)
                            .rect(Panel::Provider)
                            .inner(Margin::new(1, 1));
                        let rows: Vec<String> = (r.y..r.bottom())
                            .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
                            .collect();
                        screens += 1;
                        if let Some(e) = wrong(f, &rows) {
                            failures.push(format!(
                                "{} {design} step {} at {w}x{h}: {e}\n{}",
                                script.name,
                                f.index,
                                rows.join("\n")
                            ));
                        }
                    }
                }
            }
        }
        assert!(screens > 500, "only {screens} screens");
        if std::env::var_os("IDEM_ALL_CUTS").is_some() {
            for f in &failures {
                eprintln!("{f}\n");
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {screens} screens; the first:\n{}",
            failures.len(),
            failures.first().cloned().unwrap_or_default()
        );
    }
}
