"""A webhook receiver that verifies every request as the Standard Webhooks specification says,
run as a process by tests/FileTransfer.Server.Tests/Events.

    python3 webhook_receiver.py whsec_...

The reference Python library (standardwebhooks on PyPI) is not in Debian and PyPI is not reachable
from this project's machines, so this implements the spec's verification with the standard library:
the secret is the base64 after "whsec_"; the signed content is "{webhook-id}.{webhook-timestamp}.{body}";
webhook-signature holds space-separated "v1,<base64 HMAC-SHA256>" values, one of which must match
(compared in constant time); a timestamp more than five minutes away from now is refused.

Listens on 127.0.0.1 (a free port), prints "listening PORT", then one JSON line per request, as the
Node receiver does.
"""

import base64
import hashlib
import hmac
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_SECONDS = 5 * 60
SECRET = base64.b64decode(sys.argv[1].removeprefix("whsec_"))


def verify(headers, body):
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise ValueError("missing webhook headers")
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        raise ValueError("timestamp out of tolerance")
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(SECRET, signed, hashlib.sha256).digest()).decode()
    for signature in signatures.split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return json.loads(body)
    raise ValueError("no matching signature")


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            event = verify(self.headers, body)
            self.send_response(204)
            self.end_headers()
            print(json.dumps({"verified": True, "id": self.headers["webhook-id"], "event": event}), flush=True)
        except ValueError as error:
            self.send_response(401)
            self.end_headers()
            print(json.dumps({"verified": False, "error": str(error)}), flush=True)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
