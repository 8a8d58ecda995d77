//! The explorer: `idem check`'s table inside the simulator. The report is
//! computed once, on demand, outside `update` (the terminal layer runs it on
//! a thread and hands it back as an action), and kept for the session.

use crate::check::further::{Further, FurtherResult};
use crate::check::{CheckReport, Counterexample, StrategyReport};
use crate::sim::Outcome;
use std::sync::Arc;

pub mod summary;
pub mod table;

/// Where the checker's report is.
#[derive(Clone, Debug, Default)]
pub enum Exploration {
    /// Never asked for.
    #[default]
    Idle,
    /// Asked for; `ms` is how long it has been running, for the spinner;
    /// `watch` counts the designs done as the checker's thread goes, so
    /// the wait shows that it moves.
    Running {
        ms: u64,
        watch: Arc<crate::check::Watch>,
    },
    Done(Arc<CheckReport>),
    /// The check stopped with an error; `x` tries again.
    Failed(String),
}

impl Exploration {
    pub fn report(&self) -> Option<&CheckReport> {
        match self {
            Exploration::Done(r) => Some(r),
            _ => None,
        }
    }

    pub fn running(&self) -> bool {
        matches!(self, Exploration::Running { .. })
    }
}

/// What the checker found, handed back to `update`. The report is shared,
/// not copied: it holds every counterexample's script.
#[derive(Clone, Debug)]
pub struct Explored(pub Arc<Result<CheckReport, String>>);

impl Explored {
    pub fn new(result: Result<CheckReport, String>) -> Self {
        Explored(Arc::new(result))
    }
}

/// The explorer's place: the design (a table row) and which of its
/// counterexamples, and whether the detail has the whole screen (`z`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub row: usize,
    pub cx: usize,
    /// The detail in place of the table: a held design's detail has no
    /// run to replay, so at 80x24 or 100x30 its last lines (the
    /// properties, the tries one bound further) were readable nowhere.
    pub whole: bool,
    /// With the detail whole, how many of its rows PgDn has scrolled past:
    /// in-progress's run at 80x24 ran 55 rows past the screen, and the
    /// arrows choose the design.
    pub scroll: usize,
}

/// How a design fared against its claim, as a symbol and words (the long
/// form for wide screens, the short one for narrow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Claims exactly-once and nothing broke it: the safe designs.
    Holds,
    /// Claims nothing, and the checker found how it breaks.
    BrokenAsExpected,
    /// Claims exactly-once, and a schedule breaks it.
    Contradiction,
    /// The bounds never produced what the proof needs (a duplicate).
    Vacuous,
    /// Claims nothing and nothing broke within the bounds.
    NoFailureFound,
}

impl Standing {
    pub fn of(s: &StrategyReport) -> Self {
        match (s.claims_safe, s.broken(), s.vacuous()) {
            (_, _, true) => Standing::Vacuous,
            (true, false, _) => Standing::Holds,
            (true, true, _) => Standing::Contradiction,
            (false, true, _) => Standing::BrokenAsExpected,
            (false, false, _) => Standing::NoFailureFound,
        }
    }

    pub fn long(self) -> &'static str {
        match self {
            Standing::Holds => "safe: holds",
            Standing::BrokenAsExpected => "broken, as expected",
            Standing::Contradiction => crate::check::promise::BROKEN,
            Standing::Vacuous => "VACUOUS: no duplicate",
            Standing::NoFailureFound => "no failure found",
        }
    }

    pub fn short(self) -> &'static str {
        match self {
            Standing::Holds => "safe",
            Standing::BrokenAsExpected => "broken",
            Standing::Contradiction => "CONTRADICTS",
            Standing::Vacuous => "VACUOUS",
            Standing::NoFailureFound => "no failure",
        }
    }
}

/// A count column of the table: its heading, and the class it counts (or
/// the design's size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Schedules,
    States,
    Outcome(Outcome),
}

impl Column {
    /// Most important first, among columns of the same standing (see
    /// `keep_order`).
    pub const BY_PRIORITY: [Column; 9] = [
        Column::Outcome(Outcome::Correct),
        Column::Outcome(Outcome::ChargedTwice),
        Column::Outcome(Outcome::ChargeLost),
        Column::Outcome(Outcome::Disagree),
        Column::Outcome(Outcome::MessageLost),
        Column::Outcome(Outcome::StaleState),
        Column::Outcome(Outcome::DeadLettered),
        Column::Schedules,
        Column::States,
    ];

    /// The order they appear in, left to right.
    pub const IN_ORDER: [Column; 9] = [
        Column::Schedules,
        Column::States,
        Column::Outcome(Outcome::Correct),
        Column::Outcome(Outcome::DeadLettered),
        Column::Outcome(Outcome::ChargedTwice),
        Column::Outcome(Outcome::ChargeLost),
        Column::Outcome(Outcome::Disagree),
        Column::Outcome(Outcome::MessageLost),
        Column::Outcome(Outcome::StaleState),
    ];

