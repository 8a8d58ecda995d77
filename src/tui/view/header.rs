//! The top line: where in the tour we are, the step, the design, the verdict.

use crate::sim::{Frame, Strategy};
use crate::tui::app::{App, seconds_per_step};
use crate::tui::forms::Fit;
pub use crate::tui::forms::HeaderForm;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let shown = Shown {
        design: &app.strategy,
        frames: &app.timeline.frames,
    };
    let left_in = left_parts(app, shown.design);
    let room = area.width;
    // Chosen over every step of every design's run: kept by `update`
    // (`RunForms`), chosen here only at a size it has not seen.
    let HeaderForm { run, widest_right } = app
        .run_forms
        .header(&app.forms_now(), room)
        .unwrap_or_else(|| form(app, room));
    let whole = left_in(run);
    let fits = forms(app, room);
    let right_at = |f: &Frame, left: usize| {
        right_parts(app, shown, f)(step_fit(app, &fits, run, f, room, left))
    };
    let found = app.is_counterexample();
    let mut left = whole;
    let avail = usize::from(room).saturating_sub(widest_right);
    if found {
        // The design beside the step names the run's design whole: where
        // it is the one the schedule was found for, ` Counterexample`
        // alone is the least the left part says.
        let named_right = app.script.narrated_for.as_deref() == Some(&*app.strategy.name);
        left = found_left(t, left, avail, named_right);
    } else {
        let soak = app.script.origin == crate::scenario::Origin::SoakStory;
        let fixed = width(&left[..3]);
        let title = left.pop().expect("four spans");
        let room = avail.saturating_sub(fixed);
        if title.width() <= room {
            left.push(title);
        } else {
            // ` · `, what of the title fits, and the ellipsis: never cut
            // without a sign. The sign is `...` with `--ascii`: a cut sized
            // for `…` overflowed there, and the whole left part was dropped.
            // At a word's end (teacher trial: `Why duplicates arr…` at
            // 80x24 read as a word of its own); the title's first word after
            // ` · `, else the sign alone.
            let lead = format!(" {} ", t.g.dot);
            let words = title.content.strip_prefix(&lead).unwrap_or(&title.content);
            let room = room.saturating_sub(lead.chars().count());
            let cut = |words: &str, room: usize| {
                crate::cut_at_word::cut_at_word(words, room, t.g.ellipsis)
            };
            // Whether a cut of `words` keeps its first `n` words (`order
            // 1077…`): less names nothing a class can tell apart.
            let says = |cut: &str, words: &str, n: usize| {
                cut.split(' ').count() >= n || cut.trim_end_matches(t.g.ellipsis) == words
            };
            match cut(words, room) {
                Some(c) if !soak || says(&c, words, 2) => {
                    left.push(Span::styled(format!("{lead}{c}"), title.style));
                }
                kept => {
                    // A soak's story gives up its group's words before its
                    // order (teacher trial at 80x24: `A soak's story · …`):
                    // its own title says `Soak:` (`Soak: order 1077…`).
                    let own = format!("{SOAK_TITLE}{words}");
                    let room = avail.saturating_sub(width(&left[..2]));
                    match cut(&own, room) {
                        Some(c) if says(&c, &own, 3) => {
                            left[2] = Span::raw("");
                            left.push(Span::styled(c, title.style));
                        }
                        _ => {
                            if let Some(c) = kept {
                                left.push(Span::styled(format!("{lead}{c}"), title.style));
                            }
                        }
                    }
                }
            }
        }
        if width(&left) > avail {
            left.truncate(1);
        }
    }
    // The verdict at this step takes the room beside the run's title.
    let right = right_at(app.frame(), width(&left));
    let left_line = Line::from(left);
    buf.set_style(area, Style::new());
    left_line.render(area, buf);
    Line::from(right).right_aligned().render(area, buf);
}

/// How `idem soak --save` starts a story's title (`Soak: order 1077 …`).
const SOAK_TITLE: &str = "Soak: ";

