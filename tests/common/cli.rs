//! The binary itself, run as a user runs it.

/// Runs `idem` with these arguments: its exit code, its output and its
/// error output.
pub fn idem(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(args)
        .output()
        .expect("idem runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The steps of the fix, block by block (the README's own design): a
/// learner's design that the check proves.
pub const SOUND_STEPS: &str =
    r#"["receive", "begin", "claim", "payment", "provider with key", "response", "commit", "ack"]"#;

/// A design file of the learner's own, named `name`, with these `steps`
/// (a TOML array), written into `dir`: its path, to pass to `--design`.
pub fn design(dir: &std::path::Path, name: &str, steps: &str) -> String {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!("name = \"{name}\"\nsummary = \"a learner's design\"\nsteps = {steps}\n"),
    )
    .unwrap();
    path.display().to_string()
}
