//! A level's verdict says on its first row whether the faults of each
//! kind are capped, and how. Teacher trial, level 4: `✓ level won within
//! 2 consumers, 1 message and 2 faults (crashes only)` did not say
//! whether the crashes were capped per consumer; only the try one fault
//! further said `no cap per kind`.

use crate::common::draw;
use crate::level_bounds::proved;
use idem::levels;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The prover box's first row inside its border.
fn first_row(screen: &str) -> String {
    screen
        .lines()
        .skip_while(|l| !l.contains("The prover"))
        .nth(1)
        .unwrap_or_default()
        .trim_matches(|c| c == '│' || c == '"')
        .trim()
        .to_string()
}

#[test]
fn a_won_level_says_its_cap_per_kind_on_its_first_row() {
    let (mut checked, mut wrong) = (0, Vec::new());
    for (index, level) in levels::all().into_iter().enumerate() {
        let mut a = proved(index, level.solution.clone());
        for (w, h) in SIZES {
            checked += 1;
            let first = first_row(&draw(&mut a, w, h));
            // Either no cap (each kind may fill the count of faults) or
            // the cap, beside the kinds it caps.
            let capped = first.contains("no cap per kind")
                || first.contains("1 of each")
                || first.contains("(uncapped ");
            if !(first.contains("won") && capped) {
                wrong.push(format!("level {} at {w}x{h}: {first:?}", level.number));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} won first rows say no cap:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
