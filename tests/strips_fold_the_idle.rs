//! When the service panel cannot show every consumer's steps, it folds
//! one into a strip of one glyph a step. The class watches the consumer
//! that acts: that one keeps its list, and the idle one folds. Every frame
//! of every built-in scenario, under every design it lists, at the three
//! sizes a class uses.

use idem::sim::Frame;
use idem::tui::app::Panel;
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};

use crate::common::sweep::{SIZES, each_step};

fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// The row that heads consumer `name`'s part of the service panel.
fn head_of(name: &str, rows: &[String]) -> Option<usize> {
    rows.iter().position(|r| {
        r.starts_with(&format!("consumer {name} ")) || r.starts_with(&format!("{name}: "))
    })
}

/// A consumer is shown whole when the row under its head is the first
/// step of its program by name (` ✓ receive`), not a strip (` ✓✓▷···`).
fn whole(f: &Frame, name: &str, rows: &[String]) -> bool {
    let c = f.consumers.iter().find(|c| c.name == name).unwrap();
    let Some(at) = head_of(name, rows) else {
        return false;
    };
    let first = &c.steps[0].label;
    rows.get(at + 1)
        .and_then(|r| {
            r.chars()
                .skip(3)
                .collect::<String>()
                .strip_prefix(first.as_str())
                .map(|_| ())
        })
        .is_some()
}

/// The consumers the step is about: each ran a step of its program, or an
/// event of the step is its own, or a mark on one of its steps changed.
fn acted(f: &Frame, before: &Frame) -> Vec<String> {
    f.consumers
        .iter()
        .filter(|c| {
            let marks = |f: &Frame| {
                f.consumers
                    .iter()
                    .find(|o| o.name == c.name)
                    .map(|o| o.steps.iter().map(|s| s.mark).collect::<Vec<_>>())
            };
            f.changes.step_of(&c.name).is_some()
                || f.events
                    .iter()
                    .any(|e| e.actor.label() == format!("consumer {}", c.name))
                || marks(f) != marks(before)
        })
        .map(|c| c.name.clone())
        .collect()
}

