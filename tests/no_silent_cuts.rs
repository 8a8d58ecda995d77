//! Nothing is cut without a sign. Every frame of every built-in scenario,
//! under every design it lists, at four sizes: each panel's content, as its
//! view function builds it, must be on screen, or cut with an ellipsis, or
//! the panel must say that there is more.

use crate::common::sweep::each_step;
use crate::common::{self, Screen};
use idem::scenario::load::builtins;
use idem::sim::{Frame, Strategy};
use idem::tui::app::Panel;
use idem::tui::theme::Theme;
use idem::tui::{App, layout, view};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::text::Line;

const SIZES: [(u16, u16); 4] = [(80, 24), (100, 30), (120, 40), (200, 60)];

fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn text(line: &Line) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// A panel's sign that it holds more than it shows.
fn says_more(rows: &[String]) -> bool {
    let counted = |r: &str, lead: &str| {
        r.match_indices(lead)
            .any(|(i, _)| r[i + lead.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    rows.iter().any(|r| {
        // A heading that ends in a count says its folded rows are hidden
        // (`charges 2 $80 …1 hidden`, `overflow::heading_signs`).
        r.contains(" more")
            || r.contains(" hidden")
            || r.contains(" not shown")
            || r.contains("read all")
            // `…in the story`: the newest event cut where the story's
            // own line tells it whole (`events_fold_told`).
            || r.contains("in the story")
            || counted(r, "↓")
            // `↑ 4 events, told in the story above`: older events the
            // story panel tells whole.
            || counted(r, "↑ ")
            // `charges 2 $55 …2 rows`: the provider's charges and keys
            // folded together, counted as rows (`provider_fold`).
            || counted(r, "…")
            || counted(r, "(+")
    })
}

/// A line is shown whole, or its start is shown ending in an ellipsis.
fn shown(line: &str, rows: &[String]) -> bool {
    let want = line.trim_end();
    rows.iter().any(|r| {
        let r = r.trim_end();
        r == want
            || r.strip_suffix('…')
                .is_some_and(|cut| want.starts_with(cut) && !cut.is_empty())
    })
}

/// The row that shows `line`, whole or cut with an ellipsis.
fn row_of<'a>(line: &str, rows: &'a [String]) -> Option<&'a String> {
    rows.iter().find(|r| shown(line, std::slice::from_ref(*r)))
}

/// A line's marks: what the step changed (the change colour) and the
/// words that say a row is not committed yet.
fn marks(line: &Line) -> Vec<String> {
    line.spans
        .iter()
        .filter(|s| s.style.fg == Some(Color::Magenta) || s.content.contains("uncommitted"))
        .map(|s| s.content.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A table panel's marks are whole: a row on screen keeps its marks whole
/// (the row gives way, never the mark), and a figure or step the broker or
/// the service changed is on screen, whatever else the panel folds away.
fn marks_whole(panel: Panel, lines: &[Line], rows: &[String]) -> Result<(), String> {
    for line in lines {
        let marked = marks(line);
        if marked.is_empty() {
            continue;
        }
        let whole = text(line);
        let Some(row) = row_of(&whole, rows) else {
            // The broker's figures and the service's step are few and short:
            // the ones this step moved are always on screen. Elsewhere a
            // changed row may be hidden, and counted (`says_more`).
            let changed = line
                .spans
                .iter()
                .any(|s| s.style.fg == Some(Color::Magenta));
            if changed && matches!(panel, Panel::Broker | Panel::Service) {
                return Err(format!(
                    "{panel:?}: the changed line {whole:?} is off screen"
                ));
            }
            continue;
        };
        if let Some(m) = marked.iter().find(|m| !row.contains(m.as_str())) {
            return Err(format!(
                "{panel:?}: the mark {m:?} of {whole:?} is cut: {row:?}"
            ));
        }
    }
    Ok(())
}

/// The end of a panel's last row, when the panel hides rows: the sign
/// says both that a line was cut (an ellipsis) and how much is hidden.
fn cut_with_ellipsis(rows: &[String]) -> bool {
    rows.last()
        .is_some_and(|r| r.contains('…') || r.contains("..."))
}

/// Every word of the prose is somewhere in the panel.
fn words_shown(prose: &str, rows: &[String]) -> Option<String> {
    let all = rows.join(" ");
    prose
        .split_whitespace()
        .find(|w| !all.contains(w))
        .map(str::to_string)
}

/// What the screen itself shows, read from the frame and not from a view:
/// every charge the provider made, every event of the step, and the
/// verdict's headline whole (in the header or its panel). Each is on screen
/// or its panel counts what it hides.
fn evidence(app: &App, f: &Frame, buf: &Buffer, m: &layout::Main) -> Result<(), String> {
    let panel = |p: Panel| {
        let r = m.rect(p);
        let all = rows(buf, r);
        (all.join("\n"), says_more(&all))
    };
    let place = |what: &str| {
        format!(
            "{} {} step {} at {}x{}: {what}",
            app.script.name, app.strategy.name, f.index, buf.area.width, buf.area.height
        )
    };
    let (provider, more) = panel(Panel::Provider);
    for c in &f.provider.charges {
        if !provider.contains(&c.id) && !more {
            return Err(place(&format!("charge {} is off screen\n{provider}", c.id)));
        }
    }
    let (events, more) = panel(Panel::Events);
    let flat = events
        .replace(['│', '\n'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for e in &f.events {
        let start: String = e
            .text
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        if !flat.contains(&start) && !more {
            return Err(place(&format!(
                "event {:?} is off screen\n{events}",
                e.text
            )));
        }
    }
    // An event that starts on screen and does not end there is cut: the
    // panel's sign ends what is shown with an ellipsis. (Older events that
    // gave way whole are counted on the top row, `view::newest`.)
    let starts = |e: &&idem::sim::event::Event| {
        let start: String = e
            .text
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        flat.contains(&start)
    };
    // Older events counted on the top row: on a row of their own (`↑ 4
    // more events above`), or leading the newest (`↑ 4 more events · …`).
    let top = rows(
        buf,
        m.rect(Panel::Events)
            .inner(ratatui::layout::Margin::new(1, 1)),
    );
    // The sign names the story where the story tells them whole (`↑ 4
    // events, told in the story above`, `↑ 2 in story · …`).
    let signed =
        |r: &str| r.contains("more event") || r.contains("in the story") || r.contains("in story");
    let led = top
        .first()
        .is_some_and(|r| r.trim_start().starts_with('↑') && signed(r));
    let older_counted =
        (signed(&flat) && flat.contains(" above")) || led || flat.contains("more statement");
    let last_cut = f
        .events
        .iter()
        .enumerate()
        .filter(|(i, e)| starts(e) && (!older_counted || i + 1 == f.events.len()))
        .map(|(_, e)| e)
        .any(|e| {
            let end: String = e
                .text
                .split_whitespace()
                .rev()
                .take(2)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join(" ");
            !flat.contains(&end)
        });
    let event_rows = rows(
        buf,
        m.rect(Panel::Events)
            .inner(ratatui::layout::Margin::new(1, 1)),
    );
    if last_cut && !cut_with_ellipsis(&event_rows) {
        return Err(place(&format!(
            "an event is cut without an ellipsis\n{events}"
        )));
    }
    let head = rows(buf, m.header).join("");
    let verdict = rows(buf, m.rect(Panel::Verdict)).join(" ");
    let words = f.verdict.headline();
    // A one-row verdict with no room for every outcome's full words beside
    // its figures names each in its fewest (`charged twice + disagree`).
    let short = f.verdict.headline_short();
    if !head.contains(&words) && !verdict.contains(&words) && !verdict.contains(&short) {
        return Err(place(&format!(
            "the verdict {words:?} is not shown whole\n{head}\n{verdict}"
        )));
    }
    Ok(())
}

fn check(app: &App, f: &Frame, buf: &Buffer, size: (u16, u16)) -> Result<(), String> {
    let t = Theme::new(false, false);
    let screen = Rect::new(0, 0, size.0, size.1);
    let m = layout::main_for(screen, None, layout::Need::of(f, &app.timeline.frames));
    evidence(app, f, buf, &m)?;
    let watch = view::Watch::of(&app.timeline.frames, app.frame_at());
    for (panel, rect) in &m.panels {
        let inner = if *panel == Panel::Verdict {
            Rect::new(
                rect.x,
                rect.y + 1,
                rect.width,
                rect.height.saturating_sub(1),
            )
        } else {
            rect.inner(ratatui::layout::Margin::new(1, 1))
        };
        // A panel may say so on its own bottom border, where it hides nothing.
        let border = rows(
            buf,
            Rect::new(rect.x, rect.bottom().saturating_sub(1), rect.width, 1),
        );
        let rows = rows(buf, inner);
        let (w, h) = (usize::from(inner.width), usize::from(inner.height));
        let colour = Theme::new(true, false);
        let marked = match panel {
            Panel::Broker => {
                let form = view::BrokerForm::of(&colour, &app.timeline.frames, f, w, h);
                view::broker_lines(&colour, f, &form, w, h)
            }
            Panel::Service => view::service_lines(&colour, f, &watch, w, h),
            Panel::Database => view::database_lines(&colour, &app.timeline.frames, f, w, h),
            Panel::Provider => view::provider_lines(app, &colour, f, screen, (w, h)),
            _ => Vec::new(),
        };
        marks_whole(*panel, &marked, &rows).map_err(|e| {
            format!(
                "{} {} step {} at {}x{}: {e}\n{}",
                app.script.name,
                app.strategy.name,
                f.index,
                size.0,
                size.1,
                rows.join("\n")
            )
        })?;
        if says_more(&rows) || (*panel != Panel::Verdict && says_more(&border)) {
            continue;
        }
        let table = match panel {
            Panel::Broker => {
                let form = view::BrokerForm::of(&t, &app.timeline.frames, f, w, h);
                Some(view::broker_lines(&t, f, &form, w, h))
            }
            Panel::Service => Some(view::service_lines(&t, f, &watch, w, h)),
            Panel::Database => Some(view::database_lines(&t, &app.timeline.frames, f, w, h)),
            Panel::Provider => Some(view::provider_lines(app, &t, f, screen, (w, h))),
            _ => None,
        };
        let place = || {
            format!(
                "{} {} step {} at {}x{}: {panel:?}\n{}",
                app.script.name,
                app.strategy.name,
                f.index,
                size.0,
                size.1,
                rows.join("\n")
            )
        };
        if let Some(lines) = table {
            if let Some(lost) = lines
                .iter()
                .map(text)
                .find(|l| !l.trim().is_empty() && !shown(l, &rows))
            {
                return Err(format!("{}\nlost without a sign: {lost:?}", place()));
            }
            continue;
        }
        // The SQL panel wraps when everything fits, else cuts each line
        // with an ellipsis so every answer stays: either is no silent cut.
        if *panel == Panel::Sql {
            let lines: Vec<String> = view::sql_lines(&t, f).iter().map(text).collect();
            if lines.iter().all(|l| l.trim().is_empty() || shown(l, &rows)) {
                continue;
            }
            // A statement squeezed to the rows left keeps its first and
            // last words round an ellipsis (`view::newest`): its clause.
            let flat = rows
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let ends = |l: &String| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let (first, last) = (
                    words[..2.min(words.len())].join(" "),
                    words[words.len().saturating_sub(1)..].join(" "),
                );
                flat.contains(&format!("{first} ")) && flat.contains(&last) && flat.contains('…')
            };
            if lines
                .iter()
                .all(|l| l.trim().is_empty() || shown(l, &rows) || ends(l))
            {
                continue;
            }
        }
        let prose: Vec<String> = match panel {
            Panel::Sql => view::sql_lines(&t, f).iter().map(text).collect(),
            Panel::Events => view::events_lines(&t, f).iter().map(text).collect(),
            // On one row the verdict words itself short (`verdict::fitted`):
            // what it shows is judged against those words.
            Panel::Verdict => view::verdict_fitted(app, f, w as u16, h as u16)
                .iter()
                .map(text)
                .collect(),
            Panel::Narration => vec![t.words(&f.narration)],
            _ => Vec::new(),
        };
        if let Some(word) = words_shown(&prose.join(" "), &rows) {
            return Err(format!("{}\nlost without a sign: {word:?}", place()));
        }
    }
    Ok(())
}

// One test a size, so that the sizes run side by side.
#[test]
fn every_frame_at_80x24_shows_its_text_or_says_there_is_more() {
    every_frame_at(SIZES[0]);
}

#[test]
fn every_frame_at_100x30_shows_its_text_or_says_there_is_more() {
    every_frame_at(SIZES[1]);
}

#[test]
fn every_frame_at_120x40_shows_its_text_or_says_there_is_more() {
    every_frame_at(SIZES[2]);
}

#[test]
fn every_frame_at_200x60_shows_its_text_or_says_there_is_more() {
    every_frame_at(SIZES[3]);
}

fn every_frame_at(size: (u16, u16)) {
    let mut failures = Vec::new();
    let mut frames = 0;
    each_step(size, |step| {
        frames += 1;
        if let Err(e) = check(step.app, &step.frame, step.buf, size) {
            failures.push(e);
        }
    });
    // Over a thousand screens at the four sizes together, as before the split.
    assert!(
        frames > 250,
        "{frames} frames checked at {}x{}",
        size.0,
        size.1
    );
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for f in &failures {
            eprintln!("{f}\n");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {frames} screens at {}x{} lose text without a sign; the first:\n{}",
        failures.len(),
        size.0,
        size.1,
        failures.first().cloned().unwrap_or_default()
    );
}

/// The rows of the provider's and the database's panels that this step
/// changed (drawn in the change colour) and that are not on screen at
/// `size`, one entry a screen: what the step did is the point of the
/// screen, so the panel keeps it in view rather than count it among the
/// rows it hides.
fn changed_rows_off_screen(size: (u16, u16)) -> (usize, Vec<String>) {
    let colour = Theme::new(true, false);
    let mut screens = 0;
    let mut off = Vec::new();
    each_step(size, |step| {
        let (buf, f, m) = (step.buf, &step.frame, step.main);
        screens += 1;
        for panel in [Panel::Provider, Panel::Database] {
            let inner = m.rect(panel).inner(ratatui::layout::Margin::new(1, 1));
            let rows = rows(buf, inner);
            let (w, h) = (usize::from(inner.width), usize::from(inner.height));
            let lines = match panel {
                Panel::Provider => {
                    view::provider_lines(step.app, &colour, f, step.buf.area, (w, h))
                }
                _ => view::database_lines(&colour, &step.app.timeline.frames, f, w, h),
            };
            let lost = lines.iter().find(|l| {
                l.spans.iter().any(|s| s.style.fg == Some(Color::Magenta))
                    && row_of(&text(l), &rows).is_none()
            });
            if let Some(l) = lost {
                off.push(format!(
                    "{}: {panel:?} hides {:?}\n{}",
                    step.at(),
                    text(l),
                    rows.join("\n")
                ));
            }
        }
    });
    (screens, off)
}

/// No screen folds a provider or database row the step changed behind a
/// `↓ N more` count: at 80x24 about 150 screens did, the change's very row
/// counted among the hidden ones.
#[test]
fn the_rows_a_step_changed_stay_on_screen_at_80x24() {
    every_changed_row_on_screen(SIZES[0]);
}

#[test]
fn the_rows_a_step_changed_stay_on_screen_at_100x30_and_120x40() {
    every_changed_row_on_screen(SIZES[1]);
    every_changed_row_on_screen(SIZES[2]);
}

fn every_changed_row_on_screen(size: (u16, u16)) {
    let (screens, off) = changed_rows_off_screen(size);
    assert!(screens > 250, "only {screens} screens");
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for o in &off {
            eprintln!("{o}\n");
        }
    }
    assert!(
        off.is_empty(),
        "{} of {screens} screens at {}x{} hide a row the step changed; the first:\n{}",
        off.len(),
        size.0,
        size.1,
        off.first().cloned().unwrap_or_default()
    );
}

/// The panels stay put as the steps go by: within one scenario, one design
/// and one size, every step is drawn into the same rectangles, so the eye
/// finds the story, the SQL and the verdict where they were a step ago.
/// The SQL and the events have two splits a run, each fixed: one for the
/// steps with SQL, one for the steps without (the events wide).
#[test]
fn every_step_of_a_run_draws_into_the_same_panels() {
    use std::collections::BTreeMap;
    let lower = |m: &layout::Main| (m.rect(Panel::Sql), m.rect(Panel::Events));
    let others = |m: &layout::Main| {
        m.panels
            .iter()
            .filter(|(p, _)| !matches!(p, Panel::Sql | Panel::Events))
            .copied()
            .collect::<Vec<_>>()
    };
    let mut runs = 0;
    for script in builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let t = idem::timeline::Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for (w, h) in SIZES {
                let area = Rect::new(0, 0, w, h);
                let at = |f: &Frame| layout::main_for(area, None, layout::Need::of(f, &t.frames));
                let first = at(&t.frames[0]);
                let mut splits = BTreeMap::new();
                let mut seen: Vec<(Rect, Rect)> = Vec::new();
                for f in &t.frames {
                    let this = at(f);
                    assert_eq!(
                        others(&this),
                        others(&first),
                        "{} {design} at {w}x{h}: step {} moves the panels",
                        script.name,
                        f.index
                    );
                    // Two splits a run at most: the run's, and a narrow SQL
                    // panel for the steps without SQL and those whose
                    // short SQL reads whole in it (`share::short_sql_spares`).
                    let this = lower(&this);
                    if f.sql.is_empty() {
                        let split = *splits.entry(true).or_insert(this);
                        assert_eq!(
                            this, split,
                            "{} {design} at {w}x{h}: step {} moves the SQL and events",
                            script.name, f.index
                        );
                    }
                    if !seen.contains(&this) {
                        seen.push(this);
                    }
                }
                assert!(
                    seen.len() <= 2,
                    "{} {design} at {w}x{h}: {} splits: {seen:?}",
                    script.name,
                    seen.len()
                );
                let wide = seen.iter().max_by_key(|(sql, _)| sql.width).copied();
                let narrow = seen.iter().min_by_key(|(sql, _)| sql.width).copied();
                if let Some(no_sql) = splits.get(&true) {
                    assert_eq!(Some(*no_sql), narrow, "{} {design} at {w}x{h}", script.name);
                }
                if let (Some(wide), Some(narrow)) = (wide, narrow) {
                    splits.insert(false, wide);
                    splits.insert(true, narrow);
                }
                // The two splits share the row: the same top and height,
                // the SQL's left edge and the events' right edge; only
                // the line between them moves, and the SQL is narrower
                // at the steps that have none.
                if let (Some((with_sql, events)), Some((no_sql, wide))) =
                    (splits.get(&false), splits.get(&true))
                {
                    let place = format!("{} {design} at {w}x{h}", script.name);
                    assert_eq!(
                        (with_sql.y, with_sql.height),
                        (no_sql.y, no_sql.height),
                        "{place}"
                    );
                    assert_eq!((events.y, events.height), (wide.y, wide.height), "{place}");
                    assert_eq!(with_sql.x, no_sql.x, "{place}");
                    assert_eq!(events.right(), wide.right(), "{place}");
                    assert!(no_sql.width <= with_sql.width, "{place}");
                }
                runs += 1;
            }
        }
    }
    assert!(runs > 150, "only {runs} runs");
}

/// The end of tour-1 under naive at 100x30, the moment a class looks up:
/// the verdict with its whole cause chain, and the marks of what the last
/// steps changed, are on screen, none of them folded away.
#[test]
fn the_end_of_the_first_tour_shows_its_whole_verdict_at_100x30() {
    let mut app = common::app("tour-1", "naive");
    common::resize(&mut app, 100, 30);
    app.pos = app.timeline.frames.len() - 1;
    let mut screen = Screen::new(100, 30);
    let buf = screen.show(&app).clone();
    let f = app.frame().clone();
    let m = layout::main_for(
        Rect::new(0, 0, 100, 30),
        None,
        layout::Need::of(&f, &app.timeline.frames),
    );
    let verdict = rows(&buf, m.rect(Panel::Verdict));
    assert!(!says_more(&verdict), "{}", verdict.join("\n"));
    let t = Theme::new(false, false);
    let words: Vec<String> = view::verdict_lines(&t, &f).iter().map(text).collect();
    if let Some(word) = words_shown(&words.join(" "), &verdict) {
        panic!("{word:?} is not in the verdict\n{}", verdict.join("\n"));
    }
    let all = rows(&buf, Rect::new(0, 0, 100, 30)).join("\n");
    for mark in ["✕ again", "(+1)", "* "] {
        assert!(all.contains(mark), "no {mark:?}\n{all}");
    }
}

/// The story panel reads from a start, never from mid-sentence: the step's
/// own line first, whole (or the panel counts what is hidden), then the
/// story from the top of a paragraph (what the chapter said, or what the
/// step said), at every step of every built-in run, at every size.
#[test]
fn a_story_panel_never_opens_mid_sentence() {
    let t = Theme::new(false, false);
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut failures = Vec::new();
    for (w, h) in SIZES {
        each_step((w, h), |step| {
            let (app, buf, f, m) = (step.app, step.buf, &step.frame, step.main);
            let i = app.pos;
            // At the end, the story opens on its closing sentences, the
            // own line told whole in the events panel, all counted above.
            if i == 0 || (step.ends_on_closing_words() && step.events_whole()) {
                return;
            }
            let inner = m
                .rect(Panel::Narration)
                .inner(ratatui::layout::Margin::new(1, 1));
            let rows: Vec<String> = rows(buf, inner)
                .into_iter()
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty())
                .collect();
            // Whole, or in its shorter form where the whole one does not fit.
            let forms = common::own_line::forms(&f.events, |s| norm(&t.text(s)));
            let told = common::own_line::on_screen(&forms, &norm(&rows.join(" ")));
            let place = step.at();
            // The step's own words, row by row, until they are whole.
            let mut k = 0;
            let mut seen = String::new();
            // Or its first whole sentences under an ellipsis, where
            // the scenario's words for the step need the rows.
            let mut shortened = false;
            while k < rows.len() && norm(&seen) != told {
                seen = format!("{seen} {}", rows[k]);
                k += 1;
                let seen_now = norm(&seen);
                if let Some(s) = seen_now
                    .strip_suffix(" … rest in Events")
                    .or_else(|| seen_now.strip_suffix(" …"))
                    && told.starts_with(s)
                {
                    shortened = true;
                    break;
                }
            }
            if !shortened && norm(&seen) != told {
                if !told.starts_with(&norm(&seen)) {
                    failures.push(format!(
                        "{place}: the step's own line is not first:\n{}",
                        rows.join("\n")
                    ));
                }
                return;
            }
            let Some(next) = rows.get(k) else { return };
            // Words of an earlier step come after a mark naming it
            // (`At step 4: `), all earlier steps' words in one paragraph:
            // the row's first group is read up to the next mark.
            let next = next
                .strip_prefix("At step ")
                .and_then(|rest| rest.split_once(": "))
                .map_or(next.as_str(), |(_, words)| words);
            // A mark may wrap: `At` or `At step` ends the row.
            let next = next.split(" At step").next().unwrap_or(next);
            let next = next.strip_suffix(" At").unwrap_or(next);
            // A row cut at the panel's end says so with an ellipsis; so
            // does a sentence cut to fill rows a fold left blank
            // (`story_fold_no_blank_row`), where its words resume after it.
            let next = &next.split(" …").next().unwrap_or(next).to_string();
            let mut starts = vec![
                t.words(f.opening()),
                t.words(f.said.as_deref().unwrap_or_default()),
            ];
            for group in idem::sim::frame::told_before(&app.timeline.frames, f) {
                starts.push(t.words(&f.narration[group.range]));
            }
            // At a paragraph's start, or at one of its sentences'.
            let opens = |p: &String| {
                let (p, next) = (norm(&t.text(p)), norm(next));
                p.starts_with(&next)
                    || [". ", "? ", "! "]
                        .iter()
                        .any(|stop| p.contains(&format!("{stop}{next}")))
            };
            if !starts.iter().any(opens) {
                failures.push(format!(
                    "{place}: the story opens mid-sentence:\n{}",
                    rows.join("\n")
                ));
            }
        });
    }
    assert!(
        failures.is_empty(),
        "{} screens; the first:\n{}",
        failures.len(),
        failures.first().cloned().unwrap_or_default()
    );
}

