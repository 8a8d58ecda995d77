//! The verdict so far: is the outcome correct, and if not, the
//! chain of causes behind it.

use crate::sim::cause::StepWords;
use crate::sim::verdict::FactVerdict;
use crate::sim::{Frame, Outcome, Verdict};
use crate::tui::app::App;
pub use crate::tui::forms::{FIGURE_WORDS, FigureWords, NARROWEST, RowForm};
use crate::tui::theme::Theme;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The verdict's headline: a symbol and `Outcome::text()`, the words every
/// other front end uses, never colour alone. No catch-all arm: a new outcome
/// must be given its symbol here before anything compiles.
pub fn headline(t: &Theme, outcome: Outcome) -> (String, Style) {
    let (glyph, style) = mark(t, outcome);
    (format!("{glyph} {}", outcome.text()), style)
}

/// An outcome's symbol and its colour.
fn mark(t: &Theme, outcome: Outcome) -> (&'static str, Style) {
    let g = &t.g;
    let (glyph, style) = match outcome {
        Outcome::Correct => (g.done, t.good()),
        Outcome::InProgress => (g.pending, t.info()),
        Outcome::DeadLettered => (g.dead_letter, t.warn()),
        Outcome::MessageLost
        | Outcome::ChargeLost
        | Outcome::StaleState
        | Outcome::Disagree
        | Outcome::ChargedTwice => (g.failed, t.bad()),
    };
    (glyph, style)
}

/// The causes after the headline, joined with arrows that point back to
/// where it started, with the steps its causes name in `step`'s words.
pub fn chain_at(t: &Theme, v: &Verdict, step: StepWords<'_>) -> String {
    let mut out = t.text(&v.unsettled_text()).into_owned();
    out.push_str(&causes_at(t, v, step));
    out
}

/// The chains of causes and what is at risk or in flight, without what is
/// left unsettled: that belongs right after the headline, whose colon it
/// starts with.
fn causes_at(t: &Theme, v: &Verdict, step: StepWords<'_>) -> String {
    links_at(t, v, step).concat()
}

/// [`causes_at`] a link at a time, each with the words that join it to
/// the one before (` ← …`, `; and ← …`, `  · at risk: …`): a short
/// screen shows as many whole links as fit and counts the rest, one
/// count per link, as [`fitted`] counts them.
pub fn links_at(t: &Theme, v: &Verdict, step: StepWords<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for (i, chain) in v.causes.iter().enumerate() {
        for (j, c) in chain.iter().enumerate() {
            let and = if i > 0 && j == 0 { "; and" } else { "" };
            out.push(format!(
                "{and} {} {}",
                t.g.back_arrow,
                t.text(&c.at(step).to_string())
            ));
        }
    }
    for risk in &v.at_risk {
        out.push(format!("  · at risk: {}", t.text(risk)));
    }
    for flight in &v.in_flight {
        out.push(format!("  · in flight: {}", t.text(flight)));
    }
    out
}

/// Every link a verdict reads with, a link at a time: why it went wrong
/// ([`links_at`]) or why it held ([`held_links`]).
pub fn told_links(t: &Theme, v: &Verdict, step: StepWords<'_>, own: StepWords<'_>) -> Vec<String> {
    let mut links = links_at(t, v, step);
    links.extend(held_links(t, v, step, own));
    links
}

/// Why a verdict with nothing wrong held, a link at a time as
/// [`links_at`] gives a failure's: each repeat's stop under the correct
/// mark, then why that repeat came (` ✓ m-7f3 skipped at step 13: …`,
/// ` ← m-7f3 redelivered`, …). None for a failure, whose causes say it.
/// The stop is this run's own (no other design skipped there), so its
/// step is named by `own`; why the repeat came, by `step` (in compare,
/// the moment both sides share: the ack lost at naive step 8 / idempotent
/// step 9).
pub fn held_links(t: &Theme, v: &Verdict, step: StepWords<'_>, own: StepWords<'_>) -> Vec<String> {
    if v.outcome.is_failure() {
        return Vec::new();
    }
    let (done, _) = mark(t, Outcome::Correct);
    let mut out = Vec::new();
    for chain in &v.held {
        for (j, c) in chain.iter().enumerate() {
            let (lead, words) = if j == 0 {
                (done, own)
            } else {
                (t.g.back_arrow, step)
            };
            out.push(format!(" {lead} {}", t.text(&c.at(words).to_string())));
        }
    }
    out
}

