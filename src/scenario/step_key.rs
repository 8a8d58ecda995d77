//! The key of a step's words in `say_at`: a handler step's keyword, and
//! `keyword#n` for the n-th step with it that an action runs. A leaf of
//! its own, so that the timeline, the validator and the old keywords all
//! read one spelling of it without knowing each other.

/// The key of a step's words in `say_at`: the keyword for the first step
/// with it that the action runs, `keyword#n` for the n-th (a handler that
/// commits twice tells each commit at its own step).
pub fn step_key(keyword: &str, occurrence: usize) -> String {
    if occurrence <= 1 {
        keyword.to_string()
    } else {
        format!("{keyword}#{occurrence}")
    }
}

/// A `say_at` key read back: the keyword and which of its steps (1 for
/// the plain keyword); `None` when what follows `#` is no number of 2 or
/// more.
pub fn parse_step_key(key: &str) -> Option<(&str, usize)> {
    match key.split_once('#') {
        None => Some((key, 1)),
        Some((keyword, n)) => {
            let n: usize = n.parse().ok().filter(|n| *n >= 2 && *n <= MAX_OCCURRENCE)?;
            Some((keyword, n))
        }
    }
}

/// The most steps with one keyword a `run` can meet: it stops after
/// [`crate::scenario::limits::RUN_FRAMES`] steps.
const MAX_OCCURRENCE: usize = crate::scenario::limits::RUN_FRAMES;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_step_with_the_same_keyword_has_a_key_of_its_own() {
        assert_eq!(step_key("commit", 1), "commit");
        assert_eq!(step_key("commit", 2), "commit#2");
        assert_eq!(parse_step_key("commit"), Some(("commit", 1)));
        assert_eq!(parse_step_key("commit#2"), Some(("commit", 2)));
        for bad in ["commit#1", "commit#0", "commit#", "commit#x", "commit#65"] {
            assert_eq!(parse_step_key(bad), None, "{bad}");
        }
    }
}
