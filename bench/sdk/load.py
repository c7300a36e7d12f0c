"""Sends COUNT echo requests of SIZE bytes (default 100 B) to a host, WINDOW in flight,
after one probe that waits until the plugin answers. Used by instructions.sh; prints the
replies it got. Usage: load.py ENDPOINT COUNT WINDOW [SIZE]"""

import sys

import zmq

endpoint, count, window = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socket = zmq.Context().socket(zmq.DEALER)
socket.rcvtimeo = 120_000  # valgrind starts slowly on a loaded machine
socket.connect(endpoint)
size = int(sys.argv[4]) if len(sys.argv) > 4 else 100
body = b'{"p":"' + b"x" * max(size - 8, 0) + b'"}'
socket.send_multipart([b"IB1", b"REQUEST", b"0", b"EchoIntent", b"", body])
probe = socket.recv_multipart()
if probe[1] != b"REPLY":
    sys.exit(f"the probe was not answered: {probe}")
sent = ok = 0
while ok < count:
    while sent < count and sent - ok < window:
        sent += 1
        socket.send_multipart([b"IB1", b"REQUEST", b"%d" % sent, b"EchoIntent", b"", body])
    frames = socket.recv_multipart()
    if frames[1] != b"REPLY" or frames[5] != body:
        sys.exit(f"not a REPLY with the body sent: {[f[:80] for f in frames]}")
    ok += 1
print(ok + 1)
