//! A key named in a scenario's words. The story says "press m to see the
//! fix" in the terminal, but on the lesson page the same switch is `d`:
//! the words name what the key does, `{key:switch-design}`, and each
//! medium that tells them names its own key for it. A literal key in the
//! text would be true in one medium and false in the other.

use std::borrow::Cow;

/// What a key in the words does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyWord {
    /// Show the same moment of the story under the other design.
    SwitchDesign,
}

impl KeyWord {
    pub const ALL: [KeyWord; 1] = [KeyWord::SwitchDesign];

    /// The name written in a scenario file, `{key:NAME}`.
    pub fn name(self) -> &'static str {
        match self {
            KeyWord::SwitchDesign => "switch-design",
        }
    }

    fn by_name(name: &str) -> Option<KeyWord> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Where the words are told, each with keys of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Medium {
    /// The terminal, and what stands in for it: `shot`, `record`, `run`.
    #[default]
    Terminal,
    /// The lesson handout page, whose script binds its own keys.
    Page,
    /// A transcript read after the run (`idem run`), or the handout's text
    /// version (printed, or read with no script): there is no key to
    /// press, so a sentence that names one is left out (`told`).
    Transcript,
    /// The terminal's compare view, where both designs are already on
    /// screen: "press m to see the other design" would send the class to
    /// what it sees, so such sentences are left out there too.
    Compare,
}

impl Medium {
    /// The key this medium binds to `key`. The terminal's is checked
    /// against its key table, the page's against the page's own script
    /// (tests in `tui::keys` and `export::lesson`).
    pub fn key(self, key: KeyWord) -> &'static str {
        match (self, key) {
            // A transcript names no key (`told` leaves such sentences
            // out); were one asked for, the terminal's is the one beside it.
            (Medium::Terminal | Medium::Transcript | Medium::Compare, KeyWord::SwitchDesign) => "m",
            (Medium::Page, KeyWord::SwitchDesign) => "d",
        }
    }
}

const OPEN: &str = "{key:";

/// The words as `medium` tells them: every `{key:NAME}` becomes that
/// medium's key. Words that name no key come back as they are.
pub fn told(text: &str, medium: Medium) -> Cow<'_, str> {
    if !text.contains(OPEN) {
        return text.into();
    }
    if matches!(medium, Medium::Transcript | Medium::Compare) {
        return without_key_sentences(text).into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + OPEN.len()..];
        match after
            .find('}')
            .and_then(|end| Some((KeyWord::by_name(&after[..end])?, end)))
        {
            Some((key, end)) => {
                out.push_str(medium.key(key));
                rest = &after[end + 1..];
            }
            // Loading refuses such words (`check`); a text built
            // elsewhere keeps them as written rather than losing them.
            None => {
                out.push_str(OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// `text` without its sentences that name a key: each ends after `.`,
/// `?` or `!` and the spaces that follow. A transcript has no key to
/// press, and "Press m to see the fix" read there as a broken promise.
fn without_key_sentences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let ends = matches!(c, '.' | '?' | '!')
            && chars.peek().is_none_or(|(_, next)| next.is_whitespace());
        if !ends {
            continue;
        }
        let mut end = at + c.len_utf8();
        while let Some(&(next_at, next)) = chars.peek()
            && next.is_whitespace()
        {
            end = next_at + next.len_utf8();
            chars.next();
        }
        let sentence = &text[start..end];
        if !sentence.contains(OPEN) {
            out.push_str(sentence);
        } else {
            // A paragraph's break after a sentence left out stays: two
            // paragraphs must not run together.
            let gap = &sentence[sentence.trim_end().len()..];
            if gap.contains('\n') {
                let kept = out.trim_end().len();
                out.truncate(kept);
                out.push_str(gap);
            }
        }
        start = end;
    }
    if !text[start..].contains(OPEN) {
        out.push_str(&text[start..]);
    }
    // A sentence left out at the end leaves no space behind it.
    let kept = out.trim_end().len();
    out.truncate(kept);
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// For serde: a run written out as JSON tells its words as the terminal
/// does, since that is the medium it is read beside.
pub fn serialize_told<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&told(text, Medium::Terminal))
}

/// `serialize_told` for words a frame may not have.
pub fn serialize_told_some<S: serde::Serializer>(
    text: &Option<String>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match text {
        Some(text) => serialize_told(text, s),
        None => s.serialize_none(),
    }
}

/// Every `{key:` in `text` names a key: the first one that does not, as an
/// error for the scenario's loader to place.
pub fn check(text: &str) -> Result<(), String> {
    let names = KeyWord::ALL.map(KeyWord::name).join(", ");
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        let Some(end) = after.find('}') else {
            return Err(format!(
                "`{OPEN}` is not closed: write {{key:NAME}}, where NAME is one of {names}"
            ));
        };
        let name = &after[..end];
        if KeyWord::by_name(name).is_none() {
            return Err(format!(
                "`{{key:{name}}}` names no key: the keys the words can name are {names}"
            ));
        }
        rest = &after[end + 1..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_medium_names_its_own_key() {
        let words = "Press {key:switch-design} to see the fix.";
        assert_eq!(told(words, Medium::Terminal), "Press m to see the fix.");
        assert_eq!(told(words, Medium::Page), "Press d to see the fix.");
    }

    #[test]
    fn a_transcript_leaves_out_the_sentences_that_name_a_key() {
        let words = "A pays twice. Press {key:switch-design} to see the fix. B is fine.";
        assert_eq!(told(words, Medium::Transcript), "A pays twice. B is fine.");
        assert_eq!(told("Press {key:switch-design}.", Medium::Transcript), "");
        // Paragraphs stay apart, and nothing trails the last sentence kept.
        let paragraphs = "A pays twice. Press {key:switch-design}.\n\nB is fine.";
        assert_eq!(
            told(paragraphs, Medium::Transcript),
            "A pays twice.\n\nB is fine."
        );
        let last = "A pays twice. Press {key:switch-design} to see the fix.";
        assert_eq!(told(last, Medium::Transcript), "A pays twice.");
        // Compare shows both designs already: no key sends the class there.
        assert_eq!(told(last, Medium::Compare), "A pays twice.");
    }

    #[test]
    fn words_without_a_key_are_unchanged_and_a_stray_brace_stays() {
        assert!(matches!(
            told("a {b} c", Medium::Page),
            Cow::Borrowed("a {b} c")
        ));
        assert_eq!(told("{key:nope} x", Medium::Page), "{key:nope} x");
    }

    #[test]
    fn check_names_the_bad_key_and_the_ones_there_are() {
        assert_eq!(
            check("press {key:switch-design}, then {key:switch-design}"),
            Ok(())
        );
        let err = check("press {key:swtich} now").unwrap_err();
        assert!(
            err.contains("`{key:swtich}`") && err.contains("switch-design"),
            "{err}"
        );
        assert!(
            check("press {key:switch")
                .unwrap_err()
                .contains("not closed")
        );
    }
}
