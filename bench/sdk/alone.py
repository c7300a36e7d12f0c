"""The plugin SDK's instructions per request without a host: this script binds the
backend socket itself, starts PLUGIN (a command line, e.g. "valgrind --tool=callgrind
... plugin-echo") as the host would, answers its HELLO with WELCOME, sends COUNT echo
requests of SIZE bytes, WINDOW in flight, checks every REPLY's body, then says DISCONNECT
and waits for the plugin to exit (callgrind writes its file then).

The host waits 10 s for HELLO, which a plugin under valgrind on a loaded machine can miss;
this has no such deadline. Used by instructions.sh (ALONE=1).
Usage: alone.py WORKDIR COUNT WINDOW SIZE PLUGIN..."""

import os
import subprocess
import sys

import zmq

work, count, window, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
command = sys.argv[5:]
endpoint = f"ipc://{work}/backend.sock"
socket = zmq.Context().socket(zmq.ROUTER)
socket.rcvtimeo = 600_000
socket.bind(endpoint)
env = dict(os.environ, INTENTBUS_BACKEND=endpoint, INTENTBUS_PLUGIN_ID="echo", INTENTBUS_TOKEN="t",
           INTENTBUS_HOST_PID=str(os.getpid()))
plugin = subprocess.Popen(command, env=env)
try:
    hello = socket.recv_multipart()
    if hello[2] != b"HELLO":
        sys.exit(f"expected HELLO, got {hello[:3]}")
    peer = hello[0]
    socket.send_multipart([peer, b"IB1", b"WELCOME", b"", b"", b"", b""])
    body = b'{"p":"' + b"x" * max(size - 8, 0) + b'"}'
    sent = ok = 0
    while ok < count:
        while sent < count and sent - ok < window:
            sent += 1
            socket.send_multipart([peer, b"IB1", b"REQUEST", b"%d" % sent, b"EchoIntent", b"", body])
        frames = socket.recv_multipart()
        if frames[2] == b"HEARTBEAT":
            continue
        if frames[2] != b"REPLY" or frames[6] != body:
            sys.exit(f"not a REPLY with the body sent: {[f[:80] for f in frames]}")
        ok += 1
    socket.send_multipart([peer, b"IB1", b"DISCONNECT", b"", b"", b"", b""])
    plugin.wait(timeout=300)
finally:
    if plugin.poll() is None:
        plugin.terminate()
        plugin.wait()
print(ok)
