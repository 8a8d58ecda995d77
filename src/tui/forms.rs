//! The forms the screen keeps for a whole run (`RunForms`), as plain
//! data: what each is, not how it is chosen or drawn. A leaf, so that the
//! app can keep them without knowing the view that chooses and draws
//! them (issue 17: no import circles); their `impl`s stay in the view
//! files beside the panels they are for (`view::header`, `view::provider`,
//! `view::provider_heading`, `view::verdict`).

/// The header's form for a run, and the widest right part any of its
/// steps takes beside it: what `render` needs of the whole run.
#[derive(Clone, Copy, Debug)]
pub struct HeaderForm {
    pub(crate) run: Fit,
    pub(crate) widest_right: usize,
}

/// One form of the header, from the widest to the narrowest: the title
/// is kept whole before anything else gives way but the verdict's words
/// past its worst, which the verdict's panel names in full.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fit {
    /// The `(m)` after the design: which key switches it.
    pub(crate) key: bool,
    /// The word `design:` before it.
    pub(crate) label: bool,
    /// One space each side of the dots, not two.
    pub(crate) tight: bool,
    /// The program's name first.
    pub(crate) brand: bool,
    /// The verdict in its fewest words (`✕ charged twice + disagree`),
    /// before it is cut to its worst wrong effect (`lead`): every wrong
    /// effect named beats one named and the rest signed.
    pub(crate) short: bool,
    /// The worst wrong effect only, the rest signed with an ellipsis.
    pub(crate) lead: bool,
    /// The verdict in its fewest words, and the play's pace without
    /// `playing`; the title gives way before these.
    pub(crate) mark: bool,
    /// The verdict's mark alone and an ellipsis: only from 100 columns,
    /// only where it keeps the title whole, and never for a correct end,
    /// whose fewest words keep their bound (`correct in this run`).
    pub(crate) bare: bool,
}

/// What `view::provider::run_lines_beside` chooses over the runs: the key rows' form,
/// where the empty key store is said, and the heading's form where one
/// holds every step (`None`: each step takes the richest its own heading
/// holds). Kept by `update` (`RunForms`), so that a draw walks no run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProviderForm {
    pub(crate) keys: KeyForm,
    pub(crate) store_in_heading: bool,
    pub(crate) head: Option<HeadForm>,
}

/// How a key's row is drawn, chosen once for a whole run at one panel
/// size (`run_form`): a row that said `key m-7f3 → ch_81 *` at one step
/// and `m-7f3 → ch_81 ↺ replayed` at the next read as a different row,
/// and a replay said `↺ replayed now` then `↺ replayed ×1` as two things.
/// Where the store's heading has no line, the row's `key ` is all that
/// says what the row is (in the one tour about the Idempotency-Key, a
/// bare `m-7f3 → processing` named nothing): the marks and the arrow's
/// spaces give way, never that word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyForm {
    pub(crate) replay: Replay,
    /// ` → ` between the key and its result, or `→` alone where a long
    /// key (a content hash) leaves no room for the spaces beside its
    /// word and its change mark.
    pub(crate) spaced: bool,
    /// The panel height at which each step's store is folded
    /// (`store_folded`): the panel's own, or under `w` the lower of it and
    /// the main screen's, so that the store keeps the main screen's form
    /// where it fits (teacher trial: `key m-7f3 → ch_81` on the main screen
    /// became `Idempotency-Key store` over ` m-7f3 → ch_81` at a press of
    /// `w`).
    pub(crate) store_rows: usize,
}

/// A replay's words: `↺ replayed ×1`, with ` now` at the step it happens
/// (`Now`); or the sign and count alone, `↺ ×1` (the `?` help explains
/// it); or, where a long result leaves no room for the count, the sign
/// alone, `↺`. At the step it happens these forms say ` now`: a form of
/// the words without it left that step marked by its colour alone (trial
/// 35, under NO_COLOR). Last of all, where a result leaves no room for
/// ` now` (`m-8a1→402 card declined ↺` at 80x24), the sign alone even
/// then (`Alone`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Replay {
    Now,
    Sign,
    Bare,
    Alone,
}