/// What a verdict cut short ends with: how many of its links are not
/// shown, and the key that shows them where the screen has keys
/// (`← why: 3 more · w`).
pub fn more_tail(t: &Theme, hidden: usize) -> String {
    if t.terminal_keys() {
        // `w` opens the verdict whole in one press, as a fold's `z` does.
        format!("{} why: {hidden} more {} w", t.g.back_arrow, t.g.dot)
    } else {
        format!("{} why: {hidden} more", t.g.back_arrow)
    }
}

/// The notes a verdict reads besides its causes, counted by what they
/// are (`! 1 at risk`, `1 in flight`): never counted as a cause.
fn notes_counted(t: &Theme, v: &Verdict) -> String {
    notes_of(t, v.at_risk.len(), v.in_flight.len())
}

/// `risk` notes at risk and `flight` in flight, counted by what they are.
fn notes_of(t: &Theme, risk: usize, flight: usize) -> String {
    let mut out = Vec::new();
    if risk > 0 {
        out.push(format!("{} {risk} at risk", t.g.warning));
    }
    if flight > 0 {
        out.push(format!("{flight} in flight"));
    }
    out.join(", ")
}

/// What a verdict shown up to its first `shown` links ([`told_links`])
/// ends with, counted as the one-row verdict counts them: only causes
/// under `why` ([`more_tail`], or with `fewest` [`fewest_tail`]); where
/// what is left out is notes alone, the notes by what they are (`! 1 at
/// risk · w`). Compare's sides read `← why: 1 more · w` for a note at
/// risk beside the main screen's `! 1 at risk · w` (teacher trial).
pub fn folded_tail(t: &Theme, v: &Verdict, shown: usize, fewest: bool) -> String {
    folded_tail_waiting(t, v, shown, fewest, 0)
}

/// [`folded_tail`], with `waiting` more parts counted under `why` that
/// are no link of the chain: what is left unsettled, where it waits
/// under `w` rather than finish the headline (as the main screen's one
/// row counts it).
pub fn folded_tail_waiting(
    t: &Theme,
    v: &Verdict,
    shown: usize,
    fewest: bool,
    waiting: usize,
) -> String {
    let causes: usize = v.causes.iter().map(Vec::len).sum::<usize>() + waiting;
    let (risk, flight) = (v.at_risk.len(), v.in_flight.len());
    let held: usize = if v.outcome.is_failure() {
        0
    } else {
        v.held.iter().map(Vec::len).sum()
    };
    // The links in `told_links`' order: causes, at risk, in flight, held;
    // of the `len` from `from` on, those past the first `shown`.
    let hidden = |from: usize, len: usize| len - shown.saturating_sub(from).min(len);
    let why = hidden(0, causes) + hidden(causes + risk + flight, held);
    if why > 0 {
        return if fewest {
            fewest_tail(t, why)
        } else {
            more_tail(t, why)
        };
    }
    let notes = notes_of(t, hidden(causes, risk), hidden(causes + risk, flight));
    if t.terminal_keys() {
        format!("{notes} {} w", t.g.dot)
    } else {
        notes
    }
}

/// [`more_tail`] in its fewest words, where a headline would be cut for
/// it: `← 4 more · w`.
/// [`fewest_tail`] without the key that reads the rest, where even that
/// would cut the headline: the count stays (`← 4 more`), and the key bar
/// names `w`.
pub fn keyless_tail(t: &Theme, hidden: usize) -> String {
    format!("{} {hidden} more", t.g.back_arrow)
}

pub fn fewest_tail(t: &Theme, hidden: usize) -> String {
    if t.terminal_keys() {
        format!("{} {hidden} more {} w", t.g.back_arrow, t.g.dot)
    } else {
        format!("{} {hidden} more", t.g.back_arrow)
    }
}

