//! The naive consumer in Rust on PostgreSQL, for `idem test --db`: charge,
//! record, ack, with no processed_messages and no Idempotency-Key. A
//! redelivery charges again.
//! `idem test --db postgres://root@127.0.0.1:5432/test -- target/debug/examples/consumer_naive_pg`

#[path = "consumer/mod.rs"]
mod consumer;

use postgres::{Client, NoTls};

fn main() -> Result<(), postgres::Error> {
    let mut idem = consumer::Idem::connect();
    let mut db = Client::connect(&idem.database("IDEM_DB_URL"), NoTls)?;
    db.batch_execute(
        "CREATE TABLE IF NOT EXISTS payments (order_id BIGINT, amount BIGINT, charge_id TEXT);",
    )?;
    while let Some(m) = idem.receive() {
        eprintln!("{}: {} delivery {}", idem.instance, m.id, m.delivery);
        let Some(charge) = idem.charge(m.order, m.amount, None) else {
            continue;
        };
        db.execute(
            "INSERT INTO payments VALUES ($1, $2, $3)",
            &[&m.order, &m.amount, &charge],
        )?;
        idem.ack(&m.receipt);
    }
    Ok(())
}
