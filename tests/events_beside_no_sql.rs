//! At a step with no SQL the events take the SQL panel's spare columns.
//! A teacher at 100x30 (tour-1, idempotent, step 5) saw the SQL panel say
//! `(no SQL in this step)` across sixty columns while the events beside it
//! folded their lines (`↓ N more`). A step without SQL gets a split of its
//! own, the SQL just wide enough for its title and that line; the steps
//! with SQL keep theirs: two positions a run at most, each fixed.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::tui::app::Panel;
use idem::tui::measure;
use ratatui::text::Line;

/// The SQL panel's least width at a step without SQL: its border and its
/// one line, `(no SQL in this step)`, or its title (`SQL in step 12`, a
/// space each side) where that is wider.
fn sql_least(last_step: usize) -> u16 {
    let line = "(no SQL in this step)".chars().count() as u16 + 2;
    let title = format!("SQL in step {last_step}").chars().count() as u16 + 4;
    line.max(title)
}

/// The step's events as their panel words them: a mark, who, what.
fn event_lines(step: &Step) -> Vec<Line<'static>> {
    step.frame
        .events
        .iter()
        .map(|e| Line::from(format!("• {} {}", e.actor.label(), e.text)))
        .collect()
}

/// What is wrong at `step`, if anything: a step without SQL whose events
/// would be read whole with the SQL panel's spare columns, and that folds
/// them. Drawn only where the events need those columns (the layout of a
/// step with SQL in the same run would fold them), so the walk stays cheap.
fn wrong(step: &Step, kept: &mut Option<((String, String), u16)>) -> Option<String> {
    let f = &step.frame;
    if !f.sql.is_empty() || f.events.is_empty() {
        return None;
    }
    let frames = &step.app.timeline.frames;
    let last = frames.last().map_or(0, |f| f.index);
    let sql = step.main.rect(Panel::Sql);
    let events = step.main.rect(Panel::Events);
    let h = events.height.saturating_sub(2);
    let lines = event_lines(step);
    let wide = (sql.width + events.width).saturating_sub(sql_least(last) + 2);
    if measure::rows(&lines, wide, false) > h {
        return None;
    }
    // The events' width where the run's SQL is: the split its steps with
    // SQL are drawn at.
    // Weighed once a run (`kept`): every step of it has the same.
    let run = (
        step.app.script.name.clone(),
        step.app.strategy.name.to_string(),
    );
    let beside_sql = match kept {
        Some((of, width)) if *of == run => *width,
        _ => {
            let width = frames
                .iter()
                .find(|f| !f.sql.is_empty())
                .map(|with| {
                    let area = ratatui::layout::Rect::new(0, 0, step.size.0, step.size.1);
                    let need = idem::tui::layout::Need::of(with, frames);
                    idem::tui::layout::main_for(area, None, need)
                        .rect(Panel::Events)
                        .width
                })
                .unwrap_or(events.width);
            *kept = Some((run, width));
            width
        }
    };
    let narrowest = events.width.min(beside_sql).saturating_sub(2);
    if measure::rows(&lines, narrowest, false) <= h {
        return None;
    }
    let shown = step.words_in(Panel::Events);
    let lost = f.events.iter().find(|e| {
        let words: Vec<&str> = e.text.split_whitespace().collect();
        !shown.contains(&words.join(" "))
    });
    (shown.contains(" more") || lost.is_some()).then(|| {
        format!(
            "{}: the events fold beside an empty SQL panel {} columns wide: {shown}\n{}",
            step.at(),
            sql.width,
            step.screen()
        )
    })
}

#[test]
fn events_take_the_columns_an_empty_sql_panel_spares() {
    for size in SIZES {
        let (mut seen, mut wrongs) = (0, Vec::new());
        let mut kept = None;
        each_step(size, |step| {
            if step.frame.sql.is_empty() && !step.frame.events.is_empty() {
                seen += 1;
            }
            wrongs.extend(wrong(step, &mut kept));
        });
        none_wrong("steps without SQL", seen, 20, &wrongs, size);
    }
}

/// The teacher's screen, as `idem shot` writes it: the events of tour-1's
/// idempotent step 5 whole beside an SQL panel that has none.
#[test]
fn idem_shot_draws_the_events_wide_beside_no_sql() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shot.txt");
    let out_s = out.to_str().unwrap();
    let (code, _, err) = crate::common::cli::idem(&[
        "shot",
        "tour-1",
        "--mode",
        "idempotent",
        "--step",
        "5",
        "--size",
        "100x30",
        "-o",
        out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let row = text
        .lines()
        .find(|l| l.contains("(no SQL in this step)"))
        .unwrap_or_else(|| panic!("no empty SQL panel:\n{text}"));
    let sql_cols = row.split('│').nth(1).map_or(0, |s| s.chars().count());
    assert!(
        sql_cols <= 23,
        "the empty SQL panel is {sql_cols} columns:\n{text}"
    );
    assert!(!text.contains("more event"), "{text}");
    assert!(!text.contains("↓"), "{text}");
}

/// A click lands on the panel drawn there: at a step without SQL, the
/// columns the SQL panel gave up are the events'.
#[test]
fn a_click_in_the_columns_the_sql_gave_up_focuses_the_events() {
    use idem::tui::{Action, update};
    let mut app = crate::common::app("tour-1", "idempotent");
    app.pos = 5;
    let screen = crate::common::draw(&mut app, 100, 30);
    assert!(app.frame().sql.is_empty(), "{screen}");
    let m = idem::tui::layout::on_screen(&app, app.viewport);
    let events = m.rect(Panel::Events);
    let x = sql_least(app.timeline.frames.len()) + 5;
    assert!(events.x < x, "{screen}");
    update(&mut app, Action::Click { x, y: events.y + 1 });
    assert_eq!(app.focus, Panel::Events, "{screen}");
}
