//! What the provider panel's heading says about the rows it had no room
//! for. The heading ends in a count of charges, so a bare `…1 hidden` there
//! reads as a hidden charge: a teacher's class took a folded `key store:
//! empty` row for a third charge. Each sign names what it counts, and an
//! empty key store folds into the heading as a figure of its own
//! (`keys 0`), which hides nothing.

use crate::tui::theme::Theme;

/// The rows of the panel left out, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    /// Charges not shown.
    pub charges: usize,
    /// Rows of a non-empty key store not shown (a key, or one the step
    /// removed).
    pub keys: usize,
    /// The empty key store's one row (`key store: empty`) is not shown.
    pub empty_store: bool,
    /// No charge carried an Idempotency-Key: every charge row says `no
    /// key`, which is all an empty store would add.
    pub keyless: bool,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Folded {
    /// The signs for these rows, each with a space before it, roomiest
    /// first (`[""]` where nothing is folded). Only a count that follows
    /// the word "hidden" straight after the charges' count counts charges;
    /// every other count names its kind.
    pub fn signs(&self, t: &Theme) -> Vec<String> {
        let e = t.g.ellipsis;
        let dot = t.g.dot;
        let (c, k) = (self.charges, self.keys);
        let charges = || plural(c, "charge", "charges");
        let keys = || plural(k, "key", "keys");
        let mut out = match (c > 0, k > 0, self.empty_store) {
            (false, false, false) => vec![String::new()],
            (false, false, true) => vec![format!(" {dot} key store empty"), " keys 0".into()],
            (false, true, _) => vec![
                format!(" {e} {} not shown", keys()),
                format!(" {e}{} hidden", keys()),
                format!(" {e}{}", keys()),
            ],
            (true, false, false) => vec![
                format!(" {e} {} not shown", charges()),
                format!(" {e}{c} hidden"),
            ],
            // Narrowest where no charge carried a key, the charges' count
            // alone: the rows' `no key` says the store is empty, and
            // counted with them (`…2 rows` over one charge hidden) its
            // line read as a second charge hidden (teacher trial). Where
            // keys were sent and are gone, the store's line is news, and
            // the count of rows below counts it.
            (true, false, true) if self.keyless => vec![
                format!(" {e} {} not shown {dot} keys 0", charges()),
                format!(" {e}{c} hidden keys 0"),
                format!(" {e}{c} hidden"),
            ],
            (true, false, true) => vec![
                format!(" {e} {} not shown {dot} keys 0", charges()),
                format!(" {e}{c} hidden keys 0"),
            ],
            (true, true, _) => vec![
                format!(" {e} {}, {} not shown", charges(), keys()),
                format!(" {e}{c} hidden, {}", keys()),
            ],
        };
        // Charges and key rows both folded: at the narrowest, one count of
        // rows, which claims no charge it does not show.
        if c > 0 && (k > 0 || self.empty_store && !self.keyless) {
            let rows = c + k + usize::from(self.empty_store);
            out.push(format!(" {e}{}", plural(rows, "row", "rows")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "hidden" follows a bare number only where that number counts
    /// charges: the heading's own figure is a count of charges.
    #[test]
    fn a_bare_hidden_count_is_only_ever_of_charges() {
        let t = Theme::new(false, false);
        let cases = [
            (0, 0, true),
            (0, 2, false),
            (0, 1, true),
            (1, 0, true),
            (2, 1, false),
            (1, 0, false),
        ];
        for (charges, keys, empty_store) in cases {
            let f = Folded {
                charges,
                keys,
                empty_store,
                keyless: true,
            };
            for sign in f.signs(&t) {
                let words: Vec<&str> = sign.split_whitespace().collect();
                for (i, w) in words.iter().enumerate().skip(1) {
                    if w.starts_with("hidden") {
                        let n: usize = words[i - 1].trim_start_matches('…').parse().unwrap_or(0);
                        assert!(
                            n == charges && n > 0 || !words[i - 1].starts_with('…'),
                            "{f:?}: {sign:?}"
                        );
                    }
                }
                // An empty store is said as a figure or not at all: it is
                // no row, and a count of rows never counts it.
                if keys == 0 && empty_store && charges == 0 {
                    assert!(
                        sign.contains("keys 0") || sign.contains("empty"),
                        "{sign:?}"
                    );
                }
                let counted: usize = sign
                    .split(|ch: char| !ch.is_ascii_digit())
                    .filter_map(|n| n.parse::<usize>().ok())
                    .sum();
                // Keyless, the empty store is no row: a count of rows
                // never counts it.
                assert_eq!(counted, charges + keys, "{f:?}: {sign:?}");
            }
        }
    }
}
