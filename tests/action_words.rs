//! The step line names the action in words that are true: the file's `run
//! A to commit` runs A until commit is its next step and stops there, so
//! it reads `run A to before commit` (it read `run A to commit`, and then
//! `run A up to commit`, as if the commit were done), and names the step as the step list does: `run A to
//! provider` reads `run A to before charge the card` (trial 6 read `up to its
//! provider` beside a list that has no step of that name). Every run
//! action of every built-in run is checked against where it left its
//! consumer.

use idem::scenario::Action;
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::sim::consumer::Status;
use idem::timeline::Timeline;

#[test]
fn a_run_to_a_step_reads_up_to_it_and_stops_before_it() {
    let mut runs = 0;
    for script in builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let frames = &timeline.frames;
            for (i, f) in frames.iter().enumerate().skip(1) {
                let at = format!("{} {design} step {i}", script.name);
                let action = &script.steps[f.chapter - 1].actions[f.action_index];
                assert_eq!(f.action, action.words(), "{at}");
                let Action::Run {
                    consumer,
                    to: Some(to),
                } = action
                else {
                    continue;
                };
                // Named as the step list names the step it stops before.
                let label = f
                    .consumers
                    .iter()
                    .find(|c| &c.name == consumer)
                    .and_then(|c| {
                        c.steps
                            .iter()
                            .find(|s| &s.keyword == to)
                            // Without the `(key)` a design's call carries:
                            // the action reads the same under every design.
                            .map(|s| s.label.trim_end_matches(" (key)").to_string())
                    });
                let label = label.unwrap_or_else(|| panic!("{at}: no step {to}"));
                assert_eq!(
                    f.action,
                    format!("run {consumer} to before {label}"),
                    "{at}"
                );
                // The action's last frame: its consumer has the step to come,
                // unless it stopped early (blocked, crashed, done).
                let last = frames
                    .get(i + 1)
                    .is_none_or(|n| (n.chapter, n.action_index) != (f.chapter, f.action_index));
                let c = f.consumers.iter().find(|c| &c.name == consumer).unwrap();
                if !last || c.status != Status::Handling {
                    continue;
                }
                let next = c.next.map(|n| c.steps[n].keyword.as_str());
                assert_eq!(next, Some(to.as_str()), "{at}: {}", f.action);
                runs += 1;
            }
        }
    }
    assert!(runs > 20, "only {runs} runs to a step end at it");
}

/// Teacher trial 6: tour-1's step 3 said `run A up to its provider`.
#[test]
fn tour_1_runs_a_up_to_charge_the_card() {
    let script = idem::scenario::find("tour-1").unwrap();
    let strategy = Strategy::by_name("naive").unwrap();
    let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    assert!(
        timeline
            .frames
            .iter()
            .any(|f| f.action == "run A to before charge the card"),
        "{:?}",
        timeline
            .frames
            .iter()
            .map(|f| &f.action)
            .collect::<Vec<_>>()
    );
    assert!(
        timeline
            .frames
            .iter()
            .all(|f| !f.action.contains("up to its"))
    );
}
