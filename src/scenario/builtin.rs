//! The scenarios that ship inside the binary.

/// (name, file text), in the order `idem list` shows them within a group.
pub const BUILTIN: &[(&str, &str)] = &[
    ("tour-1", include_str!("../../scenarios/tour-1.toml")),
    ("tour-2", include_str!("../../scenarios/tour-2.toml")),
    ("tour-3", include_str!("../../scenarios/tour-3.toml")),
    ("tour-4", include_str!("../../scenarios/tour-4.toml")),
    (
        "broker-view",
        include_str!("../../scenarios/broker-view.toml"),
    ),
    (
        "race-rollback",
        include_str!("../../scenarios/race-rollback.toml"),
    ),
    (
        "crash-after-provider",
        include_str!("../../scenarios/crash-after-provider.toml"),
    ),
    (
        "producer-retry",
        include_str!("../../scenarios/producer-retry.toml"),
    ),
    ("broker-id", include_str!("../../scenarios/broker-id.toml")),
    (
        "content-hash",
        include_str!("../../scenarios/content-hash.toml"),
    ),
    ("retention", include_str!("../../scenarios/retention.toml")),
    (
        "provider-key-reuse",
        include_str!("../../scenarios/provider-key-reuse.toml"),
    ),
    ("poison", include_str!("../../scenarios/poison.toml")),
    (
        "dedup-window",
        include_str!("../../scenarios/dedup-window.toml"),
    ),
    ("reused-id", include_str!("../../scenarios/reused-id.toml")),
    ("ordering", include_str!("../../scenarios/ordering.toml")),
    ("id-first", include_str!("../../scenarios/id-first.toml")),
    (
        "charge-first",
        include_str!("../../scenarios/charge-first.toml"),
    ),
    ("ack-first", include_str!("../../scenarios/ack-first.toml")),
    (
        "cache-claim-first",
        include_str!("../../scenarios/cache-claim-first.toml"),
    ),
    (
        "cache-work-first",
        include_str!("../../scenarios/cache-work-first.toml"),
    ),
    (
        "row-version",
        include_str!("../../scenarios/row-version.toml"),
    ),
    ("offset", include_str!("../../scenarios/offset.toml")),
    (
        "offset-on-a-queue",
        include_str!("../../scenarios/offset-on-a-queue.toml"),
    ),
    (
        "in-progress",
        include_str!("../../scenarios/in-progress.toml"),
    ),
];

pub fn names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(name, _)| *name).collect()
}
