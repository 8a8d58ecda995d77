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

/// README's "Run it" puts `--fresh` beside `play tour-1`: both places the
/// flag is documented must parse (without a terminal, play refuses to draw,
/// but only after clap accepted the line).
#[test]
fn fresh_is_accepted_where_the_readme_puts_it() {
    for args in [
        &["--fresh", "play", "tour-1"][..],
        &["play", "tour-1", "--mode", "naive", "--fresh"][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_idem"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("needs a terminal"), "idem {args:?}: {err}");
    }
}
