"""Subtly wrong: an Idempotency-Key, but a new one for each attempt (the
delivery count is part of it). A redelivery after a charge the program
never heard back from charges again."""
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
    key = f"{m['id']}-attempt-{m['delivery']}"  # a new key each time: no protection at all
    result = idem.charge(order, amount, idempotency_key=key)
    if result["lost"] or result["status"] != 201:
        db.execute("ROLLBACK")
        continue
    db.execute("INSERT INTO payments VALUES (?, ?, ?)", (order, amount, result["charge"]))
    db.execute("COMMIT")
    idem.ack(m["receipt"])
