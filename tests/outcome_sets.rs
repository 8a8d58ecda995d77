//! Issue 18 §4: a run can end with more than one outcome, and everything
//! that reads an outcome reads all of them: the verdict at the step that
//! makes it true, the per-order line, expectations, `run --check`, the
//! `check` table and the counterexamples `check --save` writes.

use idem::scenario::find;
use idem::sim::{Outcome, Strategy};
use idem::timeline::Timeline;

fn run(scenario: &str, design: &str) -> Timeline {
    let script = find(scenario).unwrap();
    Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap()
}

/// The first step whose committed rows and provider charges (no
/// transaction open) are one row and two charges: the books disagree there.
fn first_closed_disagreement(t: &Timeline) -> usize {
    t.frames
        .iter()
        .find(|f| {
            let committed =
                f.db.payments
                    .iter()
                    .filter(|p| p.uncommitted_by.is_none())
                    .count();
            let open = f.db.payments.iter().any(|p| p.uncommitted_by.is_some());
            committed == 1 && f.provider.charges.len() == 2 && !open
        })
        .expect("a step with one row and two charges")
        .index
}

#[test]
fn a_disagreement_is_declared_at_the_step_that_closes_the_books() {
    for scenario in ["tour-4", "crash-after-provider"] {
        let t = run(scenario, "naive");
        let at = first_closed_disagreement(&t);
        let v = &t.frames[at].verdict;
        assert!(
            v.failures.contains(&Outcome::Disagree),
            "{scenario} naive step {at}: one row and two charges, yet the verdict says {}",
            v.headline()
        );
    }
    // tour-4: step 9 commits the one row beside two charges.
    assert_eq!(first_closed_disagreement(&run("tour-4", "naive")), 9);
}

#[test]
fn the_per_order_line_names_every_outcome_of_the_order() {
    for scenario in ["tour-4", "crash-after-provider"] {
        let t = run(scenario, "naive");
        let text = idem::report::transcript(&t, None);
        let line = text
            .lines()
            .find(|l| l.starts_with("  order 1042 ($40): owes it once"))
            .expect("the per-order line");
        assert!(
            line.ends_with("charged twice, provider and database disagree"),
            "{scenario}: {line}"
        );
    }
}

/// tour-4 with its naive expectation's outcome line replaced by `outcome`.
fn tour4_expecting(outcome: &str) -> Result<idem::scenario::Script, String> {
    let text = std::fs::read_to_string("scenarios/tour-4.toml").unwrap();
    let line = "outcome = [\"charged twice\", \"provider and database disagree\"]";
    assert!(text.contains(line), "tour-4 expects both outcomes of naive");
    idem::scenario::parse("tour-4.toml", &text.replacen(line, outcome, 1))
        .map_err(|e| e.to_string())
}

#[test]
fn an_expectation_is_met_only_by_the_runs_whole_set_of_outcomes() {
    let naive = Strategy::naive();
    let misses = |outcome: &str| {
        let script = tour4_expecting(outcome).unwrap();
        let t = Timeline::build(&script, &naive, 0, &[]).unwrap();
        t.misses(&script.expect["naive"])
    };
    assert_eq!(
        misses("outcome = [\"charged twice\", \"provider and database disagree\"]"),
        Vec::<String>::new()
    );
    // The order of the list does not matter, and slugs work as in one.
    assert_eq!(
        misses("outcome = [\"provider-and-database-disagree\", \"charged twice\"]"),
        Vec::<String>::new()
    );
    // The single string still reads, as a set of one: here it misses one.
    assert_eq!(
        misses("outcome = \"charged twice\""),
        ["outcome: expected charged twice, got charged twice and provider and database disagree"]
    );
    assert_eq!(
        misses("outcome = [\"charged twice\", \"charge lost\"]"),
        [
            "outcome: expected charged twice and charge lost, got charged twice and provider and database disagree"
        ]
    );
    // A single string still validates where it is the whole set.
    let script = find("tour-4").unwrap();
    assert_eq!(
        script.expect["idempotent"].outcomes,
        Some(vec![Outcome::Correct])
    );
}

#[test]
fn run_check_holds_a_run_to_every_outcome_it_ends_with() {
    let dir = std::env::temp_dir().join(format!("idem-outcome-sets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string("scenarios/tour-4.toml").unwrap();
    let one = dir.join("one.toml");
    std::fs::write(
        &one,
        text.replacen(
            "outcome = [\"charged twice\", \"provider and database disagree\"]",
            "outcome = \"charged twice\"",
            1,
        ),
    )
    .unwrap();
    let run = |file: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_idem"))
            .args(["run", file.to_str().unwrap(), "--mode", "naive", "--check"])
            .output()
            .unwrap()
    };
    let missed = run(&one);
    assert_eq!(missed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missed.stdout).contains("expectation for naive: MISSED"));
    let met = run(std::path::Path::new("scenarios/tour-4.toml"));
    assert_eq!(
        met.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&met.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_table_counts_every_outcome_and_saves_each_run_with_its_set() {
    use idem::check::{Bounds, table};
    let row = &crate::common::check::at_default("naive").strategies[0];
    // Every class with a shortest schedule listed has schedules counted.
    for cx in &row.counterexamples {
        assert!(
            row.count(cx.class) > 0,
            "naive: a shortest schedule to {} is listed, but its column says 0",
            cx.class
        );
    }
    assert!(row.count(Outcome::Disagree) > 0);
    // A schedule counts once among those that fail, whatever it ends with.
    assert_eq!(row.failing() + row.count(Outcome::Correct), row.schedules);
    let report = idem::check::CheckReport {
        bounds: Bounds::default(),
        strategies: vec![row.clone()],
        seconds: 0.0,
    };
    let text = table(&report);
    let header: Vec<&str> = text
        .lines()
        .next()
        .unwrap()
        .split("  ")
        .filter(|c| !c.is_empty())
        .map(str::trim)
        .collect();
    let cells: Vec<&str> = text.lines().nth(1).unwrap().split_whitespace().collect();
    let column = header.iter().position(|c| *c == "disagree").unwrap();
    assert_ne!(cells[column], "0", "{text}");
    // Each counterexample's file expects the whole set its replay ends with.
    let mut both = 0;
    for cx in &row.counterexamples {
        let t = Timeline::build(&cx.script, &Strategy::naive(), 0, &[]).unwrap();
        let set = t.last().verdict.outcomes();
        assert_eq!(cx.script.expect["naive"].outcomes.as_ref(), Some(&set));
        assert!(t.misses(&cx.script.expect["naive"]).is_empty());
        if set.len() > 1 {
            both += 1;
            let listed: Vec<String> = set.iter().map(|o| format!("\"{o}\"")).collect();
            assert!(
                cx.to_toml()
                    .contains(&format!("outcome = [{}]", listed.join(", "))),
                "{}",
                cx.to_toml()
            );
            // And the file reads back to the same expectation.
            let again = idem::scenario::parse(&cx.file_name(), &cx.to_toml()).unwrap();
            assert_eq!(again.expect["naive"].outcomes, Some(set));
        }
    }
    assert!(both > 0, "naive has a counterexample with two outcomes");
}
