"""Majordomo as existing MDP users bring it (docs/mdp.md, "Bodies", "Queueing", "Rights"):
opaque bodies both ways, the envelope on request, the MDP queue instead of `busy`, the
paced DISCONNECT of refused workers, MDP clients' rights and `mmi.service`, the
`mdp_only_idempotent` refusal, and the `mdp` counters of `ib.status`. The client and
worker are mdp_rfc7.py's, written from RFC 7 alone; every socket and worker opened here
is closed by the test."""

import json
import time

import pytest
import zmq

from conftest import binary, plugin_entry, py_legacy_plugin, py_plugin
from mdp_rfc7 import MDPC01, MDPClient, MDPWorker, mmi_service
from test_e2e_mdp import BEAT, closing, mdp_entry, wait_until  # noqa: F401  (closing is a fixture)


def opaque_host(start_host, plugins, wait_ready=(), extra=""):
    """A host with the MDP endpoint in its default form (`mdp_reply: body`)."""
    host = start_host(plugins, wait_ready=wait_ready,
                      host_extra=f"  mdp: ipc://mdp.sock\n  mdp_heartbeat: {int(BEAT * 1000)}ms\n" + extra)
    host.mdp = f"ipc://{host.dir}/mdp.sock"
    return host


def raw_echo_plugin(id="echo"):
    """plugin-echo --raw: a raw handler, which moves the body back as it came."""
    return plugin_entry(id, [binary("plugin-echo"), "--raw"], ["EchoIntent"])


def status(host):
    return host.client().control("ib.status")


class Destroying:
    """Closes a zmq context (with its sockets) for the `closing` fixture."""

    def __init__(self, context):
        self.context = context

    def close(self):
        self.context.destroy(linger=0)


def async_client(host, closing):
    """An asynchronous MDP client: a DEALER that writes the empty frame itself (RFC 7)."""
    context = zmq.Context()
    closing(Destroying(context))
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(host.mdp)
    return dealer


class Recorder:
    """A worker handler that keeps every request's frames and answers with `answer(frames)`."""

    def __init__(self, answer):
        self.seen = []
        self.answer = answer

    def __call__(self, body):
        self.seen.append(list(body))
        return self.answer(list(body))


def test_hello_world_reaches_the_worker_unchanged_and_its_reply_comes_back_unchanged(start_host, closing):
    host = opaque_host(start_host, [mdp_entry("echo", ["echo"])])
    # The zguide's mdworker answers with the request itself; this one answers "Hello back".
    handler = Recorder(lambda body: [b"Hello back"] if body == [b"Hello world"] else body)
    closing(MDPWorker(host.mdp, "echo", handler, heartbeat=BEAT).start())
    host.wait_plugin("echo", "ready")
    client = closing(MDPClient(host.mdp))
    assert client.request("echo", b"Hello world") == [b"Hello back"]
    assert handler.seen == [[b"Hello world"]]
    # Any number of frames, any bytes, empty ones included, each way.
    frames = [b"first", b"", b"\x00\xff\xfe binary", b"x" * 70_000]
    assert client.request("echo", *frames) == frames
    assert handler.seen[-1] == frames
    # No body at all: the worker sees no frame, and a reply without one has none.
    req = client.socket
    req.send_multipart([MDPC01, b"echo"])
    assert req.poll(10_000)
    assert req.recv_multipart() == [MDPC01, b"echo"]
    assert handler.seen[-1] == []
    # The envelope on request: the same worker reply inside {"status", "plugin", "result"}.
    envelope = json.loads(client.request("envelope:echo", b"Hello world")[0])
    assert envelope == {"status": "success", "plugin": "echo", "result": "Hello back"}
    # An error is still one frame of JSON, in the envelope's error form.
    error = json.loads(client.request("NoSuchService", b"Hello world")[0])
    assert error["status"] == "error" and error["error"]["code"] == "unknown_intent"


