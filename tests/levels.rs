//! Every level can be played: its starting design fails with the outcome the
//! level is about, and its reference solution wins it (the prover finds no
//! counterexample within the bounds, the proof is not vacuous, and the
//! level's conditions hold).

use crate::skips_marked_at_refusal::skipped_late;
use idem::check::Counterexample;
use idem::levels::{self, Attempt, Level, Verdict};
use idem::timeline::Timeline;

/// The steps each counterexample's replay (`v`) marks skipped a move after
/// the step that refused the message: a handler-built design marks its
/// skips where they are decided, as the built-in designs do.
fn replays_marked_late<'a>(
    level: &Level,
    program: &[idem::sim::Op],
    runs: impl IntoIterator<Item = &'a Counterexample>,
) -> Vec<String> {
    let design = level.design(program);
    runs.into_iter()
        .flat_map(|cx| {
            let t = Timeline::build(&cx.script, &design, idem::check::SEED, &[]).expect("replays");
            skipped_late(&t)
                .into_iter()
                .map(|l| format!("level {} ({}): {l}", level.number, cx.class.text()))
                .collect::<Vec<_>>()
        })
        .collect()
}

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
        // Teacher trial, level 3: its replay turned A's steps `skipped`
        // at the commit after the refused claim, a move late.
        failures.extend(replays_marked_late(
            &level,
            &level.start,
            &start.report.counterexamples,
        ));
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
        // The runs a won handler breaks in one bound further, as `v` opens them.
        for further in &solution.report.further {
            let ways = further.ways().into_iter().map(|(_, cx)| cx);
            failures.extend(replays_marked_late(&level, &level.solution, ways));
        }
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

/// A level teaches what its goal says: the starting handler's shortest
/// counterexample, the one the level screen shows, holds a fault the level
/// names, and its goal names that fault in words.
#[test]
fn each_start_breaks_by_the_fault_its_goal_names() {
    use idem::levels::Fault;
    let words = |f: Fault| match f {
        Fault::Crash => &["crash", "dies"][..],
        Fault::LostAck => &["ack goes missing", "lost ack"],
        Fault::LostResponse => &["lost response"],
        Fault::ExpiredLease => &["expired lease", "early lease expir", "two consumers"],
    };
    let mut failures = Vec::new();
    for level in levels::all() {
        let goal = level.goal.replace('\n', " ").to_lowercase();
        for f in &level.faults {
            if !words(*f).iter().any(|w| goal.contains(w)) {
                failures.push(format!(
                    "level {}: the goal never names {}",
                    level.number,
                    f.word()
                ));
            }
        }
        let start = Attempt::check(&level, &level.start).unwrap();
        let cx = start.counterexample().expect("the start breaks");
        let in_cx: Vec<Fault> = Fault::ALL
            .into_iter()
            .filter(|f| cx.moves.iter().any(|m| f.is(m)))
            .collect();
        let named = in_cx.iter().any(|f| level.faults.contains(f));
        // A lease also runs out once its holder is gone (time passing, the
        // same move), so only the other kinds must all be the level's.
        let foreign = in_cx
            .iter()
            .any(|f| *f != Fault::ExpiredLease && !level.faults.contains(f));
        // A handler that fails with no fault at all (level 9's never
        // charges) has no fault to show; its goal says so.
        let faultless = in_cx.is_empty() && level.faults == Fault::ALL;
        if !(named || faultless) || foreign || cx.class != level.about {
            failures.push(format!(
                "level {} ({}): its counterexample ({}: {}) holds none of {:?}",
                level.number,
                level.slug,
                cx.class.text(),
                cx.chain,
                level.faults.iter().map(|f| f.word()).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A level asks in words for every fix it needs: where its start charges
/// with no Idempotency-Key and its solution, charged with no key, still
/// breaks, the goal or hint names the key. Teacher trial 26, level 4: the
/// goal spoke only of where the ID is saved, and a handler that did just
/// that still read `charged twice ← A called the provider without an
/// Idempotency-Key`.
#[test]
fn a_level_that_needs_the_key_says_so() {
    use idem::sim::Op;
    let keyless = Op::CallProvider { with_key: false };
    let keyed = Op::CallProvider { with_key: true };
    let mut failures = Vec::new();
    for level in levels::all() {
        if !level.start.contains(&keyless) || !level.solution.contains(&keyed) {
            continue;
        }
        let without: Vec<Op> = level
            .solution
            .iter()
            .map(|op| if *op == keyed { keyless } else { *op })
            .collect();
        let needs_key = !Attempt::check(&level, &without).unwrap().won();
        let words = format!("{} {}", level.goal, level.hint).replace('\n', " ");
        if needs_key && !words.contains("Idempotency-Key") {
            failures.push(format!("level {}: {words}", level.number));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