/// The headline of a whole verdict: its symbol and its counted words
/// (`✕ charged 3 times, provider and database disagree`).
pub fn verdict_headline(t: &Theme, v: &Verdict) -> (String, Style) {
    // Nothing wrong yet with more messages to come is not "correct" yet.
    let shown = if v.undecided() {
        Outcome::InProgress
    } else {
        v.outcome
    };
    let (glyph, style) = mark(t, shown);
    (format!("{glyph} {}", v.headline()), style)
}

/// The headline in its fewest words (`✕ charged twice + disagree`), where
/// it has fewer than [`verdict_headline`]'s.
pub fn short_headline(t: &Theme, v: &Verdict) -> Option<String> {
    if v.undecided() || v.headline_more() == 0 {
        return None;
    }
    let (glyph, _) = mark(t, v.outcome);
    Some(format!("{glyph} {}", v.headline_short()))
}

/// A one-row verdict's fewest words for its one wrong effect where they
/// are fewer (`✕ disagree`, its figures beside it saying between what),
/// so that its figures keep `committed`. The header, with no figures
/// beside it, keeps the whole outcome.
fn one_outcome_short(t: &Theme, v: &Verdict) -> Option<String> {
    let one = v.outcome;
    (!v.undecided() && v.headline_more() == 0 && one.short_text() != one.text())
        .then(|| format!("{} {}", mark(t, one).0, one.short_text()))
}

/// The outcome first, whole, where a glance finds it; then the figures it
/// stands on (what is in the database and at the provider); then why.
pub fn lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    bounded_lines(t, f, None, "step")
}

/// [`lines`], with a learner's design's command that tries every schedule
/// where it has one (`check`, from `one_run::bound`); a correct verdict
/// says `in this run` after its word either way. (The command is a link
/// of why it held: [`bounded_fitted`] adds it.) `unit` names a step of
/// the run in the causes (`step`, or `move` in a found schedule).
pub fn bounded_lines(t: &Theme, f: &Frame, check: Option<&str>, unit: &str) -> Vec<Line<'static>> {
    lines_in(t, f, check, unit, RowForm::WHOLE)
}

/// [`bounded_lines`] in a one-row verdict's form `form`: its figures
/// counted in its words, its order named or not, its headline whole or
/// in its fewest words.
fn lines_in(
    t: &Theme,
    f: &Frame,
    check: Option<&str>,
    unit: &str,
    form: RowForm,
) -> Vec<Line<'static>> {
    let (text, style) = bounded_headline(t, &f.verdict, check);
    let text = match short_headline(t, &f.verdict) {
        Some(short) if form.short => short,
        _ => text,
    };
    // Two orders' figures unnamed would not say which is which.
    let named = form.named || f.verdict.facts.len() > 1;
    // What is left unsettled finishes the headline's sentence (`ends
    // unsettled: m-7f3 is still leased…`): after the figures its colon
    // would hang.
    let unsettled = t.text(&f.verdict.unsettled_text()).into_owned();
    let mut spans = vec![
        Span::styled(text, style),
        Span::styled(unsettled, t.dim()),
        Span::raw("   "),
    ];
    for fact in &f.verdict.facts {
        let said = figures(t, &f.verdict, fact, form.words);
        let said = match said.split_once(": ") {
            Some((_, unnamed)) if !named => unnamed.to_string(),
            _ => said,
        };
        spans.push(Span::styled(format!("{said}   "), t.dim()));
    }
    spans.push(Span::styled(
        causes_at(t, &f.verdict, &|n| format!("{unit} {n}"))
            .trim_start()
            .to_string(),
        t.dim(),
    ));
    vec![Line::from(spans)]
}

/// [`verdict_headline`], `in this run` after a correct mark's word: one
/// run on one schedule, whoever wrote the design (a built-in design's
/// `✓ correct` alone claimed every schedule). `check`, the command that
/// tries every schedule of a learner's design, is a link of its own
/// (`bounded_fitted`, `bounded_why_lines`), not a condition of the bound.
pub fn bounded_headline(t: &Theme, v: &Verdict, check: Option<&str>) -> (String, Style) {
    let (mut text, style) = verdict_headline(t, v);
    debug_assert!(check.is_none() || v.claims_correct(), "a bound on a claim");
    if super::one_run::claims_correct(v) {
        text.push_str(super::one_run::IN_THIS_RUN);
    }
    (text, style)
}

