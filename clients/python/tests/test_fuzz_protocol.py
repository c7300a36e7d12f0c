"""Live protocol fuzzer (docs/reliability.md): random and mutated multipart messages to a
running, test-owned host's frontend AND backend (ipc), from several sockets; then a
normal request must still succeed through every plugin, and the host must still run.

Bounded: CASES messages in an ordinary test run; `make fuzz` runs it for
INTENTBUS_FUZZ_SECONDS. Frames stay small (at most 4 KiB), so the host's memory is not
what is tested here (the size limit is the router's half of issue 10).

Throughout, a pinger of its own (ping_watch.py) checks that the host answers `ib.ping`:
within 100 ms in `make fuzz`'s long run (issue 24's proof); in an ordinary test run, on a
machine running the whole suite at once, every ping answered within a second."""

import glob
import json
import random
import time

import zmq

from intentbus import Kind

from conftest import REPO, py_plugin, swift_echo_plugin, swift_test_plugin
from fuzzing import Rounds
from ping_watch import PingWatch

CASES = 3000
KINDS = [k.value.encode() for k in Kind] + [b"", b"request", b"REQUESTX", b"\xff"]
INTERESTING = [b"", b"{}", b"[]", b"null", b"\xff\xfe", b"{" * 600, b'{"a":' * 50, b"9" * 400,
               b'{"timeout_ms":-1}', b'{"timeout_ms":0}', b'{"timeout_ms":1.5}', b'{"timeout_ms":"x"}',
               b'{"plugin":"nobody"}', b'{"plugin":"echo","remember":true}', b'{"choice":"default"}',
               b'{"choice":7}', b'{"credential":null}', b'{"value":"\\ud800"}', b'{"protocol":1}',
               b'{"protocol":1,"plugin":"echo","token":"x","pid":1,"intents":[]}', b"r" * 256, b"r" * 255,
               b'{"timeout_ms":18446744073710}', b'{"timeout_ms":9223372036854775807}', b'{"timeout_ms":1e300}',
               b'{"timeout_ms":50}', b'{"sleep_ms":100}', b'{"hold":true}', b'{"ask":"x"}']
INTENTS = [b"EchoIntent", b"PyIntent", b"TestIntent", b"NoSuchIntent", b"ib.ping", b"ib.plugins", b"ib.explain",
           b"ib.choices", b"ib.entities", b""]


def _seed_messages():
    """Every message of the conformance vectors, as frames."""
    seeds = []
    for path in sorted(glob.glob(str(REPO / "conformance" / "*.json"))):
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        vectors = [v for key in ("vectors", "invalid", "bad_json") for v in content.get(key, [])]
        for conversation in content.get("conversations", []):
            vectors += conversation.get("steps", [])
        seeds += [[bytes.fromhex(fr["hex"]) for fr in v["frames"]] for v in vectors if v.get("frames")]
    return seeds


def _mutate_bytes(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data) + 1)
        op = rng.randrange(5)
        if op == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2 and data:
            del data[at:at + rng.randint(1, 8)]
        elif op == 3:
            data[at:at] = rng.choice(INTERESTING)
        else:
            data = bytearray(rng.choice(INTERESTING))
    return bytes(data[:4096])


def _message(rng, seeds):
    """One fuzzed multipart message: random, or a conformance message mutated."""
    choice = rng.random()
    if choice < 0.25:
        # Well-formed enough to be routed: a REQUEST, ANSWER or CANCEL to a real intent,
        # with fuzzed header and body.
        kind = rng.choice([b"REQUEST"] * 4 + [b"ANSWER", b"CANCEL"])
        header, body = (_mutate_bytes(rng.choice(INTERESTING), rng) if rng.random() < 0.3 else rng.choice(INTERESTING)
                        for _ in range(2))
        return [b"IB1", kind, b"f%d" % rng.randrange(50), rng.choice(INTENTS), header, body]
    if choice < 0.4:
        return [bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))) for _ in range(rng.randint(0, 8))]
    frames = list(rng.choice(seeds))
    if choice < 0.3:
        frames[1 % len(frames)] = rng.choice(KINDS)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        i = rng.randrange(len(frames)) if frames else 0
        if op < 6 and frames:
            frames[i] = _mutate_bytes(frames[i], rng)
        elif op == 6 and frames:
            del frames[i]
        elif op == 7:
            frames.insert(i, rng.choice(INTERESTING))
        elif op == 8 and frames:
            frames[i] = rng.choice(INTERESTING)
        else:
            if len(frames) > 2:
                frames[2] = rng.choice([b"", b"r1", b"h1", b"x" * 255, b"x" * 256])
    return frames


def _drain(sockets):
    for s in sockets:
        while True:
            try:
                s.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                break


def test_fuzz_host_survives_random_and_mutated_messages_on_both_sockets(start_host):
    host = start_host([swift_echo_plugin("echo"), py_plugin("py"), swift_test_plugin("tp")],
                      wait_ready=["echo", "py", "tp"])
    backend = f"ipc://{host.dir}/state/backend.sock"
    ctx = zmq.Context()
    sockets = []
    for i, endpoint in enumerate([host.frontend] * 3 + [backend] * 3):
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.SNDHWM, 1000)
        if i % 3 == 1:
            s.setsockopt(zmq.IDENTITY, b"fuzz-%d" % i)
        s.connect(endpoint)
        sockets.append(s)
    seeds = _seed_messages()
    rounds = Rounds("protocol-live")
    watch = PingWatch(host.frontend, bound_ms=100 if rounds.fuzzing else 1000)
    try:
        def round_fn(n):
            rng = random.Random(n)
            deadline = time.monotonic() + 60
            for case in range(CASES):
                frames = _message(rng, seeds) or [b""]  # a message has at least one frame
                try:
                    rng.choice(sockets).send_multipart(frames, zmq.NOBLOCK)
                except zmq.Again:
                    _drain(sockets)
                rounds.cases += 1
                if case % 200 == 0:
                    _drain(sockets)
                    assert host.process.poll() is None, f"the host died after {rounds.cases} messages"
                assert time.monotonic() < deadline, "a round of the protocol fuzzer took over 60 s"

        with watch:
            rounds.run(round_fn)
        print(f"protocol-live: {watch.line()}")
        assert watch.ok(), watch.line()
        time.sleep(0.2)
        _drain(sockets)
        assert host.process.poll() is None, f"the host died (exit {host.process.returncode})"
        for plugin in ("echo", "py", "tp"):
            host.wait_plugin(plugin)
        client = host.client()
        assert client.send("EchoIntent", {"after": "fuzz"}, timeout=10).body == {"after": "fuzz"}
        assert client.send("PyIntent", {"n": 1}, timeout=10).body["params"] == {"n": 1}
        assert client.send("TestIntent", {"n": 2}, timeout=10).body["params"] == {"n": 2}
        assert host.process.poll() is None
    finally:
        watch.stop()
        for s in sockets:
            s.close()
        ctx.term()
