//! Who holds a lock on a file, so that a refusal can name them. Linux lists
//! every file lock in `/proc/locks` with the process that took it: idem's
//! own lock is a `flock` (FLOCK), SQLite's are record locks (POSIX).
//! Elsewhere, or when the list cannot be read, nobody is named and the
//! refusal says what it can without it.

use std::fs::File;

/// Which kind of lock to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `flock`: the lock every idem run keeps on its `--db` file.
    Flock,
    /// A POSIX record lock: what SQLite takes.
    Posix,
}

/// " (process 4242: idem run tour-1 --db held.db)" for the first process
/// other than this one holding a lock of `kind` on `file`; "" when none is
/// known.
pub fn describe(file: &File, kind: Kind) -> String {
    holders(file, kind)
        .into_iter()
        .next()
        .map(|(pid, command)| match command {
            Some(command) => format!(" (process {pid}: {command})"),
            None => format!(" (process {pid})"),
        })
        .unwrap_or_default()
}

/// The processes other than this one holding a lock of `kind` on `file`,
/// each with its command line where it can be read, in the order the
/// kernel lists them.
#[cfg(target_os = "linux")]
pub fn holders(file: &File, kind: Kind) -> Vec<(u32, Option<String>)> {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = file.metadata() else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut out: Vec<(u32, Option<String>)> = Vec::new();
    // The kernel hands the list out a page at a time, counting its way
    // back to where the last page ended: a lock let go above that point in
    // between (any process's, and a busy machine has many) shifts the rest
    // up, and one line is never shown. The caller was just refused by a
    // holder, so a list without one is read again: a torn read is rare,
    // and several in a row rarer still. A holder that has really gone
    // costs only these few reads.
    for _ in 0..READS {
        let Ok(locks) = std::fs::read_to_string("/proc/locks") else {
            return Vec::new();
        };
        for pid in locks
            .lines()
            .filter_map(|line| holder_of(line, kind, meta.dev(), meta.ino()))
        {
            if pid != me && !out.iter().any(|(p, _)| *p == pid) {
                out.push((pid, command_of(pid)));
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// How many times the lock list is read while it shows no holder.
#[cfg(target_os = "linux")]
const READS: usize = 8;

#[cfg(not(target_os = "linux"))]
pub fn holders(_file: &File, _kind: Kind) -> Vec<(u32, Option<String>)> {
    Vec::new()
}

/// The process holding the lock one line of `/proc/locks` describes, when
/// it is a granted lock of `kind` on the file `(dev, ino)`. A line reads
/// `3: FLOCK  ADVISORY  WRITE 4242 fe:00:5351459 0 EOF`; a waiting lock
/// has `->` after the number and is skipped.
fn holder_of(line: &str, kind: Kind, dev: u64, ino: u64) -> Option<u32> {
    let mut words = line.split_whitespace().skip(1);
    let class = words.next()?;
    let wanted = match kind {
        Kind::Flock => "FLOCK",
        Kind::Posix => "POSIX",
    };
    if class != wanted {
        return None;
    }
    let _advisory = words.next()?;
    let _mode = words.next()?;
    let pid: u32 = words.next()?.parse().ok()?;
    let mut id = words.next()?.split(':');
    let major = u64::from_str_radix(id.next()?, 16).ok()?;
    let minor = u64::from_str_radix(id.next()?, 16).ok()?;
    let inode: u64 = id.next()?.parse().ok()?;
    (inode == ino && (major, minor) == split_dev(dev)).then_some(pid)
}

/// The major and minor numbers of a device number, as glibc encodes them.
fn split_dev(dev: u64) -> (u64, u64) {
    let major = ((dev >> 32) & 0xffff_f000) | ((dev >> 8) & 0x0fff);
    let minor = ((dev >> 12) & 0xffff_ff00) | (dev & 0x00ff);
    (major, minor)
}

/// What the process was started as, short and printable: its arguments
/// joined by spaces, the program by its file name only.
#[cfg(target_os = "linux")]
fn command_of(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let mut words = raw
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned());
    let program = words.next()?;
    let program = program.rsplit('/').next().unwrap_or(&program).to_string();
    let mut text = std::iter::once(program)
        .chain(words)
        .collect::<Vec<_>>()
        .join(" ");
    // Another program's arguments reach the user's terminal: no control
    // character, and not a page of them.
    text = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    const LONGEST: usize = 80;
    if text.chars().count() > LONGEST {
        text = text.chars().take(LONGEST - 1).collect::<String>() + "…";
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_granted_lock_on_the_file_is_read_and_others_are_not() {
        let dev = (0xfe << 8) | 0x01; // major 0xfe, minor 1
        let line = "3: FLOCK  ADVISORY  WRITE 4242 fe:01:5351459 0 EOF";
        assert_eq!(holder_of(line, Kind::Flock, dev, 5351459), Some(4242));
        assert_eq!(holder_of(line, Kind::Posix, dev, 5351459), None);
        assert_eq!(holder_of(line, Kind::Flock, dev, 5351458), None);
        assert_eq!(holder_of(line, Kind::Flock, dev + 1, 5351459), None);
        let waiting = "3: -> FLOCK  ADVISORY  WRITE 4243 fe:01:5351459 0 EOF";
        assert_eq!(holder_of(waiting, Kind::Flock, dev, 5351459), None);
        let posix = "10: POSIX  ADVISORY  READ 3798 fe:01:5351459 1073741826 1073742335";
        assert_eq!(holder_of(posix, Kind::Posix, dev, 5351459), Some(3798));
    }

    /// The kernel hands `/proc/locks` out a page at a time and starts each
    /// page by counting entries from the top of its list: a lock that
    /// another process lets go of on an earlier page moves every later
    /// line up by one, and the line at the page's edge is never shown.
    /// Here a process (`flock`) holds the file while this one keeps taking
    /// and letting go of locks on files of its own: the holder must be
    /// found every time.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_holder_is_found_while_other_locks_come_and_go() {
        use std::process::{Command, Stdio};
        use std::sync::atomic::{AtomicBool, Ordering};
        let dir = tempfile::tempdir().unwrap();
        let held = dir.path().join("held");
        std::fs::write(&held, b"").unwrap();
        let Ok(mut holder) = Command::new("flock")
            .arg(&held)
            .args(["-c", "echo locked; exec sleep 60"])
            .stdout(Stdio::piped())
            .spawn()
        else {
            eprintln!("skipped: util-linux `flock` is not installed");
            return;
        };
        let mut said = String::new();
        use std::io::BufRead;
        std::io::BufReader::new(holder.stdout.take().unwrap())
            .read_line(&mut said)
            .unwrap();
        assert_eq!(said.trim(), "locked");
        // Enough locks of this process's own for the list to span pages.
        let others: Vec<File> = (0..120)
            .map(|i| {
                let file = File::create(dir.path().join(format!("other-{i}"))).unwrap();
                file.lock().unwrap();
                file
            })
            .collect();
        let stop = AtomicBool::new(false);
        let file = File::open(&held).unwrap();
        let missed = std::thread::scope(|s| {
            s.spawn(|| {
                // All let go, then all taken again: the holder's line
                // (the oldest lock, listed last) sweeps across the edge
                // of the list's first page, and lines go missing above it.
                while !stop.load(Ordering::Relaxed) {
                    others.iter().for_each(|o| o.unlock().unwrap());
                    others.iter().for_each(|o| o.lock().unwrap());
                }
            });
            let missed = (0..3000)
                .filter(|_| holders(&file, Kind::Flock).is_empty())
                .count();
            stop.store(true, Ordering::Relaxed);
            missed
        });
        let _ = holder.kill();
        let _ = holder.wait();
        assert_eq!(missed, 0, "the holder went unnamed {missed} times in 3000");
    }
}
