"""A client can make the host refuse at will; it cannot make the log grow at will
(docs/reliability.md, "Refusals in the log"): at info and above, the first refusal gets
its own line, the next ones within 10 s only a count, written with the next line."""

import os

import zmq

from conftest import swift_echo_plugin
from intentbus.wire import Kind, Message

REQUESTS = 3_000


def test_thousands_of_refused_requests_add_a_few_log_lines(start_host):
    host = start_host([swift_echo_plugin()], wait_ready=["echo"])
    before = os.path.getsize(host.log_path)
    ctx = zmq.Context()
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(host.frontend)
    try:
        for i in range(REQUESTS):
            s.send_multipart(Message.build(Kind.REQUEST, f"u{i}", "NoSuchIntent", {}, {}).encode())
        errors = 0
        while errors < REQUESTS:
            assert s.poll(10_000), f"only {errors} answers"
            frames = s.recv_multipart()
            assert frames[1] == b"ERROR" and b"unknown_intent" in frames[-1], frames
            errors += 1
    finally:
        s.close(linger=0)
        ctx.term()
    # Every request still got its one final answer; the log got one line for them.
    assert host.client().ping()["protocol"] == 1
    with open(host.log_path, "rb") as f:
        grown = f.read()[before:].decode("utf-8", "replace")
    # The host runs at --log-level debug here, which logs each one; the levels above do not.
    mentions = [line for line in grown.splitlines() if "NoSuchIntent" in line and " debug " not in line]
    print(f"{REQUESTS} unknown_intent refusals: {len(mentions)} log line(s), the log grew {len(grown)} bytes")
    assert 1 <= len(mentions) <= 2, mentions
    assert "further refusals are summed up every 10 s" in mentions[0]
    assert sum(len(line) + 1 for line in grown.splitlines() if " debug " not in line) < 20_000
