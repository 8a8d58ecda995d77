//! A verdict shown at a step must stay true: once a run is declared wrong,
//! no later step may call it something else, or take back a wrong effect.

use idem::scenario::load::builtins;
use idem::sim::{Cause, Outcome, Strategy};
use idem::timeline::Timeline;

#[test]
fn a_declared_outcome_never_changes_class() {
    let mut runs = 0;
    for script in builtins() {
        for name in script.expect.keys() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let mut declared: Option<(usize, Outcome, Vec<Outcome>)> = None;
            for frame in &timeline.frames {
                let v = &frame.verdict;
                if let Some((at, class, failures)) = &declared {
                    assert_eq!(
                        v.outcome,
                        *class,
                        "{} under {name}: declared {} at step {at}, step {} says {}",
                        script.name,
                        class,
                        frame.index,
                        v.headline()
                    );
                    for f in failures {
                        assert!(
                            v.failures.contains(f),
                            "{} under {name}: {f} declared at step {at} is gone at step {}",
                            script.name,
                            frame.index
                        );
                    }
                }
                if v.outcome.is_failure() {
                    declared = Some((frame.index, v.outcome, v.failures.clone()));
                }
            }
            runs += 1;
        }
    }
    assert!(runs >= 40, "only {runs} runs");
}

#[test]
fn an_in_progress_verdict_declares_nothing_and_says_what_is_at_risk() {
    // id-first commits the ID, then crashes before the payment: while the
    // message is still leased, the charge is at risk, not yet lost.
    let script = idem::scenario::find("id-first").unwrap();
    let timeline =
        Timeline::build(&script, &Strategy::by_name("id-first").unwrap(), 0, &[]).unwrap();
    let risky = timeline
        .frames
        .iter()
        .find(|f| !f.verdict.at_risk.is_empty())
        .expect("some step is at risk before the charge is lost");
    assert_eq!(risky.verdict.outcome, Outcome::InProgress);
    assert!(
        risky.verdict.chain().contains("at risk: "),
        "{}",
        risky.verdict.chain()
    );
    assert_eq!(timeline.last().verdict.outcome, Outcome::ChargeLost);
}

#[test]
fn a_verdict_counts_and_names_every_cause() {
    let script = idem::scenario::find("dedup-window").unwrap();
    let timeline = Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
    let end = &timeline.last().verdict;
    assert_eq!(end.headline(), "charged 3 times");
    // The second delivery and the third, each chain whole and in causal
    // order: the missing key first, then what brought the copy back.
    assert_eq!(end.causes.len(), 2, "{}", end.chain());
    let chain = end.chain();
    let all: Vec<&Cause> = end.causes.iter().flatten().collect();
    assert!(
        all.iter().any(|c| matches!(c, Cause::AckLost { .. })),
        "{chain}"
    );
    assert!(
        all.iter()
            .any(|c| matches!(c, Cause::ProducerRetry { window, .. } if *window > 0)),
        "{chain}"
    );
    // Naive keeps no record of what it handled: each chain leads with the
    // work done again (its row and its keyless charge), then what brought
    // the copy back.
    for cause in &end.causes {
        assert_eq!(
            cause.first(),
            Some(&Cause::Repeated {
                consumer: "A".into(),
                id: "m-7f3".into(),
                row: true,
                charge: Some(false),
            }),
            "{chain}"
        );
        assert!(cause.len() > 1, "no chain is a lone reason: {chain}");
    }
}

/// The first step at which `timeline` takes back what an earlier step
/// declared, in words: once a step declares an outcome, no later step says
/// less. A correct run does not go back to "in progress"; a failure keeps
/// its class and every failure it named, and may only grow more specific
/// (charged twice, then 3 times).
fn first_revert(timeline: &Timeline) -> Option<String> {
    let mut declared: Option<(usize, Outcome, Vec<Outcome>, String)> = None;
    for frame in &timeline.frames {
        let v = &frame.verdict;
        if let Some((at, class, failures, said)) = &declared {
            let step = frame.index;
            let now = v.headline();
            if v.undecided() {
                return Some(format!(
                    "step {at} said {said}, step {step} takes it back: {now}"
                ));
            }
            if v.outcome != *class {
                return Some(format!("step {at} said {said}, step {step} says {now}"));
            }
            if let Some(f) = failures.iter().find(|f| !v.failures.contains(f)) {
                return Some(format!(
                    "{f} said at step {at} is gone at step {step}: {now}"
                ));
            }
        }
        if declared.is_none() && !v.undecided() {
            declared = Some((frame.index, v.outcome, v.failures.clone(), v.headline()));
        } else if let Some(d) = declared.as_mut() {
            // Failures may grow: the newest list is the one to keep.
            d.2 = v.failures.clone();
        }
    }
    None
}

/// Every built-in scenario under every design it lists.
#[test]
fn no_verdict_reverts_under_any_listed_design() {
    let mut runs = 0;
    for script in builtins() {
        for name in script.strategies() {
            let strategy = Strategy::by_name(&name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            if let Some(revert) = first_revert(&timeline) {
                panic!("{} under {name}: {revert}", script.name);
            }
            runs += 1;
        }
    }
    assert!(runs >= 45, "only {runs} runs");
}

/// Every built-in scenario under every built-in design, listed or not (a
/// learner can press `d` to any of them): while the script still has a
/// publish to come, a wrong effect that a later copy could undo is only
/// "so far", so no step declares what a later one takes back
/// (dedup-window under versioned once said "disagree" at step 17 and
/// "in progress" at 19).
#[test]
fn no_verdict_reverts_under_any_design_at_all() {
    let mut reverts = Vec::new();
    let mut runs = 0;
    for script in builtins() {
        for name in Strategy::names() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            if let Some(revert) = first_revert(&timeline) {
                reverts.push(format!("{} under {name}: {revert}", script.name));
            }
            runs += 1;
        }
    }
    assert!(runs >= 200, "only {runs} runs");
    assert!(reverts.is_empty(), "{}", reverts.join("\n"));
}

