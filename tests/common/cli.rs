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
