//! The section of compare's two sides the user has picked with Tab: the
//! sides scroll to show it whole, and `z` enlarges it to the sides' full
//! height. Without it, rows below a short screen could be counted but
//! never seen.

/// Compare's sections, in the order each side shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Outcome,
    Story,
    Database,
    Provider,
    Queue,
    Service,
    Step,
}

impl Section {
    pub const ALL: [Section; 7] = [
        Section::Outcome,
        Section::Story,
        Section::Database,
        Section::Provider,
        Section::Queue,
        Section::Service,
        Section::Step,
    ];

    /// Its name, on the row a picked section with no rows of its own
    /// gets for its mark to stand beside.
    pub fn name(self) -> &'static str {
        match self {
            Section::Outcome => "outcome",
            Section::Story => "what happens",
            Section::Database => "database",
            Section::Provider => "provider",
            Section::Queue => "queue",
            Section::Service => "service",
            Section::Step => "this step",
        }
    }

    /// The section Tab (`forward`) or shift-Tab picks after `from`; from
    /// none, the first or the last.
    pub fn after(from: Option<Section>, forward: bool) -> Section {
        let n = Section::ALL.len();
        let i = from.and_then(|s| Section::ALL.iter().position(|x| *x == s));
        let j = match (i, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        Section::ALL[j]
    }

    pub fn index(self) -> usize {
        Section::ALL
            .iter()
            .position(|x| *x == self)
            .expect("every section is in ALL")
    }
}

/// The first row to show of `total` rows in a side of `rows` rows, so
/// that the rows `start..end` are all in view: none scrolled while they
/// fit above the sign that counts the rows below; else as few as will
/// bring their end into view under the sign that counts the rows above
/// (their start at the top when they are taller than that).
pub fn first_row(start: usize, end: usize, total: usize, rows: usize) -> usize {
    if total <= rows || end < rows {
        return 0;
    }
    // Under the top sign; a bottom sign too while rows are left below.
    let most = total.saturating_sub(rows.saturating_sub(1)).max(1);
    let room = rows.saturating_sub(2).max(1);
    end.saturating_sub(room).clamp(1, most).min(start.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_goes_round_the_sections_both_ways() {
        assert_eq!(Section::after(None, true), Section::Outcome);
        assert_eq!(Section::after(None, false), Section::Step);
        assert_eq!(Section::after(Some(Section::Step), true), Section::Outcome);
        assert_eq!(Section::after(Some(Section::Outcome), false), Section::Step);
        assert_eq!(Section::after(Some(Section::Queue), true), Section::Service);
    }

    #[test]
    fn a_section_is_scrolled_into_view_only_when_it_is_not() {
        // Fits: nothing scrolls.
        assert_eq!(first_row(2, 5, 30, 10), 0);
        assert_eq!(first_row(20, 28, 28, 30), 0);
        // Rows 12..16 in a side of 10: 6 rows above the sign below, after
        // the sign above: 16 - 8 = 8 rows scrolled.
        assert_eq!(first_row(12, 16, 30, 10), 8);
        // Taller than the side: its start at the top.
        assert_eq!(first_row(12, 25, 30, 10), 12);
        // The last section: no further than the end.
        assert_eq!(first_row(27, 30, 30, 10), 21);
    }
}
