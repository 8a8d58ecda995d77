//! The status note after `e`: what was saved, and the command that opens
//! the moment again. The command is what the reader has to type, so it
//! comes first and is never cut (teacher trial: at 100x30 the note read
//! "idem play idem-tour-4-idempotent-step11…"); the rest of the note gives
//! way to it, whole words at a time, as the terminal narrows.

/// The columns the key bar spends before a note (` ! `).
const NOTE_LEAD: usize = 3;

/// The note for `files` saved (one base name, several extensions), in
/// `width` columns. `reopens`: the design is built in, so `idem play`
/// can open the scenario file by its design's name.
pub fn saved_note(files: &[String], design: &str, reopens: bool, width: usize) -> String {
    let base = files
        .first()
        .and_then(|f| f.rsplit_once('.'))
        .map_or("", |(b, _)| b);
    let exts: Vec<&str> = files
        .iter()
        .filter_map(|f| f.rsplit_once('.').map(|(_, e)| e))
        .collect();
    let all = format!("{base}.{{{}}}", exts.join(","));
    let longest_first: Vec<String> = if reopens {
        let command = format!("idem play {base}.toml");
        let others: Vec<String> = exts
            .iter()
            .filter(|&&e| e != "toml")
            .map(|e| format!(".{e}"))
            .collect();
        let mut notes = Vec::new();
        if !others.is_empty() {
            notes.push(format!(
                "{command} opens this moment · also saved: {}",
                others.join(" ")
            ));
        }
        notes.push(format!("{command} opens this moment"));
        notes.push(format!("reopen: {command}"));
        notes.push(command);
        notes
    } else {
        // A scenario names its design, and only a built-in one can be
        // opened by name: under a design read from a file, promising
        // `idem play` would be untrue.
        vec![
            format!("saved {all} · design {design} is not built in: idem play cannot reopen it"),
            format!("saved {all} · idem play cannot reopen design {design}"),
            format!("saved {all}"),
        ]
    };
    // No size heard of yet (a test's app): the whole note.
    let fits = |n: &String| width == 0 || n.chars().count() + NOTE_LEAD <= width;
    longest_first
        .iter()
        .find(|n| fits(n))
        .or(longest_first.last())
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four(base: &str) -> Vec<String> {
        ["svg", "png", "txt", "toml"]
            .map(|e| format!("{base}.{e}"))
            .to_vec()
    }

    #[test]
    fn the_command_stays_whole_and_the_rest_gives_way() {
        let files = four("idem-tour-4-idempotent-step11");
        let command = "idem play idem-tour-4-idempotent-step11.toml";
        for width in [120, 100, 80, 60, 50] {
            let note = saved_note(&files, "idempotent", true, width);
            assert!(note.contains(command), "{width}: {note}");
            assert!(note.chars().count() + NOTE_LEAD <= width, "{width}: {note}");
        }
        assert_eq!(
            saved_note(&files, "idempotent", true, 100),
            format!("{command} opens this moment · also saved: .svg .png .txt")
        );
        assert_eq!(
            saved_note(&files, "idempotent", true, 80),
            format!("{command} opens this moment")
        );
    }

    #[test]
    fn a_design_from_a_file_is_told_it_cannot_reopen() {
        let note = saved_note(&four("idem-tour-1-mine-step0"), "mine", false, 200);
        assert!(note.contains("cannot reopen"), "{note}");
        assert!(!note.contains("opens this moment"), "{note}");
    }
}
