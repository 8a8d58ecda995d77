//! The words for what a design promises. "Claim" is the pattern's word
//! for inserting the message ID (`A claims the ID`), so a design's
//! promise is never said with it: "claims nothing" read as "inserts no
//! ID" (teacher trial 26). `idem check` and the explorer share these.

/// What a design promises, after its name: `naive · promises nothing`.
pub fn said(promises_exactly_once: bool) -> &'static str {
    if promises_exactly_once {
        "promises an exactly-once effect"
    } else {
        "promises nothing"
    }
}

/// A design that promises exactly-once, broken within the bounds.
pub const BROKEN: &str = "CONTRADICTS ITS PROMISE";

/// A design that promises nothing and broke nowhere within the bounds.
pub const NONE_HELD: &str = "no failure found (promises nothing)";
