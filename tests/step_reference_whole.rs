//! A reference to a step is read as one thing: `At step 13:` never wraps
//! so that `At step` ends a row and `13:` starts the next (teacher trial:
//! the number read as a figure of the sentence below). At every size.

use crate::common::sweep;
use idem::tui::app::Panel;

/// Whether `row` ends on a step reference cut from its number.
fn ends_in_a_split_reference(row: &str) -> bool {
    let row = row.trim_end();
    row.ends_with(" At step") || row == "At step"
}

#[test]
fn a_split_reference_is_found() {
    assert!(ends_in_a_split_reference("the lease ran out. At step"));
    assert!(ends_in_a_split_reference("At step"));
    assert!(!ends_in_a_split_reference(
        "the lease ran out. At step 13: A"
    ));
}

#[test]
fn a_step_reference_keeps_its_number_on_its_row() {
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let rows = step.rows_in(Panel::Narration);
            for (k, row) in rows.iter().enumerate() {
                if row.contains("At step") {
                    seen += 1;
                }
                if ends_in_a_split_reference(row) {
                    wrong.push(format!(
                        "{}: {:?} / {:?}",
                        step.at(),
                        row.trim_end(),
                        rows.get(k + 1).map(|r| r.trim_end())
                    ));
                }
            }
        });
        if std::env::var_os("IDEM_ALL_CUTS").is_some() {
            eprintln!("{size:?}: {} of {seen}", wrong.len());
        }
        sweep::none_wrong("step references", seen, 20, &wrong, size);
    }
}
