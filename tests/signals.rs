//! A signal from outside puts the terminal back. The simulator runs in a
//! real pseudo-terminal (util-linux `script`), is sent SIGTERM, SIGHUP,
//! SIGINT or SIGQUIT, and must exit 128 + n after writing the restoring sequences and
//! leaving the terminal in cooked mode.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned()
}

fn ended_by(signal: &str) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (pid, rc, stty, out) = (
        dir.path().join("pid"),
        dir.path().join("rc"),
        dir.path().join("stty"),
        dir.path().join("out"),
    );
    // Inside the terminal: start idem, note its PID, wait for it, then
    // record its exit status and the terminal's mode after it.
    let inner = format!(
        "{} play tour-1 --no-animation & echo $! > {}; wait $!; echo $? > {}; stty -a < /dev/tty > {}",
        env!("CARGO_BIN_EXE_idem"),
        pid.display(),
        rc.display(),
        stty.display(),
    );
    let mut script = Command::new("script")
        .args(["-q", "-c", &format!("sh -c '{inner}'"), "/dev/null"])
        .env("TERM", "xterm-256color")
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("util-linux script runs");
    wait_for("the simulator to start", || {
        // Mouse capture is switched on after the guard is in place.
        read(&pid).trim().parse::<u32>().is_ok() && read(&out).contains("\u{1b}[?1000h")
    });
    let idem_pid = read(&pid).trim().to_string();
    // Only the process this test started, by its PID.
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &idem_pid])
        .status()
        .unwrap();
    assert!(sent.success());
    // `script` ends once the shell inside has ended, after it has copied
    // all the terminal's output into `out`: only then are the files whole.
    // (Killed as soon as `stty` appeared, it could die before it had read
    // the restoring sequences idem wrote, which a loaded machine showed.)
    wait_for("the simulator and its terminal to end", || {
        script.try_wait().unwrap().is_some()
    });
    let code: i32 = read(&rc).trim().parse().unwrap();
    let output = read(&out);
    let after_start = output
        .rsplit("\u{1b}[?1049h")
        .next()
        .unwrap_or_default()
        .to_string();
    (code, after_start, read(&stty))
}

#[test]
fn sigterm_sighup_sigint_sigquit_restore_the_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    }
    for (signal, expected) in [("TERM", 143), ("HUP", 129), ("INT", 130), ("QUIT", 131)] {
        let (code, output, stty) = ended_by(signal);
        assert_eq!(code, expected, "SIG{signal}: exit 128 + n");
        for (sequence, what) in [
            ("\u{1b}[?1000l", "mouse capture off"),
            ("\u{1b}[?1006l", "SGR mouse mode off"),
            ("\u{1b}[?25h", "cursor shown"),
            ("\u{1b}[?1049l", "alternate screen left"),
        ] {
            assert!(output.contains(sequence), "SIG{signal}: {what} missing");
        }
        let leave = output.rfind("\u{1b}[?1049l").unwrap();
        assert!(
            !output[leave..].contains("\u{1b}[?1049h"),
            "SIG{signal}: nothing drawn after the restore"
        );
        // Raw mode is off again: the line discipline echoes and edits lines.
        let modes: Vec<&str> = stty.split([' ', ';', '\n']).collect();
        assert!(
            modes.contains(&"icanon") && modes.contains(&"echo"),
            "SIG{signal}: still in raw mode: {stty}"
        );
    }
}
