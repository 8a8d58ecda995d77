//! The count of a story's sentences a panel folds away, in one wording
//! wherever a story is folded (the story panel's border, each side of
//! compare): an arrow and a count for each side of the fold, then the
//! unit, `↑ 3 ↓ 2 more sentences`. Teacher trial (issue 18): `↑ 3 more
//! sentences`, `↑ 3 earlier` and `told earlier` read as three things.

use crate::tui::theme::Theme;

/// `above` sentences left out above what is shown, `below` cut after it;
/// the arrow points where they are, a side with none has no arrow. Where
/// nothing is left out above, a cut that leaves no sentence out below
/// still says `↓ 0`: its `…` is counted.
pub(super) fn count(t: &Theme, above: usize, below: usize) -> String {
    let (up, down) = if t.ascii() {
        ("^", "v")
    } else {
        ("↑", "↓")
    };
    let arrows = match (above, below) {
        (0, _) => format!("{down} {below}"),
        (_, 0) => format!("{up} {above}"),
        _ => format!("{up} {above} {down} {below}"),
    };
    // Sentences, as the other panels count their own items: a count of
    // wrapped rows changed with the width of the screen.
    let what = if above + below == 1 {
        "sentence"
    } else {
        "sentences"
    };
    format!("{arrows} more {what}")
}
