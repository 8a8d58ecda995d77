"""Subtly wrong: looks the message ID up first and inserts it later, with no
unique key. Two instances holding the same message both find nothing, and
both record the payment."""
import sqlite3
from idem_adapter import Idem, log

idem = Idem()
db = sqlite3.connect(idem.db_path, timeout=5)
db.execute("CREATE TABLE IF NOT EXISTS processed_messages (message_id TEXT)")  # no unique key
db.execute("CREATE TABLE IF NOT EXISTS payments (order_id INTEGER, amount INTEGER, charge_id TEXT)")
db.commit()
while (m := idem.receive()) is not None:
    order, amount = m["body"]["order"], m["body"]["amount"]
    seen = db.execute("SELECT 1 FROM processed_messages WHERE message_id = ?", (m["id"],)).fetchone()
    if seen:
        log(f"{idem.instance}: {m['id']} seen before: skipped")
        idem.ack(m["receipt"])
        continue
    result = idem.charge(order, amount, idempotency_key=m["id"])
    if result["lost"] or result["status"] != 201:
        continue
    db.execute("INSERT INTO processed_messages VALUES (?)", (m["id"],))
    db.execute("INSERT INTO payments VALUES (?, ?, ?)", (order, amount, result["charge"]))
    db.commit()
    idem.ack(m["receipt"])