/// [`HeaderForm`] for the run on screen in a header `room` wide.
pub fn form(app: &App, room: u16) -> HeaderForm {
    let shown = Shown {
        design: &app.strategy,
        frames: &app.timeline.frames,
    };
    let run = run_fit(app, room);
    let whole = left_parts(app, shown.design)(run);
    // The title is cut once for the run: to the room beside the widest
    // right part any of its steps takes beside the whole title (teacher
    // trial: at 80x24 the title read `Why duplicates arrive` beside `○ in
    // progress` and `Why duplicates…` beside `✓ correct in this run`, one
    // title at two lengths in one run).
    // A verdict cut to its worst effect beside the whole title (`✕
    // charged twice, …`) counts at its fewest whole words instead: the
    // title, which the story panel and the picker name in full, gives way
    // before the verdict does (teacher trial 20, tour-4 naive at 80x24),
    // at every size: at 100x30 crash-after-provider read `✕ charged
    // twice + disagree` under naive and `✕ charged twice, …` under
    // no-provider-key, whose longer name took the room, two forms of one
    // outcome pair a press of `m` apart. From 100 columns only for those
    // fewest words: a verdict without them keeps the title whole, its
    // mark alone giving way (`bare`), and the verdict's panel names it.
    // The forms allowed here, made once for every step (`step_fit`).
    let t = &app.theme;
    let fits = forms(app, room);
    let uncut = fits
        .iter()
        .copied()
        .find(|v| v.mark && !v.bare)
        .map(|v| run.verdict_of(v));
    let has_short = |f: &Frame| super::verdict::short_headline(t, &f.verdict).is_some();
    let widest_right = shown
        .frames
        .iter()
        .map(|f| {
            let fit = step_fit(app, &fits, run, f, room, width(&whole));
            match uncut {
                Some(v) if (fit.lead || fit.bare) && (room < 100 || has_short(f)) => {
                    width(&right_parts(app, shown, f)(v))
                }
                _ => width(&right_parts(app, shown, f)(fit)),
            }
        })
        .max()
        .unwrap_or(0);
    HeaderForm { run, widest_right }
}

/// The least a found schedule's header says on the left: the group's
/// short word and the title's first word, the design it was found for
/// (` Counterexample · naive:`).
fn found_least(left: &[Span<'static>]) -> Vec<Span<'static>> {
    let first = left[3]
        .content
        .split(' ')
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    vec![
        Span::raw(" "),
        Span::styled("Counterexample", left[2].style),
        Span::styled(first, left[3].style),
    ]
}

/// A found schedule's left part in `avail` columns: what is replayed and
/// the design it was found for are kept whole (the trial read `… · naiv…`
/// at 80x24). What gives way, in order: the group's long words (`found by
/// idem check`), the program's name, then the title's last words (how the
/// schedule ends, which the verdict beside it tells too), cut at a word's
/// end and signed.
fn found_left(
    t: &crate::tui::theme::Theme,
    left: Vec<Span<'static>>,
    avail: usize,
    named_right: bool,
) -> Vec<Span<'static>> {
    if width(&left) <= avail {
        return left;
    }
    let short = Span::styled("Counterexample", left[2].style);
    let mut shorter = left.clone();
    shorter[2] = short.clone();
    if width(&shorter) <= avail {
        return shorter;
    }
    let title = &left[3];
    let mut least = found_least(&left);
    // ` · naive:` (three words split at spaces: "", "·", "naive:") is kept
    // whole; the rest gives way, cut at a word's end and signed.
    let head = least[2].content.to_string();
    let rest = title.content.strip_prefix(&head).unwrap_or_default();
    let room = avail.saturating_sub(width(&least[..2]) + head.chars().count());
    let best =
        crate::cut_at_word::cut_at_word(rest, room, t.g.ellipsis).map(|cut| format!("{head}{cut}"));
    match best {
        Some(cut) => least[2] = Span::styled(cut, title.style),
        None if named_right => {
            least.truncate(2);
        }
        None => {}
    }
    least
}

/// One design's run as the header shows it: the one on screen, or another
/// `m` reaches, whose header the form is fitted to as well.
#[derive(Clone, Copy)]
struct Shown<'a> {
    design: &'a Strategy,
    frames: &'a [Frame],
}

