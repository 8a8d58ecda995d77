//! Every built-in scenario is a test: run under each strategy it has
//! expectations for, it must end as the file says.

use idem::report;
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;

#[test]
fn every_scenario_meets_its_expectations() {
    let mut runs = 0;
    for script in builtins() {
        for (name, expect) in &script.expect {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let misses = timeline.misses(expect);
            assert!(
                misses.is_empty(),
                "{} under {name}: {misses:?}\n{}",
                script.name,
                report::transcript(&timeline, Some(expect))
            );
            runs += 1;
        }
    }
    assert!(runs >= 8, "only {runs} runs: scenarios went missing");
}

#[test]
fn every_tour_scenario_contrasts_naive_and_idempotent() {
    for script in builtins().iter().filter(|s| s.name.starts_with("tour-")) {
        assert!(script.expect.contains_key("naive"), "{}", script.name);
        let outcomes = script.expect["idempotent"].outcomes.clone().unwrap();
        assert!(
            outcomes.iter().all(|o| !o.is_failure()),
            "{}: {outcomes:?}",
            script.name
        );
    }
}

#[test]
fn the_same_seed_gives_byte_identical_runs() {
    for script in builtins() {
        for name in script.expect.keys() {
            let strategy = Strategy::by_name(name).unwrap();
            let a = Timeline::build(&script, &strategy, 42, &[]).unwrap();
            let b = Timeline::build(&script, &strategy, 42, &[]).unwrap();
            assert_eq!(report::transcript(&a, None), report::transcript(&b, None));
            assert_eq!(report::json(&a, None), report::json(&b, None));
        }
    }
}

#[test]
fn the_seed_changes_receipts_but_not_the_outcome() {
    let script = idem::scenario::find("tour-1").unwrap();
    let strategy = Strategy::naive();
    let a = Timeline::build(&script, &strategy, 1, &[]).unwrap();
    let b = Timeline::build(&script, &strategy, 2, &[]).unwrap();
    assert_ne!(report::transcript(&a, None), report::transcript(&b, None));
    assert_eq!(a.last().verdict, b.last().verdict);
}

#[test]
fn a_naive_lost_ack_explains_itself() {
    let script = idem::scenario::find("tour-1").unwrap();
    let timeline = Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
    let end = timeline.last();
    assert_eq!(end.db.payments_total, 80);
    assert_eq!(end.provider.charges.len(), 2);
    let chain = end.verdict.chain();
    assert!(
        chain.starts_with(
            "charged twice <- A did m-7f3's work again, with no record of it: another row, \
             another charge with no Idempotency-Key <- m-7f3 redelivered <- lease expired <- ack lost at step "
        ) && !chain.contains("; and"),
        "{chain}"
    );
    let first = timeline.first_violation().unwrap();
    assert!(!timeline.frames[first - 1].verdict.outcome.is_failure());
}

#[test]
fn a_fork_changes_the_run_from_that_point() {
    use idem::sim::Move;
    use idem::timeline::Fork;
    let script = idem::scenario::find("tour-1").unwrap();
    let strategy = Strategy::idempotent();
    let plain = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    // Crash A right after it opened its transaction (frame 2).
    let forks = [Fork {
        at: 2,
        mv: Move::Crash {
            consumer: "A".into(),
        },
    }];
    let forked = Timeline::build(&script, &strategy, 0, &forks).unwrap();
    assert_eq!(plain.frames[..3], forked.frames[..3]);
    assert_eq!(forked.frames[3].action, "you: crash A");
    assert_eq!(forked.frames[3].counters.crashes, 1);
    assert_ne!(plain.frames[3], forked.frames[3]);
}

#[test]
fn a_database_file_gives_the_same_run_as_memory() {
    let dir = std::env::temp_dir().join(format!("idem-db-same-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for script in builtins() {
        for name in script.expect.keys() {
            let strategy = Strategy::by_name(name).unwrap();
            let memory = Timeline::build(&script, &strategy, 3, &[]).unwrap();
            let mut on_file = script.clone();
            on_file.setup.db_file = Some(dir.join(format!("{}-{name}.db", script.name)));
            let file = Timeline::build(&on_file, &strategy, 3, &[]).unwrap();
            assert_eq!(
                report::transcript(&memory, None),
                report::transcript(&file, None),
                "{} under {name}",
                script.name
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_longer_retention_prunes_the_old_id_and_keeps_the_recent_one() {
    let script = idem::scenario::find("retention").unwrap();
    let timeline = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
    let prunes: Vec<_> = timeline
        .frames
        .iter()
        .filter(|f| f.sql.iter().any(|s| s.consumer == "janitor"))
        .collect();
    assert_eq!(prunes.len(), 2, "two retention runs");
    let longer = prunes[1];
    assert!(
        longer
            .sql
            .iter()
            .any(|s| s.result.contains("1 row deleted")),
        "{:?}",
        longer.sql
    );
    let kept: Vec<_> = longer
        .db
        .processed
        .iter()
        .map(|p| p.message_id.as_str())
        .collect();
    assert_eq!(kept, ["m-8a1"]);
}
