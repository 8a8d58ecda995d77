"""Subtly wrong: everything of the Idempotent Consumer, but the ack goes out
before the commit. A crash between the two leaves the broker done with a
message whose work rolled back."""
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
        idem.ack(m["receipt"])
        continue
    result = idem.charge(order, amount, idempotency_key=m["id"])
    if result["lost"] or result["status"] != 201:
        db.execute("ROLLBACK")
        continue
    db.execute("INSERT INTO payments VALUES (?, ?, ?)", (order, amount, result["charge"]))
    idem.ack(m["receipt"])  # too early: the commit has not happened yet
    db.execute("COMMIT")
