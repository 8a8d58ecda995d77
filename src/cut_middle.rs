//! A text cut to its room in its middle, signed: for a path, whose start
//! (the interpreter, the folder it lives under) and end (the script's
//! name) tell it apart, and whose middle folders are the least read. A
//! header that wrapped a long program path over three rows took them
//! from the panels below it (issue: `idem test --replay` at 80x24 left
//! the program's stderr one row).

use ratatui::text::Span;

/// The fewest columns of the text each side of the sign keeps: under
/// this, the cut says too little to be worth its room.
pub const LEAST_EACH_SIDE: usize = 4;

/// `text` in `room` columns: whole where it fits; else its start and its
/// end with `sign` between them, the end given two thirds of the room
/// (the script's name is at the end) and starting at a `/` where it
/// holds one. `None` where the room cannot hold
/// the sign and `LEAST_EACH_SIDE` columns each side of it. Widths are the
/// terminal's: a wide symbol takes two columns and is never split.
pub fn cut_middle(text: &str, room: usize, sign: &str) -> Option<String> {
    let width = |s: &str| Span::raw(s).width();
    if width(text) <= room {
        return Some(text.to_string());
    }
    let kept = room.checked_sub(width(sign))?;
    if kept < 2 * LEAST_EACH_SIDE {
        return None;
    }
    let head_room = kept / 3;
    let tail_room = kept - head_room;
    let mut head = String::new();
    for c in text.chars() {
        let next = format!("{head}{c}");
        if width(&next) > head_room {
            break;
        }
        head = next;
    }
    let mut tail: Vec<char> = Vec::new();
    for c in text.chars().rev() {
        tail.push(c);
        let s: String = tail.iter().rev().collect();
        if width(&s) > tail_room {
            tail.pop();
            break;
        }
    }
    let tail: String = tail.into_iter().rev().collect();
    // A folder's name cut in two reads as another folder: the end starts
    // at a separator where it holds one.
    let tail = match tail.find('/') {
        Some(at) if at > 0 => &tail[at..],
        _ => tail.as_str(),
    };
    Some(format!("{head}{sign}{tail}"))
}

#[cfg(test)]
mod tests {
    use super::cut_middle;

    #[test]
    fn whole_where_it_fits() {
        assert_eq!(
            cut_middle("python3 naive.py", 16, "…").as_deref(),
            Some("python3 naive.py")
        );
    }

    #[test]
    fn the_start_and_the_scripts_name_are_kept_in_the_room() {
        let path = "python3 /home/learner/projects/payments/consumers/naive.py";
        let cut = cut_middle(path, 30, "…").unwrap();
        assert_eq!(cut, "python3 /…/consumers/naive.py");
        let ascii = cut_middle(path, 30, "...").unwrap();
        assert!(ascii.chars().count() <= 30, "{ascii}");
        assert!(ascii.ends_with("naive.py"), "{ascii}");
    }

    #[test]
    fn too_little_room_for_a_cut_worth_reading() {
        assert_eq!(cut_middle("python3 /a/long/path/naive.py", 8, "…"), None);
        assert!(cut_middle("python3 /a/long/path/naive.py", 9, "…").is_some());
    }

    #[test]
    fn wide_symbols_take_two_columns_and_stay_whole() {
        let cut = cut_middle("数数数数数数数数数数", 11, "…").unwrap();
        assert!(ratatui::text::Span::raw(cut.as_str()).width() <= 11);
        assert_eq!(cut, "数…数数数");
    }
}
