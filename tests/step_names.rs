//! One name for a handler step in the three places a reader meets it: the
//! step list (`▷ charge the card`), the status line under the story (`run
//! A up to charge the card`) and predict mode's question (`Next: run A up
//! to charge the card (A stops before that step)`). A teacher trial found
//! the question saying the file's keyword (`run A to provider`) and the
//! list's label with its `(key)` instead. A
//! keyed call's list label adds `(key)`, evidence about the design's call
//! and no part of the name (`step_name::KEY_MARK`).

use crate::common::{self, draw};
use crate::tui_predict::answer;
use idem::scenario::Action as ScenarioAction;
use idem::sim::step_name::{self, KEY_MARK};
use idem::tui::predict::Stage;
use idem::tui::{Action, update};

/// The step list's label without the key mark: the step's name.
fn listed(label: &str) -> &str {
    label.strip_suffix(KEY_MARK).unwrap_or(label)
}

#[test]
fn the_status_line_the_step_list_and_the_question_name_a_step_alike() {
    let (mut runs, mut questions) = (0, 0);
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for design in ["naive", "idempotent"] {
            let mut a = common::app(name, design);
            // The status line and the step list, at every step.
            for f in a.timeline.frames.iter().skip(1) {
                let at = format!("{name} {design} step {}", f.index);
                let action = &a.script.steps[f.chapter - 1].actions[f.action_index];
                let ScenarioAction::Run {
                    consumer,
                    to: Some(to),
                } = action
                else {
                    continue;
                };
                let c = f.consumers.iter().find(|c| &c.name == consumer).unwrap();
                let label = &c.steps.iter().find(|s| &s.keyword == to).unwrap().label;
                let status = f.action.strip_prefix(&format!("run {consumer} to before "));
                assert_eq!(status, Some(listed(label)), "{at}: {}", f.action);
                runs += 1;
            }
            // The predict question, at every question of the run.
            update(&mut a, Action::Predict);
            for _ in 0..400 {
                let p = a.predict.as_ref().unwrap();
                if p.finished() || a.pos + 1 >= a.timeline.frames.len() {
                    break;
                }
                let Stage::Asking { at, .. } = p.stage else {
                    update(&mut a, Action::Next);
                    continue;
                };
                let q = p.asked[at].clone();
                let action = a.script.steps[q.chapter - 1].actions[q.action].clone();
                let screen = draw(&mut a, 120, 40);
                let next = screen
                    .lines()
                    .find(|l| l.contains("Next: "))
                    .unwrap_or_else(|| panic!("{name} {design}: no Next line\n{screen}"));
                let place = format!("{name} {design} chapter {} action {}", q.chapter, q.action);
                // The status line's words for the action, as its frames show them.
                let shown = &a.timeline.frames[q.answer_at].action;
                if let ScenarioAction::Move(idem::sim::Move::Step { consumer }) = &action {
                    // A one-step move is named by the step it runs, as its
                    // step line names it (`A takes one step: charge the
                    // card`), not as the file's `step A`: the names are
                    // checked in src/tui/view/predict.rs.
                    assert!(
                        next.contains(&format!("{consumer} takes one step: ")),
                        "{place}: {next}"
                    );
                } else {
                    assert!(next.contains(shown.as_str()), "{place}: {next}");
                }
                if let ScenarioAction::Run { to: Some(to), .. } = &action {
                    let f = &a.timeline.frames[q.answer_at];
                    let label = f
                        .consumers
                        .iter()
                        .flat_map(|c| &c.steps)
                        .find(|s| &s.keyword == to)
                        .map(|s| s.label.clone())
                        .unwrap();
                    assert!(
                        next.contains(&format!(" to before {}.", listed(&label))),
                        "{place}: {next}"
                    );
                    assert_eq!(step_name::name_of(to), listed(&label), "{place}");
                }
                questions += 1;
                answer(&mut a, q.answer);
            }
        }
    }
    assert!(runs > 50, "only {runs} run steps");
    assert!(questions > 20, "only {questions} questions");
}

/// Teacher trial at 80x24: the step list and strip cut a step's name
/// after a whole word (`begin…`, `insert payment…`), and a class could not
/// tell which step it was. Every step named in the service panel at 80x24
/// is named whole, by its name or its short name: none ends in `…`. A cut
/// is counted once for the words it kept (`insert…` is a start of both
/// `insert message ID` and `insert payment row`).
#[test]
fn no_step_name_is_cut_at_80x24() {
    use crate::common::sweep;
    use idem::tui::app::Panel;
    let size = sweep::SIZES[0];
    let (mut seen, mut wrong) = (0, Vec::new());
    let mut cut = std::collections::BTreeSet::new();
    sweep::each_step(size, |step| {
        let labels: Vec<&str> = step
            .frame
            .consumers
            .iter()
            .flat_map(|c| c.steps.iter().map(|s| listed(&s.label)))
            .collect();
        for row in step.rows_in(Panel::Service) {
            seen += 1;
            // A label cut at a word's end: its first words, then `…`.
            // Named by what it kept (`insert…` may be `insert message ID`
            // or `insert payment row`): each such cut counts once.
            for (i, _) in row.match_indices('…') {
                let before = row[..i].trim_end();
                let kept = labels.iter().find_map(|l| {
                    (1..l.len())
                        .filter(|&k| l.as_bytes()[k] == b' ')
                        .map(|k| &l[..k])
                        .find(|w| before.strip_suffix(w).is_some_and(|b| b.ends_with(' ')))
                });
                let Some(kept) = kept else { continue };
                if cut.insert(kept.to_string()) {
                    let of: Vec<&&str> = labels
                        .iter()
                        .filter(|l| l.strip_prefix(kept).is_some_and(|r| r.starts_with(' ')))
                        .collect();
                    wrong.push(format!("{}: {kept:?} of {of:?}: {row:?}", step.at()));
                }
            }
        }
    });
    sweep::none_wrong("service rows", seen, 1000, &wrong, size);
}
