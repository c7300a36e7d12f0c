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
    link              a good REPLY whose body says what the link is: the WELCOME body and
                      whether this REQUEST came as one packed frame (docs/protocol.md §5.1)
    packed-bad        a packed frame whose body length runs past its end

With RAWBAD_PACKED=1 its HELLO asks for the packed link, and once the WELCOME agrees it
answers in packed frames (reading both forms).
"""

import json
import os

import zmq

from intentbus.packed import is_packed, pack, unpack

ctx = zmq.Context()
sock = ctx.socket(zmq.DEALER)
sock.setsockopt(zmq.LINGER, 0)
sock.connect(os.environ["INTENTBUS_BACKEND"])
me = os.environ["INTENTBUS_PLUGIN_ID"]
hello = {"protocol": 1, "plugin": me, "token": os.environ["INTENTBUS_TOKEN"], "pid": os.getpid(),
         "intents": [{"name": "BadIntent", "style": "plain"}], "metadata": {}}
asks_packed = os.environ.get("RAWBAD_PACKED") == "1"
if asks_packed:
    hello["packed"] = True
welcome = None
packs = False
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
    came_packed = is_packed(frames)
    if came_packed:
        frames = unpack(frames[0])
    kind, rid, intent = frames[1], frames[2], frames[3]
    if kind == b"DISCONNECT" or kind == b"REJECT":
        break
    if kind == b"WELCOME":
        welcome = json.loads(frames[5] or b"{}")
        packs = asks_packed and welcome.get("packed") is True
        continue
    if kind == b"HEARTBEAT":  # answered, in the link's form, so that a request may run to its timeout
        beat = [b"IB1", b"HEARTBEAT", b"", b"", b"", b""]
        sock.send_multipart([pack(beat)] if packs else beat)
        continue
    if kind != b"REQUEST":
        continue
    what = json.loads(frames[5] or b"{}").get("send", "good")
    good = json.dumps({"plugin": me, "status": "success"}).encode()

    def out(k, header, body):
        six = [b"IB1", k, rid, intent, header, body]
        sock.send_multipart([pack(six)] if packs else six)

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
    elif what == "link":
        out(b"REPLY", good, json.dumps({"welcome": welcome, "request_packed": came_packed,
                                        "size": len(frames[5])}).encode())
    elif what == "packed-bad":
        broken = bytearray(pack([b"IB1", b"REPLY", rid, intent, good, b'{"ok":true}']))
        broken[-15:-11] = (1 << 20).to_bytes(4, "big")  # the body's length: 1 MiB, past the end
        sock.send(bytes(broken))
    elif what == "progress-bad":
        out(b"PROGRESS", b"", b"{half")
        out(b"REPLY", good, b'{"ok":true}')
    else:
        out(b"REPLY", good, b'{"ok":true}')
sock.close()
ctx.term()
