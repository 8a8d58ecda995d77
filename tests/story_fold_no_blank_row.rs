//! A story panel that folds some of its text (its border counts `↑ 2
//! more sentences`) leaves no row blank: the row goes to the folded
//! words, or they are not folded. Trial: tour-2 naive at its last step,
//! 100x30, and ordering versioned at its last step, 80x24, showed a blank
//! row under the closing words while sentences of the story were hidden.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::tui::app::Panel;

/// Where the story panel at `step` folds text and has a blank row inside
/// its border: the step, the row and the screen.
fn wrong(step: &Step, seen: &mut usize) -> Option<String> {
    let area = step.main.rect(Panel::Narration);
    // The fold's count is on the bottom border: a panel with none is not
    // read here.
    if area.height < 3 || area.bottom() >= step.buf.area.bottom() {
        return None;
    }
    let border: String = (area.x..area.right())
        .map(|x| step.buf[(x, area.bottom() - 1)].symbol())
        .collect();
    if !border.contains(" more sentence") {
        return None;
    }
    *seen += 1;
    let rows = step.rows_in(Panel::Narration);
    let blank = rows.iter().position(|r| r.trim().is_empty())?;
    Some(format!(
        "{}: row {} of the story is blank while it folds text ({})\n{}",
        step.at(),
        blank + 1,
        border.trim_matches(['─', '┘', '└']).trim(),
        step.screen()
    ))
}

fn sweep(size: (u16, u16)) {
    let (mut seen, mut bad) = (0, Vec::new());
    each_step(size, |step| bad.extend(wrong(step, &mut seen)));
    none_wrong("folded story panels", seen, 10, &bad, size);
}

#[test]
fn story_fold_no_blank_row_at_80x24() {
    sweep(SIZES[0]);
}

#[test]
fn story_fold_no_blank_row_at_100x30() {
    sweep(SIZES[1]);
}

#[test]
fn story_fold_no_blank_row_at_120x40() {
    sweep(SIZES[2]);
}