/// The header's left part in form `fit` under `design`: the program,
/// where in the tour and the title. The same at every step of the run.
fn left_parts<'a>(app: &'a App, design: &'a Strategy) -> impl Fn(Fit) -> Vec<Span<'static>> + 'a {
    let t = &app.theme;
    let group = move || match (app.script.group, app.place_in_group()) {
        _ if app.is_counterexample() => "Counterexample found by idem check".to_string(),
        (crate::scenario::Group::Tour, Some((at, of))) => format!("Tour {at}/{of}"),
        // One short word for the group at every step and width: a name
        // that changed with the verdict's length beside it ("Failure
        // modes" at one step, "Failures" at the next) read as two groups.
        (crate::scenario::Group::Failure, Some((at, of))) => format!("Failures {at}/{of}"),
        (crate::scenario::Group::Design, Some((at, of))) => format!("Designs {at}/{of}"),
        // Not a built-in: a story a soak wrote, or a file.
        (_, None) if app.script.origin == crate::scenario::Origin::SoakStory => {
            "A soak's story".to_string()
        }
        (_, None) => "Your scenario".to_string(),
    };
    // A story left out (a design the scenario is not written for, the
    // learner's own above all) leaves its title out too: the title is a
    // claim about the scenario's own designs ("Redelivery changes
    // nothing") that this design may not meet. The scenario is named as
    // the setting, and the header says at every step that its story is
    // not told here.
    let left_out = app.script.story_left_out(&design.name).is_some();
    let title = title_of(app, &design.name);
    // A soak's story is titled `Soak: order 1077 …`: beside `A soak's
    // story` the first word says it twice, in the room the order needs.
    let title = match title.strip_prefix(SOAK_TITLE) {
        Some(rest) if app.script.origin == crate::scenario::Origin::SoakStory => rest.to_string(),
        _ => title,
    };
    let group = move || {
        if left_out && !app.is_counterexample() {
            format!("Scenario {}", t.text(&app.script.name))
        } else {
            group()
        }
    };
    move |fit: Fit| -> Vec<Span<'static>> {
        let (brand, dot) = if fit.brand {
            (" idem ".to_string(), format!("{} ", t.g.dot))
        } else {
            (" ".to_string(), String::new())
        };
        vec![
            Span::styled(brand, t.title()),
            Span::styled(dot, t.dim()),
            Span::styled(group(), t.info()),
            Span::styled(format!(" {} {title}", t.g.dot), t.title()),
        ]
    }
}

/// The scenario's title as the screen gives it for a run under `design`:
/// the design's own (`title_for`), or `story left out` where the
/// scenario's story is not told for it. Every view that heads a run
/// takes it from here, so none heads a naive run with the idempotent
/// design's title.
pub(super) fn title_of(app: &App, design: &str) -> String {
    if app.script.story_left_out(design).is_some() {
        "story left out".to_string()
    } else {
        app.theme.text(app.script.title_for(design)).into_owned()
    }
}

