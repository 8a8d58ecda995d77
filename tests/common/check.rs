//! The checker's report under small bounds (one fault per schedule), the
//! same in debug and release: computed once for every explorer test of the
//! test binary, whichever file asks first.

use idem::check::{self, Bounds, CheckReport};
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
