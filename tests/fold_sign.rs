//! The count of rows a panel has no room for reads as a count, never as
//! a change of the figure beside it: a teacher read `charges 2 ($80) ↓1`
//! as the charges going down by one. Every fold count on every screen of
//! every built-in run says in a word what it counts, at 80x24, 100x30 and 120x40,
//! on the main screen and in the presenter view.

use crate::common;
use crate::common::sweep::{SIZES, each_step};
use idem::scenario::load::builtins;
use idem::tui::{Action, update};

/// What is wrong with a row's fold counts, if anything: an arrow followed
/// by a number that no word follows (`↓1`, `↓ 2`; `↓ 2 more` and `↓ 2
/// steps below` say what they count).
fn bare_count(row: &str) -> Option<String> {
    let chars: Vec<char> = row.chars().collect();
    for (i, _) in chars.iter().enumerate().filter(|(_, c)| **c == '↓') {
        let rest: String = chars[i + 1..].iter().collect();
        let rest = rest.trim_start();
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let worded = rest[digits.len()..]
            .strip_prefix(' ')
            .is_some_and(|w| w.starts_with(char::is_alphabetic));
        if !digits.is_empty() && !worded {
            return Some(row.trim().to_string());
        }
    }
    None
}

#[test]
fn every_fold_count_says_more() {
    let mut failures = Vec::new();
    let mut screens = 0;
    // The main screen: the walk's kept screens.
    for size in SIZES {
        each_step(size, |step| {
            screens += 1;
            if let Some(row) = step.rows().iter().find_map(|r| bare_count(r)) {
                failures.push(format!("{}: {row}", step.at()));
            }
        });
    }
    // The presenter view, drawn here.
    for script in builtins() {
        for design in script.strategies() {
            let mut a = common::app(&script.name, &design);
            update(&mut a, Action::Presenter);
            for (w, h) in SIZES {
                common::resize(&mut a, w, h);
                for pos in 0..a.timeline.frames.len() {
                    a.pos = pos;
                    let screen = common::render(&a);
                    screens += 1;
                    if let Some(row) = screen.lines().find_map(bare_count) {
                        failures.push(format!(
                            "{} {design} presenter step {pos} at {w}x{h}: {row}",
                            script.name
                        ));
                    }
                }
            }
        }
    }
    assert!(screens > 1000, "only {screens} screens");
    assert!(
        failures.is_empty(),
        "{} of {screens} screens; the first:\n{}",
        failures.len(),
        failures.first().cloned().unwrap_or_default()
    );
}

#[test]
fn a_bare_arrow_count_is_caught() {
    assert!(bare_count("charges 2 ($80) …↓1").is_some());
    assert!(bare_count("charges 2 ($80) ↓ 1").is_some());
    assert!(bare_count("row 3 … ↓ 2 more").is_none());
    assert!(bare_count("  ↓ 2 steps below").is_none());
    assert!(bare_count("↑/↓ step").is_none());
}

/// A heading that ends in a count (`charges 2 $80`, `payments · total
/// $80`) counts its folded rows as rows not shown, never as "more": the
/// trial read `charges 2 $80 …1 more` as three charges.
#[test]
fn a_count_in_a_heading_is_never_followed_by_more() {
    use crate::common::sweep;
    use idem::tui::app::Panel;
    use idem::tui::theme::Theme;
    use idem::tui::view;
    let t = Theme::new(false, false);
    let mut folded = 0;
    for size in [sweep::SIZES[0], sweep::SIZES[1]] {
        sweep::each_step(size, |step| {
            for panel in [Panel::Provider, Panel::Database] {
                let (w, h) = step.inner(panel);
                let lines = match panel {
                    Panel::Provider => {
                        view::provider_lines(step.app, &t, &step.frame, step.buf.area, (w, h))
                    }
                    _ => view::database_lines(&t, &step.app.timeline.frames, &step.frame, w, h),
                };
                let heading = lines[0].to_string();
                assert!(!heading.contains("more"), "{}: {heading:?}", step.at());
                folded += usize::from(heading.contains("hidden") || heading.contains("not shown"));
            }
        });
    }
    assert!(folded > 20, "only {folded} headings counted folded rows");
}