/// tour-4, naive: the lost response makes A charge again, and A commits
/// one payment row. From the step that commits it, the provider (two
/// charges) and the database (one row) disagree, and the verdict says so
/// there, not a step later; the end keeps both outcomes.
#[test]
fn a_disagreement_is_declared_at_the_step_that_commits_it() {
    let script = idem::scenario::find("tour-4").unwrap();
    let t = Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
    let commit = t
        .frames
        .iter()
        .find(|f| f.changes.total_was.is_some())
        .expect("a step commits the payment");
    assert_eq!(commit.provider.charges.len(), 2, "step {}", commit.index);
    for f in &t.frames[commit.index..] {
        assert!(
            f.verdict.failures.contains(&Outcome::Disagree),
            "step {} (the commit is step {}): {}",
            f.index,
            commit.index,
            f.verdict.headline()
        );
    }
    for f in &t.frames[..commit.index] {
        assert!(
            !f.verdict.failures.contains(&Outcome::Disagree),
            "step {} declares a disagreement before the commit makes it",
            f.index
        );
    }
    let end = t.last().verdict.outcomes();
    assert!(end.contains(&Outcome::ChargedTwice) && end.contains(&Outcome::Disagree));
}

/// charge-first on tour-4: after the first commit the card has two charges
/// and the database one row; the handler's second transaction only records
/// the ID, so it cannot bring the books back into line. The disagreement
/// declared at the commit stays declared while that transaction is open.
#[test]
fn a_transaction_that_writes_no_payment_does_not_take_back_a_disagreement() {
    let script = idem::scenario::find("tour-4").unwrap();
    let strategy = Strategy::by_name("charge-first").unwrap();
    let t = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    let first = t
        .frames
        .iter()
        .position(|f| f.verdict.failures.contains(&Outcome::Disagree))
        .expect("charge-first disagrees on tour-4");
    for f in &t.frames[first..] {
        assert!(
            f.verdict.failures.contains(&Outcome::Disagree),
            "declared at step {first}, gone at step {}: {}",
            f.index,
            f.verdict.headline()
        );
    }
}

/// A chain leads with the protection whose absence let the repeat through.
/// Where a design with processed_messages but no Idempotency-Key
/// (no-provider-key) ends a scenario correct, the table alone stops that
/// repeat, so naive's double charge there is first of all work done again
/// with no record of it, not a call without a key. Where the design with
/// the table still charges twice, the table could not help (the row rolled
/// back with the crash): there the missing key leads, under naive too
/// (crash-after-provider).
#[test]
fn a_chain_leads_with_the_missing_protection_that_mattered() {
    let mut led_by_repeat = 0;
    let mut led_by_key = 0;
    for script in builtins() {
        let run = |name: &str| {
            Timeline::build(&script, &Strategy::by_name(name).unwrap(), 0, &[]).unwrap()
        };
        let naive = run("naive");
        let keyless = run("no-provider-key");
        let (naive_end, keyless_end) = (&naive.last().verdict, &keyless.last().verdict);
        if !naive_end.failures.contains(&Outcome::ChargedTwice) {
            continue;
        }
        let firsts: Vec<&Cause> = naive_end.causes.iter().filter_map(|c| c.first()).collect();
        let chain = naive_end.chain();
        if keyless_end.outcome == Outcome::Correct {
            led_by_repeat += 1;
            assert!(
                firsts.iter().all(|c| matches!(c, Cause::Repeated { .. })),
                "{}: no-provider-key ends correct, yet naive's chain leads with another cause: {chain}",
                script.name
            );
            // Once the repeat's row is committed, the chain names it too.
            if naive_end.facts.iter().any(|f| f.payments > f.expected) {
                assert!(
                    firsts.iter().any(|c| matches!(
                        c,
                        Cause::Repeated {
                            row: true,
                            charge: Some(false),
                            ..
                        }
                    )),
                    "{}: the second committed row is not named: {chain}",
                    script.name
                );
            }
        } else if keyless_end.failures.contains(&Outcome::ChargedTwice) {
            let keyless_firsts: Vec<&Cause> = keyless_end
                .causes
                .iter()
                .filter_map(|c| c.first())
                .collect();
            let key_led = |c: &&Cause| {
                matches!(
                    c,
                    Cause::NoKey { .. }
                        | Cause::CalledAgain {
                            with_key: false,
                            ..
                        }
                )
            };
            if keyless_firsts.iter().any(key_led) {
                led_by_key += 1;
            }
            // The table kept the rows single there but could not stop the
            // second charge (the earlier work rolled back with a crash):
            // naive's chain must not blame the missing record. (Where the
            // table's rows double too, its ID was the wrong one: broker-id.)
            let rows_single = keyless_end.facts.iter().all(|f| f.payments <= f.expected);
            if rows_single && !keyless_firsts.is_empty() && keyless_firsts.iter().all(key_led) {
                assert!(
                    !firsts.iter().any(|c| matches!(c, Cause::Repeated { .. })),
                    "{}: the table alone does not fix it, yet naive's chain leads with the missing record: {chain}",
                    script.name
                );
            }
        }
    }
    // tour-1, tour-3 and more end correct under the table alone; tour-4's
    // crash after the charge needs the key.
    assert!(
        led_by_repeat >= 3,
        "only {led_by_repeat} runs led by the repeat"
    );
    assert!(led_by_key >= 1, "no run where the missing key leads");
}
