//! `idem check --save DIR`: all the counterexample files or none, and never
//! one written over a file that says something else. Each file is written
//! whole to a temporary name first; only when every one is written are they
//! linked to their real names (a hard link fails instead of replacing), and
//! a failure on the way takes back what this run put there. A caller may
//! name files it is allowed to replace (`idem test`: its own earlier
//! schedule of the same program); those are renamed over last, after every
//! new name is made, so a failure before them still leaves nothing. A
//! rename that fails leaves the files before it in place, each whole: new
//! names made and earlier files replaced by their newer schedules.

use super::output::note;
use anyhow::{Context, Result, bail};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `files` (name, contents) into `dir`; returns how many were new.
/// A file already there with the same contents (an earlier run's) is kept.
pub fn save_all(dir: &Path, files: &[(String, String)]) -> Result<usize> {
    save_replacing(dir, files, &|_| false)
}

/// As `save_all`, and a file already there whose contents `replaceable`
/// accepts is replaced (counted as written).
pub fn save_replacing(
    dir: &Path,
    files: &[(String, String)],
    replaceable: &dyn Fn(&[u8]) -> bool,
) -> Result<usize> {
    if let Some((a, _)) = files
        .iter()
        .enumerate()
        .find_map(|(i, (a, _))| files[..i].iter().find(|(b, _)| a == b).map(|_| (a, ())))
    {
        bail!("--save: two counterexamples are both named {a}; nothing was written");
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--save: cannot create the folder {}", dir.display()))?;
    let mut todo = Vec::new();
    let mut over = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(old) if old == text.as_bytes() => continue,
            Ok(old) if replaceable(&old) => over.push((path, text)),
            Ok(_) => bail!(
                "--save: {} exists and holds something else; idem does not overwrite it (remove it or choose another folder); nothing was written",
                path.display()
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => todo.push((path, text)),
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "--save: cannot read {} to compare; nothing was written",
                        path.display()
                    )
                });
            }
        }
    }
    let new = todo.len();
    todo.extend(over);
    let mut temps: Vec<PathBuf> = Vec::new();
    let written = write_temps(&todo, &mut temps);
    let linked = written
        .and_then(|()| link_all(&todo[..new], &temps[..new]))
        .and_then(|()| rename_all(&todo[new..], &temps[new..]));
    for temp in &temps {
        let _ = std::fs::remove_file(temp);
    }
    linked?;
    Ok(todo.len())
}

/// Puts each temporary file in place of the old file of its name (a
/// rename replaces it whole: a reader sees the old or the new, never half).
fn rename_all(todo: &[(PathBuf, &String)], temps: &[PathBuf]) -> Result<()> {
    for ((path, _), temp) in todo.iter().zip(temps) {
        std::fs::rename(temp, path)
            .with_context(|| format!("--save: cannot replace {}", path.display()))?;
    }
    Ok(())
}

fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_owned());
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".{}.part", std::process::id()));
    path.with_file_name(temp)
}

fn write_temps(todo: &[(PathBuf, &String)], temps: &mut Vec<PathBuf>) -> Result<()> {
    for (path, text) in todo {
        let temp = temp_name(path);
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(|| {
                format!(
                    "--save: cannot create {}; nothing was written",
                    temp.display()
                )
            })?;
        temps.push(temp.clone());
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| {
                format!(
                    "--save: cannot write {}; nothing was written",
                    temp.display()
                )
            })?;
    }
    Ok(())
}

/// Gives every temporary file its real name; on a failure, removes the
/// names this run already made, so that none or all are there.
fn link_all(todo: &[(PathBuf, &String)], temps: &[PathBuf]) -> Result<()> {
    let mut made: Vec<&Path> = Vec::new();
    for ((path, _), temp) in todo.iter().zip(temps) {
        if let Err(e) = std::fs::hard_link(temp, path) {
            for done in &made {
                let _ = std::fs::remove_file(done);
            }
            let why = if e.kind() == std::io::ErrorKind::AlreadyExists {
                "it appeared while idem was writing; idem does not overwrite it".to_string()
            } else {
                e.to_string()
            };
            bail!(
                "--save: cannot create {}: {why}; nothing was written",
                path.display()
            );
        }
        made.push(path);
    }
    Ok(())
}

/// The exit code of a verdict with a save asked for beside it (`--save`):
/// a broken design (1) is the news a script waits for, so a save that
/// failed beside it is told on stderr and the 1 stands; with nothing
/// broken, output idem could not write is the error (2).
pub fn verdict_then_save(
    broken: bool,
    saved: anyhow::Result<()>,
) -> anyhow::Result<std::process::ExitCode> {
    match saved {
        Ok(()) if broken => Ok(std::process::ExitCode::from(1)),
        Ok(()) => Ok(std::process::ExitCode::SUCCESS),
        Err(e) if broken => {
            note(&format!("idem: {e:#}"));
            Ok(std::process::ExitCode::from(1))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::{Exit, input_error};
    use std::process::ExitCode;

    fn code(r: anyhow::Result<ExitCode>) -> String {
        match r {
            Ok(c) => format!("{c:?}"),
            Err(e) => format!("error {}", e.downcast_ref::<Exit>().map_or(0, |x| x.code)),
        }
    }

    #[test]
    fn a_failed_save_never_hides_a_broken_design() {
        let failed = || Err(input_error("cannot write"));
        assert_eq!(
            code(verdict_then_save(true, failed())),
            code(Ok(ExitCode::from(1)))
        );
        assert_eq!(code(verdict_then_save(false, failed())), "error 2");
        assert_eq!(
            code(verdict_then_save(true, Ok(()))),
            code(Ok(ExitCode::from(1)))
        );
        assert_eq!(
            code(verdict_then_save(false, Ok(()))),
            code(Ok(ExitCode::SUCCESS))
        );
    }
}