/// One payment's two ledgers: `order 1042: 2 committed payments, 2
/// provider charges`, the payment named as `v` names it (`order 1042
/// ($25)` where the run has two payments of order 1042); first, where
/// the customer owes it more than once, how many times (`owed 2 · `):
/// without it, one row and one charge read as the right outcome where two
/// were owed.
fn figures(t: &Theme, v: &Verdict, fact: &FactVerdict, words: FigureWords) -> String {
    format!(
        "{}: {}{}, {}",
        v.fact_name(fact),
        owed(t, fact),
        words.rows(fact.payments),
        words.charges(fact.charges),
    )
}

/// How many times the customer owes a payment asked for more than once
/// (`owed 2 · `), before the figures it is measured against; nothing for
/// one owed once, as most are.
fn owed(t: &Theme, fact: &FactVerdict) -> String {
    if fact.expected > 1 {
        format!("owed {} {} ", fact.expected, t.g.dot)
    } else {
        String::new()
    }
}

/// The verdict as `w` reads it: the headline, each order's figures on a
/// row, then the chain one link a row in the order it reads (the effect
/// first, each cause of the one above it after its arrow); a later chain
/// starts with "and". What is at risk or in flight follows, a row each.
pub fn why_lines(t: &Theme, f: &Frame) -> Vec<Line<'static>> {
    bounded_why_lines(t, f, None, "step")
}

/// [`why_lines`], with a correct verdict's bound (see [`bounded_lines`]):
/// the command that tries every schedule on a row of its own, first.
pub fn bounded_why_lines(
    t: &Theme,
    f: &Frame,
    check: Option<&str>,
    unit: &str,
) -> Vec<Line<'static>> {
    let v = &f.verdict;
    let (text, style) = bounded_headline(t, v, check);
    let mut out = vec![Line::from(vec![
        Span::styled(text, style),
        Span::styled(t.text(&v.unsettled_text()).into_owned(), t.dim()),
    ])];
    // The bound under the claim it bounds, before anything can push it
    // off a short screen.
    if let Some(check) = check {
        out.push(Line::styled(
            format!("  one run on one schedule; every schedule: {check}"),
            t.dim(),
        ));
    }
    for fact in &v.facts {
        out.push(Line::styled(
            format!("  {}", figures(t, v, fact, FIGURE_WORDS[0])),
            t.dim(),
        ));
    }
    let step = &|n| format!("{unit} {n}");
    for (i, chain) in v.causes.iter().enumerate() {
        for (j, c) in chain.iter().enumerate() {
            let lead = if i > 0 && j == 0 { "and " } else { "" };
            out.push(Line::from(vec![
                Span::styled(format!("  {lead}{} ", t.g.back_arrow), t.key()),
                Span::raw(t.text(&c.at(step).to_string()).into_owned()),
            ]));
        }
    }
    // Nothing went wrong: why the repeats did no harm, each what stopped
    // one (its mark) and why that repeat came (after the arrows).
    if !v.outcome.is_failure() {
        let (done, _) = mark(t, Outcome::Correct);
        for chain in &v.held {
            for (j, c) in chain.iter().enumerate() {
                let lead = if j == 0 { done } else { t.g.back_arrow };
                out.push(Line::from(vec![
                    Span::styled(format!("  {lead} "), t.key()),
                    Span::raw(t.text(&c.at(step).to_string()).into_owned()),
                ]));
            }
        }
    }
    for risk in &v.at_risk {
        out.push(Line::styled(
            format!("  at risk: {}", t.text(risk)),
            t.warn(),
        ));
    }
    for flight in &v.in_flight {
        out.push(Line::styled(
            format!("  in flight: {}", t.text(flight)),
            t.dim(),
        ));
    }
    out
}

