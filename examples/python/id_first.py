"""Subtly wrong: the message ID is committed on its own (autocommit) before
the charge, and the payment row after it. A crash between the two leaves
the ID recorded with no payment: the redelivery finds the ID taken, skips
the work and acks, and the charge is lost. (The simulator's `id-first`.)"""
import sqlite3
from idem_adapter import Idem, log

idem = Idem()
db = sqlite3.connect(idem.db_path, timeout=5, isolation_level=None)
db.execute("CREATE TABLE IF NOT EXISTS processed_messages (message_id TEXT PRIMARY KEY)")
db.execute("CREATE TABLE IF NOT EXISTS payments (order_id INTEGER, amount INTEGER, charge_id TEXT)")
while (m := idem.receive()) is not None:
    order, amount = m["body"]["order"], m["body"]["amount"]
    try:
        db.execute("INSERT INTO processed_messages VALUES (?)", (m["id"],))  # commits at once
    except sqlite3.IntegrityError:
        log(f"{idem.instance}: {m['id']} seen before: skipped")
        idem.ack(m["receipt"])
        continue
    result = idem.charge(order, amount, idempotency_key=m["id"])
    if result["lost"] or result["status"] != 201:
        log(f"{idem.instance}: charge for {m['id']} not confirmed; left for redelivery")
        continue
    db.execute("INSERT INTO payments VALUES (?, ?, ?)", (order, amount, result["charge"]))
    log(f"{idem.instance}: {m['id']} charged {result['charge']} and recorded")
    idem.ack(m["receipt"])
