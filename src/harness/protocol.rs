//! The consumer protocol, version 1 (docs/consumer-protocol.md): one JSON
//! object per line. The program asks, idem answers, one question at a
//! time; every fault falls while the program waits for an answer.

use serde::{Deserialize, Serialize};

pub const VERSION: u32 = 1;

/// The longest line idem reads from a program; a longer one is a fault of
/// the program, diagnosed, not buffered.
pub const MAX_LINE: usize = 64 * 1024;

/// What a program asks.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    Hello {
        protocol: u32,
    },
    Receive {},
    Ack {
        receipt: String,
    },
    Charge {
        req: u64,
        order: u32,
        amount: u32,
        #[serde(default)]
        idempotency_key: Option<String>,
    },
}

impl Request {
    /// The request in a few words, for transcripts and diagnoses.
    pub fn describe(&self) -> String {
        match self.named() {
            (name, Some(detail)) => format!("{name}: {detail}"),
            (name, None) => name,
        }
    }

    /// The request's name (`charge request 1`, `ack r-1`) and what it
    /// carries, where it carries more (`order 1042 $40, Idempotency-Key
    /// m-1`): a held request is told by its name when it reaches idem.
    pub fn named(&self) -> (String, Option<String>) {
        match self {
            Request::Hello { protocol } => (format!("hello (protocol {protocol})"), None),
            Request::Receive {} => ("receive".into(), None),
            Request::Ack { receipt } => (format!("ack {receipt}"), None),
            Request::Charge {
                req,
                order,
                amount,
                idempotency_key,
            } => (
                // The process's request number, not a charge: the provider
                // may not have charged yet, and B's first request is its
                // own number 1 too (trial 22 read `charge #1` as a charge).
                format!("charge request {req}"),
                Some(format!(
                    "order {order} ${amount}, {}",
                    match idempotency_key {
                        Some(k) => format!("Idempotency-Key {k}"),
                        None => "no Idempotency-Key".into(),
                    }
                )),
            ),
        }
    }

    pub fn kind(&self) -> RequestKind {
        match self {
            Request::Hello { .. } => RequestKind::Hello,
            Request::Receive {} => RequestKind::Receive,
            Request::Ack { .. } => RequestKind::Ack,
            Request::Charge { .. } => RequestKind::Charge,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    Hello,
    Receive,
    Ack,
    Charge,
}

/// A message's body as the program sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Body {
    pub order: u32,
    pub amount: u32,
}

/// What idem answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    Hello {
        protocol: u32,
        /// `A` or `B`: which instance this process is.
        instance: String,
        /// 1 for the first process of this instance, 2 after a restart.
        start: u32,
    },
    Deliver {
        id: String,
        receipt: String,
        /// How many times the broker has handed this copy out, this one included.
        delivery: u32,
        redelivered: bool,
        body: Body,
    },
    /// Nothing is left to deliver and nothing more will come: exit.
    Empty {},
    AckResult {
        receipt: String,
        /// `ok`, `rejected` (the receipt is out of date) or `lost` (the
        /// call timed out: the broker may or may not have it).
        status: &'static str,
        reason: Option<String>,
    },
    ChargeResult {
        req: u64,
        /// 201, 400, 402, 409, 422; null when `lost`.
        status: Option<u16>,
        /// The provider answered from its key store, not from new work.
        replayed: bool,
        charge: Option<String>,
        /// The call timed out: the program cannot know whether it charged.
        lost: bool,
    },
    /// idem refuses what the program sent; it ends this run.
    Error { message: String },
}

impl Answer {
    pub fn line(&self) -> String {
        let mut text = serde_json::to_string(self).expect("answers always serialize");
        text.push('\n');
        text
    }
}

/// Why a line is not a request.
pub fn parse(line: &str) -> Result<Request, String> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
        format!(
            "not JSON ({e}): {}",
            crate::harness::text::shorten(line, 80)
        )
    })?;
    let Some(kind) = value
        .get("type")
        .and_then(|t| t.as_str())
        .map(str::to_string)
    else {
        return Err(format!(
            "a JSON line without a \"type\": {}",
            crate::harness::text::shorten(line, 80)
        ));
    };
    if !["hello", "receive", "ack", "charge"].contains(&kind.as_str()) {
        return Err(format!(
            "unknown request type {kind:?} (protocol {VERSION} knows hello, receive, ack, charge)"
        ));
    }
    serde_json::from_value(value).map_err(|e| format!("a {kind} request that does not fit: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_and_answers_are_one_line() {
        assert_eq!(
            parse(r#"{"type":"charge","req":1,"order":1042,"amount":40,"idempotency_key":"m-1"}"#),
            Ok(Request::Charge {
                req: 1,
                order: 1042,
                amount: 40,
                idempotency_key: Some("m-1".into())
            })
        );
        assert_eq!(
            parse(r#"{"type":"charge","req":1,"order":1042,"amount":40}"#)
                .unwrap()
                .describe(),
            "charge request 1: order 1042 $40, no Idempotency-Key"
        );
        let line = Answer::ChargeResult {
            req: 1,
            status: None,
            replayed: false,
            charge: None,
            lost: true,
        }
        .line();
        assert_eq!(
            line,
            "{\"type\":\"charge_result\",\"req\":1,\"status\":null,\"replayed\":false,\"charge\":null,\"lost\":true}\n"
        );
    }

    #[test]
    fn a_bad_line_says_what_is_wrong() {
        assert!(
            parse("{\"type\":\"rec")
                .unwrap_err()
                .starts_with("not JSON")
        );
        assert!(parse("{}").unwrap_err().contains("without a \"type\""));
        assert!(
            parse(r#"{"type":"dance"}"#)
                .unwrap_err()
                .contains("unknown request type")
        );
        assert!(
            parse(r#"{"type":"ack"}"#)
                .unwrap_err()
                .contains("missing field `receipt`")
        );
    }
}
