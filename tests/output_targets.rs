//! Issue 22, section 5: bounds and output targets. Where idem writes (`-o`
//! on shot, record and lesson; `screenshots DIR`; `soak --db` and
//! `--save`) it refuses anything but a regular file or a new name, never
//! writes through a link, replaces a link itself only with `--force`, and
//! checks every name before it writes the first. Numbers out of range are
//! refused with `play`'s words, never clamped, and never loop.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs idem; a run still going after `secs` is killed (by its own PID)
/// and the test fails: a refusal must come at once.
fn idem(args: &[&str], secs: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("idem {args:?} was still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn refused(out: &Output, says: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert!(
        stderr(out).contains(says),
        "expected `{says}` in: {}",
        stderr(out)
    );
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn shot_refuses_a_step_or_chapter_out_of_range_as_play_does() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.txt");
    for (flag, n, says) in [
        (
            "--chapter",
            "18446744073709551615",
            "tour-1 has chapters 1 to 4",
        ),
        ("--chapter", "0", "tour-1 has chapters 1 to 4"),
        ("--chapter", "5", "tour-1 has chapters 1 to 4"),
        ("--step", "999999", "tour-1 has steps 0 to"),
    ] {
        let run = idem(&["shot", "tour-1", flag, n, "-o", s(&out)], 30);
        refused(&run, says);
        assert!(!out.exists(), "{flag} {n}: nothing is written");
    }
    // In range still works, at the same step `play --chapter 2` opens at.
    let run = idem(&["shot", "tour-1", "--chapter", "2", "-o", s(&out)], 30);
    assert!(run.status.success(), "{}", stderr(&run));
}

#[test]
fn a_fifo_is_refused_even_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.txt");
    mkfifo(&fifo);
    for force in [false, true] {
        let mut args = vec!["shot", "tour-1", "-o", s(&fifo)];
        if force {
            args.push("--force");
        }
        refused(&idem(&args, 30), "named pipe (FIFO)");
    }
    let cast = dir.path().join("pipe.cast");
    mkfifo(&cast);
    refused(
        &idem(&["record", "tour-1", "-o", s(&cast), "--force"], 30),
        "named pipe (FIFO)",
    );
}

#[test]
fn a_dangling_link_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("elsewhere.html");
    let link = dir.path().join("lesson.html");
    symlink(&target, &link).unwrap();
    refused(
        &idem(&["lesson", "tour-1", "-o", s(&link)], 30),
        "symbolic link",
    );
    assert!(!target.exists(), "written through the link");
    let txt_target = dir.path().join("elsewhere.txt");
    let txt_link = dir.path().join("shot.txt");
    symlink(&txt_target, &txt_link).unwrap();
    refused(
        &idem(&["shot", "tour-1", "-o", s(&txt_link)], 30),
        "symbolic link",
    );
    assert!(!txt_target.exists(), "written through the link");
}

#[test]
fn force_replaces_a_link_itself_never_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = dir.path().join("shot.txt");
    symlink(&target, &link).unwrap();
    let run = idem(&["shot", "tour-1", "-o", s(&link), "--force"], 30);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.is_file(), "the link itself is now the picture");
    assert!(std::fs::read_to_string(&link).unwrap().contains("idem"));
    // Nothing else is left in the folder (no temporary file).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn screenshots_keep_files_and_links_in_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("compare.png");
    std::fs::write(&mine, "my own picture").unwrap();
    refused(
        &idem(&["screenshots", s(dir.path())], 60),
        "already exists; pass --force",
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my own picture");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "nothing written before the refusal"
    );
    // A link in the folder is refused, then with --force replaced itself.
    std::fs::remove_file(&mine).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("target.png");
    std::fs::write(&target, "not idem's").unwrap();
    symlink(&target, &mine).unwrap();
    refused(&idem(&["screenshots", s(dir.path())], 60), "symbolic link");
    // `--only` draws that one picture: the rule is the same for each, and
    // the whole gallery is drawn by `screenshots::every_screenshot_is_current`.
    let run = idem(
        &["screenshots", s(dir.path()), "--force", "--only", "compare"],
        600,
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "not idem's");
    assert!(std::fs::symlink_metadata(&mine).unwrap().is_file());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // A name that is no picture is refused before anything is written.
    refused(
        &idem(&["screenshots", s(dir.path()), "--only", "compar"], 60),
        "no such picture (did you mean `compare`?)",
    );
}

#[test]
fn soak_db_applies_run_db_rules_to_every_name_before_writing_any() {
    let dir = tempfile::tempdir().unwrap();
    let soak = |db: &str| idem(&["soak", "--messages", "20", "--headless", "--db", db], 60);
    // A pipe named as --db: refused, and no `pipe-naive` made beside it.
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    refused(&soak(s(&fifo)), "named pipe (FIFO)");
    // `sub/..` names a folder: nothing may land in the parent.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let up = format!("{}/..", s(&sub));
    refused(&soak(&up), "a folder");
    // The second design's file is not idem's: the first is not made either.
    let theirs = dir.path().join("soak-idempotent.db");
    std::fs::write(&theirs, "someone else's").unwrap();
    let db = dir.path().join("soak.db");
    refused(&soak(s(&db)), "soak-idempotent.db");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["pipe", "soak-idempotent.db", "sub"]);
    assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 0);
}

#[test]
fn soak_dev_null_is_refused() {
    let run = idem(
        &["soak", "--messages", "5", "--headless", "--db", "/dev/null"],
        60,
    );
    refused(&run, "character device");
}

#[test]
fn soak_save_into_a_folder_it_cannot_create_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let under = file.join("stories");
    let run = idem(
        &[
            "soak",
            "--mode",
            "idempotent",
            "--messages",
            "5",
            "--headless",
            "--save",
            s(&under),
        ],
        60,
    );
    refused(&run, "cannot create the folder");
}

#[test]
fn the_largest_soak_is_refused_up_front_not_run_for_an_hour() {
    let run = idem(&["soak", "--messages", "10000000", "--headless"], 20);
    refused(&run, "--messages");
    let run = idem(
        &[
            "soak",
            "--messages",
            "3000000",
            "--mode",
            "naive",
            "--mode",
            "idempotent",
            "--headless",
        ],
        20,
    );
    refused(&run, "6,000,000 payments in all");
}

#[test]
fn e_under_a_design_file_does_not_promise_a_scenario_that_cannot_reopen() {
    use idem::tui::{Action, App, Options, update};
    let design = idem::scenario::design_file::parse(
        "mine.toml",
        "name = \"mine\"\nsummary = \"s\"\nsteps = [\"receive\", \"begin\", \"claim\", \"charge\", \"provider with key\", \"response\", \"commit\", \"ack\"]\n",
    )
    .unwrap();
    let script = idem::scenario::find("tour-1").unwrap();
    let mut app = App::new(script, design, 0, Options::default()).unwrap();
    update(
        &mut app,
        Action::Exported(Ok(vec![
            "idem-tour-1-mine-step0.svg".into(),
            "idem-tour-1-mine-step0.toml".into(),
        ])),
    );
    let status = app.status.clone().unwrap();
    assert!(!status.contains("opens this moment"), "{status}");
    assert!(status.contains("cannot reopen"), "{status}");
}