/// The race's refused insert (tour-3 idempotent, step 13) at 120x40: B's
/// statement and the database's answer are read whole, wrapped, not cut to
/// a line each while the events beside them leave rows empty. The split
/// that gives them the room is the run's: every step keeps it
/// (`every_step_of_a_run_draws_into_the_same_panels`).
#[test]
fn the_refused_insert_reads_whole_at_120x40() {
    let mut app = common::app("tour-3", "idempotent");
    common::resize(&mut app, 120, 40);
    app.pos = 13;
    let mut screen = Screen::new(120, 40);
    let buf = screen.show(&app).clone();
    let f = app.frame().clone();
    assert!(
        f.sql.iter().any(|r| r.result.contains("0 rows")),
        "step 13 is the refused insert: {:?}",
        f.sql
    );
    let m = layout::main_for(
        Rect::new(0, 0, 120, 40),
        None,
        layout::Need::of(&f, &app.timeline.frames),
    );
    let sql = rows(
        &buf,
        m.rect(Panel::Sql).inner(ratatui::layout::Margin::new(1, 1)),
    );
    let flat = sql.iter().map(|r| r.trim()).collect::<Vec<_>>().join(" ");
    for r in &f.sql {
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            norm(&flat).contains(&norm(&r.sql)) && norm(&flat).contains(&norm(&r.result)),
            "{r:?} is not whole:\n{}",
            sql.join("\n")
        );
    }
}

