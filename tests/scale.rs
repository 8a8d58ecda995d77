//! A long run streams: `idem run` hands each step on as it is made and
//! keeps none, and ends with the same verdict, counters and figures a kept
//! timeline ends with. Front ends that keep whole frames refuse a long
//! scenario and point at `idem run`.

use idem::scenario::generate::many_payments;
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use idem::timeline::stream::stream;
use std::process::Command;

#[test]
fn a_streamed_run_ends_as_the_kept_timeline_ends() {
    let mut runs = 0;
    for script in builtins() {
        for name in Strategy::names() {
            let strategy = Strategy::by_name(name).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let mut steps = Vec::new();
            let end = stream(&script, &strategy, 0, |s| steps.push(s)).unwrap();
            let last = timeline.last();
            let at = format!("{} under {name}", script.name);
            assert_eq!(end.verdict, last.verdict, "{at}");
            assert_eq!(end.counters, last.counters, "{at}");
            assert_eq!(end.payments_total, last.db.payments_total, "{at}");
            assert_eq!(end.charges, last.provider.charges.len(), "{at}");
            assert_eq!(end.first_violation, timeline.first_violation(), "{at}");
            assert_eq!(end.went_wrong_at, timeline.went_wrong_at(), "{at}");
            assert_eq!(end.steps, timeline.frames.len(), "{at}");
            // Every step handed on once, in order, each with its own
            // events, and the action's words where the timeline has them.
            assert_eq!(steps.len(), timeline.frames.len(), "{at}");
            for (step, frame) in steps.iter().zip(&timeline.frames) {
                assert_eq!(step.index, frame.index, "{at}");
                assert_eq!(step.events, frame.events, "{at}");
                assert_eq!(step.sql, frame.sql, "{at}");
                assert_eq!(step.said, frame.said, "{at} step {}", frame.index);
                // Told as the kept run's step line tells it: a consumer
                // that found nothing to receive says so.
                assert_eq!(step.action, frame.action_told(), "{at}");
            }
            runs += 1;
        }
    }
    assert!(runs > 100, "{runs}");
}

fn idem() -> Command {
    Command::new(env!("CARGO_BIN_EXE_idem"))
}

#[test]
fn a_long_scenario_runs_as_a_stream_and_is_refused_where_frames_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.toml");
    std::fs::write(&path, many_payments(300)).unwrap();
    let file = path.to_str().unwrap();
    let out = idem().args(["run", file, "--check"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("expectation for idempotent: met"), "{text}");
    assert!(text.contains("300 facts: 300 correct"), "{text}");
    // Each step tells what it changed, not the whole queue again: no step
    // lists more queue lines than copies it could touch.
    let widest = text
        .split("\n\n[")
        .map(|step| step.matches("\n    queue ").count())
        .max()
        .unwrap();
    assert!(widest <= 3, "a step listed {widest} queue lines");
    for refused in [
        vec!["run", file, "--format", "json"],
        vec!["play", file],
        vec!["shot", file, "-o", "x.svg"],
    ] {
        let out = idem().args(&refused).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("300 messages"), "{refused:?}: {err}");
    }
}