/// The header's right part in form `fit` at frame `f` of run `shown`: the
/// play, the step, the design (and the key that switches it) and the
/// verdict.
fn right_parts<'a>(
    app: &'a App,
    shown: Shown<'a>,
    f: &'a Frame,
) -> impl Fn(Fit) -> Vec<Span<'static>> + 'a {
    let t = &app.theme;
    // A correct run is said with its bound (`in this run`), whoever wrote
    // the design; a learner's design's also has the command that checks it.
    let check = super::one_run::bound_for(app, shown.design, &f.verdict);
    let (verdict, vstyle) = super::verdict::bounded_headline(t, &f.verdict, check.as_deref());
    // Where the header has no room for every wrong effect, it names the
    // worst and signs the rest: the verdict's panel names them all.
    let verdict_lead = if f.verdict.headline_more() > 0 {
        let glyph = verdict.split(' ').next().unwrap_or_default();
        format!(
            "{glyph} {}, {}",
            t.text(&f.verdict.headline_lead()),
            t.g.ellipsis
        )
    } else {
        verdict.clone()
    };
    // Last of all, its fewest words (`✕ charged twice + disagree`): the
    // title gives way before them, signed, for a bare `○ …` tells a
    // class nothing, and a cut (`✕ charged twice, …`) one effect short.
    // From 100 columns the mark alone may give way (`bare`) where even a
    // cut title leaves no room.
    // A correct end keeps its bound in every form (`✓ correct in this
    // run`), whoever wrote the design: a bare `✓ correct` claims every
    // schedule, which one run cannot show.
    let bounded = super::one_run::claims_correct(&f.verdict);
    let verdict_mark = match super::verdict::short_headline(t, &f.verdict) {
        Some(short) if bounded => short + super::one_run::IN_THIS_RUN,
        Some(short) => short,
        None if check.is_none() => verdict.clone(),
        None => verdict_lead.clone(),
    };
    // Nor does `✓ …` show it: a correct end's fewest words are its mark
    // form, and the title gives way (signed) before them. Teacher trial:
    // a forked run's end, its header longer by the fork's tag, read
    // `✓ …` where the same run unforked said `✓ correct in this run`.
    let verdict_bare = if bounded {
        verdict_mark.clone()
    } else {
        format!(
            "{} {}",
            verdict.split(' ').next().unwrap_or_default(),
            t.g.ellipsis
        )
    };
    let designs = crate::tui::app::designs(&app.script).len();
    move |fit: Fit| -> Vec<Span<'static>> {
        let gap = if fit.tight { " " } else { "  " };
        let dot = format!("{gap}{}{gap}", t.g.dot);
        let mut right: Vec<Span<'static>> = vec![Span::raw(gap)];
        if let Some(k) = app.forked_at() {
            right.push(Span::styled(
                format!(" forked at step {k} "),
                t.warn().patch(t.highlight()),
            ));
            right.push(Span::raw(gap));
        }
        if app.playing {
            // The narrowest form keeps the sign and the pace (`▶ 1.5s`):
            // the room goes to the verdict's words.
            let playing = if fit.mark {
                format!("{} {}{gap}", t.g.playing, seconds_per_step(app.speed))
            } else {
                format!(
                    "{} playing {}/step{gap}",
                    t.g.playing,
                    seconds_per_step(app.speed)
                )
            };
            right.push(Span::styled(playing, t.info()));
        }
        right.extend([
            Span::styled(
                format!(
                    "{} {}/{}",
                    app.script.origin.step(),
                    f.index,
                    shown.frames.len().saturating_sub(1)
                ),
                t.title(),
            ),
            Span::styled(dot.clone(), t.dim()),
        ]);
        // SQLite is the default and goes unnamed; a server run says so.
        if !f.engine.is_sqlite() {
            right.extend([
                Span::styled(f.engine.name(), t.info()),
                Span::styled(dot.clone(), t.dim()),
            ]);
        }
        if fit.label {
            right.push(Span::styled("design: ", t.dim()));
        }
        right.push(Span::styled(shown.design.name.clone(), t.key()));
        if fit.key && designs >= 2 && app.theme.terminal_keys() {
            right.push(Span::styled(" (m)", t.dim()));
        }
        let verdict = if fit.bare {
            &verdict_bare
        } else if fit.mark || fit.short {
            &verdict_mark
        } else if fit.lead {
            &verdict_lead
        } else {
            &verdict
        };
        right.extend([
            Span::styled(dot, t.dim()),
            Span::styled(verdict.clone(), vstyle),
            Span::raw(" "),
        ]);
        right
    }
}

/// The forms of the header allowed on this screen, widest first.
fn forms(app: &App, width: u16) -> Vec<Fit> {
    // A found schedule's left part gives way (`found_left`) before its
    // outcome is a bare mark (teacher trial: in-progress's run one fault
    // further read `✕ …` at 120x40 beside its title whole): the header
    // names the design, and the outcome is what the replay is about.
    let bare_ok = width >= 100 && !app.is_counterexample();
    let all = Fit::ALL.into_iter().filter(move |f| !f.bare || bare_ok);
    if !app.presenter {
        return all.collect();
    }
    // The presenter view has no verdict panel: its header keeps the
    // verdict's words whole, whatever the title loses. A found schedule's
    // left part keeps its least whole (`found_left`): there the verdict's
    // fewest words (`✕ charged twice + disagree`) come after, for where
    // the whole words leave no room; without them the verdict ran over
    // the left part at 80x24 (teacher trial: `Counterex`, cut unsigned).
    if !app.is_counterexample() {
        return all.filter(|f| !(f.mark || f.lead || f.short)).collect();
    }
    let (whole, fewer): (Vec<Fit>, Vec<Fit>) = all.partition(|f| !(f.mark || f.lead || f.short));
    whole
        .into_iter()
        .chain(fewer.into_iter().filter(|f| f.short && !f.lead && !f.mark))
        .collect()
}