    /// Its heading, the same word at every width (teacher trial: `runs`
    /// here, `schedules` in `idem check` and the bounds): the table makes
    /// room by its gaps and its result's words, never by other headings.
    pub fn heading(self) -> &'static str {
        match self {
            Column::Schedules => "schedules",
            Column::States => "states",
            Column::Outcome(o) => Column::outcome_heading(o),
        }
    }

    /// An outcome's column heading: the word `idem check` heads it with,
    /// at every width, so the table reads the same in the terminal and on
    /// the screen (`twice`, `gone`), each named in full in the legend.
    fn outcome_heading(o: Outcome) -> &'static str {
        match o {
            Outcome::Correct => "correct",
            Outcome::DeadLettered => "refused",
            Outcome::ChargedTwice => "twice",
            Outcome::ChargeLost => "lost",
            Outcome::Disagree => "disagree",
            Outcome::MessageLost => "gone",
            Outcome::StaleState => "stale",
            // A quiet state has nothing in flight: never a column.
            Outcome::InProgress => "busy",
        }
    }

    /// What a short heading stands for, in the legend: short where the
    /// heading is a word that explains itself, whole where it names no one
    /// alone (`disagree`): a second legend row takes what the first cannot.
    pub fn meaning(self) -> &'static str {
        match self {
            Column::Schedules => "schedules",
            Column::States => "states",
            // Only the runs dead-lettered as meant: a failure that ends
            // dead-lettered counts under its failure. No comma in it: the
            // legend joins its entries with commas.
            Column::Outcome(Outcome::DeadLettered) => crate::check::REFUSED,
            // Who disagrees is the meaning: `disagree` alone names no one.
            Column::Outcome(o) => o.text(),
        }
    }

    pub fn value(self, s: &StrategyReport) -> u64 {
        match self {
            Column::Schedules => s.schedules,
            Column::States => s.states,
            Column::Outcome(c) => s.count(c),
        }
    }

    /// Whether the table shows it: the outcomes `idem check` counts, so
    /// the two tables count the same ends (a zero column included: "no
    /// schedule ends dead-lettered" is news too).
    pub fn used(self, report: &CheckReport) -> bool {
        match self {
            Column::Outcome(c) => report.counts_column(c),
            _ => true,
        }
    }
}

/// The table's columns, most important first: a narrow screen keeps a
/// prefix of this list and names the rest as hidden. First the failures
/// some design has (what "broken" rests on), then the schedules (the count
/// a verdict is out of: "2,516 of 2,566", "holds across 1,755"), the
/// correct ends, the outcomes no design has (a column of zeros says no
/// more than the words "refused=0" under the table), and last the states: the
/// size of the search, which no verdict rests on.
pub fn keep_order(report: &CheckReport) -> Vec<Column> {
    let used: Vec<Column> = Column::BY_PRIORITY
        .into_iter()
        .filter(|c| c.used(report))
        .collect();
    let zero = |c: &Column| {
        matches!(c, Column::Outcome(_)) && report.strategies.iter().all(|s| c.value(s) == 0)
    };
    let failure = |c: &Column| matches!(c, Column::Outcome(o) if o.is_failure());
    let mut out: Vec<Column> = used
        .iter()
        .filter(|c| failure(c) && !zero(c))
        .copied()
        .collect();
    out.push(Column::Schedules);
    out.extend(
        used.iter()
            .filter(|c| !failure(c) && !zero(c) && matches!(c, Column::Outcome(_))),
    );
    out.extend(used.iter().filter(|c| zero(c)));
    out.push(Column::States);
    out
}

pub use crate::check::num;

/// A run the explorer lists for a design: one of its counterexamples, or
/// the shortest run of a try one bound further that broke a design which
/// held within the bounds ("breaks at 3: see the shortest run" leads here).
#[derive(Clone, Debug)]
pub struct Run<'a> {
    pub cx: &'a Counterexample,
    /// The try it comes from, when it lies one bound further.
    pub further: Option<&'a Further>,
    /// Every outcome whose shortest run this is: one run that is the
    /// shortest to two outcomes is listed once, under both.
    pub classes: Vec<Outcome>,
}

impl Run<'_> {
    /// The outcomes it is the shortest run to, as the list names them.
    pub fn title(&self) -> String {
        let names: Vec<&str> = self.classes.iter().map(|c| c.text()).collect();
        names.join(" and ")
    }
}

/// The runs listed for `s`, in the order `←`/`→` and the digits pick them:
/// its own counterexamples first, then one per try that broke it. A run
/// that is the same schedule as one listed before it (the shortest to
/// "charged twice" is often the shortest to "provider and database
/// disagree" too) joins that one rather than be listed again.
pub fn runs(s: &StrategyReport) -> Vec<Run<'_>> {
    let own = s.counterexamples.iter().map(|cx| (cx, None));
    // Every way a try broke it, so "breaks at 3" lists each of them.
    let further = s.further.iter().flat_map(|f| match &f.result {
        FurtherResult::Breaks { runs, .. } => runs.iter().map(|cx| (cx, Some(f))).collect(),
        _ => Vec::new(),
    });
    let mut out: Vec<Run<'_>> = Vec::new();
    for (cx, further) in own.chain(further) {
        let same = out.iter_mut().find(|r| {
            r.cx.moves == cx.moves && r.further.map(Further::bound) == further.map(Further::bound)
        });
        match same {
            Some(r) => r.classes.push(cx.class),
            None => out.push(Run {
                cx,
                further,
                classes: vec![cx.class],
            }),
        }
    }
    out
}

/// The run the selection points at, if the design has any.
pub fn selected(report: &CheckReport, sel: Selection) -> Option<Run<'_>> {
    report
        .strategies
        .get(sel.row)
        .and_then(|s| runs(s).get(sel.cx).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_in_thousands() {
        assert_eq!(num(0), "0");
        assert_eq!(num(999), "999");
        assert_eq!(num(1_755), "1,755");
        assert_eq!(num(1_234_567), "1,234,567");
    }
}
