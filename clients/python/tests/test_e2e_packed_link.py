"""The packed link (docs/protocol.md §5.1): a plugin that asks for it in its HELLO gets
`"packed":true` in the WELCOME, its requests as one packed frame (up to 64 KiB, six frames
above), and may answer packed; one that does not ask gets six frames as before. A packed
frame that does not fit its lengths is dropped, and the host goes on."""

import json
import sys
from pathlib import Path

import pytest

from conftest import plugin_entry
from intentbus.errors import BusTimeout

RAWBAD = Path(__file__).resolve().parent / "plugins" / "rawbad.py"


def rawbad(packed):
    return plugin_entry("bad", [sys.executable, str(RAWBAD)], ["BadIntent"], timeout="2s",
                        env={"RAWBAD_PACKED": "1" if packed else "0"}, inherit=("PYTHONPATH",))


def test_a_plugin_that_asks_gets_the_packed_link(start_host):
    host = start_host([rawbad(True)], wait_ready=["bad"])
    client = host.client()
    body = client.send("BadIntent", {"send": "link", "text": "hi"}, timeout=5).body
    assert body["welcome"] == {"packed": True, "protocol": 1}
    assert body["request_packed"] is True
    # Its packed answers reach the client as the six frames it sent them in.
    assert client.send("BadIntent", {"send": "good"}, timeout=5).body == {"ok": True}
    assert client.stray_messages == []


def test_a_large_request_goes_as_six_frames_on_a_packed_link(start_host):
    host = start_host([rawbad(True)], wait_ready=["bad"])
    text = "x" * 100_000
    body = host.client().send("BadIntent", {"send": "link", "text": text}, timeout=5).body
    assert body["request_packed"] is False
    assert body["size"] == len(json.dumps({"send": "link", "text": text}, separators=(",", ":")))


def test_a_plugin_that_does_not_ask_gets_six_frames(start_host):
    host = start_host([rawbad(False)], wait_ready=["bad"])
    body = host.client().send("BadIntent", {"send": "link"}, timeout=5).body
    assert body["welcome"] == {"protocol": 1}
    assert body["request_packed"] is False


def test_a_malformed_packed_answer_is_dropped_and_the_request_still_ends(start_host):
    host = start_host([rawbad(True)], wait_ready=["bad"])
    client = host.client()
    with pytest.raises(BusTimeout) as caught:
        client.send("BadIntent", {"send": "packed-bad"}, timeout=3)
    assert "plugin bad did not answer" in caught.value.message
    host.wait_log("dropped a malformed packed message from a plugin: the body of a packed frame")
    assert client.send("BadIntent", {"send": "good"}, timeout=5).body == {"ok": True}
