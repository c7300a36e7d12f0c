"""Nobody acts as anyone else (docs/security.md, threat model): a connection that sets
another connection's ZeroMQ routing id (ZMQ_ROUTING_ID) after that one has gone is not
taken for it, on the frontend, the backend and the Majordomo endpoint. The host binds
every message to the User-Id its CURVE connection authenticated with (tcp on 127.0.0.1,
the real host)."""

import time

import pytest
import zmq

from intentbus.wire import Kind, Message
from mdp_rfc7 import MDPC01, MDPW01, READY, REPLY, REQUEST
from test_e2e_mdp import mdp_entry
from test_e2e_security import curve_host, free_port, keypair, py_plugin, wait_reply  # noqa: F401 (fixture)


def dealer(ctx, endpoint, keys, server, routing_id):
    """A DEALER with a CURVE key pair that names its own routing id."""
    s = ctx.socket(zmq.DEALER)
    s.linger = 0
    s.curve_publickey, s.curve_secretkey = keys[0].encode(), keys[1].encode()
    s.curve_serverkey = server.encode()
    s.setsockopt(zmq.ROUTING_ID, routing_id)
    s.connect(endpoint)
    return s


def receive(s, seconds=5.0):
    if not s.poll(int(seconds * 1000)):
        return None
    return s.recv_multipart()


def ask(s, intent, request_id, body=None, seconds=5.0):
    s.send_multipart(Message.build(Kind.REQUEST, request_id, intent, None, body or {}).encode())
    frames = receive(s, seconds)
    return None if frames is None else Message.decode(frames)


def leave(s):
    """Closes a connection and gives the host's I/O thread time to see it go, so that the
    routing id is free for the next connection."""
    s.close(linger=0)
    time.sleep(0.6)


def test_a_client_reusing_an_admins_routing_id_gets_its_own_rights_only(curve_host):
    admin, bob = keypair(), keypair()
    host = curve_host([{"name": "admin", "public": admin[0]},
                       {"name": "bob", "public": bob[0], "extra": {"intents": "[PyIntent]"}}],
                      [py_plugin("py")])
    wait_reply(host.client(admin[1]), "PyIntent")
    ctx = zmq.Context()
    try:
        first = dealer(ctx, host.frontend, admin, host.server_key, b"shared-id")
        reply = ask(first, "ib.status", "a1")
        assert reply is not None and reply.kind == Kind.REPLY, reply
        leave(first)
        second = dealer(ctx, host.frontend, bob, host.server_key, b"shared-id")
        answer = ask(second, "ib.status", "b1")
        assert answer is not None, "the second connection got no answer"
        assert answer.kind == Kind.ERROR and answer.body_json()["code"] == "forbidden", answer.body_json()
        assert "client bob may not call ib.status" in answer.body_json()["message"]
        # Its own rights still work on that routing id.
        mine = ask(second, "PyIntent", "b2")
        assert mine.kind == Kind.REPLY and mine.body_json()["client"] == "bob", mine.body_json()
        second.close(linger=0)
    finally:
        ctx.destroy(linger=0)
    assert "reused the routing id 7368617265642d6964 of one authenticated as client:admin" in host.log, host.log


