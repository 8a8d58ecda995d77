//! The checker's report under small bounds (one fault per schedule), the
//! same in debug and release: computed once for every explorer test of the
//! test binary, whichever file asks first.

use idem::check::{self, Bounds, CheckReport};
use idem::tui::explorer::Explored;
use idem::tui::{Action, App, update};
use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

pub fn report() -> &'static CheckReport {
    static REPORT: OnceLock<CheckReport> = OnceLock::new();
    REPORT.get_or_init(|| {
        check::run(&Bounds {
            max_faults: 1,
            ..Bounds::default()
        })
        .expect("the check runs")
        .without_timings()
    })
}

/// tour-1 under naive with the explorer open on `report`, as if `x` had
/// been pressed and the check had come back with it.
pub fn explorer_showing(report: CheckReport) -> App {
    let mut a = super::app("tour-1", "naive");
    update(&mut a, Action::Explore);
    update(&mut a, Action::ExploreDone(Explored::new(Ok(report))));
    a
}

/// in-progress alone under the default bounds (2 faults), where it holds,
/// tried one fault further, where it breaks: computed once per test binary.
pub fn in_progress() -> &'static CheckReport {
    at_default("in-progress")
}

/// One design alone under the default bounds, tried one bound further
/// where it holds: computed once per test binary, whichever test asks
/// first. A check at these bounds takes seconds in a debug build, and
/// several files ask the same design the same question.
pub fn at_default(name: &str) -> &'static CheckReport {
    type Cell = &'static OnceLock<CheckReport>;
    static MEMO: Mutex<BTreeMap<String, Cell>> = Mutex::new(BTreeMap::new());
    let cell: Cell = *MEMO
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(name.to_string())
        .or_insert_with(|| Box::leak(Box::default()));
    // The map's lock is let go before the check runs: another design's
    // check goes on beside this one.
    cell.get_or_init(|| {
        check::run(&Bounds {
            strategy: Some(name.into()),
            ..Bounds::default()
        })
        .expect("the check runs")
        .without_timings()
    })
}

/// The explorer detail's fold note on a screen (`↓ 4 more lines…`), if
/// any. The run list's own note (`↓ 3 more`) has no `lines`.
pub fn fold(screen: &str) -> Option<String> {
    screen
        .lines()
        .map(|l| l.trim_matches('"').trim())
        .find(|l| {
            let l = l.trim_start_matches("↓ ");
            l.split_once(" more lines")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .map(str::to_string)
}
