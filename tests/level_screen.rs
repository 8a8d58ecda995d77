//! Snapshots of the level screen ("build the handler yourself") at the two
//! sizes, from the start of a level to a broken verdict and a won one, with
//! the prover run on this thread the way the terminal layer runs it.

use crate::common::{self, both_sizes, draw};
use idem::levels::Attempt;
use idem::tui::levels::Proved;
use idem::tui::{Action, App, Effect, update};
use std::sync::Arc;

fn app() -> App {
    let mut a = common::app("tour-1", "naive");
    update(&mut a, Action::Levels);
    a
}

fn prove(a: &mut App) {
    update(a, Action::Enter);
    assert_eq!(a.pending.take(), Some(Effect::Prove));
    let result = Attempt::check(a.levels.level(), &a.levels.program).map_err(|e| e.to_string());
    update(a, Action::Proved(Proved(Arc::new(result))));
}

#[test]
fn a_level_at_its_start() {
    both_sizes!("level_start", app());
    let screen = draw(&mut app(), 80, 24);
    assert!(screen.contains("Level 1/9"), "{screen}");
    assert!(screen.contains("Your handler"), "{screen}");
    assert!(screen.contains("Enter"), "{screen}");
}

#[test]
fn a_broken_handler_with_its_counterexample() {
    let broken = || {
        let mut a = app();
        prove(&mut a);
        a
    };
    both_sizes!("level_broken", broken());
    let screen = draw(&mut broken(), 120, 40);
    assert!(screen.contains("broken: charged twice in"), "{screen}");
    assert!(screen.contains("v watches it break"), "{screen}");
}

#[test]
fn a_level_with_a_condition_and_a_handler_that_cannot_run() {
    let cache = || {
        let mut a = app();
        for _ in 0..5 {
            update(&mut a, Action::NextChapter);
        }
        // The cache claim: forbidden here. Remove the begin after it.
        update(&mut a, Action::Down);
        update(&mut a, Action::Down);
        update(&mut a, Action::Remove);
        a
    };
    both_sizes!("level_cache_invalid", cache());
    let screen = draw(&mut cache(), 120, 40);
    assert!(screen.contains("Condition: without the cache"), "{screen}");
    assert!(screen.contains("not allowed"), "{screen}");
    assert!(screen.contains("cannot run yet"), "{screen}");
    // The blocks by the names the screen lists them under, not a design
    // file's words (`payment`, `begin`).
    assert!(
        screen.contains("`insert payment row` uses the database: put it between `begin transaction` and `commit`"),
        "{screen}"
    );
}

#[test]
fn every_level_error_names_blocks_as_the_screen_shows_them() {
    use idem::scenario::runnable::check_order_named;
    use idem::sim::Op;
    let keyed = Op::CallProvider { with_key: true };
    let broken: [&[Op]; 6] = [
        &[Op::Begin],
        &[Op::Receive, Op::Commit, Op::Ack],
        &[Op::Receive, Op::AwaitResponse, Op::Ack],
        &[Op::Receive, keyed, Op::Ack],
        &[Op::Receive, Op::Begin, Op::ApplyCharge, Op::Ack],
        &[Op::Receive, Op::MarkCompleted, Op::Ack],
    ];
    for program in broken {
        let e = check_order_named(program, idem::sim::step_name::label).expect_err("broken");
        for word in [
            "`response`",
            "`provider with key`",
            "`payment`",
            "`begin`",
            "`complete`",
        ] {
            assert!(!e.message.contains(word), "{word} in {}", e.message);
        }
        // Every block it names in backticks is one the screen shows.
        let labels: Vec<&str> = Op::ALL
            .iter()
            .map(|op| idem::sim::step_name::label(*op))
            .collect();
        for named in e.message.split('`').skip(1).step_by(2) {
            assert!(labels.contains(&named), "`{named}` in {}", e.message);
        }
    }
}

#[test]
fn a_won_level() {
    let won = || {
        let mut a = app();
        a.levels.program = a.levels.level().solution.clone();
        prove(&mut a);
        a
    };
    both_sizes!("level_won", won());
    let screen = draw(&mut won(), 80, 24);
    assert!(screen.contains("level won"), "{screen}");
    assert!(screen.contains("won 1/9"), "{screen}");
    // Every bound in the one line: consumers, messages, faults and which.
    let screen = draw(&mut won(), 200, 40);
    // The won paragraph, its rows joined (it names what it did not try
    // first, so the bounds may wrap).
    let line: String = screen
        .lines()
        .skip_while(|l| !l.contains("level won"))
        .take_while(|l| !l.contains('└'))
        .map(|l| l.trim_matches(|c| c == '│' || c == '"').trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        line.contains(
            "within 2 consumers, 1 message and 2 faults (lost acks only, no cap per kind)"
        ),
        "{line}"
    );
}

#[test]
fn the_prover_says_which_faults_it_throws_before_it_runs() {
    let screen = draw(&mut app(), 200, 40);
    assert!(
        screen.contains("every interleaving of two consumers and every lost ack this level"),
        "{screen}"
    );
}

#[test]
fn watching_the_counterexample_on_the_main_screen() {
    let mut a = app();
    prove(&mut a);
    update(&mut a, Action::FirstViolation);
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("level-1"), "{screen}");
    assert!(screen.contains("L back to level"), "{screen}");
}

/// A level is won within its own faults, and the won line says what it
/// did not try: each kind of fault the level leaves out, named with the
/// first later level that throws it, from the levels' own data. Teacher
/// trial: level 1 said "✓ level won" for a handler that still charges with
/// no Idempotency-Key, which a crash breaks (level 5, and tour 4).
#[test]
fn a_won_level_names_the_faults_it_did_not_try_and_where_they_come() {
    let mut a = app();
    // Level 5's start: the ID claimed with the payment, the provider
    // called without a key. Level 1's lost acks cannot break it.
    a.levels.program = a.levels.levels[4].start.clone();
    prove(&mut a);
    let screen = draw(&mut a, 200, 40);
    let line = screen
        .lines()
        .skip_while(|l| !l.contains("level won"))
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(line.contains("level won"), "{screen}");
    let levels = &a.levels.levels;
    let here = &levels[0];
    for kind in idem::levels::Fault::ALL {
        if here.faults.contains(&kind) {
            continue;
        }
        let Some(next) = levels.iter().find(|l| l.faults.contains(&kind)) else {
            continue;
        };
        let said = format!("{} (level {})", kind.shown(), next.number);
        assert!(line.contains(&said), "no {said:?} in: {line}");
    }
    assert!(line.contains("crash (level 2)"), "{line}");
}
