//! Every step whose program's database changed says so in its words
//! (teacher trial: step 6 said `its database, read by idem: payments 0 →
//! 1 row`, but step 8, which writes the second payment row — the failure
//! — said nothing; only the table's `(+1)` showed it, and `--text` said it
//! at no step). In `--text`, and on screen in the "What happened" box at
//! every size; a step whose tables did not change says nothing of them.

use super::replay_clock_true::{runs, screen_text};
use super::replay_held_told::section;
use idem::harness::transcript;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The "What happened" box's rows on screen, its bottom border with them.
fn happened_box(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let Some(top) = rows
        .iter()
        .position(|r| r.contains("What happened in step"))
    else {
        return String::new();
    };
    let mut out = Vec::new();
    for r in &rows[top + 1..] {
        out.push(r.trim_matches(|c| c == '│' || c == ' ').to_string());
        if r.starts_with('└') {
            break;
        }
    }
    out.join(" ")
}

#[test]
fn every_step_that_changes_the_database_says_so() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let mut wrong = Vec::new();
    let mut changed = 0;
    for (name, file, report) in runs() {
        let text = transcript::render(&report);
        let mut r = Replay::of(&file, report, Theme::new(false, false));
        let steps = r.steps.clone();
        for i in 0..steps.len() {
            let n = i + 1;
            let totals = |i: usize| -> Vec<(String, usize)> {
                steps[i]
                    .tables
                    .iter()
                    .map(|(t, total)| (t.name.clone(), *total))
                    .collect()
            };
            let was = if i == 0 { Vec::new() } else { totals(i - 1) };
            let was_of = |name: &str| {
                was.iter()
                    .find(|(t, _)| t == name)
                    .map_or(0, |(_, total)| *total)
            };
            let moved = totals(i).iter().any(|(t, total)| was_of(t) != *total);
            changed += usize::from(moved);
            let in_text = section(&text, n).contains("its database, read by idem:");
            if in_text != moved {
                wrong.push(format!(
                    "{name} --text step {n}: changed {moved}, said {in_text}"
                ));
            }
            r.open_at(n).unwrap();
            for (w, h) in SIZES {
                let said = happened_box(&screen_text(&r, w, h));
                let on_screen = said.contains("its database");
                if on_screen != moved {
                    wrong.push(format!(
                        "{name} step {n} at {w}x{h}: changed {moved}, said {said:?}"
                    ));
                }
            }
        }
    }
    assert!(changed >= 4, "{changed} steps changed the database");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