fn width(spans: &[Span]) -> usize {
    spans.iter().map(|s| s.width()).sum::<usize>()
}

/// The header's width in each of `fits` at frame `f` of run `shown`: a
/// form whose verdict is whole counts at the verdict's fewest words
/// (`✕ charged twice + disagree`) where those are narrower, for the
/// verdict takes its words step by step (`step_fit`), and the run's form
/// keeps `design: … (m)` at every step (teacher trial: tour-4 read
/// `idempotent` alone at 120x40, naive's last verdict whole having taken
/// the label's room at every step of every design).
fn widths(app: &App, shown: Shown, f: &Frame, fits: &[Fit]) -> Vec<usize> {
    let (left_in, right_in) = (left_parts(app, shown.design), right_parts(app, shown, f));
    fits.iter()
        .map(|&fit| {
            let at = |fit: Fit| width(&left_in(fit)) + width(&right_in(fit));
            let fewest = Fit { short: true, ..fit };
            if fit.lead || fit.mark || fit.bare {
                at(fit)
            } else {
                at(fit).min(at(fewest))
            }
        })
        .collect()
}

/// The header's form for the run on screen. What the header drops around
/// the verdict (the `(m)`, `design:`, the wide gaps, the program's name)
/// is chosen once, for the step that needs the most room in the run of
/// every design `m` reaches (`run_form`), as the body's panels are sized
/// for the run (`layout::Need`): teacher trial 13 saw `(m)` come and go in
/// tour-3 as the verdict beside it grew, and read a key that worked at
/// some steps only; issue 18 saw `design: naive (m)` become `idempotent`
/// at a press of `m`. Where no form holds every title whole, the one in
/// fewest words short of the bare mark: the title is cut (signed), not the
/// verdict's words. The verdict's own words take the widest form that
/// fits beside them at each step (`step_fit`).
fn run_fit(app: &App, room: u16) -> Fit {
    let fits = forms(app, room);
    let others = app.other_runs();
    let runs = std::iter::once(Shown {
        design: &app.strategy,
        frames: &app.timeline.frames,
    })
    .chain(others.iter().map(|(design, run)| Shown {
        design,
        frames: run.frames.as_slice(),
    }));
    let fits_in = &fits;
    let steps: Vec<Vec<usize>> = runs
        .flat_map(|shown| {
            shown
                .frames
                .iter()
                .map(move |f| widths(app, shown, f, fits_in))
        })
        .collect();
    let most = super::run_form::widest(0..fits.len(), &steps, |i, w| w[i] <= usize::from(room))
        .or_else(|| fits.iter().rposition(|f| !f.bare))
        .unwrap_or(fits.len() - 1);
    fits[most]
}

/// The header's form at frame `f` of the run on screen, whose form is
/// `run` (`run_fit`): the verdict's words take the widest form that fits
/// beside a left part `left` columns wide at this step, its fewest words (`✕ charged
/// twice + disagree`) before its worst alone and a sign (`✕ charged
/// twice, …`).
fn step_fit(app: &App, fits: &[Fit], run: Fit, f: &Frame, room: u16, left: usize) -> Fit {
    let shown = Shown {
        design: &app.strategy,
        frames: &app.timeline.frames,
    };
    let room = usize::from(room);
    let (left_in, right_in) = (left_parts(app, shown.design), right_parts(app, shown, f));
    let fit = fits
        .iter()
        .map(|&v| run.verdict_of(v))
        .find(|&fit| left + width(&right_in(fit)) <= room)
        .unwrap_or(run);
    if !app.is_counterexample() {
        return fit;
    }
    // A found schedule's header says at least what is replayed and for
    // which design (` Counterexample · naive: …`); where even that has
    // no room, the verdict beside it takes fewer words.
    let least = width(&found_least(&left_in(fit)));
    if least + width(&right_in(fit)) <= room {
        return fit;
    }
    fits.iter()
        .map(|&v| fit.verdict_of(v))
        .find(|&v| least + width(&right_in(v)) <= room)
        .unwrap_or(fit)
}

