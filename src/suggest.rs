//! "Did you mean" for a name that is one slip away from a known one: a
//! typo in a scenario file or on the command line should cost one glance.

/// ` (did you mean `run`?)`, or nothing when no known name is close.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, known)
        .map(|k| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

/// The known name `name` is a near miss of, if any.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Close: a third of the name's letters changed, at least one.
    let limit = (name.chars().count() / 3).max(1);
    known
        .into_iter()
        .map(|k| (strsim::damerau_levenshtein(name, k), k))
        .filter(|&(d, k)| d <= limit && k != name)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_get_a_suggestion_far_ones_do_not() {
        let known = ["idempotent", "naive", "id-first"];
        assert_eq!(
            did_you_mean("idempotnet", known),
            " (did you mean `idempotent`?)"
        );
        assert_eq!(did_you_mean("naiv", known), " (did you mean `naive`?)");
        assert_eq!(did_you_mean("banana", known), "");
        assert_eq!(did_you_mean("x", ["y"]), " (did you mean `y`?)");
    }
}
