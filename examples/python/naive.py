"""The naive consumer: charge, record, ack. No processed_messages table and
no Idempotency-Key, so a redelivery charges the customer again."""
import sqlite3
from idem_adapter import Idem, log

idem = Idem()
db = sqlite3.connect(idem.db_path, timeout=5)
db.execute("CREATE TABLE IF NOT EXISTS payments (order_id INTEGER, amount INTEGER, charge_id TEXT)")
db.commit()
while (m := idem.receive()) is not None:
    order, amount = m["body"]["order"], m["body"]["amount"]
    log(f"{idem.instance}: {m['id']} delivery {m['delivery']}")
    result = idem.charge(order, amount)
    if result["lost"]:
        log("charge timed out; leaving the message for redelivery")
        continue
    db.execute("INSERT INTO payments VALUES (?, ?, ?)", (order, amount, result["charge"]))
    db.commit()
    idem.ack(m["receipt"])
