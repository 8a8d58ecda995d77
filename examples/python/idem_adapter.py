"""The idem consumer protocol, version 1, for Python (standard library only).

idem answers one request at a time on stdin; requests go to stdout, one JSON
object per line; stderr is the program's log. See docs/consumer-protocol.md.
"""
import json
import os
import sys


class Idem:
    def __init__(self):
        self.req = 0
        hello = self._ask({"type": "hello", "protocol": 1})
        self.instance = hello["instance"]
        self.start = hello["start"]
        self.db_path = os.environ.get("IDEM_DB")
        if self.db_path is None:
            # `idem test --db postgres://...` gives IDEM_DB_URL instead:
            # Python's standard library has no PostgreSQL client.
            log("IDEM_DB is not set (idem gave a", os.environ.get("IDEM_DB_KIND", "?"),
                "database): these samples use SQLite; run them without --db")
            sys.exit(2)

    def _ask(self, request):
        sys.stdout.write(json.dumps(request) + "\n")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)  # idem closed our stdin: the run is over
        answer = json.loads(line)
        if answer["type"] == "error":
            log("idem refused:", answer["message"])
            sys.exit(2)
        return answer

    def receive(self):
        """A delivery (dict with id, receipt, delivery, redelivered, body), or None: exit."""
        answer = self._ask({"type": "receive"})
        return None if answer["type"] == "empty" else answer

    def ack(self, receipt):
        """'ok', 'rejected' or 'lost' (timed out)."""
        return self._ask({"type": "ack", "receipt": receipt})["status"]

    def charge(self, order, amount, idempotency_key=None):
        """The answer: status (201, 409, 422, ...; None when lost), replayed, charge, lost."""
        self.req += 1
        request = {"type": "charge", "req": self.req, "order": order, "amount": amount}
        if idempotency_key is not None:
            request["idempotency_key"] = idempotency_key
        return self._ask(request)


def log(*words):
    print(*words, file=sys.stderr, flush=True)
