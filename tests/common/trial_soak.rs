//! The soak a teacher trial ran (naive beside idempotent, the trial's
//! fault rates, seed 7), cut to 6,000 payments: run once for the test
//! binary, its dashboard state kept, and read by every test that checks
//! what that run shows.

use idem::sim::Strategy;
use idem::soak::live::LiveState;
use idem::soak::{self, Config, FaultRates, Live};
use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;

/// The run's config and its dashboard state at its end.
pub fn trial_soak() -> &'static (Config, LiveState) {
    static RUN: OnceLock<(Config, LiveState)> = OnceLock::new();
    RUN.get_or_init(|| {
        let config = Config {
            designs: vec![Strategy::naive(), Strategy::idempotent()],
            messages: 6_000,
            seed: 7,
            faults: FaultRates::parse(
                "crash=1%,lose-ack=2%,lose-response=1%,slow=2%,republish=1%,expire=1%",
            )
            .unwrap(),
            ..Config::default()
        };
        let live = Live::new(config.messages, &["naive", "idempotent"]);
        soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
        let state = live.snapshot();
        (config, state)
    })
}
