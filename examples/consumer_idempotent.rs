//! The Idempotent Consumer in Rust, for `idem test`:
//! `idem test -- cargo run -q --release --example consumer_idempotent`
//! (or the built binary: target/release/examples/consumer_idempotent).
//! The message ID goes into processed_messages (a unique key) in the same
//! transaction as the payment row; a duplicate is skipped; the provider
//! gets the message ID as its Idempotency-Key; the ack comes after the commit.

#[path = "consumer/mod.rs"]
mod consumer;

use rusqlite::{Connection, ErrorCode, TransactionBehavior, params};

fn main() -> rusqlite::Result<()> {
    let mut idem = consumer::Idem::connect();
    let mut db = Connection::open(idem.database("IDEM_DB"))?;
    db.busy_timeout(std::time::Duration::from_secs(5))?;
    // WAL: a commit need not wait for readers, and NORMAL syncs at checkpoints.
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "synchronous", "NORMAL")?;
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS processed_messages (message_id TEXT PRIMARY KEY);
         CREATE TABLE IF NOT EXISTS payments (order_id INTEGER, amount INTEGER, charge_id TEXT);",
    )?;
    while let Some(m) = idem.receive() {
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        match tx.execute("INSERT INTO processed_messages VALUES (?1)", [&m.id]) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == ErrorCode::ConstraintViolation =>
            {
                drop(tx); // rolls back
                eprintln!("{}: {} already processed: skipped", idem.instance, m.id);
                idem.ack(&m.receipt);
                continue;
            }
            other => other?,
        };
        let Some(charge) = idem.charge(m.order, m.amount, Some(&m.id)) else {
            eprintln!(
                "{}: charge for {} (delivery {}) not confirmed",
                idem.instance, m.id, m.delivery
            );
            drop(tx); // nothing recorded; the redelivery tries again with the same key
            continue;
        };
        tx.execute(
            "INSERT INTO payments VALUES (?1, ?2, ?3)",
            params![m.order, m.amount, charge],
        )?;
        tx.commit()?;
        idem.ack(&m.receipt);
    }
    Ok(())
}
