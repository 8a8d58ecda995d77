//! An uncommitted payment row keeps its message ID. Every frame of every
//! built-in scenario, under every design it lists, at 80x24, 100x30 and
//! 120x40: a payments row an open transaction wrote names its message (or
//! shows with an ellipsis that it was cut), says it is uncommitted and by
//! whom, and where the rows are in the columns the panel's header names,
//! the ID sits under `message` (the teacher's `1042 $40  uncommitted (A)`,
//! the mark under the message column and the ID gone).

use crate::common::sweep;
use idem::tui::app::Panel;

fn rows_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let mut seen = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, |step| {
        let f = &step.frame;
        let (w, _) = step.inner(Panel::Database);
        let lines = step.database_lines();
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
    sweep::none_wrong("uncommitted payment rows", seen, 50, &wrong, size);
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

/// Every payments row, committed, uncommitted or rolled back this step,
/// keeps its message ID, or is cut (an ellipsis) only where its marks have
/// folded to their signs: two rows with one ID are the duplicate (the
/// teacher's `1042 $40 m…  - rolled back` and `1042 $40 ✕ committed
/// again` at 80x24). And one state reads in one wording in the panel: not
/// `in txn A` on one row and `uncommitted (A)` on the next.
fn every_payment_row_named_at(size: (u16, u16)) {
    // The words a mark folds to its sign; `in txn A` and `✕ again` are
    // shortest forms of their own (evidence too).
    const WORDS: [&str; 5] = ["rolled back", "committed", "uncommitted", "new", "changed"];
    let mut seen = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, |step| {
        let f = &step.frame;
        let (w, _) = step.inner(Panel::Database);
        let lines = step.database_lines();
        let ids: Vec<&str> =
            f.db.payments
                .iter()
                .map(|p| p.message_id.as_str())
                .collect();
        let orders: Vec<String> = f.db.payments.iter().map(|p| p.order.to_string()).collect();
        // The payments table: the rows under its heading.
        let end = 1 + lines[1..].iter().take_while(|l| l.starts_with(' ')).count();
        for l in &lines[1..end] {
            let Some(rest) = l
                .strip_prefix(' ')
                .and_then(|r| orders.iter().find_map(|o| r.strip_prefix(o.as_str())))
            else {
                continue;
            };
            // After the amount: the message ID.
            let Some((_, after)) = rest.trim_start().split_once(' ') else {
                continue;
            };
            seen += 1;
            let after = after.trim_start();
            let named = ids.iter().any(|id| after.starts_with(id));
            let worded = WORDS.iter().any(|word| l.contains(word));
            if !named && worded {
                wrong.push(format!(
                    "{} ({w} wide): {l:?} lost its message ID beside a worded mark\n{}",
                    step.at(),
                    lines.join("\n")
                ));
            }
        }
        // The payments and processed_messages tables (the catalogue's
        // other tables word their rows on their own).
        let processed = lines
            .iter()
            .position(|l| l.starts_with("processed_messages"))
            .map_or(&[][..], |at| &lines[at..]);
        let judged = lines[..end].iter().chain(processed);
        let long = judged.clone().any(|l| l.contains("uncommitted ("));
        let short = judged.clone().any(|l| l.contains(" in txn "));
        if long && short {
            wrong.push(format!(
                "{} ({w} wide): `uncommitted (…)` and `in txn` in one panel\n{}",
                step.at(),
                lines.join("\n")
            ));
        }
    });
    sweep::none_wrong("payment rows", seen, 50, &wrong, size);
}

#[test]
fn every_payment_row_keeps_its_message_id_at_80x24() {
    every_payment_row_named_at(sweep::SIZES[0]);
}

#[test]
fn every_payment_row_keeps_its_message_id_at_100x30() {
    every_payment_row_named_at(sweep::SIZES[1]);
}

/// One run at one size says "not committed" in one wording (teacher
/// trial, tour-1 idempotent at 100x30 and 80x24: the processed_messages
/// row read `m-7f3  uncommitted (A)  + new` at step 3 and `m-7f3 in txn
/// A` at step 4, the same row in the same width with two labels). Every
/// built-in run at each size: the payments and processed_messages rows
/// as drawn say `uncommitted (…)` at every step or `in txn …` at every
/// step; the catalogue's other tables, which word their rows on their
/// own, keep one wording of their own.
fn one_wording_a_run_at(size: (u16, u16)) {
    let mut runs = 0;
    let mut wrong = Vec::new();
    // Per group of tables (payments and processed_messages, or the
    // others): the run's first wording, and where it was seen.
    let mut first: [Option<(&'static str, String)>; 2] = [None, None];
    let mut counted = false;
    let mut failed = false;
    sweep::each_step(size, |step| {
        if step.app.pos == 0 {
            first = [None, None];
            counted = false;
            failed = false;
        }
        let rows = step.rows_in(Panel::Database);
        // The first line heads payments; a line that does not start with
        // a space heads a table.
        let mut group = 0;
        for row in &rows {
            if !row.starts_with(' ') {
                let core = row.starts_with("payments") || row.starts_with("processed_messages");
                group = usize::from(!core);
                continue;
            }
            let said = if row.contains("uncommitted (") {
                "uncommitted"
            } else if row.contains(" in txn ") {
                "in txn"
            } else {
                continue;
            };
            if !counted {
                counted = true;
                runs += 1;
            }
            match &first[group] {
                None => first[group] = Some((said, format!("{}: {row:?}", step.at()))),
                // One failure a run: the run is the unit counted.
                Some((was, at)) if *was != said && !failed => {
                    failed = true;
                    wrong.push(format!("{}: {row:?}; {at}", step.at()));
                }
                Some(_) => {}
            }
        }
    });
    sweep::none_wrong("runs with uncommitted rows", runs, 10, &wrong, size);
}

#[test]
fn one_wording_for_uncommitted_a_run_at_80x24() {
    one_wording_a_run_at(sweep::SIZES[0]);
}

#[test]
fn one_wording_for_uncommitted_a_run_at_100x30() {
    one_wording_a_run_at(sweep::SIZES[1]);
}

#[test]
fn one_wording_for_uncommitted_a_run_at_120x40() {
    one_wording_a_run_at(sweep::SIZES[2]);
}
