//! A saved schedule replayed as `idem test --replay` replays it: the
//! program it names run again under the same faults, by the idem binary,
//! in a folder of its own. One way for every replay test.

use idem::harness::faults::Schedule;
use idem::harness::run::{self, RunReport};
use idem::harness::schedule_file::ScheduleFile;
use std::path::{Path, PathBuf};

/// The schedule file at `path`, relative to the repository's root.
pub fn read(path: &str) -> ScheduleFile {
    ScheduleFile::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// `file`'s run, replayed.
pub fn replay(file: &ScheduleFile) -> RunReport {
    let dir = tempfile::tempdir().unwrap();
    let cfg = file.replay_config(
        PathBuf::from(env!("CARGO_BIN_EXE_idem")),
        dir.path().to_path_buf(),
    );
    run::run(&cfg, &mut Schedule(&file.faults)).unwrap()
}
