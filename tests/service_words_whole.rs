//! A step's name in the service panel, cut for room, is cut where a word
//! ends: teacher trial (issue 18) read `charge the ca… (key)` at 80x24, a
//! word broken in the middle. The `(key)` tag after it stays.

use crate::common::sweep::{SIZES, each_step};
use idem::tui::app::Panel;
use ratatui::layout::Margin;

/// The cut `row` leaves of one of `labels`, if it breaks a word: the
/// label, and what the row kept of it.
fn broken<'l>(row: &str, labels: &[&'l str]) -> Option<(&'l str, String)> {
    // After the step's glyph (` ✓ `).
    let rest: String = row.chars().skip(3).collect();
    let cut = rest[..rest.find('…')?].trim_end();
    if cut.is_empty() {
        return None;
    }
    let of: Vec<&&str> = labels.iter().filter(|l| l.starts_with(cut)).collect();
    let whole = |l: &str| l[cut.len()..].starts_with(' ');
    match of.first() {
        Some(l) if !of.iter().any(|l| whole(l)) => Some((l, cut.to_string())),
        _ => None,
    }
}

#[test]
fn broken_finds_a_word_cut_in_its_middle() {
    let labels = ["charge the card (key)", "insert payment row"];
    assert!(broken(" ✓ charge the ca… (key)", &labels).is_some());
    assert!(broken(" ✓ charge the… (key)", &labels).is_none());
    assert!(broken(" ▷ insert paym…  next", &labels).is_some());
    assert!(broken(" ▷ insert…  next", &labels).is_none());
    assert!(broken(" ▷ insert payment row  next", &labels).is_none());
}

#[test]
fn a_cut_step_name_keeps_its_words_whole() {
    // The large screen cuts no name: the cuts are counted over the sizes.
    let (mut seen, mut wrong) = (0, Vec::new());
    for size in SIZES {
        each_step(size, |step| {
            let inner = step.main.rect(Panel::Service).inner(Margin::new(1, 1));
            let rows = step.rows();
            let labels: Vec<&str> = step
                .frame
                .consumers
                .iter()
                .flat_map(|c| c.steps.iter().map(|s| s.label.as_str()))
                .collect();
            for y in inner.y..inner.bottom() {
                let row: String = rows[usize::from(y)]
                    .chars()
                    .skip(usize::from(inner.x))
                    .take(usize::from(inner.width))
                    .collect();
                if row.contains('…') {
                    seen += 1;
                }
                // No exception: a word that alone tells what happened to
                // the call (`409 in progress`, `never received`, teacher
                // trials 6 and 8) sits beside the step's short name
                // (`answer`), not beside `provi…`.
                if let Some((label, kept)) = broken(&row, &labels) {
                    wrong.push(format!(
                        "{}: {label:?} cut mid-word to {kept:?}: {row:?}\n{}",
                        step.at(),
                        step.screen()
                    ));
                }
            }
        });
    }
    assert!(seen > 20, "only {seen} service rows with a cut name");
    assert!(
        wrong.is_empty(),
        "{} of {seen} cut names broke a word; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
