//! The idem consumer protocol, version 1, for Rust (serde_json only): the
//! adapter the Rust samples share. See docs/consumer-protocol.md.

use serde_json::{Value, json};
use std::io::{BufRead, Write};

pub struct Idem {
    input: std::io::StdinLock<'static>,
    output: std::io::StdoutLock<'static>,
    req: u64,
    pub instance: String,
}

pub struct Delivery {
    pub id: String,
    pub receipt: String,
    pub delivery: u64,
    pub order: i64,
    pub amount: i64,
}

impl Idem {
    pub fn connect() -> Idem {
        let mut idem = Idem {
            input: std::io::stdin().lock(),
            output: std::io::stdout().lock(),
            req: 0,
            instance: String::new(),
        };
        let hello = idem.ask(json!({"type": "hello", "protocol": 1}));
        idem.instance = hello["instance"].as_str().unwrap_or("?").to_string();
        idem
    }

    /// The database idem gives this run, from the environment: `IDEM_DB`
    /// (a SQLite file) or `IDEM_DB_URL` (a PostgreSQL address, with
    /// `idem test --db postgres://…`). Missing: said once, then exit.
    pub fn database(&self, var: &str) -> String {
        std::env::var(var).unwrap_or_else(|_| {
            let kind = std::env::var("IDEM_DB_KIND").unwrap_or_default();
            let how = if var == "IDEM_DB_URL" {
                "this sample needs a PostgreSQL server: idem test --db postgres://USER@HOST:PORT/DB -- ..."
            } else {
                "this sample uses a SQLite file: run it without --db"
            };
            eprintln!("{var} is not set (idem gave a {kind} database): {how}");
            std::process::exit(2);
        })
    }

    fn ask(&mut self, request: Value) -> Value {
        writeln!(self.output, "{request}")
            .and_then(|()| self.output.flush())
            .expect("stdout");
        let mut line = String::new();
        if self.input.read_line(&mut line).unwrap_or(0) == 0 {
            std::process::exit(0); // idem closed our stdin: the run is over
        }
        let answer: Value = serde_json::from_str(&line).expect("idem answers JSON");
        if answer["type"] == "error" {
            eprintln!("idem refused: {}", answer["message"]);
            std::process::exit(2);
        }
        answer
    }

    /// The next delivery, or None: the queue is drained, exit.
    pub fn receive(&mut self) -> Option<Delivery> {
        let a = self.ask(json!({"type": "receive"}));
        (a["type"] == "deliver").then(|| Delivery {
            id: a["id"].as_str().unwrap_or_default().to_string(),
            receipt: a["receipt"].as_str().unwrap_or_default().to_string(),
            delivery: a["delivery"].as_u64().unwrap_or(0),
            order: a["body"]["order"].as_i64().unwrap_or(0),
            amount: a["body"]["amount"].as_i64().unwrap_or(0),
        })
    }

    /// "ok", "rejected" or "lost".
    pub fn ack(&mut self, receipt: &str) -> String {
        let a = self.ask(json!({"type": "ack", "receipt": receipt}));
        a["status"].as_str().unwrap_or_default().to_string()
    }

    /// Some(charge id) on a 201 (new or replayed); None when lost or refused.
    pub fn charge(&mut self, order: i64, amount: i64, key: Option<&str>) -> Option<String> {
        self.req += 1;
        let a = self.ask(json!({"type": "charge", "req": self.req, "order": order,
                                "amount": amount, "idempotency_key": key}));
        (a["status"] == 201).then(|| a["charge"].as_str().unwrap_or_default().to_string())
    }
}