impl Fit {
    /// This form with the verdict's words of `v`.
    fn verdict_of(self, v: Fit) -> Fit {
        Fit {
            short: v.short,
            lead: v.lead,
            mark: v.mark,
            bare: v.bare,
            ..self
        }
    }

    const WIDEST: Fit = Fit {
        key: true,
        label: true,
        tight: false,
        brand: true,
        short: false,
        lead: false,
        mark: false,
        bare: false,
    };

    const ALL: [Fit; 9] = [
        Fit::WIDEST,
        Fit {
            key: false,
            ..Fit::WIDEST
        },
        Fit {
            key: false,
            label: false,
            ..Fit::WIDEST
        },
        Fit {
            key: false,
            label: false,
            tight: true,
            ..Fit::WIDEST
        },
        Fit {
            key: false,
            label: false,
            tight: true,
            short: true,
            ..Fit::WIDEST
        },
        Fit {
            key: false,
            label: false,
            tight: true,
            lead: true,
            ..Fit::WIDEST
        },
        Fit {
            key: false,
            label: false,
            tight: true,
            lead: true,
            brand: false,
            short: false,
            mark: false,
            bare: false,
        },
        Fit {
            key: false,
            label: false,
            tight: true,
            lead: true,
            brand: false,
            short: false,
            mark: true,
            bare: false,
        },
        Fit {
            key: false,
            label: false,
            tight: true,
            lead: true,
            brand: false,
            short: false,
            mark: true,
            bare: true,
        },
    ];
}

#[cfg(test)]
mod tests {
    use crate::scenario::Origin;
    use crate::tui::app::tests::app;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    fn header(origin: Origin, name: &str) -> String {
        let mut a = app("tour-1", "naive");
        a.script.name = name.into();
        a.script.origin = origin;
        let area = Rect::new(0, 0, 120, 1);
        let mut buf = Buffer::empty(area);
        super::render(&a, area, &mut buf);
        (0..area.width).map(|x| buf[(x, 0)].symbol()).collect()
    }

    /// A soak's story at 80x24 keeps its title, the order it follows, read
    /// (teacher trial: `A soak's story · …` under cache-claim-first, whose
    /// longer name and verdict took the room). Every built-in run made a
    /// soak's story under a soak's title, at its last step.
    #[test]
    fn a_soak_storys_header_names_its_order_at_80x24() {
        let (mut seen, mut wrong) = (0, Vec::new());
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let mut a = app(&script.name, &design);
                a.script.origin = Origin::SoakStory;
                a.script.name = "soak-story.toml".into();
                a.script.title_for.clear();
                a.script.title =
                    "Soak: order 1077 charged twice, provider and database disagree".into();
                a.run_forms = Default::default();
                a.pos = a.timeline.frames.len() - 1;
                let area = Rect::new(0, 0, 80, 1);
                let mut buf = Buffer::empty(area);
                super::render(&a, area, &mut buf);
                let row: String = (0..area.width).map(|x| buf[(x, 0)].symbol()).collect();
                seen += 1;
                if !row.contains("order 1077") || !row.contains("soak") && !row.contains("Soak") {
                    wrong.push(format!("{} {design}: {row}", script.name));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {seen} soak stories' headers at 80x24 lose their order:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// A soak's story is told by what made it, not by its name.
    #[test]
    fn a_soak_story_is_named_so_whatever_its_file_is_called() {
        assert!(header(Origin::SoakStory, "stories/x.toml").contains("A soak's story"));
        assert!(header(Origin::Scenario, "soak-naive-x.toml").contains("Your scenario"));
    }
}
