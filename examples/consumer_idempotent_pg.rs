//! The Idempotent Consumer in Rust on PostgreSQL, for `idem test --db`:
//! `idem test --db postgres://root@127.0.0.1:5432/test -- target/debug/examples/consumer_idempotent_pg`.
//! The message ID goes into processed_messages with `INSERT … ON CONFLICT
//! (message_id) DO NOTHING` in the same transaction as the payment row: a
//! second copy's insert waits for the first transaction, then finds the row
//! (0 rows: skipped) or, after a rollback, does the work. The provider gets
//! the message ID as its Idempotency-Key; the ack comes after the commit.

#[path = "consumer/mod.rs"]
mod consumer;

use postgres::{Client, NoTls};

fn main() -> Result<(), postgres::Error> {
    let mut idem = consumer::Idem::connect();
    // The address sets search_path to this run's schema: no schema names below.
    let mut db = Client::connect(&idem.database("IDEM_DB_URL"), NoTls)?;
    db.batch_execute(
        "CREATE TABLE IF NOT EXISTS processed_messages (message_id TEXT PRIMARY KEY);
         CREATE TABLE IF NOT EXISTS payments (order_id BIGINT, amount BIGINT, charge_id TEXT);",
    )?;
    while let Some(m) = idem.receive() {
        let mut tx = db.transaction()?;
        let claimed = tx.execute(
            "INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING",
            &[&m.id],
        )?;
        if claimed == 0 {
            tx.rollback()?;
            eprintln!("{}: {} already processed: skipped", idem.instance, m.id);
            idem.ack(&m.receipt);
            continue;
        }
        let Some(charge) = idem.charge(m.order, m.amount, Some(&m.id)) else {
            eprintln!(
                "{}: charge for {} (delivery {}) not confirmed",
                idem.instance, m.id, m.delivery
            );
            tx.rollback()?; // nothing recorded; the redelivery tries again with the same key
            continue;
        };
        tx.execute(
            "INSERT INTO payments VALUES ($1, $2, $3)",
            &[&m.order, &m.amount, &charge],
        )?;
        tx.commit()?;
        idem.ack(&m.receipt);
    }
    Ok(())
}
