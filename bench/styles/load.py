"""Sends COUNT requests of one intent to a host, one at a time, with a 100 B body
{"text": "xx…"}, after one probe that waits until the plugin answers. Used by
instructions.sh; prints the replies it got. HEADER (environment): the REQUEST header frame
to send, e.g. '{"client":"kitchen"}' (default empty), as a CLI or SDK client sends one."""

import os
import sys

import zmq

endpoint, intent, count = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
if not 0 < count <= 1_000_000:
    sys.exit("COUNT is 1 to 1,000,000")
socket = zmq.Context().socket(zmq.DEALER)
# The first answer waits for the plugin's start (under valgrind, on a loaded machine, a
# minute or more); the others for one request.
socket.rcvtimeo = 180_000
socket.connect(endpoint)
body = b'{"text":"' + b"x" * 89 + b'"}'
header = os.environ.get("HEADER", "").encode()
for n in range(count + 1):
    socket.send_multipart([b"IB1", b"REQUEST", b"%d" % n, intent, header, body])
    frames = socket.recv_multipart()
    socket.rcvtimeo = 30_000
    if frames[1] != b"REPLY":
        sys.exit(f"not a REPLY: {frames}")
print(count + 1)
