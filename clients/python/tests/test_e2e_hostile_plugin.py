"""A plugin that breaks the protocol never makes the host break it towards clients
(docs/protocol.md §5.3): every request still gets exactly one final answer, and what the
client gets is valid."""

import sys
from pathlib import Path

import pytest
import zmq

from conftest import plugin_entry
from intentbus import PluginError
from intentbus.wire import Kind, Message

RAWBAD = Path(__file__).resolve().parent / "plugins" / "rawbad.py"


def rawbad_plugin(id="bad"):
    return plugin_entry(id, [sys.executable, str(RAWBAD)], ["BadIntent"])


@pytest.mark.parametrize("send, why", [
    ("header-not-json", "its header is not valid JSON"),
    ("header-not-object", "its header is not a JSON object"),
    ("other-plugin", "names plugin \"someone-else\", not its own id bad"),
    ("bad-status", "REPLY status is \"maybe\""),
    ("error-not-json", "its ERROR body is"),
    ("error-no-code", "string \"code\" and \"message\""),
    ("prompt-bad", "string \"kind\""),
])
def test_invalid_plugin_output_becomes_one_plugin_error(start_host, send, why):
    host = start_host([rawbad_plugin()], wait_ready=["bad"])
    client = host.client()
    with pytest.raises(PluginError) as caught:
        client.send("BadIntent", {"send": send}, timeout=5)
    assert "plugin bad sent an invalid answer" in caught.value.message
    assert why in caught.value.message, caught.value.message
    # The host is still up and the plugin still serves.
    assert client.send("BadIntent", {"send": "good"}, timeout=5).body == {"ok": True}
    assert client.stray_messages == []


def test_invalid_progress_is_dropped_and_the_reply_still_comes(start_host):
    host = start_host([rawbad_plugin()], wait_ready=["bad"])
    progress = []
    reply = host.client().send("BadIntent", {"send": "progress-bad"}, timeout=5, on_progress=progress.append)
    assert reply.body == {"ok": True}
    assert progress == []
    host.wait_log("its PROGRESS body is")


def test_one_open_question_per_request(start_host):
    """A plugin's 2,000 PROMPTs for one request: the client sees the first, then one
    plugin_error; the others are never relayed (docs/security.md)."""
    host = start_host([rawbad_plugin()], wait_ready=["bad"])
    ctx = zmq.Context()
    dealer = ctx.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.setsockopt(zmq.RCVTIMEO, 5000)
    dealer.connect(host.frontend)
    try:
        dealer.send_multipart(Message.build(Kind.REQUEST, "q", "BadIntent", {}, {"send": "prompts"}).encode())
        kinds = []
        while True:
            msg = Message.decode(dealer.recv_multipart())
            kinds.append(msg.kind)
            if msg.kind == Kind.ERROR:
                body = msg.body_json()
                break
        assert kinds == [Kind.PROMPT, Kind.ERROR], kinds
        assert body["code"] == "plugin_error" and "previous one was unanswered" in body["message"], body
        dealer.setsockopt(zmq.RCVTIMEO, 500)
        with pytest.raises(zmq.Again):
            dealer.recv_multipart()  # nothing more for that request
    finally:
        dealer.close(linger=0)
        ctx.term()
    assert host.client().send("BadIntent", {"send": "good"}, timeout=5).body == {"ok": True}
