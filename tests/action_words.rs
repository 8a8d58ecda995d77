//! The step line names the action in words that are true: the file's `run
//! A to commit` runs A until commit is its next step and stops there, so
//! it reads `run A up to its commit` (it read `run A to commit`, as if the
//! commit were done). Every run action of every built-in run is checked
//! against where it left its consumer.

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
                assert_eq!(f.action, format!("run {consumer} up to its {to}"), "{at}");
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
