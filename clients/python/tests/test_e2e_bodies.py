"""End to end: the host's plain path forwards bodies unread, so the Python plugin SDK
refuses a parameters body that is not a JSON object (issue 10), as the Swift SDK does.
A raw DEALER client sends the frames through a real host."""

import zmq

from intentbus import ErrorCode, Kind, Message

from conftest import py_plugin, swift_echo_plugin

BAD = [
    ("not-json", b"hello", "not valid JSON"),
    ("truncated", b'{"a":', "not valid JSON"),
    ("not-utf8", b"{\xff}", "not valid JSON"),
    ("array", b"[1,2]", "got an array"),
    ("string", b'"x"', "got a string"),
    ("number", b"42", "got an integer"),
    ("null", b"null", "got null"),
    ("big-int", b'{"n":18446744073709551616}', "integer outside the 64-bit range"),
    ("surrogate", b'{"s":"\\ud800"}', "unpaired surrogate"),
]


def _raw_dealer(host):
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.RCVTIMEO, 10_000)
    sock.connect(host.frontend)
    return sock


def _send(sock, request_id, intent, body):
    sock.send_multipart([b"IB1", b"REQUEST", request_id.encode(), intent.encode(), b"", body])
    return Message.decode(sock.recv_multipart())


def test_python_and_swift_plugins_refuse_bodies_that_are_not_json_objects(start_host):
    host = start_host([py_plugin("py"), swift_echo_plugin("echo")], wait_ready=["py", "echo"])
    sock = _raw_dealer(host)
    try:
        for intent in ("PyIntent", "EchoIntent"):
            for name, body, detail in BAD:
                answer = _send(sock, f"{intent}-{name}", intent, body)
                assert answer.kind is Kind.ERROR, (intent, name, answer)
                assert answer.request_id == f"{intent}-{name}"
                err = answer.body_json()
                assert err["code"] == ErrorCode.INVALID_PARAMETERS.value, (intent, name, err)
                assert err["message"].startswith("the parameters body must be a JSON object"), err
                assert detail in err["message"], (intent, name, err)
        ok = _send(sock, "py-ok", "PyIntent", b'{"a":[1,2.5]}')
        assert ok.kind is Kind.REPLY and ok.body_json()["params"] == {"a": [1, 2.5]}
        echoed = _send(sock, "echo-ok", "EchoIntent", b'{"a":[1,2.5]}')
        assert echoed.kind is Kind.REPLY and echoed.body_json() == {"a": [1, 2.5]}
        assert host.plugin("py")["state"] == "ready" and host.plugin("echo")["state"] == "ready"
    finally:
        sock.close()
