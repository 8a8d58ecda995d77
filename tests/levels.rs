//! Every level can be played: its starting design fails with the outcome the
//! level is about, and its reference solution wins it (the prover finds no
//! counterexample within the bounds, the proof is not vacuous, and the
//! level's conditions hold).

use idem::levels::{self, Attempt, Verdict};

#[test]
fn there_are_enough_levels_numbered_in_order() {
    let all = levels::all();
    assert!(all.len() >= 8, "{} levels", all.len());
    for (i, level) in all.iter().enumerate() {
        assert_eq!(level.number, i + 1, "{}", level.slug);
        assert!(level.broken_conditions(&level.start).is_empty() || !level.forbid.is_empty());
    }
}

// The starts and the solutions are two tests, so that both cores check
// levels at once: together they were the longest test of the suite.
#[test]
fn each_start_fails_as_its_level_says() {
    let mut failures = Vec::new();
    for level in levels::all() {
        let start = Attempt::check(&level, &level.start).unwrap();
        let classes: Vec<_> = start
            .report
            .counterexamples
            .iter()
            .map(|c| c.class)
            .collect();
        if start.won() || !classes.contains(&level.about) {
            failures.push(format!(
                "level {} ({}): start should show {}, shows {classes:?}",
                level.number,
                level.slug,
                level.about.text()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn each_solution_wins() {
    let mut failures = Vec::new();
    for level in levels::all() {
        let solution = Attempt::check(&level, &level.solution).unwrap();
        if solution.verdict != Verdict::Won {
            failures.push(format!(
                "level {} ({}): the solution is {:?}, with {:?}",
                level.number,
                level.slug,
                solution.verdict,
                solution
                    .report
                    .counterexamples
                    .iter()
                    .map(|c| c.class)
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn a_solution_that_breaks_a_condition_does_not_win() {
    let level = levels::all()
        .into_iter()
        .find(|l| l.slug == "offset")
        .unwrap();
    let with_table = levels::get(1).unwrap().solution;
    let attempt = Attempt::check(&level, &with_table).unwrap();
    match &attempt.verdict {
        Verdict::Holds { broken } => {
            // Named as the level screen lists the block.
            assert!(broken[0].contains("`insert message ID`"), "{broken:?}");
            assert!(broken[0].contains("processed_messages"), "{broken:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!attempt.won());
}