/// The heading's form for a run: which words lead the figures, how a
/// moved count shows its old value, and how roomy the sign of what is
/// folded is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadForm {
    /// `charges made 2 ($80)`, `charges 2 ($80)`, `charges 2 $80`, or,
    /// last of all, `2 $80`.
    pub(crate) count: usize,
    /// The mark of a moved count (`moved_forms`).
    pub(crate) tier: usize,
    /// The sign of what is folded, roomiest first (`Folded::signs`).
    pub(crate) sign: usize,
    /// Whether the heading keeps room for a mark at a step whose count did
    /// not move, so that the words stay put when it does.
    pub(crate) roomy: bool,
}

/// A one-row verdict's form, one for the whole run on this screen
/// (`run_form`): the words its figures count in, whether its order is
/// named (`order 1042: `), whether its headline takes its fewest words
/// (`✕ charged twice + disagree`). Teacher trial, tour-4 naive at 80x24:
/// the row named order 1042 at one step and not at the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowForm {
    pub(crate) words: FigureWords,
    pub(crate) named: bool,
    pub(crate) short: bool,
    /// Whether every step of the run holds this form with the key that
    /// reads the rest; where none does, each step gives up what it must.
    pub(crate) kept: bool,
}

/// The words a one-row verdict counts its figures in: what each count
/// counts is named in every form (teacher trial: `order 1042: 0
/// committed, 2 charges` at 80x24 named no rows), rows by their table
/// (`payment`), and `committed` in every form: a row in an open
/// transaction, drawn in the database panel beside it, is not one of
/// these (teacher trial 23, tour-1 naive step 4 at 80x24: `0 payment
/// rows` beside a row `in txn A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigureWords {
    /// The payment rows' words, one and many.
    pub(crate) row: (&'static str, &'static str),
    /// The provider's charges' words, one and many.
    pub(crate) charge: (&'static str, &'static str),
}

impl FigureWords {
    /// `n` rows in these words: `2 committed payments`.
    pub fn rows(&self, n: usize) -> String {
        count(n, self.row)
    }

    /// `n` charges in these words: `1 provider charge`.
    pub fn charges(&self, n: usize) -> String {
        count(n, self.charge)
    }
}

/// `2 committed payments`.
fn count(n: usize, (one, many): (&str, &str)) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The payment rows' words in every form, one and many. One wording: `1
/// committed payment row` in one tour and `1 payment committed` in
/// another read as two different counts (teacher trial at 80x24); and
/// short enough for `order 1042: 0 committed payments, 2 charges` to keep
/// its order and its key on 80 columns. The cause chains count in these
/// words too.
const ROWS: (&str, &str) = crate::sim::counter_words::COMMITTED_PAYMENTS;

/// The whole verdict's words (on more than one row), then those of every
/// one-row verdict. Only the charges' words differ.
pub const FIGURE_WORDS: [FigureWords; 2] = [
    FigureWords {
        row: ROWS,
        charge: ("provider charge", "provider charges"),
    },
    NARROWEST,
];

/// The table is named (teacher trial, tour-4 idempotent at 80x24: `1
/// committed row, 1 charge` beside a database holding a payments row and
/// a processed_messages row said neither), and so is `committed`: `0
/// payment rows` beside a row in A's open transaction read as false
/// (teacher trial 23, tour-1 naive step 4). Every one-row verdict counts
/// the charges in these words: `1 charge` in tour-4 beside `1 provider
/// charge` in tour-1 read as two different counts (teacher trial at
/// 80x24), and `provider: 2`, tried next, read as a figure with no unit
/// (trial 33). The provider panel beside it says whose charges they are.
pub const NARROWEST: FigureWords = FigureWords {
    row: ROWS,
    charge: ("charge", "charges"),
};
