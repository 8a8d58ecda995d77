//! An uncommitted payment row keeps its message ID. Every frame of every
//! built-in scenario, under every design it lists, at 80x24, 100x30 and
//! 120x40: a payments row an open transaction wrote names its message (or
//! shows with an ellipsis that it was cut), says it is uncommitted and by
//! whom, and where the rows are in the columns the panel's header names,
//! the ID sits under `message` (the teacher's `1042 $40  uncommitted (A)`,
//! the mark under the message column and the ID gone).

use crate::common::{self, sweep};
use idem::tui::app::Panel;
use idem::tui::theme::Theme;
use idem::tui::view;

fn rows_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let t = Theme::new(false, false);
    let mut seen = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, common::plain(), |step| {
        let f = &step.frame;
        let (w, h) = step.inner(Panel::Database);
        let lines: Vec<String> = view::database_lines(&t, f, w, h)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let columns = lines.iter().any(|l| l.starts_with(" order  amount"));
        for p in &f.db.payments {
            let Some(by) = &p.uncommitted_by else {
                continue;
            };
            let says = [format!("uncommitted ({by})"), format!("in txn {by}")];
            // In columns: a space, the order in six cells, a space,
            // the amount in seven, a space, then the message.
            let start = if columns {
                format!(" {:<6} {:<7} ", p.order, format!("${}", p.amount))
            } else {
                format!(" {} ${} ", p.order, p.amount)
            };
            // Rows folded away are counted by the panel
            // (`no_silent_cuts`); the ones drawn are judged.
            for l in lines
                .iter()
                .filter(|l| l.starts_with(&start) && says.iter().any(|s| l.contains(s)))
            {
                seen += 1;
                let rest = &l[start.len()..];
                // Whole, or its start with an ellipsis: cut, visibly.
                let cut = rest
                    .split_once('…')
                    .is_some_and(|(kept, _)| p.message_id.starts_with(kept));
                let named = rest.starts_with(&p.message_id) || cut;
                if !named {
                    wrong.push(format!(
                        "{} ({w} wide): {l:?} has no message ID under `message`\n{}",
                        step.at(),
                        lines.join("\n")
                    ));
                }
            }
        }
    });
    (seen, wrong)
}

fn each_uncommitted_row_named_at(size: (u16, u16)) {
    let (seen, wrong) = rows_at(size);
    assert!(
        seen > 50,
        "only {seen} uncommitted payment rows at {size:?}"
    );
    assert!(
        wrong.is_empty(),
        "{} of {seen} uncommitted payment rows at {}x{} lost their message ID; the first:\n{}",
        wrong.len(),
        size.0,
        size.1,
        wrong.first().cloned().unwrap_or_default()
    );
}

#[test]
fn an_uncommitted_row_keeps_its_message_id_at_80x24() {
    each_uncommitted_row_named_at(sweep::SIZES[0]);
}

#[test]
fn an_uncommitted_row_keeps_its_message_id_at_100x30() {
    each_uncommitted_row_named_at(sweep::SIZES[1]);
}

#[test]
fn an_uncommitted_row_keeps_its_message_id_at_120x40() {
    each_uncommitted_row_named_at(sweep::SIZES[2]);
}
