"""The packed form on tcp+CURVE (docs/protocol.md §2.1), with the real host and a real
Python plugin: a client that packs is answered packed, an old six-frame client on the same
host is answered in six frames, and a malformed packed frame gets a clear `bad_frame`."""

import json
import time

import pytest
import zmq

from intentbus.packed import is_packed, pack, unpack
from conftest import py_plugin
from intentbus import NoAnswer
from intentbus.errors import BusTimeout
from test_e2e_security import CurveHost, keypair

_SIX = [b"IB1", b"REQUEST"]


def _dealer(host, secret, public, timeout_ms=10_000):
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.RCVTIMEO, timeout_ms)
    s.curve_serverkey, s.curve_publickey, s.curve_secretkey = host.server_key.encode(), public.encode(), secret.encode()
    s.connect(host.frontend)
    return s


def _request(request_id, params, intent=b"PyIntent"):
    return _SIX + [request_id.encode(), intent, b"", json.dumps(params).encode()]


def _final(sock, request_id):
    """The final answer for `request_id` and the form it came in (True: packed)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        frames = sock.recv_multipart()
        packed = is_packed(frames)
        six = unpack(frames[0]) if packed else frames
        if six[2] == request_id.encode() and six[1] in (b"REPLY", b"ERROR", b"REFUSED"):
            return six, packed
    raise AssertionError(f"no final answer for {request_id}")


@pytest.fixture
def alice_host():
    """A CURVE host (its own tcp ports) listing alice; her Python client, ready; her keys."""
    alice_pub, alice_sec = keypair()
    host = CurveHost([{"name": "alice", "public": alice_pub}], [py_plugin("py")])
    try:
        alice = host.client(alice_sec)
        deadline = time.monotonic() + 60  # the plugin may take a while to start on a loaded machine
        while True:
            try:
                assert alice.send("PyIntent", {"warm": 1}, timeout=5).status == "success"
                break
            except (NoAnswer, BusTimeout):
                if time.monotonic() > deadline:
                    raise
        yield host, alice, alice_pub, alice_sec
    finally:
        host.stop()


def test_a_packed_client_is_answered_packed_and_the_python_client_packs(alice_host):
    host, alice, pub, sec = alice_host
    s = _dealer(host, sec, pub)
    try:
        big = "x" * 200_000  # over 1 KiB: the host shares the body with the packed frame
        for i, params in enumerate([{"n": 1}, {"big": big}, {"n": 3}]):
            s.send(pack(_request(f"p{i}", params)))
            six, packed = _final(s, f"p{i}")
            assert packed, "a client that sends packed is answered packed"
            assert six[1] == b"REPLY" and json.loads(six[4])["status"] == "success"
            body = json.loads(six[5])
            assert body["params"] == params and body["client"] == "alice", "the same grant and identity as six frames"
    finally:
        s.close()
    # The Python client announces the form and packs once the host has answered in it.
    for i in range(3):
        assert alice.send("PyIntent", {"i": i}, timeout=5).body["params"] == {"i": i}
    link = alice._links[host.frontend]
    assert link.packing.announced and link.packing.host_packs


def test_an_old_six_frame_client_still_gets_six_frames(alice_host):
    host, alice, pub, sec = alice_host
    assert alice.send("PyIntent", {"i": 1}, timeout=5).status == "success"  # a packed client on the host
    old = _dealer(host, sec, pub)
    try:
        for i in range(3):
            old.send_multipart(_request(f"o{i}", {"i": i}))
            six, packed = _final(old, f"o{i}")
            assert not packed and len(six) == 6 and six[1] == b"REPLY"
            assert json.loads(six[5])["params"] == {"i": i}
        # A connection that packed and then sends six frames again gets six again.
        old.send(pack(_request("back1", {})))
        assert _final(old, "back1")[1]
        old.send_multipart(_request("back2", {}))
        assert not _final(old, "back2")[1]
    finally:
        old.close()


def test_malformed_packed_frames_get_a_clear_bad_frame(alice_host):
    host, _, pub, sec = alice_host
    s = _dealer(host, sec, pub)
    good = pack(_request("m1", {"a": 1}))
    cases = [
        (good[:-1], "runs past the frame's end"),             # the body's length says one byte more
        (good + b"!", "bytes after its body"),                 # a byte after the body
        (b"IB1P\x07REQUEST", "ends before the length of its request id"),
        (b"IB1P\xffREQUEST", "the kind of a packed frame (255 bytes) runs past"),
        (good[:24] + b"\xff\xff\xff\xff" + good[28:], "the header of a packed frame (4294967295 bytes)"),  # 4 GiB
    ]
    try:
        for frame, why in cases:
            s.send(frame)
            frames = s.recv_multipart()
            assert is_packed(frames), "the refusal comes in the client's form"
            six = unpack(frames[0])
            assert six[1] == b"REFUSED", six
            body = json.loads(six[5])
            assert body["code"] == "bad_frame" and why in body["message"], body
        # An unknown kind inside a well-formed packed frame: refused like six frames would be.
        s.send(pack([b"IB1", b"FOO", b"m2", b"PyIntent", b"", b""]))
        six = unpack(s.recv_multipart()[0])
        assert six[1] == b"REFUSED" and "not a known message kind" in json.loads(six[5])["message"]
        # The connection goes on: the next good one is answered.
        s.send(good)
        six, packed = _final(s, "m1")
        assert packed and six[1] == b"REPLY"
    finally:
        s.close()
    assert "malformed message from a client" in host.log
