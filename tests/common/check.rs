//! The checker's report under small bounds (one fault per schedule), the
//! same in debug and release: computed once for every explorer test of the
//! test binary, whichever file asks first.

use idem::check::{self, Bounds, CheckReport};
use idem::tui::explorer::Explored;
use idem::tui::{Action, App, update};
use std::sync::OnceLock;

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
    static REPORT: OnceLock<CheckReport> = OnceLock::new();
    REPORT.get_or_init(|| {
        check::run(&Bounds {
            strategy: Some("in-progress".into()),
            ..Bounds::default()
        })
        .expect("the check runs")
        .without_timings()
    })
}