/// The refused insert's evidence, the key taken, is in the database
/// panel at every size, 80x24 included, where the panel is four rows.
#[test]
fn the_duplicate_key_is_on_screen_at_every_size() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut app = common::app("tour-3", "idempotent");
        common::resize(&mut app, w, h);
        app.pos = 13;
        assert!(app.frame().db.processed.iter().any(|p| p.conflict));
        let mut screen = Screen::new(w, h);
        let buf = screen.show(&app).clone();
        let m = layout::main_for(
            Rect::new(0, 0, w, h),
            None,
            layout::Need::of(app.frame(), &app.timeline.frames),
        );
        let db = rows(&buf, m.rect(Panel::Database)).join("\n");
        assert!(db.contains("key taken"), "{w}x{h}:\n{db}");
    }
}

/// Runs whose statements are longer than a screen can hold beside the
/// panels above (the ordering and row-version upserts, the in-progress
/// claim's three statements a step) at one size: their SQL panel counts
/// what it hides, and the test fails once they read whole, so the list
/// cannot go stale.
const SQL_TOO_LONG: [(&str, (u16, u16)); 2] =
    [("in-progress", (80, 24)), ("in-progress", (100, 30))];

/// Every statement a step ran is on screen whole, wrapped over rows, at
/// every size a class uses: the statement being taught often ends in its
/// point (`ON CONFLICT DO NOTHING`), so a statement cut to one row hides
/// it. Every step of every built-in run under every design it lists, but
/// the runs of `SQL_TOO_LONG`, which must say what they hide.
#[test]
fn every_step_s_sql_reads_whole_at_every_size() {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut failures = Vec::new();
    let mut statements = 0;
    let mut cut_runs = std::collections::BTreeSet::new();
    for (w, h) in crate::common::sweep::SIZES {
        each_step((w, h), |step| {
            let (app, buf, f, m) = (step.app, step.buf, &step.frame, step.main);
            if f.sql.is_empty() {
                return;
            }
            let inner = m.rect(Panel::Sql).inner(ratatui::layout::Margin::new(1, 1));
            let sql = rows(buf, inner);
            let flat = norm(&sql.join(" "));
            let too_long = SQL_TOO_LONG.contains(&(app.script.name.as_str(), (w, h)));
            // At 80x24 a statement may lose its middle beside the
            // events' fair share (`view::newest`): its start and its
            // clause, the last four words, stay round an ellipsis.
            let reads = |sql: &str| {
                let sql = norm(sql);
                let words: Vec<&str> = sql.split(' ').collect();
                let end = words[words.len().saturating_sub(4)..].join(" ");
                flat.contains(&sql)
                    || (w == 80
                        && flat.contains(&format!("{} ", words[0]))
                        && flat.contains(&end)
                        && flat.contains('…'))
            };
            if too_long {
                let whole = f.sql.iter().all(|r| reads(&r.sql));
                if !whole {
                    cut_runs.insert((app.script.name.clone(), w, h));
                    if !says_more(&sql) {
                        failures.push(format!(
                            "{}: SQL cut without a sign:\n{}",
                            step.at(),
                            sql.join("\n")
                        ));
                    }
                }
                return;
            }
            for r in &f.sql {
                statements += 1;
                if !reads(&r.sql) {
                    failures.push(format!(
                        "{}: {:?} is not whole:\n{}",
                        step.at(),
                        r.sql,
                        sql.join("\n")
                    ));
                }
            }
        });
    }
    assert!(statements > 1000, "only {statements} statements");
    let stale: Vec<String> = SQL_TOO_LONG
        .iter()
        .filter(|(name, (w, h))| !cut_runs.contains(&(name.to_string(), *w, *h)))
        .map(|(name, (w, h))| format!("{name} at {w}x{h}"))
        .collect();
    assert!(
        stale.is_empty(),
        "these read their SQL whole now: take them off SQL_TOO_LONG: {stale:?}"
    );
    assert!(
        failures.is_empty(),
        "{} statements cut; the first:\n{}",
        failures.len(),
        failures.first().cloned().unwrap_or_default()
    );
}
