"""Results that lead on, snippets, authentication policies and assistant schemas
(docs/results.md, docs/schemas.md, docs/security.md) with the real host, real Python
plugins, the Python clients and the `intentbus` CLI on a pseudo-terminal."""

import asyncio
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import binary, plugin_entry
from test_e2e_security import curve_host, keypair, wait_reply  # noqa: F401 (curve_host is a fixture)
from intentbus import (AsyncClient, AuthenticationRequired, Forbidden, IntermediateResult, Reply,
                       UnknownIntent)

PYFLOW = Path(__file__).resolve().parent / "plugins" / "pyflow.py"
PYFLOW_DEFINITIONS = Path(__file__).resolve().parent / "definitions" / "pyflow.yaml"
PYFLOW_INTENTS = ["PyOpenIntent", "PySearchIntent", "system.search", "PyFindAndOpenIntent", "PyLockedIntent",
                  "PyLocalOnlyIntent", "PyHandOverIntent"]


def pyflow_plugin(id="pyflow", intents=PYFLOW_INTENTS):
    return plugin_entry(id, [sys.executable, str(PYFLOW)], intents,
                        extra=[f"definitions: [{str(PYFLOW_DEFINITIONS)!r}]"])


def test_results_open_intents_in_both_styles(start_host):
    host = start_host([pyflow_plugin()], wait_ready=["pyflow"])
    client = host.client()
    seen = []
    reply = client.send("PyFindAndOpenIntent", {"name": "garden"}, on_result=seen.append)
    assert [r.body["dialog"] for r in seen] == ["Found garden."]
    assert seen[0].opens == "PyOpenIntent" and seen[0].plugin == "pyflow" and seen[0].intent == "PyFindAndOpenIntent"
    assert reply.body["dialog"] == "Opened garden (pyflow)."
    assert [r.body["dialog"] for r in reply.earlier] == ["Found garden."]
    assert reply.header["opened_by"] == [{"intent": "PyFindAndOpenIntent", "plugin": "pyflow"}]

    # A legacy continueInApp hands over the same way; step by step with a Conversation.
    conv = client.start("PyHandOverIntent", {"item": "website"})
    events = list(conv)
    assert isinstance(events[0], IntermediateResult) and isinstance(events[-1], Reply)
    assert events[0].body["code"] == "continueInApp"
    assert events[0].body["dialog"] == "Opening website in the app."
    assert events[-1].body["dialog"] == "Opened website (pyflow)."
    assert conv.results == [events[0]]

    async def run_async():
        async with AsyncClient(host.frontend) as aclient:
            got = []
            final = await aclient.send("PyFindAndOpenIntent", {"name": "web-shop"}, on_result=got.append)
            return got, final
    got, final = asyncio.run(run_async())
    assert [r.opens for r in got] == ["PyOpenIntent"] and final.earlier == tuple(got)
    assert final.body["dialog"] == "Opened web-shop (pyflow)."


def test_two_plugins_implement_system_search_and_the_view_offers_actions(start_host):
    host = start_host([pyflow_plugin("pyflow-a"), pyflow_plugin("pyflow-b")], wait_ready=["pyflow-a", "pyflow-b"])
    client = host.client()
    asked = []

    def choose(prompt):
        asked.append(prompt)
        return "pyflow-b"
    reply = client.send("system.search", {"criteria": "web"}, on_prompt=choose)
    assert [p.kind for p in asked] == ["plugin_choice"]
    assert [o["id"] for o in asked[0].options] == ["pyflow-a", "pyflow-b"]
    assert reply.plugin == "pyflow-b" and reply.body["dialog"] == "pyflow-b found 2."
    actions = reply.actions
    assert [(a.title, a.row, a.intent, a.parameters) for a in actions] == [
        ("Open", "Website relaunch", "PyOpenIntent", {"item": "website"}),
        ("Open", "Web shop", "PyOpenIntent", {"item": "web-shop"})]
    opened = client.send(actions[1].intent, actions[1].parameters, plugin="pyflow-a")
    assert opened.body["dialog"] == "Opened web-shop (pyflow-a)."
    with pytest.raises(UnknownIntent):
        client.send("system.nothing", {})