def test_a_native_intent_takes_opaque_bytes_and_typed_styles_say_they_need_json(start_host, closing):
    host = opaque_host(start_host, [raw_echo_plugin(), py_legacy_plugin()], wait_ready=["echo", "pylegacy"])
    client = closing(MDPClient(host.mdp))
    # A raw (plain) handler gets the bytes as sent; its reply bytes come back as they are.
    assert client.request("EchoIntent", b"Hello world") == [b"Hello world"]
    assert client.request("EchoIntent", b'{"a": 1}') == [b'{"a": 1}']
    assert json.loads(client.request("envelope:EchoIntent", b'{"a": 1}')[0]) == \
        {"status": "success", "plugin": "echo", "result": {"a": 1}}
    # A legacy (typed) intent needs JSON, and says so.
    error = json.loads(client.request("PyResolveIntent", b"Hello world")[0])
    assert error["status"] == "error" and error["error"]["code"] == "invalid_parameters"
    assert "takes its parameters as a JSON object" in error["error"]["message"], error
    # A plugin takes one body frame; several are for mdp_worker services only.
    error = json.loads(client.request("EchoIntent", b"a", b"b")[0])
    assert error["error"]["code"] == "bad_frame" and "mdp_worker" in error["error"]["message"]


def test_pipelined_requests_wait_in_the_mdp_queue_instead_of_busy(start_host, closing):
    # The figures: 2,000 pipelined at max_in_flight 256 gave 62 % busy.
    entry = mdp_entry("slow", ["slow"], timeout="30s") + "\n    max_in_flight: 256"
    host = opaque_host(start_host, [entry], extra="  mdp_queue: 5000\n")

    def slow(body):
        time.sleep(0.001)
        return body
    closing(MDPWorker(host.mdp, "slow", slow, heartbeat=BEAT).start())
    host.wait_plugin("slow", "ready")
    dealer = async_client(host, closing)
    count = 2000
    for i in range(count):
        dealer.send_multipart([b"", MDPC01, b"slow", str(i).encode()])
    replies = []
    deadline = time.monotonic() + 60
    while len(replies) < count and time.monotonic() < deadline:
        if dealer.poll(1_000):
            replies.append(dealer.recv_multipart())
    bodies = [r[3] for r in replies]
    assert len(bodies) == count, f"{len(bodies)} of {count} replies"
    assert sorted(bodies, key=int) == [str(i).encode() for i in range(count)], [b for b in bodies if not b.isdigit()][:3]
    mdp = status(host)["mdp"]
    assert mdp["errors"].get("busy", 0) == 0, mdp
    assert mdp["queued_total"] > 0 and mdp["queued"] == 0 and mdp["queue_limit"] == 5000, mdp
    assert status(host)["plugins"][0]["busy"] == 0


def test_past_the_mdp_queue_bound_requests_get_busy_naming_it(start_host, closing):
    entry = mdp_entry("stuck", ["stuck"], timeout="30s") + "\n    max_in_flight: 1"
    host = opaque_host(start_host, [entry], extra="  mdp_queue: 3\n")
    closing(MDPWorker(host.mdp, "stuck", lambda body: None, heartbeat=BEAT).start())  # never answers
    host.wait_plugin("stuck", "ready")
    dealer = async_client(host, closing)
    for i in range(10):
        dealer.send_multipart([b"", MDPC01, b"stuck", b"%d" % i])
    got = []
    while dealer.poll(1_500):
        got.append(json.loads(dealer.recv_multipart()[3]))
    # One at the worker, three waiting: six refused, each saying which bound it met.
    assert len(got) == 6, got
    assert all(g["error"]["code"] == "busy" and g["error"]["details"]["setting"] == "mdp_queue"
               and g["error"]["details"]["limit"] == 3 for g in got), got
    mdp = status(host)["mdp"]
    assert mdp["errors"]["busy"] == 6 and mdp["queued"] == 3 and mdp["requests"] == 10, mdp


