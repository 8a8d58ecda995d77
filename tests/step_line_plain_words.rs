//! The step line on the story's bottom border says what a step did in a
//! reader's words, whatever the action: a teacher trial read `▶ step 7/16
//! · t=6s · lose-ack A` (tour-1), `slow A 40s` (tour-3) and `lose-response
//! A` (tour-4) beside steps that read `acknowledge (A)` and `commit (A)`.
//! A fault is armed by the observer, not done by A, and the line says so
//! in words; no step line of any built-in run at 120x40 holds the scenario
//! file's action syntax.

use crate::common::sweep;
use idem::scenario::Action;
use idem::scenario::action::VERBS;
use idem::scenario::load::builtins;

/// The file's words for every action of every built-in scenario that is
/// no `run` up to a step (`run A to before …` is a reader's words,
/// `action_words`): the line must hold none of them.
fn file_syntax() -> Vec<String> {
    let mut tokens: Vec<String> = ["lose-ack", "lose-response", "expire-lease"]
        .map(String::from)
        .to_vec();
    for script in builtins() {
        for step in &script.steps {
            for action in &step.actions {
                match action {
                    Action::Move(mv) => tokens.push(mv.written()),
                    Action::Run {
                        consumer,
                        to: Some(to),
                    } => tokens.push(format!("run {consumer} to {to}")),
                    Action::Run { .. } => {}
                }
            }
        }
    }
    tokens.sort();
    tokens.dedup();
    tokens
}

/// A verb of the action language followed by what the file writes after
/// it (`crash B`, `wait 5m`, `publish m-1`), as no scripted run may use it
/// but a file may: a consumer, a duration or a message ID. `run A` is
/// left out: `run A to before …` is how the line says a run.
fn verb_with_its_word(said: &str) -> Option<&'static str> {
    VERBS.iter().copied().filter(|v| *v != "run").find(|verb| {
        said.match_indices(&format!("{verb} ")).any(|(at, m)| {
            let before = said[..at].chars().next_back();
            let after = &said[at + m.len()..];
            before.is_none_or(|c| !c.is_alphanumeric())
                && (after.starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit())
                    || after.starts_with("m-"))
        })
    })
}

#[test]
fn no_step_line_holds_the_scenario_files_action_syntax() {
    let tokens = file_syntax();
    let size = (120, 40);
    let (mut seen, mut faults, mut wrong) = (0, 0, Vec::new());
    sweep::each_step(size, |step| {
        let rows = step.rows();
        let Some(row) = rows.iter().find(|r| r.contains("▶ step ")) else {
            return;
        };
        seen += 1;
        // After `▶ step 7/16`: the time and what the step did.
        let said = row.split(" · ").skip(1).collect::<Vec<_>>().join(" · ");
        faults += usize::from(
            step.frame
                .made_by
                .as_ref()
                .is_some_and(|m| !matches!(m, idem::sim::Move::Step { .. })),
        );
        // `step A` is the file's word for one step; the line's own `step
        // 7/16` is left out of `said`.
        let raw = tokens
            .iter()
            .map(String::as_str)
            .find(|t| said.contains(t))
            .or_else(|| verb_with_its_word(&said));
        if raw.is_some() {
            wrong.push(format!("{}: {:?} in {}", step.at(), raw, row.trim()));
        }
    });
    assert!(faults > 20, "only {faults} steps made by a move");
    sweep::none_wrong("step lines", seen, 500, &wrong, size);
}

/// Trial 40: tour-2's step 7, where A restarts after its crash, read
/// `run A to before begin transaction`, the run the step is part of, as
/// if A had run to there; A only came back, idle. A step of a run that
/// ran no handler step says what it was (`restart (A)`) before the run.
#[test]
fn a_restart_inside_a_run_says_restart_before_the_run() {
    use idem::sim::Move;
    use idem::sim::consumer::Status;
    let (mut seen, mut wrong) = (0, Vec::new());
    sweep::each_step((120, 40), |step| {
        let f = &step.frame;
        let Some(Move::Step { consumer }) = &f.made_by else {
            return;
        };
        let restarted = f.changes.steps.is_empty()
            && !f.found_nothing
            && f.action.starts_with("run ")
            && f.consumers
                .iter()
                .any(|c| c.name == *consumer && c.status == Status::Idle);
        if !restarted {
            return;
        }
        seen += 1;
        let row = step_line(step);
        if !row.contains(&format!("restart ({consumer})")) {
            wrong.push(format!("{}: {}", step.at(), row.trim()));
        }
    });
    assert!(seen > 0, "no restart inside a run");
    assert!(wrong.is_empty(), "{} of {seen}: {:#?}", wrong.len(), wrong);
}

/// Trials 40 and 41: at 80x24 a tour's last step gave its story to the
/// closing words and its step line to the time and the end's hint, so
/// nothing but the events panel said A acked (`▶ step 16/16 · t=44s  end:
/// ] next tour`). A tour's last step names the handler step it ran (the
/// time gives way there first, as tests/hints_steady.rs allows). Of the
/// other scenarios, 7 of 36 last steps have no room for it beside a
/// longer way on (`end: m next design`), which keeps the time.
#[test]
fn the_last_steps_line_names_the_step_it_ran_at_80x24() {
    let (mut seen, mut wrong) = (0, Vec::new());
    sweep::each_step((80, 24), |step| {
        let f = &step.frame;
        let tour = step.app.script.name.starts_with("tour-");
        if !tour || step.app.pos + 1 != step.app.timeline.frames.len() {
            return;
        }
        let Some(ran) = f.changes.steps.first() else {
            return;
        };
        seen += 1;
        let row = step_line(step);
        if !row.contains(&format!("({})", ran.consumer)) {
            wrong.push(format!("{}: {}", step.at(), row.trim()));
        }
    });
    assert!(seen >= 8, "only {seen}");
    assert!(
        wrong.is_empty(),
        "{} of {seen}: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// The row of the screen that holds the story's step line (`▶ step …`).
fn step_line(step: &sweep::Step) -> String {
    step.rows()
        .into_iter()
        .find(|r| r.contains("▶ step "))
        .unwrap_or_default()
}
