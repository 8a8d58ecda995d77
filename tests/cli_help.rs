//! The command line a Rust user expects: `--help` names every design, and
//! `idem man` prints a manual page made from the same definitions.

use idem::sim::Strategy;
use std::process::Command;

fn idem(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn run_help_lists_every_design() {
    for command in ["run", "play"] {
        let help = idem(&[command, "--help"]);
        for name in Strategy::names() {
            assert!(help.contains(name), "idem {command} --help lacks {name}");
        }
    }
}

#[test]
fn the_manual_page_is_roff_for_idem() {
    let page = idem(&["man"]);
    assert!(page.contains(".TH idem 1"), "{page}");
    assert!(page.contains("Idempotent Consumer"));
}
