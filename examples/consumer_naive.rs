//! The naive consumer in Rust, for `idem test`: charge, record, ack, with
//! no processed_messages and no Idempotency-Key. A redelivery charges again.
//! `idem test -- cargo run -q --release --example consumer_naive`

#[path = "consumer/mod.rs"]
mod consumer;

use rusqlite::{Connection, params};

fn main() -> rusqlite::Result<()> {
    let mut idem = consumer::Idem::connect();
    let db = Connection::open(idem.database("IDEM_DB"))?;
    db.busy_timeout(std::time::Duration::from_secs(5))?;
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS payments (order_id INTEGER, amount INTEGER, charge_id TEXT);",
    )?;
    while let Some(m) = idem.receive() {
        eprintln!("{}: {} delivery {}", idem.instance, m.id, m.delivery);
        let Some(charge) = idem.charge(m.order, m.amount, None) else {
            continue;
        };
        db.execute(
            "INSERT INTO payments VALUES (?1, ?2, ?3)",
            params![m.order, m.amount, charge],
        )?;
        idem.ack(&m.receipt);
    }
    Ok(())
}
