"""A plugin that breaks the protocol never makes the host break it towards clients
(docs/protocol.md §5.3): every request still gets exactly one final answer, and what the
client gets is valid."""

import sys
from pathlib import Path

import pytest

from conftest import plugin_entry
from intentbus import PluginError

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