/// [`why_lines`] in rows of `width` columns, a wrapped link continued
/// under its words after the arrow, so that each link reads as one.
pub fn why_rows(lines: &[Line<'static>], width: u16) -> Vec<Line<'static>> {
    lines
        .iter()
        .flat_map(|l| super::hanging::hanging(&l.spans, usize::from(width), 4))
        .collect()
}

/// A verdict with nothing wrong, in the rows it has: why it held (its
/// `links`, from [`held_links`]) after its figures where they fit (`✓
/// m-7f3 skipped at step 13: … ← m-7f3 redelivered ← …`); else as many
/// whole links as fit, in causal order, and the rest counted with the key
/// that reads them, as compare folds a side (`✓ … ← m-7f3 redelivered  ←
/// why: 2 more · w`); else none (`fitted` shortens the figures to make
/// room for the count).
fn held_where_room(
    t: &Theme,
    links: &[String],
    whole: &[Line<'static>],
    fits: &dyn Fn(&[Line<'static>]) -> bool,
) -> Option<Vec<Line<'static>>> {
    let with = |extra: String| -> Vec<Line<'static>> {
        let mut line = whole[0].clone();
        line.spans.push(Span::styled(extra, t.dim()));
        vec![line]
    };
    if whole.len() != 1 {
        return Some(whole.to_vec());
    }
    // The figures end in the spaces that part them from what follows.
    let told = with(links.concat().trim_start().to_string());
    if fits(&told) {
        return Some(told);
    }
    // The first links whole, the rest counted as a failure's hidden links
    // are (`← why: 4 more · w`): one sign for what is left out, whatever
    // the outcome. Whole links only: a link cut mid-word would read as
    // another cause. With none shown, the count alone.
    (0..links.len()).rev().find_map(|shown| {
        let told = links[..shown].concat();
        let tail = more_tail(t, links.len() - shown);
        let hint = if shown == 0 {
            with(tail)
        } else {
            with(format!("{}  {tail}", told.trim_start()))
        };
        fits(&hint).then_some(hint)
    })
}

/// The verdict in `rows` rows of `width` columns: whole where it fits
/// (wrapped, its rows counted beyond the panel by `overflow`); on a single
/// row that cannot hold it, the outcome and its figures in short words,
/// and the causes counted with the key that reads them, rather than a
/// figure cut in the middle (`2 provider …2 more` read as two providers).
/// A one-row verdict takes the run's form (`run_row_form`): the same
/// figure words, order's name and headline at each of `app`'s steps on
/// this screen, and at each step of every design's run `m` reaches
/// (`App::other_runs`), so that `m` does not relabel the row (teacher
/// trial, tour-4 at 80x24: naive left order 1042 unnamed where
/// idempotent named it).
pub fn fitted(app: &App, f: &Frame, width: u16, rows: u16) -> Vec<Line<'static>> {
    let t = &app.theme;
    let check = super::one_run::bound(app, &f.verdict);
    let unit = app.script.origin.step();
    // Chosen over every step of every design's run: kept by `update`
    // (`RunForms`), chosen here only at a size it has not seen.
    let form = app
        .run_forms
        .row_form(&app.forms_now(), (width, rows))
        .unwrap_or_else(|| app_row_form(app, width, rows));
    let room = Room {
        t,
        width,
        rows,
        unit,
    };
    bounded_fitted(room, f, check.as_deref(), form)
}

/// The one-row verdict's form for the run on screen and every design's
/// run `m` reaches, in a panel `width` x `rows` inside (`run_row_form`).
pub fn app_row_form(app: &App, width: u16, rows: u16) -> RowForm {
    // Only a one-row verdict takes a shorter form: no run is walked for
    // the others.
    if rows != 1 {
        return RowForm::WHOLE;
    }
    let others = app.other_runs();
    let runs = std::iter::once((&app.strategy, app.timeline.frames.as_slice()))
        .chain(others.iter().map(|(d, run)| (d, run.frames.as_slice())));
    let steps: Vec<(&Frame, Option<String>)> = runs
        .flat_map(|(design, frames)| {
            frames
                .iter()
                .map(move |g| (g, super::one_run::bound_for(app, design, &g.verdict)))
        })
        .collect();
    let room = Room {
        t: &app.theme,
        width,
        rows,
        unit: app.script.origin.step(),
    };
    run_row_form(room, &steps)
}

/// Where a verdict is fitted: the theme it is drawn in, the panel's room
/// (columns and rows) and what a step is called (`step`, `move`). The
/// same for every step a run's form is chosen over.
#[derive(Clone, Copy)]
pub struct Room<'a> {
    pub t: &'a Theme,
    pub width: u16,
    pub rows: u16,
    pub unit: &'a str,
}

impl RowForm {
    /// The whole verdict's form.
    const WHOLE: RowForm = RowForm {
        words: FIGURE_WORDS[0],
        named: true,
        short: false,
        kept: true,
    };

    /// Every form a run may keep, widest first: the headline's words
    /// given up first, then the order's name. The figures count in one
    /// wording on every one-row verdict (`NARROWEST`), whichever run: a
    /// run whose row had room said `1 provider charge` where another
    /// said `1 charge` (teacher trial at 80x24).
    fn all() -> impl Iterator<Item = RowForm> {
        [(true, false), (true, true), (false, false), (false, true)]
            .into_iter()
            .map(|(named, short)| RowForm {
                words: NARROWEST,
                named,
                short,
                kept: true,
            })
    }
}

/// The form the verdict takes at every step on this screen
/// (`run_form`): the widest that every one of `steps`' verdicts holds on
/// its row with the key that reads the rest. A step comes with its
/// bound (`one_run::bound_for` its design); the steps are those of every
/// design's run `m` reaches, so that `m` keeps the form.
pub fn run_row_form(room: Room<'_>, steps: &[(&Frame, Option<String>)]) -> RowForm {
    // Only a one-row verdict takes a shorter form.
    if room.rows != 1 {
        return RowForm::WHOLE;
    }
    // Chosen as the terminal draws it: the lesson page's screens (no
    // keys named) are the terminal's, the key bar apart.
    let t = &Theme {
        medium: crate::scenario::key_word::Medium::Terminal,
        ..*room.t
    };
    let room = Room { t, ..room };
    let loose = RowForm {
        words: NARROWEST,
        named: true,
        short: false,
        kept: false,
    };
    // A step that no form holds is cut by its panel whatever the run's
    // form (two orders' figures beside each other): it asks only for the
    // fewest figure words, in which it is cut the latest (`1 provider
    // …1 more` cut a figure in two).
    let steps: Vec<(&Frame, Option<&str>, bool)> = steps
        .iter()
        .map(|(f, check)| {
            let (f, check) = (*f, check.as_deref());
            let cut = ranked(room, f, check, loose).1 == usize::MAX;
            (f, check, cut)
        })
        .collect();
    // Where no form holds every step, each step takes the widest it
    // holds, in the fewest figure words.
    super::run_form::widest(RowForm::all(), &steps, |form, &(f, check, cut)| {
        if cut {
            form.words == NARROWEST
        } else {
            ranked(room, f, check, form).1 != usize::MAX
        }
    })
    .unwrap_or(loose)
}

/// [`fitted`], with a correct verdict's bound (see [`bounded_lines`]):
/// `in this run` is never given up; the command is a link like the
/// others, counted where it does not fit.
pub fn bounded_fitted(
    room: Room<'_>,
    f: &Frame,
    check: Option<&str>,
    form: RowForm,
) -> Vec<Line<'static>> {
    ranked(room, f, check, form).0
}

