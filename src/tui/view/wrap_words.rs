//! Text broken into rows at spaces, for the views that lay out their own
//! rows of words (compare's sides, the engines view, the explorer's moves).

/// Text broken into lines of at most `width` columns, at spaces.
pub(super) fn words(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    // Words joined by a no-break space (`story_line::earlier_mark`) stay
    // one word.
    let breaks = |c: char| c.is_whitespace() && c != super::story_line::NBSP;
    for word in text.split(breaks).filter(|w| !w.is_empty()) {
        let w = line.chars().count();
        if w > 0 && w + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}
