"""A plugin that breaks the protocol on purpose, written with bare pyzmq (no SDK), for
the host's checks on what plugins send (docs/protocol.md §5.3). It says HELLO properly,
then answers each REQUEST as its parameter "send" asks:

    header-not-json   REPLY with the header frame `{nope`
    header-not-object REPLY with the header `[1]`
    other-plugin      REPLY whose header names another plugin
    bad-status        REPLY with status "maybe"
    error-not-json    ERROR whose body is not JSON
    error-no-code     ERROR whose body has no code
    prompt-bad        PROMPT whose body is not an object
    progress-bad      PROGRESS whose body is not JSON, then a good REPLY
    prompts           2,000 PROMPTs at once, none waiting for its answer
    good              a good REPLY
"""

import json
import os

import zmq

ctx = zmq.Context()
sock = ctx.socket(zmq.DEALER)
sock.setsockopt(zmq.LINGER, 0)
sock.connect(os.environ["INTENTBUS_BACKEND"])
me = os.environ["INTENTBUS_PLUGIN_ID"]
hello = {"protocol": 1, "plugin": me, "token": os.environ["INTENTBUS_TOKEN"], "pid": os.getpid(),
         "intents": [{"name": "BadIntent", "style": "plain"}], "metadata": {}}
sock.send_multipart([b"IB1", b"HELLO", b"", b"", b"", json.dumps(hello).encode()])
host_pid = int(os.environ.get("INTENTBUS_HOST_PID", "0"))
poller = zmq.Poller()
poller.register(sock, zmq.POLLIN)
while True:
    if not poller.poll(500):
        if host_pid and os.getppid() != host_pid:
            break
        continue
    frames = sock.recv_multipart()
    kind, rid, intent = frames[1], frames[2], frames[3]
    if kind == b"DISCONNECT" or kind == b"REJECT":
        break
    if kind != b"REQUEST":
        continue
    what = json.loads(frames[5] or b"{}").get("send", "good")
    good = json.dumps({"plugin": me, "status": "success"}).encode()

    def out(k, header, body):
        sock.send_multipart([b"IB1", k, rid, intent, header, body])

    if what == "header-not-json":
        out(b"REPLY", b"{nope", b"{}")
    elif what == "header-not-object":
        out(b"REPLY", b"[1]", b"{}")
    elif what == "other-plugin":
        out(b"REPLY", b'{"plugin":"someone-else","status":"success"}', b"{}")
    elif what == "bad-status":
        out(b"REPLY", json.dumps({"plugin": me, "status": "maybe"}).encode(), b"{}")
    elif what == "error-not-json":
        out(b"ERROR", b"", b"oops")
    elif what == "error-no-code":
        out(b"ERROR", b"", b'{"message":"no code"}')
    elif what == "prompt-bad":
        out(b"PROMPT", b"", b'"what?"')
    elif what == "prompts":
        for n in range(2000):
            out(b"PROMPT", b"", json.dumps({"kind": "value", "parameter": f"p{n}", "dialog": "?"}).encode())
    elif what == "progress-bad":
        out(b"PROGRESS", b"", b"{half")
        out(b"REPLY", good, b'{"ok":true}')
    else:
        out(b"REPLY", good, b'{"ok":true}')
sock.close()
ctx.term()
