//! The broker's and the observer's counters by the one name each has
//! wherever a person reads it: the simulator's panels, `idem run`'s
//! closing lines, `idem soak`'s report and its dashboard. Written once, so
//! a screen and a transcript cannot name one count two ways (a teacher's
//! class read `redelivered` and `redeliveries` as two different things).
//! JSON keeps the field names of `Counters`.

/// Deliveries of any message, first or again (`delivered`).
pub const DELIVERED: &str = "delivered";
/// Deliveries after a lease ran out (`redeliveries`).
pub const REDELIVERED: &str = "redelivered";
/// Deliveries of a message whose work another delivery had already done,
/// whatever the handler then did (`duplicates_delivered`): the observer's
/// count, of deliveries, not payments. Not every redelivery is one.
pub const DUPLICATE_DELIVERIES: &str = "duplicate deliveries";
/// Acks the broker received (`acked`).
pub const ACKED: &str = "acked";
/// Acks that never reached the broker (`acks_lost`).
pub const ACKS_LOST: &str = "acks lost";
/// The handlers' skips of a key already recorded (`duplicates_skipped`),
/// in the words of the refused insert's own mark (`≠ key taken`): "by
/// key" under `charge the card (key)` read as the provider's
/// Idempotency-Key, which this count never counts.
pub const SKIPPED_KEY_TAKEN: &str = "skipped: key taken";
/// The committed payments table's rows, one and many: the verdict's
/// figures (`2 committed payments`) and its cause chains (`the database
/// has 1 committed payment`) count them in one wording, since `1
/// committed payment row` beside `1 committed payment` read as two counts.
pub const COMMITTED_PAYMENTS: (&str, &str) = ("committed payment", "committed payments");
