//! One progress file, several idem windows: nothing one of them saved is
//! lost when another saves, what is read is checked, and what is written
//! can always be read back. Each window is a thread with its own keeper and
//! its own progress in memory, as each idem process has.

use idem::learner::{Further, Keeper, Score, Store};
use std::sync::{Arc, Barrier};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store {
        dir: dir.path().join("state"),
    };
    (dir, store)
}

fn score(right: usize, asked: usize) -> Score {
    Score {
        design: "naive".into(),
        right,
        asked,
    }
}

#[test]
fn windows_that_save_at_once_keep_all_their_progress() {
    let (_tmp, store) = store();
    let windows = 8;
    // Every window opens before any saves, as windows started together do:
    // each holds in memory only what it did itself.
    let opened = Arc::new(Barrier::new(windows));
    let handles: Vec<_> = (0..windows)
        .map(|n| {
            let (store, opened) = (store.clone(), opened.clone());
            std::thread::spawn(move || {
                let (mut keeper, mut progress, problem) = Keeper::open(store, false);
                assert_eq!(problem, None);
                opened.wait();
                let scenario = format!("tour-{n}");
                progress.set_last(&scenario, "naive", n);
                progress.mark_finished(&scenario);
                let further = if n % 2 == 0 {
                    Further::Breaks
                } else {
                    Further::Holds
                };
                progress.mark_level_won(&format!("level-{n}"), further);
                progress.record_score(&scenario, score(n % 4, 4));
                progress.record_score("shared", score(n, windows));
                assert_eq!(keeper.keep(&progress), None);
                // A later move of the place alone is saved too.
                progress.set_last(&scenario, "naive", n + 100);
                assert_eq!(keeper.keep(&progress), None);
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let (_, all, problem) = Keeper::open(store.clone(), false);
    assert_eq!(problem, None);
    for n in 0..windows {
        let scenario = format!("tour-{n}");
        assert!(all.is_finished(&scenario), "{scenario} lost: {all:?}");
        assert!(all.level_won(&format!("level-{n}")), "level-{n} lost");
        let further = all.level_further(&format!("level-{n}"));
        let kept = if n % 2 == 0 {
            Further::Breaks
        } else {
            Further::Holds
        };
        assert_eq!(further, Some(kept), "level-{n}: how it fared further, lost");
        assert_eq!(all.best_score(&scenario), Some(&score(n % 4, 4)));
    }
    assert_eq!(
        all.best_score("shared"),
        Some(&score(windows - 1, windows)),
        "the best score of all windows is kept"
    );
    let place = all.last.expect("a place");
    assert_eq!(
        place.step,
        place.scenario["tour-".len()..].parse::<usize>().unwrap() + 100,
        "the place is one a window set last, whole"
    );
    // Nothing but the file (and its lock) is left in the folder.
    let mut names: Vec<String> = std::fs::read_dir(&store.dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["progress.toml", "progress.toml.lock"]);
}

#[test]
fn the_place_this_window_moved_to_is_the_one_kept() {
    let (_tmp, store) = store();
    let (mut a, mut pa, _) = Keeper::open(store.clone(), false);
    let (mut b, mut pb, _) = Keeper::open(store.clone(), false);
    pa.set_last("tour-1", "naive", 3);
    a.keep(&pa);
    pb.mark_finished("tour-2");
    b.keep(&pb);
    let (_, now, _) = Keeper::open(store.clone(), false);
    assert_eq!(
        now.last.as_ref().map(|p| p.step),
        Some(3),
        "B did not move: A's place stays"
    );
    pb.set_last("tour-2", "idempotent", 9);
    b.keep(&pb);
    let (_, now, _) = Keeper::open(store, false);
    assert_eq!(now.last.as_ref().map(|p| p.step), Some(9));
    assert!(now.is_finished("tour-2"));
}

#[test]
fn a_score_with_more_right_than_asked_is_dropped_and_said_so() {
    let (_tmp, store) = store();
    std::fs::create_dir_all(&store.dir).unwrap();
    std::fs::write(
        store.path(),
        "version = 1\nfinished = [\"tour-1\"]\n\n\
         [best_scores.tour-1]\ndesign = \"naive\"\nright = 5\nasked = 4\n\n\
         [best_scores.tour-2]\ndesign = \"naive\"\nright = 2\nasked = 4\n",
    )
    .unwrap();
    let (mut keeper, progress, problem) = Keeper::open(store.clone(), false);
    let problem = problem.expect("the bad score is told");
    assert!(problem.contains("tour-1"), "{problem}");
    assert!(problem.contains("5 right of 4"), "{problem}");
    assert_eq!(problem.lines().count(), 1, "{problem}");
    assert_eq!(progress.best_score("tour-1"), None);
    assert_eq!(progress.best_score("tour-2"), Some(&score(2, 4)));
    assert!(progress.is_finished("tour-1"), "the rest is kept");
    // Another window writes a bad score while this one runs: merging
    // does not take it in either.
    let mut mine = progress.clone();
    mine.mark_finished("tour-3");
    std::fs::write(
        store.path(),
        "version = 1\n\n[best_scores.tour-4]\ndesign = \"naive\"\nright = 9\nasked = 1\n",
    )
    .unwrap();
    assert_eq!(keeper.keep(&mine), None);
    let (_, now, problem) = Keeper::open(store, false);
    assert_eq!(problem, None, "what idem wrote reads back clean");
    assert_eq!(now.best_score("tour-4"), None);
    assert!(now.is_finished("tour-3"));
}

#[test]
fn idem_never_writes_a_file_larger_than_it_reads_back() {
    let (_tmp, store) = store();
    let (mut keeper, mut progress, _) = Keeper::open(store.clone(), false);
    progress.mark_finished("tour-1");
    assert_eq!(keeper.keep(&progress), None);
    let small = std::fs::read(store.path()).unwrap();
    // Names a learner's own scenario files can have, far too many of them.
    let long = "x".repeat(200);
    for n in 0..2_000 {
        progress.mark_finished(&format!("{long}-{n}"));
    }
    let said = keeper.keep(&progress).expect("the failure is told");
    assert!(said.contains("progress not saved"), "{said}");
    assert!(
        said.contains(&idem::learner::store::MAX_BYTES.to_string()),
        "{said}"
    );
    let on_disk = std::fs::read(store.path()).unwrap();
    assert!(on_disk.len() as u64 <= idem::learner::store::MAX_BYTES);
    assert_eq!(on_disk, small, "the last good file stays");
    let (_, back, problem) = Keeper::open(store, false);
    assert_eq!(problem, None);
    assert!(back.is_finished("tour-1"));
}

/// The same with real processes, as four idem windows are: this test runs
/// its own binary four times, each child playing one window
/// (`one_window_of_several`), all saving at once.
#[test]
fn window_processes_that_save_at_once_keep_all_their_progress() {
    let (tmp, store) = store();
    let windows = 4;
    let children: Vec<_> = (0..windows)
        .map(|n| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    concat!(module_path!(), "::one_window_of_several")
                        .split_once("::")
                        .map_or("one_window_of_several", |(_, rest)| rest),
                    "--test-threads=1",
                ])
                .env(WINDOW, n.to_string())
                .env(WINDOW_ROOT, tmp.path())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let ready = |n: usize| tmp.path().join(format!("ready-{n}"));
    let started = std::time::Instant::now();
    while !(0..windows).all(|n| ready(n).exists()) {
        assert!(started.elapsed().as_secs() < 60, "the windows never opened");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::fs::write(tmp.path().join("go"), "").unwrap();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let (_, all, problem) = Keeper::open(store, false);
    assert_eq!(problem, None);
    for n in 0..windows {
        assert!(
            all.is_finished(&format!("tour-{n}")),
            "tour-{n} lost: {all:?}"
        );
    }
}

const WINDOW: &str = "IDEM_TEST_WINDOW";
const WINDOW_ROOT: &str = "IDEM_TEST_WINDOW_ROOT";

/// One window of the test above; does nothing when run on its own.
#[test]
fn one_window_of_several() {
    let (Some(n), Some(root)) = (std::env::var_os(WINDOW), std::env::var_os(WINDOW_ROOT)) else {
        return;
    };
    let n = n.to_string_lossy().into_owned();
    let root = std::path::PathBuf::from(root);
    let store = Store {
        dir: root.join("state"),
    };
    let (mut keeper, mut progress, _) = Keeper::open(store, false);
    std::fs::write(root.join(format!("ready-{n}")), "").unwrap();
    while !root.join("go").exists() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    progress.mark_finished(&format!("tour-{n}"));
    assert_eq!(keeper.keep(&progress), None);
}
