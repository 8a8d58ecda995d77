//! `redelivered` and `duplicate deliveries` are two counts (teacher trial:
//! they agreed in every tour, so a class asked what the difference was).
//! The broker counts a redelivery: it knows it handed the message out
//! again. Only the observer knows whether a delivery is a duplicate: the
//! message's work (a committed payment, a charge at the provider) was
//! already done by another delivery. A redelivery after a crash that came
//! before any work is a redelivery and not a duplicate.

use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::sim::world::Counters;
use idem::timeline::Timeline;

fn counters(scenario: &str, mode: &str) -> Vec<Counters> {
    let script = builtins().into_iter().find(|s| s.name == scenario).unwrap();
    let strategy = Strategy::by_name(mode).unwrap();
    let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
    timeline.frames.iter().map(|f| f.counters.clone()).collect()
}

#[test]
fn a_redelivery_after_a_crash_before_any_work_is_not_a_duplicate() {
    for mode in ["naive", "idempotent"] {
        let all = counters("tour-2", mode);
        let at = all
            .iter()
            .position(|c| c.redeliveries == 1)
            .unwrap_or_else(|| panic!("{mode}: tour-2 redelivers m-7f3"));
        assert_eq!(
            all[at].duplicates_delivered, 0,
            "{mode}: nothing was done before the crash: {:?}",
            all[at]
        );
        let end = all.last().unwrap();
        assert_eq!(
            (end.redeliveries, end.duplicates_delivered),
            (1, 0),
            "{mode}: {end:?}"
        );
    }
}

#[test]
fn a_redelivery_after_a_lost_ack_is_a_duplicate() {
    let all = counters("tour-1", "naive");
    let at = all.iter().position(|c| c.redeliveries == 1).unwrap();
    assert_eq!(all[at].duplicates_delivered, 1, "{:?}", all[at]);
}