def test_a_refused_worker_is_disconnected_at_a_slowing_pace(start_host, closing):
    host = opaque_host(start_host, [mdp_entry("weather", ["WeatherIntent"])])
    # An RFC 7 worker reconnects at once after DISCONNECT: unpaced, thousands a second.
    rogue = closing(MDPWorker(host.mdp, "NotListed", lambda body: body, heartbeat=BEAT).start())
    time.sleep(3)
    assert 2 <= rogue.connections <= 12, rogue.connections
    lines = host.log.count('offered service "NotListed"')
    assert 1 <= lines <= 2, lines
    assert status(host)["mdp"]["refused_ready"] == rogue.disconnects or status(host)["mdp"]["refused_ready"] >= 2
    # A listed service is served as ever meanwhile.
    closing(MDPWorker(host.mdp, "WeatherIntent", lambda body: [b"sunny"], heartbeat=BEAT).start())
    host.wait_plugin("weather", "ready")
    assert closing(MDPClient(host.mdp)).request("WeatherIntent", b"?") == [b"sunny"]


def test_mdp_clients_call_only_what_their_grant_names(start_host, closing):
    host = opaque_host(start_host, [py_plugin("py", intents=["PyIntent"]), raw_echo_plugin()], wait_ready=["py", "echo"])
    client = closing(MDPClient(host.mdp))
    # By default: every intent but the ib.* admin intents (ib.ping is always allowed).
    error = json.loads(client.request("ib.plugins.disable", b'{"plugin": "py"}')[0])
    assert error["error"]["code"] == "forbidden" and "mdp_intents" in error["error"]["message"], error
    assert host.plugin("py")["state"] == "ready"
    assert json.loads(client.request("ib.ping")[0]) != {} and mmi_service(client, "ib.ping") == "200"
    assert mmi_service(client, "ib.status") == "404" and mmi_service(client, "PyIntent") == "200"
    assert client.request("EchoIntent", b"hi") == [b"hi"]
    assert status(host)["mdp"]["errors"]["forbidden"] == 1


def test_mdp_intents_narrows_the_grant(start_host, closing):
    host = opaque_host(start_host, [py_plugin("py", intents=["PyIntent"]), raw_echo_plugin()], wait_ready=["py", "echo"],
                       extra='  mdp_intents: ["Echo*", "ib.status"]\n')
    client = closing(MDPClient(host.mdp))
    assert client.request("EchoIntent", b"hi") == [b"hi"]
    assert json.loads(client.request("PyIntent", b"{}")[0])["error"]["code"] == "forbidden"
    assert mmi_service(client, "PyIntent") == "404" and mmi_service(client, "EchoIntent") == "200"
    assert "plugins" in json.loads(client.request("ib.status", b"{}")[0])


def test_mdp_only_idempotent_refuses_intents_that_may_not_run_twice(start_host, closing):
    once = plugin_entry("once", [binary("plugin-echo"), "--raw"], ["EchoIntent"])
    twice = mdp_entry("twice", ["Lookup"]) + "\n    idempotent: true"
    host = opaque_host(start_host, [once, twice], wait_ready=["once"], extra="  mdp_only_idempotent: true\n")
    closing(MDPWorker(host.mdp, "Lookup", lambda body: [b"found"], heartbeat=BEAT).start())
    host.wait_plugin("twice", "ready")
    client = closing(MDPClient(host.mdp))
    error = json.loads(client.request("EchoIntent", b"send money")[0])["error"]
    assert error["code"] == "forbidden" and error["details"]["reason"] == "not_idempotent", error
    assert error["details"]["plugins"] == ["once"]
    assert client.request("Lookup", b"x") == [b"found"]
    # Native clients are not concerned: they have request ids and do not resend.
    assert host.client().send("EchoIntent", {"a": 1}).body == {"a": 1}


@pytest.mark.parametrize("value", ["sometimes", "3"])
def test_a_bad_mdp_reply_setting_is_a_manifest_error(tmp_path, value):
    import subprocess
    manifest = tmp_path / "plugins.yaml"
    manifest.write_text(f"host:\n  mdp: ipc://mdp.sock\n  mdp_reply: {value}\nplugins: []\n")
    out = subprocess.run([binary("intentbus"), "host", "--config", str(manifest)], capture_output=True, text=True, timeout=30,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 6 and "mdp_reply" in out.stderr and "must be body or envelope" in out.stderr, out
