//! What a run starts from: the queue, the consumers, the messages and the
//! knobs of the broker, the provider and the stores.

use crate::sim::Millis;
use crate::sim::message::{Message, Payment};
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Everything a run starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub queue: String,
    pub lease_ms: Millis,
    pub max_receives: u32,
    /// Virtual time one handler step takes.
    pub step_ms: Millis,
    pub consumers: Vec<String>,
    /// Published in this order before the first step.
    pub messages: Vec<Message>,
    pub key_lifetime_ms: Millis,
    pub first_charge: u32,
    /// Orders whose card the provider declines.
    pub declines: BTreeSet<u32>,
    /// The provider refuses calls without an Idempotency-Key (400).
    pub require_key: bool,
    pub dedup_window_ms: Millis,
    /// Time-to-live of the IDs a cache-based design writes.
    pub cache_ttl_ms: Millis,
    /// How long an in-progress record holds off other deliveries.
    pub record_timeout_ms: Millis,
    /// Which ID the consumers deduplicate on.
    pub id_source: IdSource,
    /// The queue is one partition of an ordered log (see `Broker::ordered`).
    pub ordered: bool,
    /// Write the database to this file instead of memory.
    pub db_file: Option<PathBuf>,
    /// Run on this PostgreSQL server instead of SQLite (in a schema of the
    /// run's own).
    pub postgres: Option<crate::sim::db::PgUrl>,
}

impl Setup {
    /// The queue in words: "the payments queue". The table a consumer
    /// writes is often called the same (`payments`), and "removes m-7f3
    /// from payments" read as a row deleted (teacher trial).
    pub fn queue_words(&self) -> String {
        if self.queue.ends_with("queue") {
            format!("the {}", self.queue)
        } else {
            format!("the {} queue", self.queue)
        }
    }
}

/// Where the ID that a consumer remembers comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IdSource {
    /// The producer's own ID (`m-7f3`): the same on every copy of the fact.
    #[default]
    Producer,
    /// The broker's ID for the stored copy (`b-2`): a producer retry gets a new one.
    Broker,
    /// A hash of the body (`h-1a2b3c4d`): equal bodies are one message to it.
    Content,
}

/// FNV-1a over the body as the producer would serialise it: stable across
/// runs and platforms, which a std Hasher does not promise.
pub(super) fn content_hash(payment: &Payment) -> String {
    let body = format!("order={}&amount={}", payment.order, payment.amount);
    let hash = body.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("h-{hash:08x}")
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            queue: "payments".into(),
            lease_ms: 30_000,
            max_receives: 5,
            step_ms: 1_000,
            consumers: vec!["A".into()],
            messages: Vec::new(),
            key_lifetime_ms: 86_400_000,
            first_charge: 81,
            declines: BTreeSet::new(),
            require_key: false,
            dedup_window_ms: 0,
            cache_ttl_ms: 3_600_000,
            record_timeout_ms: 30_000,
            id_source: IdSource::Producer,
            ordered: false,
            db_file: None,
            postgres: None,
        }
    }
}