def test_cli_offers_snippet_actions_on_a_terminal_and_runs_the_chosen_one(start_host):
    host = start_host([pyflow_plugin()], wait_ready=["pyflow"])
    master, slave = pty.openpty()
    proc = subprocess.Popen([binary("intentbus"), "send", "system.search", "criteria=web", "--endpoint", host.frontend],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, close_fds=True)
    os.close(slave)
    output = b""

    def read_until(text, seconds=20):
        nonlocal output
        deadline = time.monotonic() + seconds
        while text not in output:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} in {output!r}")
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    output += os.read(master, 4096)
                except OSError:
                    break
    try:
        read_until(b"Run an action? 1\xe2\x80\x932, Enter for none: ")
        assert b"1) Open \xe2\x86\x92 PyOpenIntent" in output and b"Website relaunch" in output
        os.write(master, b"7\n")  # out of range: asked again
        read_until(b"Please type a number from 1 to 2")
        os.write(master, b"2\n")
        read_until(b"Opened web-shop (pyflow).")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        proc.stderr.close()


def test_authentication_policies_with_the_credential_on_ipc(start_host):
    host = start_host([pyflow_plugin()], wait_ready=["pyflow"], host_extra="  client_credential: s3cret")
    client = host.client()
    for intent in ("PyLockedIntent", "PyLocalOnlyIntent"):
        with pytest.raises(AuthenticationRequired) as e:
            client.send(intent, {})
        assert "requires authentication" in e.value.message
    assert client.send("PyLockedIntent", {}, credential="s3cret").body["dialog"] == "unlocked"
    assert client.send("PyLocalOnlyIntent", {}, credential="s3cret").body["dialog"] == "local and unlocked"


def test_authentication_policies_with_curve_client_rights(curve_host):
    admin_pub, admin_sec = keypair()
    kiosk_pub, kiosk_sec = keypair()
    host = curve_host([{"name": "admin", "public": admin_pub, "extra": {"restricted": "true"}},
                       {"name": "kiosk", "public": kiosk_pub}],
                      [pyflow_plugin()])
    admin, kiosk = host.client(admin_sec), host.client(kiosk_sec)
    assert wait_reply(admin, "PyLockedIntent").body["dialog"] == "unlocked"
    with pytest.raises(Forbidden) as e:
        kiosk.send("PyLockedIntent", {}, timeout=5)
    assert "client kiosk has no right to it (restricted: true in host.clients)" in e.value.message
    # The shared credential is not consulted for keyed clients.
    with pytest.raises(Forbidden):
        kiosk.send("PyLockedIntent", {}, timeout=5, credential="anything")
    # Local-device authentication: no CURVE client is on this machine's ipc socket.
    for c in (admin, kiosk):
        with pytest.raises(AuthenticationRequired) as e:
            c.send("PyLocalOnlyIntent", {}, timeout=5)
        assert "requires authentication on the local device" in e.value.message


def test_a_plugin_error_in_an_opened_chain_is_the_final_answer(start_host):
    # A result that opens an intent nobody claims: RESULT, then the final unknown_intent.
    host = start_host([pyflow_plugin(intents=["PyFindAndOpenIntent"])], wait_ready=["pyflow"])
    seen = []
    with pytest.raises(UnknownIntent):
        host.client().send("PyFindAndOpenIntent", {"name": "x"}, on_result=seen.append)
    assert [r.opens for r in seen] == ["PyOpenIntent"]


def test_a_req_client_gets_only_the_final_answer_with_opened_by(start_host):
    import zmq
    from intentbus import Kind, Message
    host = start_host([pyflow_plugin()], wait_ready=["pyflow"])
    ctx = zmq.Context()
    req = ctx.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    req.setsockopt(zmq.RCVTIMEO, 10_000)
    try:
        req.connect(host.frontend)
        req.send_multipart(Message.build(Kind.REQUEST, "q1", "PyFindAndOpenIntent", None, {"name": "garden"}).encode())
        reply = Message.decode(req.recv_multipart())
        assert reply.kind is Kind.REPLY, "REQ peers never get a RESULT (they must alternate send and receive)"
        assert reply.intent == "PyOpenIntent"
        assert reply.header_json()["opened_by"] == [{"intent": "PyFindAndOpenIntent", "plugin": "pyflow"}]
        assert reply.body_json()["dialog"] == "Opened garden (pyflow)."
        # The socket is in step: the next request works.
        req.send_multipart(Message.build(Kind.REQUEST, "q2", "PyOpenIntent", None, {"item": "x"}).encode())
        assert Message.decode(req.recv_multipart()).body_json()["dialog"] == "Opened x (pyflow)."
    finally:
        req.close()
        ctx.term()