def test_a_client_routing_id_taken_over_gets_no_answer_of_the_gone_connections_lane_requests(curve_host):
    """A plain request of alice's that is still open on the relay lane when another key takes
    over her routing id is cancelled at the plugin; its late REPLY never reaches the newcomer."""
    alice, bob, far = keypair(), keypair(), keypair()
    plugin = "\n".join(["  - id: far", "    remote: true", f"    public_key: \"{far[0]}\"",
                         "    IntentsSupported: [FarIntent]", "    timeout: 5s"])
    host = curve_host([{"name": "alice", "public": alice[0]}, {"name": "bob", "public": bob[0]}], [plugin])
    backend = [ln for ln in open(f"{host.dir}/plugins.yaml") if "backend:" in ln][0].split()[-1]
    ctx = zmq.Context()
    try:
        far_socket = dealer(ctx, backend, far, host.server_key, b"far-id")
        far_socket.send_multipart(Message.build(Kind.HELLO, "", "", None,
                                                {"protocol": 1, "plugin": "far", "intents": ["FarIntent"]}).encode())
        welcome = receive(far_socket, 10)
        assert welcome is not None and welcome[1] == b"WELCOME", welcome

        def served(expected_id):
            """The plugin's next message but heartbeats: (kind, wire id, header)."""
            while True:
                frames = receive(far_socket, 5)
                assert frames is not None, f"the plugin got nothing (waiting for {expected_id})"
                if frames[1] != b"HEARTBEAT":
                    return frames[1], frames[2].decode(), frames[4]

        first = dealer(ctx, host.frontend, alice, host.server_key, b"shared-id")
        # Her first request binds the routing id to her key (the general path); her second,
        # plain, with that binding, takes the relay lane.
        first.send_multipart(Message.build(Kind.REQUEST, "a0", "FarIntent", None, {}).encode())
        kind, wire0, _ = served("a0")
        far_socket.send_multipart(Message.build(Kind.REPLY, wire0, "FarIntent", {"plugin": "far"}, {"n": 0}).encode())
        assert Message.decode(receive(first, 5)).request_id == "a0"
        first.send_multipart(Message.build(Kind.REQUEST, "a1", "FarIntent", None, {}).encode())
        kind, wire1, _ = served("a1")
        assert kind == b"REQUEST"
        leave(first)
        second = dealer(ctx, host.frontend, bob, host.server_key, b"shared-id")
        second.send_multipart(Message.build(Kind.REQUEST, "b1", "FarIntent", None, {}).encode())
        # Bob's first message shows alice's connection gone: a1 is cancelled before b1 goes out.
        kind, wire, _ = served("CANCEL a1")
        assert (kind, wire) == (b"CANCEL", wire1), f"alice's lane request a1 was not cancelled: {kind!r} {wire}"
        kind, wire_b1, _ = served("b1")
        assert kind == b"REQUEST"
        # The plugin answers a1 anyway, then b1: bob gets only his own.
        for wire, whose in ((wire1, "alice"), (wire_b1, "bob")):
            far_socket.send_multipart(Message.build(Kind.REPLY, wire, "FarIntent", {"plugin": "far"},
                                                    {"for": whose}).encode())
        got = [Message.decode(f) for f in iter(lambda: receive(second, 1.5), None)]
        assert [(m.kind, m.request_id) for m in got] == [(Kind.REPLY, "b1")], \
            [(m.kind, m.request_id, m.body_json()) for m in got]
        second.close(linger=0)
        far_socket.close(linger=0)
    finally:
        ctx.destroy(linger=0)
    assert "reused the routing id 7368617265642d6964 of one authenticated as client:alice" in host.log, host.log


def test_a_remote_plugins_routing_id_taken_by_another_key_forges_no_reply(curve_host):
    alice, far, near = keypair(), keypair(), keypair()
    plugins = ["\n".join([f"  - id: {pid}", "    remote: true", f"    public_key: \"{keys[0]}\"",
                          f"    IntentsSupported: [{intent}]", "    timeout: 3s"])
               for pid, keys, intent in (("far", far, "FarIntent"), ("near", near, "NearIntent"))]
    host = curve_host([{"name": "alice", "public": alice[0]}], plugins)
    backend = [ln for ln in open(f"{host.dir}/plugins.yaml") if "backend:" in ln][0].split()[-1]
    ctx = zmq.Context()
    try:
        def hello(s, plugin, intent):
            s.send_multipart(Message.build(Kind.HELLO, "", "", None,
                                           {"protocol": 1, "plugin": plugin, "intents": [intent]}).encode())
            welcome = receive(s, 10)
            assert welcome is not None and welcome[1] == b"WELCOME", welcome

        real = dealer(ctx, backend, far, host.server_key, b"far-id")
        hello(real, "far", "FarIntent")
        leave(real)
        impostor = dealer(ctx, backend, near, host.server_key, b"far-id")
        time.sleep(0.3)
        client = host.client(alice[1], slack=2.0)
        outcome = {}

        def call():
            try:
                outcome["reply"] = client.send("FarIntent", {"amount": 1}, timeout=6)
            except Exception as e:  # the error the host answers with
                outcome["error"] = e
        import threading
        t = threading.Thread(target=call)
        t.start()
        request = receive(impostor, 5)
        assert request is not None and request[1] == b"REQUEST", "the test needs the impostor to see the request"
        forged = Message.build(Kind.REPLY, request[2].decode(), request[3].decode(), {"status": "success"},
                               {"forged": True}).encode()
        impostor.send_multipart(forged)
        t.join(15)
        impostor.close(linger=0)
    finally:
        ctx.destroy(linger=0)
    assert "reply" not in outcome, f"the impostor's reply reached the client: {outcome}"
    assert "error" in outcome
    assert "reused the routing id 6661722d6964 of plugin far (plugin:far)" in host.log, host.log


