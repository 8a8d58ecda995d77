"""The Idempotent Consumer: the message ID goes into processed_messages (a
unique key) in the same transaction as the payment row; a duplicate fails
the insert and is skipped; the provider gets the message ID as its
Idempotency-Key; the ack comes only after the commit."""
import sqlite3
from idem_adapter import Idem, log

idem = Idem()
db = sqlite3.connect(idem.db_path, timeout=5, isolation_level=None)
db.execute("CREATE TABLE IF NOT EXISTS processed_messages (message_id TEXT PRIMARY KEY)")
db.execute("CREATE TABLE IF NOT EXISTS payments (order_id INTEGER, amount INTEGER, charge_id TEXT)")
while (m := idem.receive()) is not None:
    order, amount = m["body"]["order"], m["body"]["amount"]
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT INTO processed_messages VALUES (?)", (m["id"],))
    except sqlite3.IntegrityError:
        db.execute("ROLLBACK")
        log(f"{idem.instance}: {m['id']} already processed: skipped")
        idem.ack(m["receipt"])
        continue
    result = idem.charge(order, amount, idempotency_key=m["id"])
    if result["lost"] or result["status"] != 201:
        db.execute("ROLLBACK")  # nothing recorded; the redelivery tries again, same key
        log(f"{idem.instance}: charge for {m['id']} not confirmed; left for redelivery")
        continue
    db.execute("INSERT INTO payments VALUES (?, ?, ?)", (order, amount, result["charge"]))
    db.execute("COMMIT")
    log(f"{idem.instance}: {m['id']} charged {result['charge']} and recorded")
    idem.ack(m["receipt"])
