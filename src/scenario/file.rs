//! Reading a scenario from a path: only a regular file, and only up to
//! `limits::MAX_FILE_BYTES`, so that `/dev/zero` cannot fill memory and a
//! named pipe cannot hold idem waiting for a writer.

use super::error::ScenarioError;
use super::limits::MAX_FILE_BYTES;
use super::load_error::LoadError;
use std::io::Read;
use std::path::Path;

pub fn read(path: &Path) -> Result<String, LoadError> {
    let shown = path.display().to_string();
    let io = |source| LoadError::Io {
        path: shown.clone(),
        source,
    };
    // Follows a link: reading through one changes nothing.
    let meta = std::fs::metadata(path).map_err(io)?;
    check_kind(&shown, &meta)?;
    let file = open_nonblocking(path).map_err(io)?;
    // What was opened may not be what was looked at a moment before.
    check_kind(&shown, &file.metadata().map_err(io)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge {
            path: shown,
            bytes: bytes.len() as u64,
        });
    }
    if let Some(encoding) = wide_encoding(&bytes) {
        return Err(ScenarioError::at(
            &shown,
            "",
            None,
            format!(
                "{encoding} text (the file starts with a {encoding} byte-order mark): save the scenario as UTF-8"
            ),
        )
        .into());
    }
    String::from_utf8(bytes).map_err(|e| {
        // The place of the first bad byte, as a line and column of the text
        // before it; the line is shown with the byte replaced.
        let at = e.utf8_error().valid_up_to();
        let bad = e.as_bytes()[at];
        let lossy = String::from_utf8_lossy(e.as_bytes());
        ScenarioError::at(
            &shown,
            &lossy,
            Some(at..at + 1),
            format!(
                "not UTF-8 text: byte 0x{bad:02X} does not belong here (save the scenario as UTF-8)"
            ),
        )
        .into()
    })
}

/// The encoding a byte-order mark names, when it is not UTF-8. UTF-32's
/// little-endian mark begins with UTF-16's, so it is looked for first.
fn wide_encoding(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xff, 0xfe, 0, 0]) || bytes.starts_with(&[0, 0, 0xfe, 0xff]) {
        Some("UTF-32")
    } else if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        Some("UTF-16")
    } else {
        None
    }
}

/// Opens for reading without waiting: if a FIFO took the file's place
/// after the first look, the open returns at once and the second look
/// refuses it. On a regular file the flag changes nothing.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

fn check_kind(shown: &str, meta: &std::fs::Metadata) -> Result<(), LoadError> {
    if meta.is_file() {
        if meta.len() > MAX_FILE_BYTES {
            return Err(LoadError::TooLarge {
                path: shown.to_string(),
                bytes: meta.len(),
            });
        }
        return Ok(());
    }
    let kind = if meta.is_dir() {
        "a folder"
    } else {
        special_kind(meta)
    };
    Err(LoadError::NotAFile {
        path: shown.to_string(),
        kind,
    })
}

#[cfg(unix)]
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a named pipe (FIFO)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::Metadata) -> &'static str {
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_for(bytes: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(&path, bytes).unwrap();
        read(&path).unwrap_err().to_string()
    }

    #[test]
    fn each_wide_encoding_is_called_by_its_name() {
        let text = "title = \"t\"\n";
        let utf32 = |big: bool| -> Vec<u8> {
            std::iter::once('\u{feff}')
                .chain(text.chars())
                .flat_map(|c| {
                    let n = c as u32;
                    if big {
                        n.to_be_bytes()
                    } else {
                        n.to_le_bytes()
                    }
                })
                .collect()
        };
        let utf16le: Vec<u8> = std::iter::once(0xfeff_u16)
            .chain(text.encode_utf16())
            .flat_map(u16::to_le_bytes)
            .collect();
        for (bytes, name) in [
            (utf32(false), "UTF-32 text"),
            (utf32(true), "UTF-32 text"),
            (utf16le, "UTF-16 text"),
        ] {
            let error = error_for(&bytes);
            assert!(error.contains(name), "{name}: {error}");
        }
    }
}