def test_a_client_key_on_an_mdp_workers_routing_id_takes_over_nothing(curve_host):
    alice, worker = keypair(), keypair()
    mdp = f"tcp://127.0.0.1:{free_port()}"
    entry = mdp_entry("weather", ["WeatherIntent"]) + f'\n    public_key: "{worker[0]}"'
    host = curve_host([{"name": "alice", "public": alice[0], "extra": {"intents": "[WeatherIntent]"}}], [entry],
                      host_extra=[f"mdp: {mdp}", "mdp_heartbeat: 5000ms"])
    ctx = zmq.Context()
    try:
        real = dealer(ctx, mdp, worker, host.server_key, b"worker-id")
        real.send_multipart([b"", MDPW01, READY, b"WeatherIntent"])
        deadline = time.monotonic() + 10
        while "MDP worker ready for WeatherIntent" not in host.log and time.monotonic() < deadline:
            time.sleep(0.05)
        leave(real)
        impostor = dealer(ctx, mdp, alice, host.server_key, b"worker-id")
        time.sleep(0.3)
        client = ctx.socket(zmq.REQ)
        client.linger = 0
        client.curve_publickey, client.curve_secretkey = alice[0].encode(), alice[1].encode()
        client.curve_serverkey = host.server_key.encode()
        client.connect(mdp)
        client.send_multipart([MDPC01, b"WeatherIntent", b"{}"])
        request = receive(impostor, 5)
        assert request is not None and request[2] == REQUEST, "the test needs the impostor to see the request"
        impostor.send_multipart([b"", MDPW01, REPLY, request[3], b"", b'{"forged": true}'])
        reply = receive(client, 10)
        impostor.close(linger=0)
        client.close(linger=0)
    finally:
        ctx.destroy(linger=0)
    assert reply is not None, "the client got no answer"
    assert b"forged" not in reply[-1], reply
    assert b"plugin_unavailable" in reply[-1], reply
    assert "reused its routing id (it was mdp-worker:weather)" in host.log, host.log


def test_phrases_and_donations_belong_to_the_client_that_made_them(curve_host):
    """A limited client can't edit admin's phrase (so admin's `say` still runs admin's
    parameters), can't donate as admin (the body's `client` loses to the key), and sees
    only its own donations and suggestions."""
    admin, bob = keypair(), keypair()
    shortcuts = "[PyIntent, \"ib.shortcuts.*\", ib.say, ib.donate, \"ib.donations.*\", ib.suggestions]"
    host = curve_host([{"name": "admin", "public": admin[0]},
                       {"name": "bob", "public": bob[0], "extra": {"intents": shortcuts}}],
                      [py_plugin("py")])
    a, b = host.client(admin[1]), host.client(bob[1])
    wait_reply(a, "PyIntent")
    a.send("ib.shortcuts.add", {"phrase": "pay the rent", "intent": "PyIntent", "parameters": {"to": "landlord"}})
    with pytest.raises(Exception) as e:
        b.send("ib.shortcuts.edit", {"phrase": "pay the rent", "parameters": {"to": "bob"}}, timeout=5)
    assert "there is no user phrase" in str(e.value)
    with pytest.raises(Exception):
        b.send("ib.shortcuts.delete", {"phrase": "pay the rent"}, timeout=5)
    assert b.send("ib.shortcuts.list", {}).body["user"] == []
    said = a.send("ib.say", {"text": "pay the rent"})
    assert said.body["params"] == {"to": "landlord"}, said.body
    # bob saying admin's phrase does not run it.
    with pytest.raises(Exception):
        b.send("ib.say", {"text": "pay the rent"}, timeout=5)
    # Donations: the key decides whose they are.
    b.send("ib.donate", {"intent": "PyIntent", "client": "admin", "parameters": {"planted": True}})
    a.send("ib.donate", {"intent": "PyIntent", "parameters": {"pin": "1234"}})
    theirs = a.send("ib.donations.list", {}).body["donations"]
    assert [d["client"] for d in theirs] == ["admin"] and theirs[0]["parameters"] == {"pin": "1234"}, theirs
    mine = b.send("ib.donations.list", {}).body["donations"]
    assert [d["client"] for d in mine] == ["bob"] and mine[0]["parameters"] == {"planted": True}, mine
    suggested = b.send("ib.suggestions", {}).body["suggestions"]
    assert all(s["parameters"] != {"pin": "1234"} for s in suggested), suggested
    assert b.send("ib.donations.delete", {"all": True}).body["removed"] == 1
    assert len(a.send("ib.donations.list", {}).body["donations"]) == 1


