//! What the smallest screens keep (the teacher's trial in tmux at 80x24,
//! 100x30 and 120x40): the keys a class uses most, the header's title,
//! the lines a step produced in the row under the story, and the
//! verdict's whole cause chain. Each is read off the rendered screen, for
//! every built-in scenario under every design it lists.

use crate::common::sweep::{SIZES, Step, each_step};
use ratatui::buffer::Buffer;

fn row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}

/// Each step of every built-in scenario under every design it lists, at
/// each size.
fn every_step(mut check: impl FnMut(&Step)) {
    for size in SIZES {
        each_step(size, &mut check);
    }
}

/// `v` jumps to the step where the run fails: a teacher reaches for it
/// most, so the bar keeps it at 80 columns, beside help.
#[test]
fn the_key_bar_keeps_failure_and_help_at_every_size() {
    let mut failures = Vec::new();
    every_step(|step| {
        if step.app.pos != 0 {
            return;
        }
        let (w, h) = step.size;
        let bar = row(step.buf, h - 1);
        // Where keys are left out, help's item counts them (`? help +4`,
        // or `? 4 more`).
        let help = bar.contains("? help") || counts_keys(&bar);
        for key in ["v failure", "? help", "←/→ step"] {
            let kept = bar.contains(key) || (key == "? help" && help);
            if !kept {
                failures.push(format!(
                    "{} at {w}x{h}: no {key:?} in {bar:?}",
                    step.app.script.name
                ));
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The header names the scenario as told for the design: whole from 100
/// columns (the other parts give way first), and at 80 never cut without
/// an ellipsis. A correct end's bound (`✓ correct in this run`) and a
/// verdict's fewest words (`✕ charged twice + disagree`) are the parts
/// kept before it: where both do not fit, the title is cut, signed
/// (`forked_header`), at every step of that run, for a title keeps one
/// form through a run (`header_title_steady`).
#[test]
fn the_header_keeps_the_title_whole_from_100_columns_and_signs_a_cut() {
    let mut failures: Vec<String> = Vec::new();
    let mut screens = 0;
    every_step(|step| {
        let app = step.app;
        let w = step.size.0;
        let title = app.script.title_for(&app.strategy.name).to_string();
        screens += 1;
        let head = row(step.buf, 0);
        let whole = head.contains(&format!("· {title} "));
        let signed = head.split("· ").any(|part| {
            part.split_once('…')
                .is_some_and(|(cut, _)| !cut.is_empty() && title.starts_with(cut))
        });
        // A run's first wrong step at a size: the rest say the same.
        let run = format!(
            "{} {} at {w}x{}: ",
            app.script.name, app.strategy.name, step.size.1
        );
        let bound = app
            .timeline
            .frames
            .iter()
            .any(|f| f.verdict.claims_correct());
        // Nor is a verdict's fewest words (`✕ charged twice + disagree`):
        // the title gives way before the verdict is cut to its worst.
        let short = app
            .timeline
            .frames
            .iter()
            .any(|f| !f.verdict.undecided() && f.verdict.headline_more() > 0);
        let cut_ok = signed && (w < 100 || bound || short);
        if !whole && !cut_ok && !failures.iter().any(|f| f.starts_with(&run)) {
            failures.push(format!("{run}{head:?}"));
        }
    });
    assert!(screens > 1000, "only {screens} screens");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The rows of `panel` inside its border, flattened to one line of words.
fn panel_words(buf: &Buffer, r: ratatui::layout::Rect) -> String {
    (r.y + 1..r.bottom().saturating_sub(1))
        .map(|y| {
            (r.x + 1..r.right().saturating_sub(1))
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the step produced is the lesson: the SQL panel keeps every
/// statement's answer (`→ 0 rows: conflict …`) on screen, and the events
/// panel the start of the step's last event; what gives way is older,
/// and counted.
#[test]
fn the_steps_answers_and_last_event_stay_on_screen() {
    use idem::tui::app::Panel;
    let mut failures = Vec::new();
    every_step(|step| {
        let (app, buf, m, f) = (step.app, step.buf, step.main, &step.frame);
        let (w, h) = step.size;
        let place = format!(
            "{} {} step {} at {w}x{h}",
            app.script.name, app.strategy.name, f.index
        );
        let sql = panel_words(buf, m.rect(Panel::Sql));
        // in-progress at 80x24 runs five statements in a step into
        // two rows: the newest is drawn from its start, counted.
        let squeezed = app.script.name == "in-progress" && w == 80;
        for (k, r) in f.sql.iter().enumerate() {
            let answer = r.result.split_whitespace().collect::<Vec<_>>().join(" ");
            let newest = k + 1 == f.sql.len();
            let counted = sql.contains("more statement");
            let shown = sql.contains(&format!("→ {answer}"));
            let excused = (squeezed && sql.contains(" more")) || (!newest && counted);
            if !shown && !excused {
                failures.push(format!("{place}: SQL answer {answer:?} off screen: {sql}"));
            }
        }
        let events = panel_words(buf, m.rect(Panel::Events));
        // Its start at least: a panel too short for its whole text
        // counts the rows below (`no_silent_cuts`).
        if let Some(e) = f.events.last() {
            let text = e
                .text
                .split_whitespace()
                .take(1)
                .collect::<Vec<_>>()
                .join(" ");
            // An observer's note may give way to the parties' facts where
            // the fold names it (`1 more event hidden: the observer's
            // note`, `events_read_somewhere`): the facts are the lesson's
            // evidence, the note the observer's view of them.
            let note_named = e.actor == idem::sim::event::Actor::Observer
                && (events.contains("hidden: the observer's note")
                    || events.contains("hidden: observer's notes"));
            if !events.contains(&text) && !note_named {
                failures.push(format!("{place}: last event {text:?} off screen: {events}"));
            }
        }
    });
    assert!(
        failures.is_empty(),
        "{} screens:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Whether the key bar's help item counts the keys it leaves out in
/// its fewest words (`? 4 more`).
fn counts_keys(bar: &str) -> bool {
    bar.split("? ").nth(1).is_some_and(|r| {
        r.split_once(' ').is_some_and(|(n, rest)| {
            n.parse::<usize>().is_ok_and(|n| n > 0) && rest.starts_with("more")
        })
    })
}