#[test]
fn the_consumer_that_acted_is_never_the_one_folded() {
    let mut failures = Vec::new();
    // Steps where the panel had to choose: one consumer whole, another folded.
    let mut choices = 0;
    for size in SIZES {
        each_step(size, |step| {
            let (app, buf, m) = (step.app, step.buf, step.main);
            let i = app.pos;
            if i == 0 {
                return;
            }
            let f = &step.frame;
            let before = &app.timeline.frames[i - 1];
            let inner = m.rect(Panel::Service).inner(Margin::new(1, 1));
            let shown = rows(buf, inner);
            let acted = acted(f, before);
            let is_whole: Vec<bool> = f
                .consumers
                .iter()
                .map(|c| whole(f, &c.name, &shown))
                .collect();
            if is_whole.contains(&true) && is_whole.contains(&false) {
                choices += 1;
            }
            let idle_whole = f
                .consumers
                .iter()
                .find(|c| !acted.contains(&c.name) && whole(f, &c.name, &shown));
            for name in &acted {
                if whole(f, name, &shown) {
                    continue;
                }
                if let Some(idle) = idle_whole {
                    failures.push(format!(
                        "{}: {name} acted and is folded, idle {} is whole\n{}",
                        step.at(),
                        idle.name,
                        shown.join("\n")
                    ));
                }
            }
        });
    }
    assert!(
        choices > 100,
        "only {choices} steps folded one consumer of several"
    );
    assert!(
        failures.is_empty(),
        "{} folds of a consumer that acted:\n{}",
        failures.len(),
        failures
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// A row of words for a strip's glyphs under it (`   ✓ done · later`,
/// `view::service`'s `words_row`): indented past where a step's mark
/// stands, a glyph first, and no count of steps (`  ↓ 4 steps below`).
/// It is the strip's, not a step's row.
fn words_row(row: &str) -> bool {
    row.strip_prefix("  ")
        .and_then(|r| r.trim_start().chars().next())
        .is_some_and(|g| !g.is_alphanumeric() && !"↑↓".contains(g))
}

/// The consumer the step is about keeps the rows of its list before an
/// idle one the step is less about keeps more than one row under its head
/// (its strip): at 80x24 in tour-3, B's skips after the duplicate were
/// counted away (`↓ 5 steps below`) while idle A kept its strip and the
/// name of its last step.
#[test]
fn the_watched_list_keeps_its_rows_before_an_idle_one_keeps_two() {
    use crate::common::sweep;
    use idem::sim::consumer::Status;
    use idem::tui::theme::Theme;
    use idem::tui::view;
    let t = Theme::new(false, false);
    let mut failures = Vec::new();
    let mut seen = 0;
    for size in sweep::SIZES {
        sweep::each_step(size, |step| {
            let f = &step.frame;
            let (w, h) = step.inner(Panel::Service);
            let lines: Vec<String> = view::service_lines(&t, f, &step.watch, w, h)
                .iter()
                .map(|l| l.to_string())
                .collect();
            // Each consumer's rows under its head, blank rows aside.
            let own = |name: &str| -> Vec<&String> {
                let Some(at) = head_of(name, &lines) else {
                    return Vec::new();
                };
                lines[at + 1..]
                    .iter()
                    .take_while(|l| {
                        !f.consumers
                            .iter()
                            .any(|o| head_of(&o.name, &[(*l).clone()]).is_some())
                    })
                    .filter(|l| !l.trim().is_empty() && !l.contains("skipped"))
                    .filter(|l| !words_row(l))
                    .collect()
            };
            for c in &f.consumers {
                let rows = own(&c.name);
                if !rows
                    .iter()
                    .any(|l| l.contains(" below") || l.contains(" above"))
                {
                    continue;
                }
                for o in &f.consumers {
                    if o.status != Status::Idle
                        || step.watch.rank(&o.name) >= step.watch.rank(&c.name)
                    {
                        continue;
                    }
                    seen += 1;
                    if own(&o.name).len() > 1 {
                        failures.push(format!(
                            "{}: {} hides steps while idle {} keeps {} rows\n{}",
                            step.at(),
                            c.name,
                            o.name,
                            own(&o.name).len(),
                            lines.join("\n")
                        ));
                    }
                }
            }
        });
    }
    assert!(seen > 0, "no watched list beside an idle one");
    assert!(
        failures.is_empty(),
        "{} screens; the first:\n{}",
        failures.len(),
        failures[0]
    );
}

/// A folded consumer's strip (` ✓✓✓✓✓▷··`) never stands bare: each
/// symbol in it has its word after it on its row (`✓ done ▷ next`), on a
/// row of words under it, or on the service panel's bottom border (`·
/// later`). Not one strip anywhere (23 of 174 at 80x24 and 100x30 once
/// left a glyph to guess beside `◀ this step` on the border). Teacher
/// trial 25, tour-3 at 100x30: two consumers shared the panel and A's
/// strip had no word anywhere.
#[test]
fn a_strips_symbols_are_named_on_the_panels_border() {
    let mut failures = Vec::new();
    let mut strips = 0;
    for size in SIZES {
        each_step(size, |step| {
            let (buf, m) = (step.buf, step.main);
            let rect = m.rect(Panel::Service);
            if rect.height < 3 {
                return;
            }
            let inner = rect.inner(Margin::new(1, 1));
            let border: String = (rect.x..rect.right())
                .map(|x| buf[(x, rect.bottom() - 1)].symbol())
                .collect();
            let named = |g: char| {
                let chars: Vec<char> = border.chars().collect();
                chars
                    .windows(3)
                    .any(|w| w[0] == g && w[1] == ' ' && w[2].is_alphanumeric())
            };
            let shown = rows(buf, inner);
            for (y, row) in shown.iter().enumerate() {
                // A strip: a space, then one glyph a step, no word between.
                let Some(cells) = row.strip_prefix(' ') else {
                    continue;
                };
                let glyphs: String = cells.chars().take_while(|c| *c != ' ').collect();
                let is_strip = glyphs.chars().count() >= 3
                    && glyphs.chars().all(|c| !c.is_alphanumeric() && c != '…');
                if !is_strip {
                    continue;
                }
                strips += 1;
                // Named on the strip's own row, after the glyphs, or on a
                // row of words under it (indented past where a step's mark
                // stands: `   ✓ done · later`).
                let mut own: Vec<char> = cells.chars().skip(glyphs.chars().count()).collect();
                if let Some(under) = shown.get(y + 1).filter(|r| r.starts_with("  ")) {
                    own.push(' ');
                    own.extend(under.chars());
                }
                let on_row = |g: char| {
                    own.windows(3)
                        .any(|w| w[0] == g && w[1] == ' ' && w[2].is_alphanumeric())
                };
                let mut bare: Vec<char> = glyphs
                    .chars()
                    .filter(|&g| !named(g) && !on_row(g))
                    .collect();
                bare.dedup();
                if !bare.is_empty() {
                    failures.push(format!(
                        "{}: {bare:?} of {glyphs:?} unnamed on {border:?}\n{}",
                        step.at(),
                        rows(buf, rect).join("\n")
                    ));
                }
            }
        });
    }
    assert!(strips > 100, "only {strips} strips drawn");
    assert!(
        failures.is_empty(),
        "{} of {strips} strips with a bare symbol:\n{}",
        failures.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
