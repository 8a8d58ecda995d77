//! Where a paragraph's sentences start, as a reader counts them: the
//! story panel and compare count what they leave out in sentences. Words
//! alone, as authored or generated: the marks before earlier steps' words
//! are no part of them (`story_line` knows where it put those), so words
//! that happen to read `at step 2: ` split nothing.

/// Where each sentence of a paragraph starts (byte offsets, the first at 0):
/// after a full stop, question or exclamation mark and a space, before a
/// capital letter.
pub(super) fn sentence_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let b: Vec<(usize, char)> = text.char_indices().collect();
    for w in b.windows(3) {
        let [(_, end), (_, gap), (at, next)] = [w[0], w[1], w[2]];
        if matches!(end, '.' | '?' | '!') && gap == ' ' && next.is_uppercase() {
            starts.push(at);
        }
    }
    starts
}

/// How many sentences of `text` end after byte `cut`: the ones a cut
/// there leaves out, whole or in part.
pub(super) fn sentences_past_byte(text: &str, cut: usize) -> usize {
    let text = text.trim_end();
    let starts = sentence_starts(text);
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    ends.filter(|&end| text[..end].trim_end().len() > cut)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_like_a_mark_start_no_sentence() {
        // Authored words, not a mark the story put there.
        assert_eq!(
            sentence_starts("Told at step 2: the lease. It ran."),
            [0, 27]
        );
    }
}