/// [`bounded_fitted`], with how much the line gave up to fit: 0 for the
/// whole verdict, more for each form further down its list (a shorter
/// headline, figures without their order, no key), `usize::MAX` where
/// none fit. A run's form (`run_row_form`) that every step holds is
/// kept whole, with the key; else each step gives up what it must.
fn ranked(
    room: Room<'_>,
    f: &Frame,
    check: Option<&str>,
    form: RowForm,
) -> (Vec<Line<'static>>, usize) {
    let Room {
        t,
        width,
        rows,
        unit,
    } = room;
    let words = form.words;
    // On one row the whole verdict counts in the run's words too: a
    // step whose verdict fits whole does not say `provider charges`
    // where the next says `charges`.
    let whole = if rows == 1 {
        lines_in(t, f, check, unit, form)
    } else {
        bounded_lines(t, f, check, unit)
    };
    let fits = |l: &[Line<'static>]| crate::tui::measure::rows(l, width, false) <= rows.max(1);
    let plain = &|n| format!("{unit} {n}");
    let mut held_links = held_links(t, &f.verdict, plain, plain);
    held_links.extend(check.map(super::one_run::link));
    let held = held_links.len();
    if held > 0 && fits(&whole) {
        if let Some(told) = held_where_room(t, &held_links, &whole, &fits) {
            return (told, 1);
        }
        // One row, too short for the figures and the count beside them:
        // the short figures below, with the count of why it held.
        if rows != 1 {
            return (whole, 0);
        }
    } else if rows != 1 || crate::tui::measure::rows(&whole, width, false) <= 1 {
        return (whole, 0);
    }
    let v = &f.verdict;
    let (bare, style) = bounded_headline(t, v, check);
    // What is unsettled finishes the headline here too; where the row has
    // no room for it, it waits under `w`, counted with the causes, and the
    // figures keep their row (trial 33: tour-2's end at 80x24 read `○ ends
    // unsettled: m-7f3 is still leased to A, whose ack was lost on …2 more`,
    // its figures gone).
    let unsettled = t.text(&v.unsettled_text()).into_owned();
    let text = bare.clone() + &unsettled;
    // The same outcomes in their fewest words (`✕ charged twice +
    // disagree`): given up before a figure or the key that reads the rest.
    let short = short_headline(t, v)
        .or_else(|| one_outcome_short(t, v))
        .unwrap_or_else(|| text.clone());
    // The run's headline, where it keeps one.
    let text = if form.kept && form.short {
        short.clone()
    } else {
        text
    };
    // Each count names what it counts, in the run's words (`words`).
    let figures = |facts: &[&FactVerdict], named: bool| -> String {
        facts
            .iter()
            .map(|fact| {
                format!(
                    "  {}{}{}, {}",
                    if named {
                        format!("{}: ", v.fact_name(fact))
                    } else {
                        String::new()
                    },
                    owed(t, fact),
                    words.rows(fact.payments),
                    words.charges(fact.charges),
                )
            })
            .collect()
    };
    // Where every order's figures do not fit, those of the orders the
    // headline is about (the rest read whole under `w`).
    let all: Vec<&FactVerdict> = v.facts.iter().collect();
    let about: Vec<&FactVerdict> = v
        .facts
        .iter()
        .filter(|f| f.outcome != Outcome::Correct && f.outcome != Outcome::InProgress)
        .collect();
    let mut sets = vec![all];
    if !about.is_empty() && about.len() < v.facts.len() {
        sets.push(about);
    }
    // Only causes are counted under `why` (teacher trial at 80x24: `←
    // why: 1 more` where the one more was an at-risk note). A note at
    // risk or in flight is named as one where it is all there is to
    // read; beside causes it waits under `w`, its own place, rather than
    // push the key off the row.
    let causes: usize = v.causes.iter().map(Vec::len).sum::<usize>() + held;
    let notes = notes_counted(t, v);
    // The page has no keys to read the causes by: it tells them under
    // the screen.
    let tail = |keys: bool, waiting: usize| -> String {
        let causes = causes + waiting;
        let keys = keys && t.terminal_keys();
        let key = if keys {
            format!(" {} w", t.g.dot)
        } else {
            String::new()
        };
        match (causes, notes.as_str()) {
            (0, "") => String::new(),
            (0, notes) => format!("  {notes}{key}"),
            (n, _) if keys => format!("  {}", more_tail(t, n)),
            (n, _) => format!("  {} why: {n} more", t.g.back_arrow),
        }
    };
    // The longest that fits: the figures named by order, then the keys
    // that read the causes; the count of causes always. The headline's
    // words are shortened before the figures lose their order, and before
    // the key goes: a row that names no key leaves the rest unreadable.
    // Figures without their order only where there is one order: two
    // unnamed sets of figures would not say which is which.
    let mut tries = Vec::new();
    for keys in [true, false] {
        for facts in &sets {
            for named in [true, false] {
                let heads = if unsettled.is_empty() {
                    vec![&text, &short]
                } else {
                    vec![&text, &short, &bare]
                };
                for head in heads {
                    // A kept form: its order's name as the run has it,
                    // its headline, and the key.
                    let whole_head = head == &text || head == &bare;
                    let kept = !form.kept
                        || (keys && whole_head && (named == form.named || facts.len() > 1));
                    if kept
                        && (named || facts.len() <= 1)
                        && !tries.contains(&(head, facts, named, keys))
                    {
                        tries.push((head, facts, named, keys));
                    }
                }
            }
        }
    }
    for (i, (head, facts, named, keys)) in tries.into_iter().enumerate() {
        let waiting = usize::from(head == &bare && !unsettled.is_empty());
        let line = Line::from(vec![
            Span::styled(head.clone(), style),
            Span::styled(figures(facts, named), t.dim()),
            Span::styled(tail(keys, waiting), t.key()),
        ]);
        if line.width() <= usize::from(width) {
            return (vec![line], 2 + i);
        }
    }
    if rows != 1 {
        return (whole, usize::MAX);
    }
    // No form holds it on its row: its first pieces whole, the rest
    // counted with the key that reads them (`…2 more · w`), rather than
    // a row the panel cuts wherever its width ends.
    let named = form.named || v.facts.len() > 1;
    let mut pieces: Vec<Span<'static>> = v
        .facts
        .iter()
        .map(|fact| Span::styled(figures(&[fact], named), t.dim()))
        .collect();
    let links = links_at(t, v, plain).into_iter().chain(held_links);
    pieces.extend(links.enumerate().map(|(i, link)| {
        let link = if i == 0 {
            format!("  {}", link.trim_start())
        } else {
            link
        };
        Span::styled(link, t.dim())
    }));
    let head = Span::styled(text, style);
    let row = super::verdict_cut::one_row(t, head, &pieces, width);
    (vec![row], usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form's rows name their table (the database beside them holds
    /// processed_messages rows too) and say they are committed (it draws
    /// a row in an open transaction too).
    #[test]
    fn every_figure_form_names_the_payments_table_and_committed() {
        for words in FIGURE_WORDS.into_iter().chain([NARROWEST]) {
            // One wording for the rows in every form: a row that said
            // `1 committed payment row` in one run and `1 payment
            // committed` in another read as two counts (teacher trial).
            assert_eq!(words.row, FIGURE_WORDS[0].row);
            for n in [0, 1, 2] {
                let rows = words.rows(n);
                assert!(rows.contains("payment"), "{rows}");
                assert!(rows.contains("committed"), "{rows}");
            }
        }
    }

    /// `!` means "at risk, nothing wrong yet" on every screen (a fault
    /// armed, a design that holds only within the bounds); a dead-lettered
    /// message is an end, so it has a mark of its own.
    #[test]
    fn dead_lettered_is_not_drawn_with_the_risk_mark() {
        for theme in [Theme::new(false, false), Theme::new(false, true)] {
            let (text, _) = headline(&theme, Outcome::DeadLettered);
            assert!(!text.starts_with(theme.g.warning), "{text}");
            assert!(!text.starts_with(theme.g.failed), "{text}");
        }
    }

    #[test]
    fn every_outcome_has_a_headline_in_its_own_words() {
        for theme in [Theme::new(false, false), Theme::new(false, true)] {
            for outcome in Outcome::ALL {
                let (text, _) = headline(&theme, outcome);
                assert!(text.ends_with(outcome.text()), "{text}");
                let glyph = text.strip_suffix(outcome.text()).unwrap().trim();
                assert!(!glyph.is_empty(), "{outcome:?} has a symbol");
                assert!(!text.contains("once"), "{text}");
            }
        }
        let t = Theme::new(false, false);
        assert_eq!(headline(&t, Outcome::Correct).0, "✓ correct");
        assert_eq!(headline(&t, Outcome::InProgress).0, "○ in progress");
        assert_eq!(headline(&t, Outcome::ChargedTwice).0, "✕ charged twice");
        assert_eq!(headline(&t, Outcome::DeadLettered).0, "⊠ dead-lettered");
    }
}