def test_rate_is_counted_per_client_not_per_connection(curve_host):
    alice = keypair()
    host = curve_host([{"name": "alice", "public": alice[0], "extra": {"rate": "{per_second: 1, burst: 2}"}}],
                      [py_plugin("py")])
    time.sleep(2.5)  # the bucket is full again after any start-up probing
    ctx = zmq.Context()
    answered = []
    try:
        for i in range(8):
            s = dealer(ctx, host.frontend, alice, host.server_key, b"rate-%d" % i)
            reply = ask(s, "ib.ping", f"r{i}")
            answered.append(reply.kind if reply else None)
            s.close(linger=0)
    finally:
        ctx.destroy(linger=0)
    ok = answered.count(Kind.REPLY)
    assert ok <= 4, f"{ok} of 8 fresh connections within a second or so got through a 1/s, burst 2 grant: {answered}"
    assert Kind.ERROR in answered


def test_newlines_and_escapes_from_outside_forge_no_log_line(curve_host):
    """An intent name and a request id with a newline, an ANSI escape and a NUL, from a
    client refused the intent: the host's text log keeps them on the one line, escaped."""
    bob = keypair()
    host = curve_host([{"name": "bob", "public": bob[0], "extra": {"intents": "[PyIntent]"}}], [py_plugin("py")])
    ctx = zmq.Context()
    try:
        s = dealer(ctx, host.frontend, bob, host.server_key, b"forger")
        forged = "Evil\n00:00:00.000 error [host] FORGED line\x1b[2J\x00"
        s.send_multipart([b"IB1", b"REQUEST", b"id\r\n00:00:00.000 error [host] FORGED id", forged.encode(), b"", b"{}"])
        assert receive(s, 5) is not None, "the host answered nothing"
        s.close(linger=0)
    finally:
        ctx.destroy(linger=0)
    time.sleep(0.3)
    lines = host.log.splitlines()
    assert not [ln for ln in lines if ln.startswith("00:00:00.000")], lines
    assert "\x1b" not in host.log and "\x00" not in host.log
    assert any("Evil\\n00:00:00.000 error [host] FORGED line\\u{1b}[2J\\u{0}" in ln for ln in lines), lines


def test_administrative_host_intents_need_an_explicit_right(curve_host):
    """A grant without `intents` (everything) does not reach ib.plugins.disable, ib.reload
    or ib.logs; one that names them does."""
    plain, operator = keypair(), keypair()
    host = curve_host([{"name": "plain", "public": plain[0]},
                       {"name": "operator", "public": operator[0],
                        "extra": {"intents": "[PyIntent, \"ib.plugins.*\", ib.logs]"}}],
                      [py_plugin("py")])
    p, o = host.client(plain[1]), host.client(operator[1])
    wait_reply(p, "PyIntent")
    for intent, body in (("ib.plugins.disable", {"plugin": "py"}), ("ib.reload", {}), ("ib.logs", {"plugin": "py"})):
        with pytest.raises(Exception) as e:
            p.send(intent, body, timeout=5)
        assert f"client plain may not call {intent}" in str(e.value), (intent, e.value)
    assert o.send("ib.logs", {"plugin": "py"}).status == "success"
    o.send("ib.plugins.disable", {"plugin": "py"})
