//! Nothing runs without bound: receipts, inputs, sums.

use idem::sim::{Message, Move, Payment, Setup, Strategy, World};

fn world() -> World {
    let setup = Setup {
        consumers: vec!["A".into(), "B".into()],
        messages: vec![Message {
            id: "m-7f3".into(),
            payment: Payment {
                order: 1042,
                amount: 40,
            },
            status: None,
        }],
        ..Setup::default()
    };
    World::new(setup, Strategy::naive(), 3).unwrap()
}

fn step(world: &mut World, consumer: &str) {
    world
        .apply(&Move::Step {
            consumer: consumer.into(),
        })
        .unwrap();
}

fn receipt(world: &World, i: usize) -> String {
    world.consumers()[i].delivery().unwrap().receipt.clone()
}

#[test]
fn an_empty_poll_mints_no_receipt() {
    let expire = Move::ExpireLease {
        message: "m-7f3".into(),
    };
    let mut quiet = world();
    step(&mut quiet, "A");
    quiet.apply(&expire).unwrap();
    step(&mut quiet, "B");

    let mut polled = world();
    step(&mut polled, "A");
    // Each poll takes a step of virtual time; the lease lasts 30 of them.
    for _ in 0..20 {
        step(&mut polled, "B");
        assert!(polled.consumers()[1].delivery().is_none(), "nothing to get");
    }
    polled.apply(&expire).unwrap();
    step(&mut polled, "B");
    assert_eq!(receipt(&polled, 0), receipt(&quiet, 0));
    assert_eq!(
        receipt(&polled, 1),
        receipt(&quiet, 1),
        "twenty empty polls drew no receipt"
    );
}

#[test]
fn totals_do_not_wrap() {
    let text = r#"
title = "t"
summary = "s"
[setup]
consumers = ["A"]
messages = [
    { id = "m-1", order = 1, amount = 4294967295 },
    { id = "m-2", order = 2, amount = 4294967295 },
]
[[steps]]
title = "go"
narration = "n"
actions = ["run A", "run A"]
[expect.naive]
outcome = "correct"
"#;
    let script = idem::scenario::parse("big.toml", text).unwrap();
    let timeline = idem::timeline::Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
    let end = timeline.last();
    assert_eq!(end.db.payments_total, 2 * u64::from(u32::MAX));
    assert_eq!(end.provider.total_charged, 2 * u64::from(u32::MAX));
}

#[cfg(unix)]
#[test]
fn a_scenario_path_must_be_a_small_regular_file() {
    use idem::scenario::find;
    let refused = |path: &str, words: &str| {
        let e = find(path).unwrap_err().to_string();
        assert!(e.contains(words), "{path}: {e}");
    };
    refused("/dev/zero", "a character device, not a scenario file");
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.toml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Opening a FIFO for reading would wait for a writer for ever.
    refused(fifo.to_str().unwrap(), "a named pipe (FIFO)");
    refused(dir.path().to_str().unwrap(), "a folder");
    let big = dir.path().join("big.toml");
    let limit = idem::scenario::limits::MAX_FILE_BYTES as usize;
    std::fs::write(&big, "#".repeat(limit + 1)).unwrap();
    refused(big.to_str().unwrap(), "too large for a scenario file");
    std::fs::write(&big, [b'#', 0xff, b'\n']).unwrap();
    refused(big.to_str().unwrap(), "not UTF-8");
}

#[test]
fn a_check_stops_at_its_state_budget() {
    use idem::check::{self, Bounds, CheckError, Watch};
    let bounds = Bounds {
        strategy: Some("naive".into()),
        ..Bounds::default()
    };
    let watch = Watch::new(50);
    match check::run_watched(&bounds, &watch) {
        Err(CheckError::Budget { states, max, .. }) => assert_eq!((states, max), (51, 50)),
        other => panic!(
            "expected the budget to stop it, got {:?}",
            other.map(|r| r.passed())
        ),
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["check", "--strategy", "naive", "--max-states", "100"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bounds too large: 101 states explored for naive")
            && err.contains("raise --max-states"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no half report");
}

#[test]
fn a_watched_check_counts_what_it_reports() {
    use idem::check::{self, Bounds, Watch};
    let bounds = Bounds {
        strategy: Some("idempotent".into()),
        ..Bounds::default()
    };
    let watch = Watch::default();
    let report = check::run_watched(&bounds, &watch).unwrap();
    let seen = watch.seen();
    // The headline counts every search: the design's own, then its tries
    // one bound further (`Seen::states`).
    let further = seen.further.as_ref().map_or(0, |f| f.states);
    assert!(further > 0, "the tries one bound further ran: {seen:?}");
    assert_eq!(seen.states, report.strategies[0].states + further);
    assert_eq!((seen.queue, seen.designs_done, seen.designs), (0, 1, 1));
}
