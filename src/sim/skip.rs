//! Why a handler skipped a delivery: the mechanism that said "handled
//! before". The event line and the cause chain are both made from this one
//! value, so the cause never has to be read back out of the event's words.

/// What a step found that made the handler take its skip path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The offset check: this record's offset is not past the last applied.
    Offset { offset: u64, last: u64 },
    /// The order row already names this message as its last.
    RowRemembers { order: u32, key: String },
    /// The lookup found the ID in processed_messages.
    IdFound { key: String },
    /// The unique key on processed_messages refused the insert.
    UniqueKey { key: String },
    /// The cache's SET NX found the ID already claimed.
    CacheClaimed { key: String, ttl: String },
    /// The cache's GET found the ID.
    CacheHit { key: String },
    /// The in-progress record is completed: its stored result is returned.
    Completed { key: String, result: String },
    /// Another delivery took the in-progress record over and finished.
    TakenOver { key: String },
    /// The row holds a newer version than this update.
    OlderVersion { order: u32, version: u32 },
}

impl Skip {
    /// The finding itself, without what the handler does about it.
    fn finding(&self) -> String {
        match self {
            Skip::Offset { offset, last } => {
                format!("finds offset {offset} at or below the last applied offset {last}")
            }
            Skip::RowRemembers { order, key } => {
                format!("order {order}'s row already remembers {key}")
            }
            Skip::IdFound { key } => format!("finds {key} in processed_messages"),
            Skip::UniqueKey { key } => {
                format!("finds the unique key taken: {key} is already recorded")
            }
            Skip::CacheClaimed { key, ttl } => {
                format!("SET {key} 1 NX EX {ttl} -> nil, someone claimed it")
            }
            Skip::CacheHit { key } => format!("GET {key} -> hit"),
            Skip::Completed { key, result } => {
                format!("finds {key} completed (result {result})")
            }
            Skip::TakenOver { key } => format!(
                "no longer owns {key}: another delivery took the record over, so it rolls back its own payment row"
            ),
            Skip::OlderVersion { order, version } => {
                format!("leaves order {order} alone: version {version} is older than the row's")
            }
        }
    }

    /// The cache answers for the consumer, and its line says so.
    fn by_cache(&self) -> bool {
        matches!(self, Skip::CacheClaimed { .. } | Skip::CacheHit { .. })
    }

    /// The consumer's line in the transcript.
    pub fn event(&self) -> String {
        let then = match self {
            Skip::UniqueKey { .. } => ", so it skips the work",
            Skip::Completed { .. } => ": returns the stored result, skips the work",
            // The finding already says what happens next.
            Skip::TakenOver { .. } | Skip::OlderVersion { .. } => "",
            _ => ": skips the work",
        };
        let from = if self.by_cache() { "cache: " } else { "" };
        format!("{from}{}{then}", self.finding())
    }

    /// Why the delivery did nothing, in a cause chain: `name` is the
    /// consumer that skipped.
    pub fn reason(&self, name: &str) -> String {
        if self.by_cache() {
            format!("{name}'s cache answered {}", self.finding())
        } else {
            format!("{name} {}", self.finding())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> String {
        "m-7f3".into()
    }

    #[test]
    fn every_skip_gives_its_mechanism_as_the_cause() {
        let cases = [
            (
                Skip::Offset { offset: 3, last: 4 },
                "A finds offset 3 at or below the last applied offset 4",
            ),
            (
                Skip::RowRemembers {
                    order: 1042,
                    key: key(),
                },
                "A order 1042's row already remembers m-7f3",
            ),
            (
                Skip::IdFound { key: key() },
                "A finds m-7f3 in processed_messages",
            ),
            (
                Skip::UniqueKey { key: key() },
                "A finds the unique key taken: m-7f3 is already recorded",
            ),
            (
                Skip::CacheClaimed {
                    key: key(),
                    ttl: "1h".into(),
                },
                "A's cache answered SET m-7f3 1 NX EX 1h -> nil, someone claimed it",
            ),
            (
                Skip::CacheHit { key: key() },
                "A's cache answered GET m-7f3 -> hit",
            ),
            (
                Skip::Completed {
                    key: key(),
                    result: "ch_1".into(),
                },
                "A finds m-7f3 completed (result ch_1)",
            ),
            (
                Skip::TakenOver { key: key() },
                "A no longer owns m-7f3: another delivery took the record over, so it rolls back its own payment row",
            ),
            (
                Skip::OlderVersion {
                    order: 1042,
                    version: 2,
                },
                "A leaves order 1042 alone: version 2 is older than the row's",
            ),
        ];
        for (skip, cause) in cases {
            assert_eq!(skip.reason("A"), cause, "{skip:?}");
        }
    }

    #[test]
    fn the_event_adds_what_the_handler_does_and_who_answered() {
        assert_eq!(
            Skip::CacheHit { key: key() }.event(),
            "cache: GET m-7f3 -> hit: skips the work"
        );
        assert_eq!(
            Skip::UniqueKey { key: key() }.event(),
            "finds the unique key taken: m-7f3 is already recorded, so it skips the work"
        );
        assert_eq!(
            Skip::Completed {
                key: key(),
                result: "none".into()
            }
            .event(),
            "finds m-7f3 completed (result none): returns the stored result, skips the work"
        );
        assert_eq!(
            Skip::OlderVersion {
                order: 7,
                version: 1
            }
            .event(),
            "leaves order 7 alone: version 1 is older than the row's"
        );
    }
}
